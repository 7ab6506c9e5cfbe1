#include "aborttoken.h"

#include <QMap>
#include <QMetaObject>
#include <QMutex>
#include <QPointer>

#include <atomic>

namespace AgentCore {

struct AbortToken::State
{
    struct Callback
    {
        QPointer<QObject> context;
        std::function<void()> function;
    };

    std::atomic_bool aborted = false;
    QMutex mutex;
    int nextId = 1;
    QMap<int, Callback> callbacks;
};

namespace {
void post(const QPointer<QObject> &context, std::function<void()> function)
{
    if (context)
        QMetaObject::invokeMethod(context.data(), std::move(function), Qt::QueuedConnection);
}
} // namespace

AbortToken::AbortToken()
    : m_state(std::make_shared<State>())
{}

void AbortToken::abort()
{
    QMap<int, State::Callback> callbacks;
    {
        QMutexLocker locker(&m_state->mutex);
        if (m_state->aborted.exchange(true))
            return;
        callbacks.swap(m_state->callbacks);
    }
    for (auto &callback : callbacks)
        post(callback.context, std::move(callback.function));
}

bool AbortToken::isAborted() const
{
    return m_state->aborted.load();
}

int AbortToken::onAbort(QObject *context, std::function<void()> callback) const
{
    QMutexLocker locker(&m_state->mutex);
    const int id = m_state->nextId++;
    if (m_state->aborted.load()) {
        locker.unlock();
        post(context, std::move(callback));
        return id;
    }
    m_state->callbacks.insert(id, {context, std::move(callback)});
    return id;
}

void AbortToken::disconnect(int id) const
{
    QMutexLocker locker(&m_state->mutex);
    m_state->callbacks.remove(id);
}

} // namespace AgentCore
