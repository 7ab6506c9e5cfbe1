#include "sessionmodel.h"

#include "common/translation.h"

#include <ai/modelcatalog.h>
#include <ai/switchablemodelclient.h>

#include <QJsonObject>

#include <utility>

namespace Ui {

SessionModel::SessionModel(ModelChoice choice)
    : m_choice(std::move(choice))
    , m_client(std::make_shared<AgentCore::SwitchableModelClient>())
{}

void SessionModel::choose(ModelChoice choice, const AgentCore::ProviderConfig &session)
{
    m_choice = std::move(choice);
    if (!m_choice.problem.isEmpty()) {
        m_client->setUnavailable(m_choice.problem);
    } else if (m_choice.pending) {
        m_client->setPending();
    } else if (m_choice.client) {
        m_client->setClient(m_choice.client);
    } else {
        AgentCore::ProviderConfig provider = m_choice.provider.value_or(session);
        provider.promptCacheKey = session.promptCacheKey;
        m_client->setProvider(provider);
    }
}

AgentCore::ProviderConfig SessionModel::provider(const AgentCore::ProviderConfig &session) const
{
    return m_choice.provider.value_or(session);
}

QString SessionModel::pictureRefusal(const AgentCore::ProviderConfig &session) const
{
    const AgentCore::ProviderConfig current = provider(session);
    if (m_choice.client || AgentCore::takesPictures(current))
        return {};
    //: Above the message box when it holds pictures the model cannot read
    return UiTr::tr("%1. Remove the pictures, or choose a model that takes pictures.")
        .arg(AgentCore::noPicturesNote(current));
}

QJsonValue SessionModel::stateValue() const
{
    if (m_choice.selection)
        return m_choice.selection->toJson();
    if (m_choice.isDemo)
        return QJsonObject{{QLatin1String("demo"), true}};
    return QJsonValue(QJsonValue::Undefined);
}

} // namespace Ui
