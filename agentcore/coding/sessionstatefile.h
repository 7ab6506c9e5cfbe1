#pragma once

#include <checkpoint/checkpointrecorder.h>
#include <permissions/permissionpolicy.h>
#include <session/sessionrecorder.h>
#include <session/sessionresumption.h>

#include <QJsonArray>
#include <QJsonObject>
#include <QStringList>

#include <memory>
#include <optional>

namespace AgentCore {

class Agent;

/// A coding agent's session file: how a conversation is recorded and how one is gone on with,
/// so that a session is written and continued the same way wherever it runs (CodingSession uses
/// these), and the window lists headless runs as its own.
struct SessionStateFile
{
    /// Applies the state of a resumed session to a freshly assembled agent: the follow-up queue
    /// and the steering left over (SessionRecorder::restore), the permission mode and the deny
    /// and ask rules of this session (restorePermissionSessionState). Returns the session's
    /// allow rules, which it does not apply: the file may have been written by anyone, so the
    /// caller grants them (grantSessionRules) only once the user confirms them in this process.
    /// A rule that no longer parses is skipped with a message in \a warnings.
    static QList<PermissionRule> restore(const QJsonObject &state,
                                         Agent &agent,
                                         PermissionPolicy &policy,
                                         QStringList *warnings);
    /// The same for the checkpoints the session recorded (its "checkpoints" key): \a recorder
    /// knows them again, so the rewind offers them in the resumed session.
    static void restoreCheckpoints(const QJsonObject &state, CheckpointRecorder &recorder);

    /// The session state's "checkpoints" key: each checkpoint's id, message index, reason,
    /// tool and time (the store has the rest), oldest first.
    static QJsonArray checkpointState(const QList<Checkpoint> &checkpoints);
    /// \a state (a session's) with \a checkpoint added at the end of its "checkpoints" key: a
    /// checkpoint recorded while the session is not open (agentdesk --rewind's undo).
    static QJsonObject withCheckpoint(QJsonObject state, const Checkpoint &checkpoint);

    /// Deletes the session \a path (SessionStore::remove: refused while it is open elsewhere),
    /// then the git worktree its state names (SessionWorktree, key "worktree"), with what is
    /// not committed in it; its branch is kept. false and \a error when the session file was
    /// not deleted (then nothing was). true when it was; \a warning then says why the
    /// worktree could not be removed, if it could not.
    static bool remove(const QString &path, QString *error, QString *warning = nullptr);

    /// Records \a agent's conversation in \a path, its state including \a policy's permission
    /// state. \a resumption: the session taken over, written from now on (its repair first);
    /// nullopt: the file is opened (created with \a header) at the first message. \a state: the
    /// session's state when it was resumed (its model, title, draft are kept), else empty.
    /// \a checkpoints: its checkpoints go into the state (call the recorder's
    /// refreshState() when one was recorded). \a unconfirmed: the resumed file's allow rules
    /// that the user has not answered yet (restore()), written back as they were; the caller
    /// empties it once they are granted or dropped. \a pages: where the tool results written
    /// are indexed (SessionRecorder::setPages); null: nowhere.
    static SessionRecorder *record(Agent *agent,
                                   std::shared_ptr<PermissionPolicy> policy,
                                   const QString &path,
                                   const QJsonObject &header,
                                   const QJsonObject &state,
                                   std::optional<SessionResumption> resumption,
                                   QObject *parent = nullptr,
                                   std::shared_ptr<CheckpointRecorder> checkpoints = {},
                                   std::shared_ptr<const QList<PermissionRule>> unconfirmed = {},
                                   std::shared_ptr<SessionPages> pages = {});
};

} // namespace AgentCore
