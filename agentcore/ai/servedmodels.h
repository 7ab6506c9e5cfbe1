#pragma once

#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <optional>

QT_BEGIN_NAMESPACE
class QNetworkAccessManager;
class QNetworkReply;
QT_END_NAMESPACE

namespace AgentCore {

/// What an OpenAI-compatible server said it serves.
struct ServedModelsResult
{
    QUrl baseUrl;       ///< the endpoint that was asked
    QStringList models; ///< ids in the server's order, without duplicates
    QString error;      ///< non-empty: the list could not be had, and why (for people)
    /// The entries' "owned_by" when they agree on one plausible value ("llamacpp", "vllm",
    /// "library", ...: ServerProfile::fromOwnedBy); empty otherwise.
    QString ownedBy = {};

    bool succeeded() const { return error.isEmpty(); }
};

/// Asks an OpenAI-compatible server which models it serves: GET {baseUrl}/models, as Ollama,
/// llama.cpp, vLLM, LM Studio and OpenAI itself answer it ({"object":"list","data":[{"id":
/// ...}]}). Asynchronous: lives on the thread that made it (the UI thread) and never blocks it.
/// The server is not trusted: the answer is capped in size (maxBodyBytes) and in entries
/// (maxModels), every id is checked, redirects are not followed (the key goes nowhere but the
/// address it was given for), and a silent server times out. The key, when given, is sent as
/// a bearer token and never appears in an error.
class ServedModels final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ServedModels)
public:
    static constexpr qint64 maxBodyBytes = 2 * 1024 * 1024;
    static constexpr int maxModels = 2000;
    static constexpr int maxIdLength = 256;
    static constexpr int maxOwnedByLength = 64;
    static constexpr int defaultTimeoutMs = 15'000;

    explicit ServedModels(QObject *parent = nullptr);
    ~ServedModels() override;

    /// Starts asking \a baseUrl (".../v1"), dropping a request still running: only the latest
    /// one reports. finished() always comes later, from the event loop, even for a URL that is
    /// not http(s).
    void fetch(const QUrl &baseUrl, const QString &apiKey = {});
    /// Drops the running request; it reports nothing.
    void cancel();
    bool isRunning() const;
    void setTimeout(int milliseconds) { m_timeoutMs = milliseconds; }

    /// The model ids of a /models answer; nullopt with \a error set when \a body is not one.
    /// \a ownedBy, when given, gets ServedModelsResult::ownedBy.
    static std::optional<QStringList> parse(const QByteArray &body,
                                            QString *error,
                                            QString *ownedBy = nullptr);

signals:
    void finished(const AgentCore::ServedModelsResult &result);

private:
    void replyFinished(QNetworkReply *reply, const QUrl &baseUrl, const QString &apiKey);

    QNetworkAccessManager *m_network = nullptr;
    QPointer<QNetworkReply> m_reply;
    int m_timeoutMs = defaultTimeoutMs;
};

} // namespace AgentCore

Q_DECLARE_METATYPE(AgentCore::ServedModelsResult)
