#include "modeldiscovery.h"

#include "keys/keystore.h"
#include "providerpresets.h"

#include <ai/localmodelfinder.h>

#include <QUrl>

namespace Ui {

namespace {

// An endpoint that needs a key, and the variable its key may be in.
struct KeyedEndpoint
{
    QString name;
    ModelSelection selection;
};

// Anthropic and OpenAI, then the vendor presets with a variable of their own (DeepSeek,
// DashScope, OpenRouter): every endpoint whose key AgentDesk reads from the environment.
QList<KeyedEndpoint> keyedEndpoints()
{
    QList<KeyedEndpoint> endpoints;
    for (const ProviderKind kind : {ProviderKind::Anthropic, ProviderKind::OpenAi}) {
        ModelSelection selection{kind, {}, suggestedModels(kind).value(0), ThinkingLevel::Off};
        endpoints.append({selection.endpointLabel(), selection});
    }
    for (const ServerPreset &preset : serverPresets()) {
        if (preset.keyVariable.isEmpty())
            continue;
        endpoints.append({preset.name,
                          ModelSelection{ProviderKind::OpenAiCompatible,
                                         preset.baseUrl,
                                         preset.models.value(0),
                                         ThinkingLevel::Off}});
    }
    return endpoints;
}

ModelOffer keyOffer(const KeyedEndpoint &endpoint, ModelOffer::Source source)
{
    ModelOffer offer;
    offer.source = source;
    offer.selection = endpoint.selection;
    offer.name = endpoint.name;
    offer.evidence = source == ModelOffer::Source::EnvironmentKey ? endpoint.selection.keyVariable()
                                                                  : QString();
    offer.models = suggestedModels(endpoint.selection.provider, endpoint.selection.baseUrl);
    if (offer.models.isEmpty())
        offer.models = {endpoint.selection.model};
    return offer;
}

// The model a local server's offer starts with: its first that is not for embeddings (Ollama
// and LM Studio list those beside the chat models, and cannot answer a task with them).
QString defaultLocalModel(const QStringList &models)
{
    for (const QString &model : models) {
        if (!model.contains(QLatin1String("embed"), Qt::CaseInsensitive))
            return model;
    }
    return models.value(0);
}

} // namespace

QString ModelOffer::text() const
{
    switch (source) {
    case Source::EnvironmentKey:
        //: The welcome page's offer: a provider, and the environment variable its key is in
        return ModelDiscovery::tr("%1, with the key in %2").arg(name, evidence);
    case Source::StoredKey:
        //: The welcome page's offer: a provider whose key is in the keyring
        return ModelDiscovery::tr("%1, with the key you stored").arg(name);
    case Source::LocalServer:
        //: The welcome page's offer: a model server on this computer, and its address
        return ModelDiscovery::tr("%1 on %2").arg(name, evidence);
    }
    return name;
}

ModelSelection ModelOffer::withModel(const QString &model) const
{
    ModelSelection result = selection;
    if (!model.isEmpty())
        result.model = model;
    return result;
}

ModelDiscovery::ModelDiscovery(KeyStore *keys, QProcessEnvironment environment, QObject *parent)
    : QObject(parent)
    , m_keys(keys)
    , m_environment(std::move(environment))
    , m_finder(new AgentCore::LocalModelFinder(this))
{
    qRegisterMetaType<Ui::ModelOffer>();
    connect(m_finder,
            &AgentCore::LocalModelFinder::finished,
            this,
            [this](const QList<AgentCore::LocalModelServer> &servers) {
                for (const AgentCore::LocalModelServer &server : servers)
                    m_serverOffers.append(localServerOffer(server));
                partDone();
            });
}

ModelDiscovery::~ModelDiscovery() = default;

void ModelDiscovery::setLocalPorts(const QList<quint16> &ports)
{
    m_finder->setPorts(ports);
}

QList<quint16> ModelDiscovery::localPorts() const
{
    return m_finder->ports();
}

QList<ModelOffer> ModelDiscovery::environmentOffers(const QProcessEnvironment &environment)
{
    QList<ModelOffer> offers;
    for (const KeyedEndpoint &endpoint : keyedEndpoints()) {
        const QString variable = endpoint.selection.keyVariable();
        if (!variable.isEmpty() && !environment.value(variable).trimmed().isEmpty())
            offers.append(keyOffer(endpoint, ModelOffer::Source::EnvironmentKey));
    }
    return offers;
}

ModelOffer ModelDiscovery::localServerOffer(const AgentCore::LocalModelServer &server)
{
    ModelOffer offer;
    offer.source = ModelOffer::Source::LocalServer;
    offer.models = server.models;
    offer.selection.provider = ProviderKind::OpenAiCompatible;
    offer.selection.baseUrl = server.baseUrl.toString();
    offer.selection.model = defaultLocalModel(server.models);
    offer.selection.servedOwnedBy = server.ownedBy;
    const AgentCore::ServerProfileChoice profile = offer.selection.serverProfileChoice();
    offer.name = profile.id == AgentCore::ServerProfile::Id::Generic
                     ? tr("An OpenAI-compatible server")
                     : AgentCore::ServerProfile::displayName(profile.id);
    offer.evidence = server.baseUrl.host() + u':' + QString::number(server.port);
    return offer;
}

void ModelDiscovery::discover()
{
    if (isRunning())
        return;
    m_environmentOffers = environmentOffers(m_environment);
    m_storedOffers.clear();
    m_serverOffers.clear();
    const QList<KeyedEndpoint> endpoints = keyedEndpoints();
    m_storedOffers = QList<std::optional<ModelOffer>>(endpoints.size());
    m_outstanding = 1; // the local servers
    for (qsizetype index = 0; index < endpoints.size(); ++index) {
        const KeyedEndpoint &endpoint = endpoints.at(index);
        const QString variable = endpoint.selection.keyVariable();
        if (!variable.isEmpty() && !m_environment.value(variable).trimmed().isEmpty())
            continue; // offered already; the keyring is not asked for what is not needed
        ++m_outstanding;
        m_keys->readKey(endpoint.selection.keyAccount(),
                        this,
                        [this, index, endpoint](const KeyResult &result) {
                            if (result.succeeded() && !result.key.trimmed().isEmpty())
                                m_storedOffers[index] = keyOffer(endpoint,
                                                                 ModelOffer::Source::StoredKey);
                            partDone();
                        });
    }
    m_finder->find();
}

void ModelDiscovery::partDone()
{
    if (m_outstanding == 0 || --m_outstanding > 0)
        return;
    QList<ModelOffer> offers = m_environmentOffers;
    for (const std::optional<ModelOffer> &offer : std::as_const(m_storedOffers)) {
        if (offer)
            offers.append(*offer);
    }
    offers += m_serverOffers;
    emit finished(offers);
}

} // namespace Ui

#include "moc_modeldiscovery.cpp"
