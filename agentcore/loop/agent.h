#pragma once

#include "agentloop.h"

#include <QObject>

#include <functional>
#include <memory>
#include <vector>

QT_BEGIN_NAMESPACE
class QThread;
QT_END_NAMESPACE

namespace AgentCore {

class AgentWorker;
struct AgentChannel;

/// What an Agent is made of. The model client and tools are used only on the worker thread.
struct AgentConfig
{
    AgentLoopConfig loop; ///< getSteeringMessages/getFollowUpMessages are set by the Agent
    QString systemPrompt;
    QList<AgentToolPtr> tools;
    /// Tools that come and go while the agent lives (MCP servers that become ready after the
    /// agent was made): called on the worker thread at the start of each run with the run's
    /// abort token; what it returns is offered after \a tools for that run. It may wait a
    /// little (servers still starting) but returns promptly once the token fires. Unset: none.
    std::function<QList<AgentToolPtr>(const AbortToken &abort)> runTools;
    QList<Message> history; ///< the conversation so far
    /// Called on the Agent's thread as each run ends (before its agent_end is emitted), with
    /// the conversation: returns it with the messages kept elsewhere made small (the stubs of
    /// results on disk, SessionPages::pagedOut), so that a long session holds a bounded part
    /// of its outputs. The events keep the whole messages. Unset: kept as they are.
    std::function<QList<Message>(const QList<Message> &conversation)> pageOut;
    /// false: every event wakes the Agent's thread on its own instead of going with the events
    /// that arrive before it runs (AgentChannel in agent.cpp). Much slower; there for
    /// bench_loop's variants.
    bool batchEvents = true;
};

/// Runs one conversation's agent loop on a worker thread it owns.
/// Lives on the UI thread; every event arrives as one queued signal. Never blocks the UI
/// thread (except waitForIdle, for tests). Never throws.
///
/// The worker thread runs agentLoop and owns what it creates (network access, processes); the
/// model client and tools of the config are released on it when the Agent is destroyed.
/// steer(), followUp(), clearQueues(), abort() and the queue getters are also safe to call
/// from other threads; everything else belongs to the Agent's thread.
class Agent final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Agent)
public:
    enum class PromptResult { Started, Busy };

    explicit Agent(AgentConfig config, QObject *parent = nullptr);
    ~Agent() override; ///< aborts a run and joins the worker; no signal is emitted after

    /// Starts a run with \a text. Refused with Busy while a run is going on.
    PromptResult prompt(const QString &text);
    /// Starts a run with \a prompts (user or custom messages). Busy while a run is going on.
    PromptResult prompt(const QList<Message> &prompts);
    /// Goes in before the next model call of the run going on; what the run does not take
    /// becomes leftover steering when it ends. While idle, the next run takes it first.
    void steer(const QString &text);
    void followUp(const QString &text); ///< runs when the current task ends
    void steer(const Message &message);
    /// Follow-ups run one at a time, each as a task of its own: the next one is taken when the
    /// previous one ended naturally. A steering message that arrived after the last turn of a
    /// task is taken before them. Queued messages wait for the next run while idle.
    void followUp(const Message &message);
    /// Aborts the current run, if any (its AbortToken). agent_end follows promptly, even when a
    /// tool ignores the token. The follow-up queue is kept; steering the run did not take
    /// becomes leftover steering (see leftoverSteering()).
    void abort();
    /// Empties the steering and follow-up queues and the leftover steering.
    void clearQueues();

    QList<Message> steeringQueue() const;
    QList<Message> followUpQueue() const;

    /// Steering messages a run did not take before it ended (it was stopped, failed, or ended
    /// as they arrived): moved out of the steering queue when agent_end is delivered, before
    /// the event is emitted. They were meant for the run that ended, so the next run never
    /// takes them by itself: they are sent only when the user chooses (sendLeftover()) and
    /// wait until then, or until discardLeftover(). Safe from any thread.
    QList<Message> leftoverSteering() const;
    /// Takes leftover \a index and sends it now: as the prompt of a new run while idle, as
    /// steering while a run is going on. false (nothing changes) when the index is out of
    /// range. Agent's thread only.
    bool sendLeftover(int index);
    /// Drops leftover \a index; false when the index is out of range. Safe from any thread.
    bool discardLeftover(int index);
    /// Replaces the leftover steering (a resumed session's steering that was never sent).
    /// Safe from any thread.
    void setLeftoverSteering(const QList<Message> &messages);

    /// Replaces the follow-up queue (the user edited, deleted or reordered it). Safe from any
    /// thread. A blind replace: a caller working on an older copy must leave out what the loop
    /// took since (what followUpQueue() no longer holds), or it runs twice.
    void setFollowUpQueue(const QList<Message> &queue);
    /// Paused, the loop takes no follow-up: the current task ends and the queue waits.
    /// Steering messages are still taken (they were sent, not queued). Resuming while idle
    /// starts the next follow-up as a new run, the way the loop would have taken it; resuming mid-run lets the loop take follow-ups
    /// when the task ends, unless it already ended while paused (then they wait for the next
    /// run). Agent's thread only.
    void setFollowUpsPaused(bool paused);
    bool followUpsPaused() const; ///< safe from any thread
    /// Takes follow-up \a followUpIndex out of the queue and sends it at once: as steering while
    /// a run is going on, as the prompt of a new run while idle. false (nothing changes) when
    /// the index is out of range. Like steer(): when the run is ending at that very moment,
    /// the message becomes leftover steering. Agent's thread only.
    bool sendNow(int followUpIndex);

    /// The conversation: history plus every finished run's new messages.
    QList<Message> messages() const;
    /// Replaces the conversation (a loaded session, a compaction). Refused (false) while a run
    /// is going on.
    bool setMessages(const QList<Message> &messages);
    bool isIdle() const;
    /// Tests: waits (spinning the event loop) until idle; false on timeout.
    bool waitForIdle(int timeoutMs = 30'000);

    /// How many events the worker has handed over so far: callable from any thread, also
    /// after the Agent is gone (then 0: no event is coming). What another thread reports
    /// remembers it, so that it is told after the events emitted before it (CodingSession).
    std::function<quint64()> postedEventCount() const;
    /// How many events were delivered: emitted, their handlers returned. The Agent's thread.
    quint64 deliveredEventCount() const { return m_delivered; }

signals:
    /// Every event of a run, in order. messages() already holds a run's new messages when its
    /// agent_end is emitted.
    void eventEmitted(const AgentCore::AgentEvent &event);
    /// false when prompt() starts a run; true after agent_end was emitted (not when a handler
    /// of agent_end already started the next run).
    void idleChanged(bool idle);
    /// The steering or follow-up queue or the leftover steering changed (queued, taken by the
    /// loop, left over, cleared), or the follow-ups were paused or resumed.
    void queuesChanged();

private:
    friend class AgentWorker;
    friend struct AgentChannel;

    void deliverEvents(); // runs the events the worker queued since the last call
    void dispatch(const AgentEvent &event);

    std::shared_ptr<AgentChannel> m_channel;
    std::unique_ptr<QThread> m_thread;
    AgentWorker *m_worker; // lives on m_thread, deleted there as it finishes
    QList<Message> m_messages;
    std::function<QList<Message>(const QList<Message> &)> m_pageOut;
    // Events taken from the channel, delivered from m_next. Boxed: an event never moves or is
    // copied between the loop and the handlers.
    std::vector<std::unique_ptr<AgentEvent>> m_inbox;
    std::size_t m_next = 0;
    quint64 m_delivered = 0;
    bool m_idle = true;
};

} // namespace AgentCore
