#pragma once

#include "modelselection.h"

#include <QList>
#include <QObject>
#include <QProcessEnvironment>
#include <QStringList>

#include <optional>

namespace AgentCore {
class LocalModelFinder;
struct LocalModelServer;
} // namespace AgentCore

namespace Ui {

class KeyStore;

/// A model the user already has, found by ModelDiscovery: one click sets it up.
struct ModelOffer
{
    enum class Source {
        EnvironmentKey, ///< the provider's key is in an environment variable
        StoredKey,      ///< the provider's key is in AgentDesk's key store (the keyring)
        LocalServer,    ///< an OpenAI-compatible server answers on this computer
    };

    Source source = Source::LocalServer;
    /// What the click sets up: provider, base URL and the default model.
    ModelSelection selection;
    QString name;     ///< "Anthropic", "DeepSeek", "Ollama", "llama.cpp": never translated
    QString evidence; ///< "ANTHROPIC_API_KEY", "127.0.0.1:11434"
    /// The models to choose from: a local server's own list; selection.model is one of them.
    QStringList models;

    /// "Anthropic, with the key in ANTHROPIC_API_KEY", "Ollama on 127.0.0.1:11434": translated.
    QString text() const;
    /// selection with \a model instead (one of models), the first model for an empty one.
    ModelSelection withModel(const QString &model) const;

    friend bool operator==(const ModelOffer &, const ModelOffer &) = default;
};

/// Finds what a newcomer already has, sending nothing anywhere but GET /v1/models to the usual
/// ports of 127.0.0.1 (AgentCore::LocalModelFinder): provider keys in the environment
/// (ANTHROPIC_API_KEY, OPENAI_API_KEY, and the variables of the vendor presets, such as
/// DEEPSEEK_API_KEY) and in the key store, and local OpenAI-compatible servers. Nothing it finds
/// is used until the user says so. UI thread; asynchronous, never blocks.
class ModelDiscovery final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ModelDiscovery)
public:
    /// \a keys must outlive the discovery.
    ModelDiscovery(KeyStore *keys, QProcessEnvironment environment, QObject *parent = nullptr);
    ~ModelDiscovery() override;

    /// The ports of 127.0.0.1 to ask (tests give a free one);
    /// AgentCore::LocalModelFinder::defaultPorts() unless set.
    void setLocalPorts(const QList<quint16> &ports);
    QList<quint16> localPorts() const;

    /// Starts looking; finished() comes once, from the event loop. Again while running: ignored.
    void discover();
    bool isRunning() const { return m_outstanding > 0; }

    /// The offers of keys in \a environment alone (no key store, no network). Pure.
    static QList<ModelOffer> environmentOffers(const QProcessEnvironment &environment);
    /// The offer of \a server.
    static ModelOffer localServerOffer(const AgentCore::LocalModelServer &server);

signals:
    /// Keys first (the environment's, then the stored ones), then local servers. Empty: nothing
    /// found, the offline demo stays.
    void finished(const QList<Ui::ModelOffer> &offers);

private:
    void partDone();

    KeyStore *m_keys;
    QProcessEnvironment m_environment;
    AgentCore::LocalModelFinder *m_finder;
    QList<ModelOffer> m_environmentOffers;
    QList<std::optional<ModelOffer>> m_storedOffers; ///< by endpoint, as they were read
    QList<ModelOffer> m_serverOffers;
    int m_outstanding = 0;
};

} // namespace Ui

Q_DECLARE_METATYPE(Ui::ModelOffer)
