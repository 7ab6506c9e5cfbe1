#pragma once

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QObject>
#include <QQueue>
#include <QUrl>

#include <chrono>
#include <memory>
#include <utility>

QT_BEGIN_NAMESPACE
class QTcpServer;
class QTcpSocket;
QT_END_NAMESPACE

namespace TestSupport {

/// One request as the server read it.
struct RecordedRequest
{
    QByteArray method;
    QByteArray path;                                  ///< the request target, query included
    QList<std::pair<QByteArray, QByteArray>> headers; ///< names lower-cased, in arrival order
    QByteArray body;
    /// Which accepted connection it came on (0 for the first); see HttpTestServer::setKeepAlive().
    int connection = -1;
    /// When the server read its first byte, and its last (steady clock, as the client's).
    std::chrono::steady_clock::time_point startedAt;
    std::chrono::steady_clock::time_point completedAt;

    /// The first value of header \a name (case-insensitive); empty when absent.
    QByteArray header(const QByteArray &name) const;
};

/// A response the server plays for one request.
struct ScriptedResponse
{
    enum class Framing {
        Chunked,       ///< Transfer-Encoding: chunked, one chunk per piece
        ContentLength, ///< Content-Length of the whole body
        /// Neither: the body ends when the connection closes (HTTP/1.1 allows it), so a drop
        /// looks exactly like a complete body to the client.
        CloseDelimited,
    };
    enum class Ending {
        Close, ///< finish the body, then close the connection
        /// After the pieces, close the connection with the body unfinished (no final chunk /
        /// fewer bytes than Content-Length): a connection lost mid-stream.
        Drop,
        DropWithReset, ///< as Drop, but reset (RST) rather than closed in order
        Stall,         ///< after the pieces, keep the connection open and send nothing more
        Reset,         ///< send no byte at all: reset (RST) the connection once the request is read
        Silent,        ///< send no byte at all and keep the connection open (a server that hangs)
        CloseAtStart,  ///< close the connection in order (FIN) before any byte of a response
        CloseMidHead,  ///< send half of the status line and headers, then close
        CloseAfterHead, ///< send the status line and headers, then close before any body byte
    };

    int status = 200;
    QList<std::pair<QByteArray, QByteArray>> headers; ///< besides the framing headers
    /// The body, each piece written separately (TestSupport::splitBytes() in fixtures.h cuts one).
    QList<QByteArray> pieces;
    /// Pause before every piece after the first (and before Drop / DropWithReset). 0: no pause, but each piece
    /// is written in its own event-loop turn so that it leaves as a TCP segment of its own;
    /// negative: all pieces written at once (fastest, for large bodies). Unless negative, a
    /// piece also waits while more than 256 KiB are still unsent (the client reads slower).
    int pieceDelayMs = 0;
    /// The last piece is sent this many more times: a large body without holding it in memory.
    int repeatLastPiece = 0;
    Framing framing = Framing::Chunked;
    Ending ending = Ending::Close;

    /// 200, text/event-stream, chunked, one chunk per piece.
    static ScriptedResponse sse(const QList<QByteArray> &pieces);
    /// A non-streaming response with \a body in one piece, Content-Length framing.
    static ScriptedResponse error(int status,
                                  const QByteArray &body,
                                  const QByteArray &contentType = "application/json");
    /// error() with a Retry-After header (seconds or an HTTP date, as given).
    static ScriptedResponse retryAfter(int status,
                                       const QByteArray &retryAfter,
                                       const QByteArray &body = {});
    /// error() with a retry-after-ms header (OpenAI's and Anthropic's millisecond variant).
    static ScriptedResponse retryAfterMs(int status, int milliseconds, const QByteArray &body = {});
    /// A connection reset before any byte of a response.
    static ScriptedResponse reset();

    ScriptedResponse &withHeader(const QByteArray &name, const QByteArray &value);
};

/// A real HTTP/1.1 server on 127.0.0.1 (port chosen by the system) that records every request
/// and answers each with the next scripted response, in order. Only what the tests need:
/// request bodies must come with Content-Length; every response closes its connection unless
/// setKeepAlive() says otherwise.
/// Without a scripted response left it answers 500 "no scripted response" and warns.
///
/// Threading: the server lives in the thread that creates it and serves from that thread's
/// event loop. A client blocking the same thread in a local QEventLoop (HttpModelClient) works,
/// because that loop also serves the server's sockets. A client on a worker thread needs the
/// test thread to spin meanwhile (QTRY_*, QSignalSpy::wait). Not thread-safe otherwise.
class HttpTestServer final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HttpTestServer)

public:
    /// Starts listening at once; check isListening().
    explicit HttpTestServer(QObject *parent = nullptr);
    ~HttpTestServer() override; ///< closes every connection, stalled ones included

    bool isListening() const;
    quint16 port() const;
    /// "http://127.0.0.1:PORT" followed by \a path.
    QUrl url(const QString &path = {}) const;

    /// With \a on, a response that ends cleanly (Ending::Close) with Chunked or ContentLength
    /// framing leaves its connection open for the client's next request, as a real server
    /// does; it says "Connection: keep-alive" instead of "Connection: close". Off by default.
    void setKeepAlive(bool on) { m_keepAlive = on; }
    /// Connections accepted so far (a client reusing its connection makes one per session).
    int connectionsAccepted() const { return m_connectionsAccepted; }

    void enqueue(const ScriptedResponse &response);
    int pendingResponses() const { return int(m_script.size()); }

    /// Every request read so far, in arrival order.
    const QList<RecordedRequest> &requests() const { return m_requests; }
    /// Closes every open connection now (e.g. stalled ones).
    void closeConnections();

signals:
    /// A request was read completely; \a index into requests().
    void requestReceived(int index);
    /// A response was played to its end (closed, dropped, reset, or stalled).
    void responseFinished(int index);

private:
    struct Connection;

    void acceptConnections();
    void readRequest(QTcpSocket *socket);
    void startResponse(QTcpSocket *socket, int requestIndex);
    void writeNextPiece(QTcpSocket *socket);
    void endResponse(QTcpSocket *socket);
    void forget(QTcpSocket *socket);
    bool keepsOpen(const ScriptedResponse &response) const;
    void awaitNextRequest(QTcpSocket *socket);

    QTcpServer *m_server = nullptr;
    QQueue<ScriptedResponse> m_script;
    QList<RecordedRequest> m_requests;
    QHash<QTcpSocket *, std::shared_ptr<Connection>> m_connections;
    int m_connectionsAccepted = 0;
    bool m_keepAlive = false;
};

} // namespace TestSupport
