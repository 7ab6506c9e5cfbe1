#include "checkpointrecorder.h"
#include "translation.h"

#include "checkpointstore.h"

#include <QCoreApplication>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <utility>

namespace AgentCore {

struct CheckpointRecorder::State
{
    std::mutex mutex;
    std::condition_variable idle;
    QString sessionId;
    Events events;
    QList<Checkpoint> checkpoints;
    bool dirty = true;        ///< a side effect since the last snapshot began (or none yet)
    bool turnCovered = false; ///< the open turn's first effect has its snapshot (begun)
    int turnIndex = -1;
    qint64 turnAfterTime = 0; ///< the timestamp of the message before turnIndex
    int pending = 0;          ///< snapshots begun and not finished

    // Runs one snapshot on the calling thread and tells about it.
    void record(const std::shared_ptr<CheckpointStore> &store, const Checkpoint &request)
    {
        const CheckpointOutcome outcome = store->create(request);
        Events told;
        {
            std::lock_guard lock(mutex);
            told = events;
            if (outcome.ok())
                checkpoints.append(*outcome.checkpoint);
        }
        if (!outcome.repaired.isEmpty() && told.repaired)
            told.repaired(outcome.repaired);
        if (outcome.ok()) {
            if (told.recorded)
                told.recorded(*outcome.checkpoint);
        } else if (told.failed) {
            told.failed(
                CheckpointTr::tr("No checkpoint could be recorded %1, so it cannot be rewound: %2")
                    .arg(request.reasonText(), outcome.error));
        }
    }
};

CheckpointRecorder::CheckpointRecorder(std::shared_ptr<CheckpointStore> store, Events events)
    : m_store(std::move(store))
    , m_state(std::make_shared<State>())
    , m_snapshots(std::make_unique<QThreadPool>())
{
    m_state->events = std::move(events);
    m_snapshots->setMaxThreadCount(1);
}

CheckpointRecorder::~CheckpointRecorder()
{
    waitForIdle();
    m_snapshots->waitForDone();
}

void CheckpointRecorder::setSessionId(const QString &sessionId)
{
    std::lock_guard lock(m_state->mutex);
    m_state->sessionId = sessionId;
}

QString CheckpointRecorder::sessionId() const
{
    std::lock_guard lock(m_state->mutex);
    return m_state->sessionId;
}

void CheckpointRecorder::setEvents(Events events)
{
    std::lock_guard lock(m_state->mutex);
    m_state->events = std::move(events);
}

void CheckpointRecorder::turnStarted(int messageIndex,
                                     bool userMessage,
                                     qint64 lastTime,
                                     qint64 beforeLastTime)
{
    std::lock_guard lock(m_state->mutex);
    m_state->turnIndex = messageIndex;
    m_state->turnAfterTime = lastTime;
    m_state->turnCovered = true;
    if (!userMessage && !m_state->dirty)
        return; // the last checkpoint is still the tree as the agent left it
    m_state->dirty = false;
    Checkpoint request;
    request.sessionId = m_state->sessionId;
    // The user message precedes the turn's answer: "rewind to the message" restores this.
    request.messageIndex = userMessage ? messageIndex - 1 : messageIndex;
    request.afterMessageTime = userMessage ? beforeLastTime : lastTime;
    request.reason = userMessage ? Checkpoint::Reason::UserMessage : Checkpoint::Reason::BeforeTool;
    ++m_state->pending;
    // Nobody keeps the future: beforeEffect and waitForIdle wait on `pending`.
    const QFuture<void> snapshot = QtConcurrent::run(m_snapshots.get(),
                                                     [state = m_state, store = m_store, request] {
                                                         state->record(store, request);
                                                         std::lock_guard lock(state->mutex);
                                                         --state->pending;
                                                         state->idle.notify_all();
                                                     });
}

void CheckpointRecorder::beforeEffect(const QString &toolName, const std::function<bool()> &aborted)
{
    std::unique_lock lock(m_state->mutex);
    if (!m_state->turnCovered) {
        // No turn start was seen (or the turn's snapshot was not needed then): record now.
        m_state->turnCovered = true;
        m_state->dirty = false;
        Checkpoint request;
        request.sessionId = m_state->sessionId;
        request.messageIndex = m_state->turnIndex;
        request.afterMessageTime = m_state->turnAfterTime;
        request.reason = Checkpoint::Reason::BeforeTool;
        request.toolName = toolName;
        m_state->idle.wait(lock, [this] { return m_state->pending == 0; });
        ++m_state->pending;
        lock.unlock();
        m_state->record(m_store, request);
        lock.lock();
        --m_state->pending;
        m_state->idle.notify_all();
        return;
    }
    while (m_state->pending > 0) {
        if (aborted && aborted())
            return;
        m_state->idle.wait_for(lock, std::chrono::milliseconds(50));
    }
}

void CheckpointRecorder::afterEffect()
{
    std::lock_guard lock(m_state->mutex);
    m_state->dirty = true;
}

void CheckpointRecorder::waitForIdle()
{
    std::unique_lock lock(m_state->mutex);
    m_state->idle.wait(lock, [this] { return m_state->pending == 0; });
}

QList<Checkpoint> CheckpointRecorder::checkpoints() const
{
    std::lock_guard lock(m_state->mutex);
    return m_state->checkpoints;
}

void CheckpointRecorder::setCheckpoints(const QList<Checkpoint> &checkpoints)
{
    std::lock_guard lock(m_state->mutex);
    m_state->checkpoints = checkpoints;
}

void CheckpointRecorder::addCheckpoint(const Checkpoint &checkpoint)
{
    std::lock_guard lock(m_state->mutex);
    m_state->checkpoints.append(checkpoint);
}

} // namespace AgentCore
