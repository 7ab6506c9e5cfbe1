#pragma once

#include "sessionlog.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace AgentCore {

/// One session of a repository, as the sessions list shows it.
struct SessionInfo
{
    QString path;
    QString title; ///< the name the user gave it, else the first line of its first task
    QDateTime created;
    QDateTime modified; ///< the file's last write: the list's order
    int messageCount = 0;
    /// Non-empty: the file cannot be read (why, and that it was left as it is). Such a
    /// session is listed, so the user sees it, but cannot be resumed.
    QString error;
    /// Its last run never ended and no window or process has it open: AgentDesk ended in the
    /// middle of it (a crash, kill -9, the machine went down). Opening it closes the run
    /// (SessionRecorder::interruption).
    bool interrupted = false;
    friend bool operator==(const SessionInfo &, const SessionInfo &) = default;
};

/// The sessions of one repository: a folder of SessionLog files (one per conversation) in the
/// user's data folder, outside the repository so nothing is ever committed by mistake.
/// Reads and writes files only when asked; not thread-safe (one owner).
class SessionStore final
{
public:
    explicit SessionStore(QString directory);

    /// `<data>/sessions/<folder name>-<hash of the root>`: stable for a repository, distinct
    /// for two checkouts with the same name.
    static QString defaultDirectory(const QString &repositoryRoot);
    QString directory() const { return m_directory; }

    /// Newest first (last written). Cheap per session: only the first task and the state
    /// records are parsed.
    QList<SessionInfo> list() const;
    static SessionInfo describe(const QString &path);
    /// The newest of \a sessions (newest first, as list() orders them) that was interrupted
    /// (SessionInfo::interrupted), other than those in \a except: the session a restart points
    /// at, in the window and headless alike. nullopt when there is none.
    static std::optional<SessionInfo> newestInterrupted(const QList<SessionInfo> &sessions,
                                                        const QStringList &except = {});

    /// A fresh file name in the folder (not created: SessionLog::open creates it).
    QString newSessionPath() const;
    /// A session's id: its file name without ".jsonl" ("20250314-101500-123-a1b2"), unique
    /// among a repository's sessions; what `agentdesk --print --resume` takes.
    static QString idOf(const QString &path);
    /// The file of the session \a id in this folder (whether or not it exists).
    QString pathOf(const QString &id) const;
    /// The files of a session \a id in the other repositories' folders next to this one: what
    /// an id that is not this repository's names.
    QStringList findInOtherRepositories(const QString &id) const;
    /// The repository a session file was recorded for (its header's); empty when unreadable.
    static QString repositoryOf(const QString &path);
    /// The header of a new session of \a repositoryRoot.
    static QJsonObject newHeader(const QString &repositoryRoot);

    /// Names a session that is not open elsewhere: appends a state record with the title,
    /// keeping the rest of its state. false and \a error when the file cannot be written.
    static bool rename(const QString &path, const QString &title, QString *error);
    /// Refused (false, \a error says by whom) while another window or process has it open.
    static bool remove(const QString &path, QString *error);
    /// Copies the session \a path into a new session of the same folder: a header of its own
    /// (naming the original in "forkedFrom"), the messages, the answer still being streamed,
    /// and the state with a title marked as a copy, without the queues and the draft (they
    /// stay with the original's window, which will run them) and its run's flag (the copy of a
    /// running session is not an interrupted one). For a window that cannot write the
    /// original because another one has it open. The new path, or empty and \a error.
    static QString fork(const QString &path, QString *error);
    /// `--fork SESSION[:MESSAGE]`: cuts \a contents (a session as loaded) to its active branch
    /// up to \a message, the branch's N-th message counted from 1 or a message id of the file
    /// (SessionTree; empty: the branch's last message): messages, activeLeaf and, when cut
    /// short, the answer still being streamed. false and \a error when there is no such message.
    static bool cutAtMessage(SessionLog::Contents &contents, const QString &message, QString *error);
    /// A new session of the same folder (a header of its own naming the original in
    /// "forkedFrom") whose history is the active branch of \a path up to \a message
    /// (cutAtMessage), with the original's state less its queues and a title marked as a fork.
    /// The original is left as it is (it may be open elsewhere). The new path, or empty and
    /// \a error.
    static QString forkAtMessage(const QString &path, const QString &message, QString *error);

    /// The title of a session without a name: the first line of \a firstTask, shortened.
    static QString titleFromTask(const QString &firstTask);

private:
    QString m_directory;
};

} // namespace AgentCore
