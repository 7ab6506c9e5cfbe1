#pragma once

#include <QList>
#include <QObject>
#include <QStringList>
#include <QUrl>

#include <optional>

QT_BEGIN_NAMESPACE
class QTimer;
QT_END_NAMESPACE

namespace AgentCore {

class ServedModels;
struct ServedModelsResult;

/// An OpenAI-compatible server found on this computer, and what it serves.
struct LocalModelServer
{
    quint16 port = 0;
    QUrl baseUrl;       ///< "http://127.0.0.1:11434/v1"
    QStringList models; ///< the ids of its /v1/models answer, in its order; never empty
    QString ownedBy;    ///< ServedModelsResult::ownedBy (which server this is), may be empty

    friend bool operator==(const LocalModelServer &, const LocalModelServer &) = default;
};

/// Finds the OpenAI-compatible servers a user already runs on this computer: asks
/// `GET http://127.0.0.1:PORT/v1/models` on the usual ports (Ollama 11434, llama.cpp 8080,
/// LM Studio 1234) and nothing else: no other method, no body, no key, no other host. A port
/// that refuses, answers anything but a list of models (ServedModels caps and checks it), or
/// takes longer than the timeout in all (a server trickling bytes too) is no server.
/// Asynchronous: lives on the thread that made it (the UI thread) and never blocks it.
class LocalModelFinder final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LocalModelFinder)
public:
    /// Long enough for a loaded machine's server, short enough to be done before a newcomer
    /// has read the welcome page.
    static constexpr int defaultTimeoutMs = 2'000;

    /// 11434 (Ollama), 8080 (llama.cpp's llama-server), 1234 (LM Studio).
    static QList<quint16> defaultPorts();

    explicit LocalModelFinder(QObject *parent = nullptr);
    ~LocalModelFinder() override;

    /// The ports find() asks (tests give a free one); defaultPorts() unless set.
    void setPorts(const QList<quint16> &ports) { m_ports = ports; }
    QList<quint16> ports() const { return m_ports; }
    /// How long find() waits for all of them, in all.
    void setTimeout(int milliseconds) { m_timeoutMs = milliseconds; }

    /// Asks every port at once, dropping a search still running. finished() comes once, later,
    /// from the event loop, also when there is no port to ask.
    void find();
    bool isRunning() const { return m_running; }

signals:
    /// The servers that answered with at least one model, in the order of ports().
    void finished(const QList<AgentCore::LocalModelServer> &servers);

private:
    void answered(qsizetype index, const AgentCore::ServedModelsResult &result);
    void finish();
    void stop();

    QList<quint16> m_ports;
    int m_timeoutMs = defaultTimeoutMs;
    QList<ServedModels *> m_probes;                   ///< one per port, owned; each asks once
    QList<std::optional<LocalModelServer>> m_answers; ///< by port index: set when it is one
    int m_outstanding = 0;
    bool m_running = false;
    quint64 m_search = 0;
    QTimer *m_deadline = nullptr;
};

} // namespace AgentCore

Q_DECLARE_METATYPE(AgentCore::LocalModelServer)
