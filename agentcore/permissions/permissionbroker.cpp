#include "permissionbroker.h"
#include "translation.h"

#include <QCoreApplication>
#include <QMap>
#include <QMetaObject>
#include <QThread>

#include <chrono>
#include <condition_variable>
#include <mutex>

namespace AgentCore {

namespace {

// How often a waiting tool thread looks at its abort token.
constexpr std::chrono::milliseconds abortPollInterval(10);
} // namespace

struct PermissionBroker::State
{
    struct Pending
    {
        PermissionRequest request;
        std::optional<PermissionAnswer> answer;
    };

    std::mutex mutex;
    std::condition_variable answered;
    QMap<quint64, Pending> pending; ///< ordered by id: the order of arrival
    quint64 nextId = 1;
    bool closed = false;
};

PermissionBroker::PermissionBroker(QObject *parent)
    : QObject(parent)
    , m_state(std::make_shared<State>())
{
    qRegisterMetaType<AgentCore::PermissionRequest>();
    qRegisterMetaType<AgentCore::PermissionAnswer>();
}

PermissionBroker::~PermissionBroker()
{
    const std::lock_guard lock(m_state->mutex);
    m_state->closed = true;
    for (State::Pending &pending : m_state->pending) {
        if (!pending.answer) {
            PermissionAnswer deny;
            deny.feedback = PermissionsTr::tr("The window closed before the user answered.");
            pending.answer = deny;
        }
    }
    m_state->answered.notify_all();
}

std::optional<PermissionAnswer> PermissionBroker::ask(const PermissionRequest &request,
                                                      const AbortToken &abort)
{
    Q_ASSERT_X(QThread::currentThread() != thread(),
               "PermissionBroker::ask",
               "called on the broker's own thread, which would wait for itself");
    // Keep the state alive on this thread even if the broker is destroyed while we wait.
    const std::shared_ptr<State> state = m_state;
    if (abort.isAborted())
        return std::nullopt;
    std::unique_lock lock(state->mutex);
    if (state->closed) {
        PermissionAnswer deny;
        deny.feedback = PermissionsTr::tr("The window closed before the user answered.");
        return deny;
    }
    const quint64 id = state->nextId++;
    PermissionRequest announced = request;
    announced.id = id;
    state->pending.insert(id, {announced, std::nullopt});
    // Posted while holding the lock: the destructor takes it first, so `this` is alive here,
    // and ~QObject discards the event if the broker goes before delivering it.
    QMetaObject::invokeMethod(
        this, [this, announced] { emit requested(announced); }, Qt::QueuedConnection);

    // Why a timed wait and not AbortToken::onAbort: onAbort's callback would be queued to a
    // QObject's thread, the UI thread here, and the UI thread may be the one blocked on us
    // (~Agent aborts, then joins the worker that is waiting here). Looking at the token every
    // 10 ms ends the wait promptly whatever the UI thread is doing, at a negligible cost.
    const auto isAnswered = [&state, id] {
        const auto it = state->pending.constFind(id);
        return it != state->pending.constEnd() && it->answer.has_value();
    };
    while (!isAnswered()) {
        if (abort.isAborted()) {
            state->pending.remove(id);
            if (!state->closed) {
                QMetaObject::invokeMethod(
                    this, [this, id] { emit withdrawn(id); }, Qt::QueuedConnection);
            }
            return std::nullopt;
        }
        state->answered.wait_for(lock, abortPollInterval);
    }
    const PermissionAnswer answer = *state->pending.take(id).answer;
    return answer;
}

bool PermissionBroker::answer(quint64 requestId, const PermissionAnswer &answer)
{
    {
        const std::lock_guard lock(m_state->mutex);
        const auto it = m_state->pending.find(requestId);
        if (it == m_state->pending.end() || it->answer)
            return false;
        it->answer = answer;
        m_state->answered.notify_all();
    }
    emit answered(requestId, answer);
    return true;
}

QList<PermissionRequest> PermissionBroker::pending() const
{
    const std::lock_guard lock(m_state->mutex);
    QList<PermissionRequest> requests;
    for (const State::Pending &pending : std::as_const(m_state->pending)) {
        if (!pending.answer)
            requests.append(pending.request);
    }
    return requests;
}

} // namespace AgentCore

#include "moc_permissionbroker.cpp"
