#pragma once

#include <QObject>

#include <functional>
#include <memory>

namespace AgentCore {

/// A thread-safe cancellation flag shared by copies, like a JS AbortSignal.
/// abort() may be called from any thread; it is idempotent. Registered callbacks run once,
/// on the thread of their context object (queued when that is another thread), so a worker
/// waiting in a local QEventLoop can wake itself up.
class AbortToken final
{
public:
    AbortToken();

    void abort();
    bool isAborted() const;

    /// Calls \a callback in \a context's thread when the token fires (at once, queued, if it
    /// already has). The returned id removes it with disconnect(). \a context must outlive
    /// the registration or be disconnected first.
    int onAbort(QObject *context, std::function<void()> callback) const;
    void disconnect(int id) const;

private:
    struct State;
    std::shared_ptr<State> m_state;
};

} // namespace AgentCore
