#include "agent.h"

#include "internal/agentloopboxing.h"
#include "internal/toolrunner.h"

#include <QEventLoop>
#include <QMutex>
#include <QPointer>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <iterator>
#include <optional>
#include <utility>

namespace AgentCore {

namespace {

struct RunRequest
{
    QList<Message> prompts;
    QList<Message> history;
    AbortToken abort;
};

} // namespace

// What the Agent (UI thread) and its worker share. Shared ownership, so neither side can
// outlive it; the worker reaches the Agent only through `receiver`, under the mutex.
struct AgentChannel
{
    // One mutex for all of it: the queues, the events on their way and the end. It is held
    // for a few instructions at a time.
    QMutex mutex;
    bool stopping = false; // set by ~Agent: a run handed over but not begun never begins
    AbortToken currentAbort;
    QList<Message> steering;
    QList<Message> followUps;
    QList<Message> leftoverSteering; // never taken by the loop: sent only when the user says
    bool followUpsPaused = false;

    // Events from the worker, coalesced: an event that finds no delivery posted posts one, and
    // what arrives before the UI thread runs it goes with it. A busy worker so wakes the UI
    // thread about as often as that thread can take events, never once per event, and no
    // event waits for more than one hop.
    std::vector<std::unique_ptr<AgentEvent>> events;
    bool queuesTaken = false;
    bool deliveryPosted = false;
    quint64 posted = 0;        // events handed over, ever
    Agent *receiver = nullptr; // cleared by ~Agent before it joins the worker
    bool batchEvents = true;

    /// From the worker.
    void post(std::unique_ptr<AgentEvent> event)
    {
        QMutexLocker locker(&mutex);
        if (!receiver)
            return;
        events.push_back(std::move(event));
        ++posted;
        if (!deliveryPosted || !batchEvents)
            deliverLocked();
    }

    /// From any thread: the queues changed.
    void postQueuesChanged()
    {
        QMutexLocker locker(&mutex);
        queuesTaken = true;
        if (receiver && !deliveryPosted)
            deliverLocked();
    }

    void deliverLocked()
    {
        deliveryPosted = true;
        // The receiver is alive while we hold the mutex; an event still queued when it is
        // destroyed is dropped by ~QObject.
        QMetaObject::invokeMethod(receiver, &Agent::deliverEvents, Qt::QueuedConnection);
    }

    QList<Message> takeSteering()
    {
        QList<Message> taken;
        {
            QMutexLocker locker(&mutex);
            taken.swap(steering);
        }
        if (!taken.isEmpty())
            postQueuesChanged();
        return taken;
    }

    QList<Message> takeFollowUp()
    {
        QList<Message> taken;
        {
            QMutexLocker locker(&mutex);
            if (!steering.isEmpty()) {
                taken.swap(steering); // steered after the last turn: still before anything queued
                for (Message &message : taken)
                    message.origin = MessageOrigin::Steering;
            } else if (!followUps.isEmpty() && !followUpsPaused) {
                taken.append(followUps.takeFirst());
                // Also when an idle Agent starts it as a prompt (the queue was resumed).
                taken.last().origin = MessageOrigin::FollowUp;
            }
        }
        if (!taken.isEmpty())
            postQueuesChanged();
        return taken;
    }
};

namespace {
// Sends message \a index of \a queue (a queue of \a channel) now: while a run goes on it
// becomes steering in the same lock (no reader sees it in neither queue or both); an idle
// agent starts a run with it. False when there is no such message.
bool sendFromQueue(Agent &agent, AgentChannel &channel, QList<Message> &queue, int index)
{
    const bool idle = agent.isIdle();
    Message message;
    {
        QMutexLocker locker(&channel.mutex);
        if (index < 0 || index >= queue.size())
            return false;
        message = queue.takeAt(index);
        if (!idle)
            channel.steering.append(message);
    }
    channel.postQueuesChanged();
    if (idle)
        agent.prompt(QList<Message>{message});
    return true;
}
} // namespace

/// The worker: a QObject of the Agent's own thread, handed each run by a queued call
/// (Agent::prompt), which it runs with agentLoop to its end. Owns the loop config (model client,
/// tools), which it releases on its own thread as it is deleted there (the thread's finished()).
class AgentWorker final : public QObject
{
public:
    AgentWorker(AgentConfig config, std::shared_ptr<AgentChannel> channel)
        : m_loop(std::move(config.loop))
        , m_systemPrompt(std::move(config.systemPrompt))
        , m_tools(std::move(config.tools))
        , m_runTools(std::move(config.runTools))
        , m_channel(std::move(channel))
    {
        const std::weak_ptr<AgentChannel> weak = m_channel;
        m_loop.getSteeringMessages = [weak] {
            const auto channel = weak.lock();
            return channel ? channel->takeSteering() : QList<Message>();
        };
        m_loop.getFollowUpMessages = [weak] {
            const auto channel = weak.lock();
            return channel ? channel->takeFollowUp() : QList<Message>();
        };
    }

    ~AgentWorker() override
    {
        // On the worker's thread: the model client and tools may own objects living there.
        m_loop = {};
        m_tools.clear();
        m_runTools = {};
        m_ownRunner.reset();
    }

    void run(RunRequest &request)
    {
        {
            QMutexLocker locker(&m_channel->mutex);
            if (m_channel->stopping)
                return; // the Agent went before the run began
        }
        if (!m_loop.toolRunner) {
            m_ownRunner = std::make_unique<ToolRunner>(); // warm threads across runs
            m_loop.toolRunner = m_ownRunner.get();
        }
        AgentChannel &channel = *m_channel;
        bool ended = false;
        const AgentEventConsumer consume = [&channel, &ended](std::unique_ptr<AgentEvent> event) {
            ended = ended || event->type == AgentEvent::Type::AgentEnd;
            channel.post(std::move(event));
        };
        QList<AgentToolPtr> tools = m_tools;
        if (m_runTools)
            tools += m_runTools(request.abort);
        const AgentContext context{m_systemPrompt, std::move(request.history), tools};
        QList<Message> newMessages = agentLoopBoxingEvents(request.prompts,
                                                           context,
                                                           m_loop,
                                                           request.abort,
                                                           consume);
        if (!ended) {
            // The Agent's idle state hangs on agent_end: never leave it waiting.
            auto end = std::make_unique<AgentEvent>();
            end->type = AgentEvent::Type::AgentEnd;
            end->newMessages = std::move(newMessages);
            channel.post(std::move(end));
        }
    }

private:
    AgentLoopConfig m_loop;
    QString m_systemPrompt;
    QList<AgentToolPtr> m_tools;
    std::function<QList<AgentToolPtr>(const AbortToken &)> m_runTools;
    std::shared_ptr<AgentChannel> m_channel;
    std::unique_ptr<ToolRunner> m_ownRunner;
};

Agent::Agent(AgentConfig config, QObject *parent)
    : QObject(parent)
    , m_channel(std::make_shared<AgentChannel>())
    , m_messages(std::move(config.history))
    , m_pageOut(std::move(config.pageOut))
{
    qRegisterMetaType<AgentCore::AgentEvent>();
    m_channel->receiver = this;
    m_channel->batchEvents = config.batchEvents;
    // The documented shape of a loop's thread: a worker QObject moved to a QThread of its own,
    // deleted there when the thread finishes (so what it owns is released on that thread).
    m_thread = std::make_unique<QThread>();
    m_thread->setObjectName(QStringLiteral("AgentWorker"));
    m_worker = new AgentWorker(std::move(config), m_channel);
    m_worker->moveToThread(m_thread.get());
    connect(m_thread.get(), &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread->start();
}

Agent::~Agent()
{
    {
        QMutexLocker locker(&m_channel->mutex);
        m_channel->receiver = nullptr;
        m_channel->stopping = true;
        m_channel->currentAbort.abort();
    }
    // After the run going on (aborted) and any handed over (not begun): the thread ends.
    m_thread->quit();
    m_thread->wait();
}

Agent::PromptResult Agent::prompt(const QString &text)
{
    return prompt(QList<Message>{Message::makeUser(text)});
}

Agent::PromptResult Agent::prompt(const QList<Message> &prompts)
{
    if (!m_idle)
        return PromptResult::Busy;
    m_idle = false;
    {
        QMutexLocker locker(&m_channel->mutex);
        // A fresh token per run: an abort() of the previous run must not cancel this one.
        m_channel->currentAbort = AbortToken();
    }
    QMetaObject::invokeMethod(
        m_worker,
        [worker = m_worker,
         request = RunRequest{prompts, m_messages, m_channel->currentAbort}]() mutable {
            worker->run(request);
        },
        Qt::QueuedConnection);
    emit idleChanged(false);
    return PromptResult::Started;
}

void Agent::steer(const QString &text)
{
    steer(Message::makeUser(text));
}

void Agent::followUp(const QString &text)
{
    followUp(Message::makeUser(text));
}

void Agent::steer(const Message &message)
{
    {
        QMutexLocker locker(&m_channel->mutex);
        m_channel->steering.append(message);
    }
    m_channel->postQueuesChanged();
}

void Agent::followUp(const Message &message)
{
    {
        QMutexLocker locker(&m_channel->mutex);
        m_channel->followUps.append(message);
    }
    m_channel->postQueuesChanged();
}

void Agent::abort()
{
    AbortToken token;
    {
        QMutexLocker locker(&m_channel->mutex);
        token = m_channel->currentAbort;
    }
    token.abort();
}

void Agent::clearQueues()
{
    {
        QMutexLocker locker(&m_channel->mutex);
        m_channel->steering.clear();
        m_channel->followUps.clear();
        m_channel->leftoverSteering.clear();
    }
    m_channel->postQueuesChanged();
}

QList<Message> Agent::steeringQueue() const
{
    QMutexLocker locker(&m_channel->mutex);
    return m_channel->steering;
}

QList<Message> Agent::followUpQueue() const
{
    QMutexLocker locker(&m_channel->mutex);
    return m_channel->followUps;
}

QList<Message> Agent::leftoverSteering() const
{
    QMutexLocker locker(&m_channel->mutex);
    return m_channel->leftoverSteering;
}

bool Agent::sendLeftover(int index)
{
    return sendFromQueue(*this, *m_channel, m_channel->leftoverSteering, index);
}

bool Agent::discardLeftover(int index)
{
    {
        QMutexLocker locker(&m_channel->mutex);
        if (index < 0 || index >= m_channel->leftoverSteering.size())
            return false;
        m_channel->leftoverSteering.removeAt(index);
    }
    m_channel->postQueuesChanged();
    return true;
}

void Agent::setLeftoverSteering(const QList<Message> &messages)
{
    {
        QMutexLocker locker(&m_channel->mutex);
        m_channel->leftoverSteering = messages;
    }
    m_channel->postQueuesChanged();
}

void Agent::setFollowUpQueue(const QList<Message> &queue)
{
    {
        QMutexLocker locker(&m_channel->mutex);
        m_channel->followUps = queue;
    }
    m_channel->postQueuesChanged();
}

void Agent::setFollowUpsPaused(bool paused)
{
    {
        QMutexLocker locker(&m_channel->mutex);
        if (m_channel->followUpsPaused == paused)
            return;
        m_channel->followUpsPaused = paused;
    }
    emit queuesChanged(); // a session keeps the pause with its queue
    if (paused || !m_idle)
        return;
    // Idle, the loop cannot take what waited while paused: start it as the loop would have.
    const QList<Message> next = m_channel->takeFollowUp();
    if (!next.isEmpty())
        prompt(next);
}

bool Agent::followUpsPaused() const
{
    QMutexLocker locker(&m_channel->mutex);
    return m_channel->followUpsPaused;
}

bool Agent::sendNow(int followUpIndex)
{
    return sendFromQueue(*this, *m_channel, m_channel->followUps, followUpIndex);
}

QList<Message> Agent::messages() const
{
    return m_messages;
}

bool Agent::setMessages(const QList<Message> &messages)
{
    if (!m_idle)
        return false;
    m_messages = messages;
    return true;
}

bool Agent::isIdle() const
{
    return m_idle;
}

bool Agent::waitForIdle(int timeoutMs)
{
    if (m_idle)
        return true;
    QEventLoop loop;
    QTimer timer;
    timer.setSingleShot(true);
    connect(&timer, &QTimer::timeout, &loop, &QEventLoop::quit);
    connect(this, &Agent::idleChanged, &loop, [&loop](bool idle) {
        if (idle)
            loop.quit();
    });
    timer.start(timeoutMs);
    loop.exec();
    return m_idle;
}

void Agent::deliverEvents()
{
    bool queuesTaken = false;
    {
        QMutexLocker locker(&m_channel->mutex);
        m_channel->deliveryPosted = false;
        queuesTaken = std::exchange(m_channel->queuesTaken, false);
        if (m_inbox.empty()) {
            m_inbox.swap(m_channel->events); // hands the emptied vector back: no reallocation
        } else {
            std::move(m_channel->events.begin(),
                      m_channel->events.end(),
                      std::back_inserter(m_inbox));
            m_channel->events.clear();
        }
    }
    // A handler may delete the Agent, or spin an event loop that delivers the next batch
    // (waitForIdle): everything reads the shared m_inbox/m_next, so the order holds.
    const QPointer<Agent> guard(this);
    if (queuesTaken) {
        emit queuesChanged();
        if (!guard)
            return;
    }
    while (m_next < m_inbox.size()) {
        // Owned here: a handler may delete the Agent, and with it the inbox.
        std::unique_ptr<AgentEvent> event = std::move(m_inbox[m_next++]);
        dispatch(*event);
        if (!guard)
            return;
        ++m_delivered;
    }
    m_inbox.clear();
    m_next = 0;
}

std::function<quint64()> Agent::postedEventCount() const
{
    return [channel = std::weak_ptr<AgentChannel>(m_channel)]() -> quint64 {
        const std::shared_ptr<AgentChannel> alive = channel.lock();
        if (!alive)
            return 0; // no event is coming any more
        QMutexLocker locker(&alive->mutex);
        return alive->posted;
    };
}

void Agent::dispatch(const AgentEvent &event)
{
    if (event.type != AgentEvent::Type::AgentEnd) {
        emit eventEmitted(event);
        return;
    }
    // The run is over: steering it did not take was meant for it, not for whatever the user
    // sends next, which the next run's first pull would prepend it to. Moved before the event,
    // so its handlers (the session file, the window) already see it as left over.
    bool leftOver = false;
    {
        QMutexLocker locker(&m_channel->mutex);
        if (!m_channel->steering.isEmpty()) {
            m_channel->leftoverSteering.append(std::exchange(m_channel->steering, {}));
            leftOver = true;
        }
    }
    // Shared, not copied, when the conversation was empty.
    if (m_messages.isEmpty())
        m_messages = event.newMessages;
    else
        m_messages.append(event.newMessages);
    // The run's results are on disk by now (the session file took each message as it ended).
    if (m_pageOut)
        m_messages = m_pageOut(m_messages);
    m_idle = true;
    const QPointer<Agent> guard(this);
    if (leftOver) {
        emit queuesChanged();
        if (!guard)
            return;
    }
    emit eventEmitted(event);
    if (guard && m_idle)
        emit idleChanged(true);
}

} // namespace AgentCore

#include "moc_agent.cpp"
