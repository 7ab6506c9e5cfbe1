#pragma once

#include "rewinddialog.h"
#include "rewindfiles.h"

#include <coding/codingsession.h>
#include <context/rewind.h>

#include <QFuture>
#include <QObject>
#include <QPointer>

#include <memory>

QT_BEGIN_NAMESPACE
class QWidget;
QT_END_NAMESPACE

namespace Ui {

class AgentSession;

/// "Rewind to here" and "Undo rewind" for one window: asks the session whether it may rewind
/// (refused, with the reason, while a task runs), shows the RewindDialog with the files'
/// diff, and on confirmation restores the files on a worker thread (the store records a
/// checkpoint first; the session holds what is sent meanwhile) and appends the rewind to the
/// conversation. UI thread.
class RewindController final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RewindController)
public:
    /// \a dialogParent: the dialogs' parent (the window).
    explicit RewindController(QWidget *dialogParent, QObject *parent = nullptr);
    ~RewindController() override;

    /// Not owned; null detaches.
    void setSession(AgentSession *session);
    /// The files side instead of the session's checkpoints (AgentSession::checkpoints()); null:
    /// the session's, or, without them, only the conversation can be rewound (the dialog says
    /// why).
    void setFiles(std::shared_ptr<RewindFiles> files);
    std::shared_ptr<RewindFiles> files() const { return m_files; }

    /// Opens the dialog for a rewind to right before raw message \a messageIndex (not modal
    /// for the caller: it returns at once). What the rewind changes in the files is worked
    /// out on a worker thread meanwhile (the dialog says it is computing). false, and
    /// refused() with the reason, when the session cannot rewind now.
    bool requestRewind(qsizetype messageIndex);
    /// Undoes the rewind whose message has raw index \a rewindIndex: restores the files it
    /// replaced (on a worker thread: rewound() follows) and brings back the conversation as it
    /// was right before it. false, and refused(), when it cannot now.
    bool undoRewind(qsizetype rewindIndex);
    /// "Revert this file": brings \a path (relative to the repository, '/'-separated) back to
    /// how the files were right before raw message \a messageIndex (the agent's first change
    /// to it), every other file kept as it is now: a rewind of the files only, recorded in the
    /// conversation (the model is told) and undoable like any. Works out the checkpoint and
    /// restores on a worker thread; rewound() or refused() follows. false, and refused(), when
    /// the session cannot rewind now.
    bool revertFile(const QString &path, qsizetype messageIndex);
    /// "and restore files" of a new branch (BranchController): the files as they were right
    /// before raw message \a messageIndex of the conversation as it is now (the new branch's
    /// end), except those the user changed since (kept, as the rewind dialog keeps them
    /// unless told otherwise): a rewind of the files only, recorded on the new branch so the
    /// model is told. On a worker thread; what is sent meanwhile waits. rewound() or refused()
    /// follows; false, and refused(), when it cannot now.
    bool restoreFilesForBranch(qsizetype messageIndex);
    /// The dialog while it is open.
    RewindDialog *dialog() const { return m_dialog; }
    /// The latest preview worked out for a dialog (finished once it has been computed, even
    /// when its dialog was closed meanwhile): tests wait for it.
    QFuture<RewindFilesPreview> preview() const { return m_preview; }

signals:
    /// A rewind or its undo cannot be done; \a reason is for people.
    void refused(const QString &reason);
    /// A rewind was applied. \a userText: the text of the user message it went back before
    /// (empty for a turn): the composer offers it again.
    void rewound(const AgentCore::Rewind &rewind, const QString &userText);
    /// The files of a confirmed rewind are being restored; rewound() or refused() follows.
    void restoringFiles();

private:
    void startPreview(const std::shared_ptr<RewindFiles> &files, qsizetype messageIndex);
    void confirm(qsizetype messageIndex);
    bool apply(AgentCore::Rewind rewind,
               const QString &checkpoint,
               const QSet<QString> &keep,
               const QString &userText);
    QString describe(qsizetype messageIndex) const;
    std::shared_ptr<RewindFiles> filesSide() const;
    /// Hands \a rewind to the session with \a restore for its files; rewound() (with
    /// \a userText) or refused() tell how it went, restoringFiles() that it waits for them.
    void startRewindWithFiles(const AgentCore::Rewind &rewind,
                              AgentCore::CodingSession::RestoreFiles restore,
                              const QString &userText);

    QWidget *m_dialogParent;
    QPointer<AgentSession> m_session;
    std::shared_ptr<RewindFiles> m_files;
    QPointer<RewindDialog> m_dialog;
    QFuture<RewindFilesPreview> m_preview;
};

} // namespace Ui
