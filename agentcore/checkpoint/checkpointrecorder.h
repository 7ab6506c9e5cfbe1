#pragma once

#include "checkpoint.h"

#include <QList>
#include <QString>

#include <functional>
#include <memory>

class QThreadPool;

namespace AgentCore {

class CheckpointStore;

/// When checkpoints are taken during a session, off the loop's thread: a snapshot starts on a
/// worker thread at every user message, and at the start of a turn when the agent changed
/// something since the last one; the turn waits for it only before its first side effect
/// (beforeEffect). A snapshot that fails is reported (Events::failed) and the effect goes on:
/// the net is never lost silently, and never blocks a tool. Thread-safe: the loop calls
/// turnStarted on its thread, the effect hooks come from tool threads.
///
/// CheckpointRewind::userChanges relies on the reasons: what changed up to a BeforeTool
/// checkpoint is the agent's (one is taken only after the agent's effects), what changed up to
/// a UserMessage one the user's; keep them so.
///
/// Wired by the composition root (CodingAgent): turnStarted from the loop's beforeRequest,
/// beforeEffect / afterEffect from its EffectBoundary (Bash only when the command is not
/// read-only).
class CheckpointRecorder final
{
public:
    struct Events
    {
        /// A checkpoint was recorded (on the worker thread or a tool thread).
        std::function<void(const Checkpoint &checkpoint)> recorded;
        /// A checkpoint could not be recorded: a message for people that says the tool runs
        /// without one (on the worker thread or a tool thread).
        std::function<void(const QString &message)> failed;
        /// The store had to be repaired on the way (a stale lock of a killed AgentDesk's git
        /// removed, CheckpointOutcome::repaired): a message for people, said before
        /// `recorded` or `failed` (on the worker thread or a tool thread).
        std::function<void(const QString &message)> repaired;
    };

    CheckpointRecorder(std::shared_ptr<CheckpointStore> store, Events events);
    /// Waits for a snapshot still running.
    ~CheckpointRecorder();
    CheckpointRecorder(const CheckpointRecorder &) = delete;
    CheckpointRecorder &operator=(const CheckpointRecorder &) = delete;

    std::shared_ptr<CheckpointStore> store() const { return m_store; }

    /// The session the checkpoints belong to (its file's id). Set it before the first turn;
    /// empty: "unsaved".
    void setSessionId(const QString &sessionId);
    QString sessionId() const;
    /// The events can be set after construction (the window wires them once it has the
    /// session), before the first turn.
    void setEvents(Events events);

    /// A model request is about to be made for the turn whose assistant message will have
    /// index \a messageIndex. \a userMessage: the message before it is the user's (a new
    /// prompt, steering or a follow-up): a snapshot always starts then; otherwise only when a
    /// side effect happened since the last one. \a lastTime and \a beforeLastTime: the
    /// timestamps of the conversation's last two messages (0: none), what ties a checkpoint to
    /// its branch (Checkpoint::afterMessageTime). Returns at once.
    void turnStarted(int messageIndex,
                     bool userMessage,
                     qint64 lastTime = 0,
                     qint64 beforeLastTime = 0);
    /// A side-effecting tool is about to run: waits for the snapshot of this turn (starting
    /// one if none covers the tree since the last effect). Returns early once \a aborted says
    /// so (polled). Never throws; a failure goes to Events::failed.
    void beforeEffect(const QString &toolName, const std::function<bool()> &aborted = {});
    /// A side effect ended: the next turn takes a new snapshot.
    void afterEffect();

    /// Waits for a snapshot still running (tests, the end of a headless run).
    void waitForIdle();

    /// The checkpoints recorded in this session, oldest first, including those given to
    /// setCheckpoints (a resumed session's, from its state).
    QList<Checkpoint> checkpoints() const;
    void setCheckpoints(const QList<Checkpoint> &checkpoints);
    /// Adds one recorded elsewhere (a restore's undo checkpoint).
    void addCheckpoint(const Checkpoint &checkpoint);

private:
    struct State;
    std::shared_ptr<CheckpointStore> m_store;
    std::shared_ptr<State> m_state;
    // The snapshots' queue: one thread, so one snapshot at a time, in the order they began.
    std::unique_ptr<QThreadPool> m_snapshots;
};

} // namespace AgentCore
