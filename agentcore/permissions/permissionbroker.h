#pragma once

#include "permissionasker.h"

#include <QList>
#include <QObject>

#include <memory>

namespace AgentCore {

/// The PermissionAsker for a user interface: lives on the UI thread, announces each request
/// with a queued signal and wakes the waiting tool thread when answer() is called (or when
/// the call's abort token fires, which withdraws the request).
/// Requests are answered in any order; pending() lists them in the order they arrived.
/// Destroying the broker answers every pending request with a deny ("the window closed").
class PermissionBroker final : public QObject, public PermissionAsker
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PermissionBroker)
public:
    explicit PermissionBroker(QObject *parent = nullptr);
    ~PermissionBroker() override;

    /// From any thread but the broker's own (it would wait for itself).
    std::optional<PermissionAnswer> ask(const PermissionRequest &request,
                                        const AbortToken &abort) override;

    /// UI thread. Unknown or already withdrawn ids are ignored (false).
    bool answer(quint64 requestId, const AgentCore::PermissionAnswer &answer);
    QList<PermissionRequest> pending() const;

signals:
    void requested(const AgentCore::PermissionRequest &request);
    void withdrawn(quint64 requestId); ///< aborted before an answer: close its review
    /// answer() took \a requestId's answer (the worker goes on with it). Emitted from
    /// answer(), before it returns: every view of the request can close it, whichever answered.
    void answered(quint64 requestId, const AgentCore::PermissionAnswer &answer);

private:
    struct State;
    std::shared_ptr<State> m_state;
};

} // namespace AgentCore
