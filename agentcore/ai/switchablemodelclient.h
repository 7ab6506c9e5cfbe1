#pragma once

#include "modelclient.h"
#include "providerconfig.h"

#include <condition_variable>
#include <memory>
#include <mutex>

namespace AgentCore {

class HttpModelClient;

/// The model of one conversation, which the user may switch between requests: a provider
/// (called through an HttpModelClient), any other client (the offline demo, tests), or none
/// with the reason why. Each complete() uses what was chosen when it started; a request in
/// flight finishes on its model.
///
/// The setters are safe from any thread (the UI's). complete() runs on the agent's worker
/// thread, which also owns the HttpModelClient: destroy this object there (the Agent releases
/// its config on the worker) or after it finished.
class SwitchableModelClient final : public ModelClient
{
public:
    /// Starts pending: complete() waits until one of the setters is called.
    SwitchableModelClient();
    ~SwitchableModelClient() override;

    void setProvider(const ProviderConfig &config);
    void setClient(std::shared_ptr<ModelClient> client);
    /// Every request ends at once as an error saying \a problem ("No API key ...").
    void setUnavailable(const QString &problem);
    /// Requests wait (abortably) for one of the setters above: the key is still being read
    /// from the keyring, which may be asking the user to unlock it.
    void setPending();

    /// A client of its own following the choice made so far (a provider, the same other
    /// client, the problem): for a request on another thread (a background summary), since
    /// this one's HttpModelClient belongs to the worker. Safe from any thread.
    std::shared_ptr<ModelClient> snapshot();

    Message complete(const Context &context,
                     const AbortToken &abort,
                     const StreamEventSink &sink) override;

private:
    enum class Kind { Pending, Provider, Client, Unavailable };
    struct Choice
    {
        Kind kind = Kind::Pending;
        ProviderConfig provider;
        std::shared_ptr<ModelClient> client;
        QString problem;
    };
    void choose(Choice choice);
    std::optional<Choice> waitForChoice(const AbortToken &abort);
    Message unavailable(const QString &problem, StopReason reason) const;

    std::mutex m_mutex;
    std::condition_variable m_chosen;
    Choice m_choice;
    std::unique_ptr<HttpModelClient> m_http; // worker thread only
};

} // namespace AgentCore
