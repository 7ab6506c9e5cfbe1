#pragma once

#include "mcpconfig.h"
#include "mcptransport.h"

#include <QHash>
#include <QList>
#include <QUrl>

#include <memory>

class QNetworkAccessManager;
class QNetworkReply;
class QNetworkRequest;

namespace AgentCore {

/// MCP's Streamable HTTP transport (protocol revisions 2025-03-26 and later): every message is
/// POSTed to the server's URL; a request's answer is a JSON body or an event stream carrying
/// the response and the notifications (progress) that belong to it. The session id the server
/// gives with initialize's answer (Mcp-Session-Id) and the negotiated revision
/// (MCP-Protocol-Version) go with every later message; the session is DELETEd on stop.
///
/// A request's stream that ends before its answer is resumed with a GET carrying Last-Event-ID
/// when its events had ids. Server-initiated messages come on an optional GET stream (a server
/// without one answers 405). A 404 to a message carrying the session id is sessionExpired().
/// Bodies and events are capped (the client's line cap); errors say the HTTP status and the
/// start of the body. Its QNetworkAccessManager lives on the client's thread.
class McpHttpTransport final : public McpTransport
{
    Q_OBJECT

public:
    static constexpr int maxResumes = 5;             ///< of one request's stream, in a row
    static constexpr int maxEventStreamFailures = 5; ///< the GET stream is given up after
    static constexpr int stopGraceMs = 1000;         ///< for the DELETE of the session

    McpHttpTransport(const McpServerConfig &config,
                     qsizetype maxBodyBytes,
                     QObject *parent = nullptr);
    ~McpHttpTransport() override;

    void open() override;
    void send(const QByteArray &line, qint64 requestId) override;
    void stop(bool gracefully) override;
    void sessionStarted(const QString &protocolVersion) override;
    void requestDone(qint64 requestId, bool answered) override;
    /// The next message sent is the new initialize; the others wait until it has a session.
    void resetSession() override;
    QString describe() const override { return m_config.url; }

    QByteArray sessionId() const { return m_sessionId; }

private:
    struct Stream;
    enum class Renewal { None, NextIsInitialize, Holding };

    QNetworkRequest request(const QByteArray &accept) const;
    void post(const QByteArray &line, qint64 requestId);
    void resume(const std::shared_ptr<Stream> &stream);
    void openEventStream();
    void watch(QNetworkReply *reply, const std::shared_ptr<Stream> &stream);
    void onReadyRead(const std::shared_ptr<Stream> &stream);
    void onFinished(const std::shared_ptr<Stream> &stream);
    void fail(const std::shared_ptr<Stream> &stream, const QString &error);
    void forget(const std::shared_ptr<Stream> &stream);
    void flushHeld();
    QString httpError(int status, const QString &reason, const QByteArray &body) const;

    const McpServerConfig m_config;
    const QUrl m_url;
    const qsizetype m_maxBodyBytes;
    QNetworkAccessManager *m_network = nullptr;
    QHash<QNetworkReply *, std::shared_ptr<Stream>> m_streams;
    QByteArray m_sessionId;
    QByteArray m_protocolVersion;
    QByteArray m_eventsLastId; ///< of the GET stream, for its reconnection
    Renewal m_renewal = Renewal::None;
    QList<std::pair<QByteArray, qint64>> m_held;
    int m_eventStreamFailures = 0;
    bool m_stopped = false;
};

} // namespace AgentCore
