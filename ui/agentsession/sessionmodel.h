#pragma once

#include "settings/modelselection.h"

#include <ai/types.h>

#include <QJsonValue>
#include <QString>

#include <memory>
#include <optional>

namespace AgentCore {
class ModelClient;
class SwitchableModelClient;
} // namespace AgentCore

namespace Ui {

/// Which model a window's agent talks to. The first of these that is set wins: problem,
/// pending, client, provider; with none, CodingAgentOptions::provider (the command line's).
struct ModelChoice
{
    QString label; ///< for the status bar: "gpt-5 (openai)"
    /// Non-empty: no model can be called, and every task says this instead of running
    /// ("OPENAI_API_KEY is not set: ...").
    QString problem;
    /// The key is still being read from the keyring: requests wait for the next choice.
    bool pending = false;
    /// Non-null: used instead of an HttpModelClient (tests, and the offline demo). Called on
    /// the agent's worker thread only.
    std::shared_ptr<AgentCore::ModelClient> client;
    std::optional<AgentCore::ProviderConfig> provider; ///< with its key
    /// What the settings call it, kept with the session; nullopt: the offline demo (when
    /// isDemo) or the command line's model.
    std::optional<ModelSelection> selection;
    bool isDemo = false;
};

/// The model one session talks to: the window's choice behind one client for the whole
/// session, so the choice can change between requests (a request in flight finishes on its
/// model). \a session, where asked, is the session's own provider (the command line's), which
/// carries the prompt cache key (the session's id).
class SessionModel
{
public:
    explicit SessionModel(ModelChoice choice);

    const ModelChoice &choice() const { return m_choice; }
    /// The client the session's agent and its summaries call, on their threads.
    const std::shared_ptr<AgentCore::SwitchableModelClient> &client() const { return m_client; }
    /// The next request goes to \a choice.
    void choose(ModelChoice choice, const AgentCore::ProviderConfig &session);
    /// Where requests go now: the choice's provider, else \a session.
    AgentCore::ProviderConfig provider(const AgentCore::ProviderConfig &session) const;
    /// Why a message with pictures is held: the model takes none (the model catalog says so).
    /// Empty when it may go: a model that reads pictures, one the catalog does not know, a
    /// test's or the demo's client.
    QString pictureRefusal(const AgentCore::ProviderConfig &session) const;
    /// The choice as the session file keeps it; undefined for the command line's model, which
    /// is not the session's choice.
    QJsonValue stateValue() const;

private:
    ModelChoice m_choice;
    std::shared_ptr<AgentCore::SwitchableModelClient> m_client;
};

} // namespace Ui
