#pragma once

#include <QByteArray>
#include <QList>
#include <QSet>
#include <QString>
#include <QStringList>

namespace Ui {

/// One file a rewind of the files would change: what it is now and what it becomes.
struct RewindFile
{
    enum class Kind {
        Added,    ///< created since the checkpoint: the rewind deletes it
        Modified, ///< the rewind writes the old bytes (and mode) back
        Deleted,  ///< deleted since: the rewind writes it back
    };
    QString path; ///< relative to the repository, '/' separated
    Kind kind = Kind::Modified;
    QByteArray current;  ///< the bytes now (empty when absent)
    QByteArray restored; ///< the bytes after the rewind (empty when the rewind deletes it)
    /// Changed by the user since the checkpoint (edited by hand, created; also when the agent
    /// changed it again later):
    /// AgentCore::CheckpointRewind::userChanges. The dialog keeps it unless told to overwrite.
    bool yours = false;
};

/// What rewinding the files to one point would do.
struct RewindFilesPreview
{
    /// Non-empty: files cannot be rewound to that point, and this says why (no checkpoint was
    /// recorded there, the store cannot be read); the dialog offers the conversation only.
    QString unavailable;
    QString checkpoint; ///< the checkpoint the files are restored from
    QList<RewindFile> files;
    QStringList notCovered; ///< files the checkpoint does not hold: left as they are
};

/// What a restore did.
struct RewindFilesOutcome
{
    QString undoCheckpoint; ///< the state just before: restoring it undoes the rewind
    QStringList restored;   ///< written back or deleted
    QStringList kept;       ///< left as they are at the user's request
    QString error;          ///< non-empty: not everything was restored, for people
};

/// The files side of a rewind, over the checkpoint store (h-checkpoint's CheckpointStore in
/// the app; a fake in tests). Blocking: it runs git. RewindController calls both on worker
/// threads (a huge change takes seconds to diff or to write back), never both at once for one
/// dialog; the worker holds a reference to the object until its call returns, even when the
/// dialog was closed meanwhile.
class RewindFiles
{
public:
    virtual ~RewindFiles() = default;
    /// What restoring the files as they were right before raw message \a messageIndex would
    /// change now.
    virtual RewindFilesPreview preview(qsizetype messageIndex) = 0;
    /// Restores \a checkpoint except the paths in \a keep; records the state before first.
    virtual RewindFilesOutcome restore(const QString &checkpoint, const QSet<QString> &keep) = 0;
};

} // namespace Ui
