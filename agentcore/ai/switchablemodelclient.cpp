#include "switchablemodelclient.h"
#include "translation.h"

#include "httpmodelclient.h"

#include <QCoreApplication>
#include <QDateTime>

#include <chrono>

namespace AgentCore {

namespace {

// How often a request waiting for its model looks at the abort token. AbortToken calls back
// through an event loop this wait does not run, so it polls; Stop stays well under 100 ms.
constexpr std::chrono::milliseconds abortPollInterval{20};
} // namespace

SwitchableModelClient::SwitchableModelClient() = default;

SwitchableModelClient::~SwitchableModelClient() = default;

void SwitchableModelClient::setProvider(const ProviderConfig &config)
{
    Choice choice;
    choice.kind = Kind::Provider;
    choice.provider = config;
    choose(std::move(choice));
}

void SwitchableModelClient::setClient(std::shared_ptr<ModelClient> client)
{
    Choice choice;
    choice.kind = Kind::Client;
    choice.client = std::move(client);
    choose(std::move(choice));
}

void SwitchableModelClient::setUnavailable(const QString &problem)
{
    Choice choice;
    choice.kind = Kind::Unavailable;
    choice.problem = problem;
    choose(std::move(choice));
}

void SwitchableModelClient::setPending()
{
    choose(Choice{});
}

std::shared_ptr<ModelClient> SwitchableModelClient::snapshot()
{
    auto copy = std::make_shared<SwitchableModelClient>();
    std::lock_guard lock(m_mutex);
    copy->m_choice = m_choice;
    return copy;
}

void SwitchableModelClient::choose(Choice choice)
{
    {
        std::lock_guard lock(m_mutex);
        m_choice = std::move(choice);
    }
    m_chosen.notify_all();
}

std::optional<SwitchableModelClient::Choice> SwitchableModelClient::waitForChoice(
    const AbortToken &abort)
{
    std::unique_lock lock(m_mutex);
    while (m_choice.kind == Kind::Pending) {
        if (abort.isAborted())
            return std::nullopt;
        m_chosen.wait_for(lock, abortPollInterval);
    }
    return m_choice;
}

Message SwitchableModelClient::complete(const Context &context,
                                        const AbortToken &abort,
                                        const StreamEventSink &sink)
{
    const std::optional<Choice> choice = waitForChoice(abort);
    if (!choice)
        return unavailable(AiTr::tr("Stopped while waiting for the model's API key."),
                           StopReason::Aborted);
    switch (choice->kind) {
    case Kind::Provider:
        // One client for every provider choice: its network access stays warm, and it is
        // only ever touched on this (the worker) thread.
        if (!m_http)
            m_http = std::make_unique<HttpModelClient>(choice->provider);
        else
            m_http->setConfig(choice->provider);
        return m_http->complete(context, abort, sink);
    case Kind::Client:
        return choice->client->complete(context, abort, sink);
    case Kind::Unavailable:
        return unavailable(choice->problem, StopReason::Error);
    case Kind::Pending:
        break;
    }
    return unavailable(QString(),
                       StopReason::Error); // not reached: waitForChoice never ends pending
}

Message SwitchableModelClient::unavailable(const QString &problem, StopReason reason) const
{
    Message message;
    message.role = Message::Role::Assistant;
    message.stopReason = reason;
    message.errorMessage = problem;
    message.timestamp = QDateTime::currentMSecsSinceEpoch();
    return message;
}

} // namespace AgentCore
