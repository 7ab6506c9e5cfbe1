#include "httptestserver.h"

#include <QHostAddress>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

#include <sys/socket.h>

namespace TestSupport {

QByteArray RecordedRequest::header(const QByteArray &name) const
{
    for (const auto &[key, value] : headers) {
        if (key.compare(name, Qt::CaseInsensitive) == 0)
            return value;
    }
    return {};
}

ScriptedResponse ScriptedResponse::sse(const QList<QByteArray> &pieces)
{
    ScriptedResponse response;
    response.headers = {{"Content-Type", "text/event-stream"}, {"Cache-Control", "no-cache"}};
    response.pieces = pieces;
    return response;
}

ScriptedResponse ScriptedResponse::error(int status,
                                         const QByteArray &body,
                                         const QByteArray &contentType)
{
    ScriptedResponse response;
    response.status = status;
    response.headers = {{"Content-Type", contentType}};
    response.pieces = {body};
    response.framing = Framing::ContentLength;
    return response;
}

ScriptedResponse ScriptedResponse::retryAfter(int status,
                                              const QByteArray &retryAfter,
                                              const QByteArray &body)
{
    return error(status, body).withHeader("Retry-After", retryAfter);
}

ScriptedResponse ScriptedResponse::retryAfterMs(int status, int milliseconds, const QByteArray &body)
{
    return error(status, body).withHeader("retry-after-ms", QByteArray::number(milliseconds));
}

ScriptedResponse ScriptedResponse::reset()
{
    ScriptedResponse response;
    response.ending = Ending::Reset;
    return response;
}

ScriptedResponse &ScriptedResponse::withHeader(const QByteArray &name, const QByteArray &value)
{
    headers.append({name, value});
    return *this;
}

struct HttpTestServer::Connection
{
    int index = -1; ///< in accept order
    QByteArray buffer;
    qsizetype headerEnd = -1; ///< offset of the body in buffer once the head is read
    qsizetype contentLength = 0;
    RecordedRequest request;
    ScriptedResponse response;
    int requestIndex = -1;
    qsizetype nextPiece = 0;
    bool waitingForDrain = false; ///< the client is behind: the next piece waits for it
};

namespace {

// Pieces are not written further ahead of what the connection took than this: a client that
// stops reading mid-body finds the server still sending, as a real one would be.
constexpr qint64 MaxUnsentBytes = 256 * 1024;

QByteArray reasonPhrase(int status)
{
    switch (status) {
    case 200:
        return "OK";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 404:
        return "Not Found";
    case 413:
        return "Payload Too Large";
    case 429:
        return "Too Many Requests";
    case 500:
        return "Internal Server Error";
    case 502:
        return "Bad Gateway";
    case 503:
        return "Service Unavailable";
    case 529:
        return "Overloaded";
    default:
        return "Status";
    }
}

// Linger 0 turns the close into a reset (RST) rather than an orderly FIN.
void resetConnection(QTcpSocket *socket)
{
    const linger noLinger{1, 0};
    ::setsockopt(int(socket->socketDescriptor()), SOL_SOCKET, SO_LINGER, &noLinger, sizeof noLinger);
    socket->abort();
}

bool parseHead(const QByteArray &head, RecordedRequest *request, qsizetype *contentLength)
{
    const QList<QByteArray> lines = head.split('\n');
    const QList<QByteArray> requestLine = lines.value(0).trimmed().split(' ');
    if (requestLine.size() < 2)
        return false;
    request->method = requestLine.at(0);
    request->path = requestLine.at(1);
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArray line = lines.at(i).trimmed();
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0)
            continue;
        request->headers.append(
            {line.left(colon).trimmed().toLower(), line.mid(colon + 1).trimmed()});
    }
    *contentLength = request->header("content-length").toLongLong();
    return true;
}

} // namespace

HttpTestServer::HttpTestServer(QObject *parent)
    : QObject(parent)
    , m_server(new QTcpServer(this))
{
    connect(m_server, &QTcpServer::newConnection, this, &HttpTestServer::acceptConnections);
    if (!m_server->listen(QHostAddress::LocalHost, 0))
        qWarning("HttpTestServer: cannot listen: %s", qPrintable(m_server->errorString()));
}

HttpTestServer::~HttpTestServer()
{
    closeConnections();
}

bool HttpTestServer::isListening() const
{
    return m_server->isListening();
}

quint16 HttpTestServer::port() const
{
    return m_server->serverPort();
}

QUrl HttpTestServer::url(const QString &path) const
{
    return QUrl(QStringLiteral("http://127.0.0.1:%1%2").arg(port()).arg(path));
}

void HttpTestServer::enqueue(const ScriptedResponse &response)
{
    m_script.enqueue(response);
}

void HttpTestServer::closeConnections()
{
    const QList<QTcpSocket *> sockets = m_connections.keys();
    m_connections.clear();
    for (QTcpSocket *socket : sockets) {
        socket->disconnect(this);
        socket->abort();
        socket->deleteLater();
    }
}

void HttpTestServer::acceptConnections()
{
    while (QTcpSocket *socket = m_server->nextPendingConnection()) {
        auto connection = std::make_shared<Connection>();
        connection->index = m_connectionsAccepted++;
        m_connections.insert(socket, connection);
        // Small pieces must leave at once, not wait for the previous piece's ACK (Nagle).
        socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
        connect(socket, &QTcpSocket::readyRead, this, [this, socket] { readRequest(socket); });
        connect(socket, &QTcpSocket::disconnected, this, [this, socket] { forget(socket); });
        connect(socket, &QTcpSocket::bytesWritten, this, [this, socket] {
            const auto connection = m_connections.value(socket);
            if (connection && connection->waitingForDrain
                && socket->bytesToWrite() <= MaxUnsentBytes) {
                connection->waitingForDrain = false;
                writeNextPiece(socket);
            }
        });
        if (socket->bytesAvailable() > 0)
            readRequest(socket);
    }
}

void HttpTestServer::readRequest(QTcpSocket *socket)
{
    const auto connection = m_connections.value(socket);
    if (!connection || connection->requestIndex >= 0)
        return; // one request at a time; the next is read once the response ended (keep-alive)
    if (connection->buffer.isEmpty())
        connection->request.startedAt = std::chrono::steady_clock::now();
    connection->buffer += socket->readAll();
    if (connection->headerEnd < 0) {
        const qsizetype end = connection->buffer.indexOf("\r\n\r\n");
        if (end < 0)
            return;
        if (!parseHead(connection->buffer.left(end),
                       &connection->request,
                       &connection->contentLength)) {
            qWarning("HttpTestServer: malformed request head");
            forget(socket);
            return;
        }
        connection->headerEnd = end + 4;
    }
    if (connection->buffer.size() - connection->headerEnd < connection->contentLength)
        return;
    connection->request.completedAt = std::chrono::steady_clock::now();
    connection->request.connection = connection->index;
    connection->request.body = connection->buffer.mid(connection->headerEnd,
                                                      connection->contentLength);
    connection->buffer.remove(0, connection->headerEnd + connection->contentLength);
    connection->requestIndex = int(m_requests.size());
    m_requests.append(connection->request);
    startResponse(socket, connection->requestIndex);
    emit requestReceived(connection->requestIndex);
}

void HttpTestServer::startResponse(QTcpSocket *socket, int requestIndex)
{
    const auto connection = m_connections.value(socket);
    if (m_script.isEmpty()) {
        qWarning("HttpTestServer: no scripted response for request %d", requestIndex);
        connection->response = ScriptedResponse::error(500, "no scripted response", "text/plain");
    } else {
        connection->response = m_script.dequeue();
    }
    const ScriptedResponse &response = connection->response;
    using Ending = ScriptedResponse::Ending;
    if (response.ending == Ending::Reset || response.ending == Ending::Silent
        || response.ending == Ending::CloseAtStart) {
        endResponse(socket);
        return;
    }

    QByteArray head = "HTTP/1.1 " + QByteArray::number(response.status) + ' '
                      + reasonPhrase(response.status) + "\r\n";
    for (const auto &[name, value] : response.headers)
        head += name + ": " + value + "\r\n";
    if (response.framing == ScriptedResponse::Framing::Chunked) {
        head += "Transfer-Encoding: chunked\r\n";
    } else if (response.framing == ScriptedResponse::Framing::ContentLength) {
        qsizetype length = 0;
        for (const QByteArray &piece : response.pieces)
            length += piece.size();
        if (!response.pieces.isEmpty())
            length += response.repeatLastPiece * response.pieces.constLast().size();
        // An unfinished body must be announced longer than what is sent, or it is complete.
        if (response.ending != ScriptedResponse::Ending::Close)
            ++length;
        head += "Content-Length: " + QByteArray::number(length) + "\r\n";
    }
    head += keepsOpen(response) ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n";
    if (response.ending == Ending::CloseMidHead) {
        socket->write(head.left(head.size() / 2));
        endResponse(socket);
        return;
    }
    socket->write(head);
    if (response.ending == Ending::CloseAfterHead) {
        endResponse(socket);
        return;
    }
    writeNextPiece(socket);
}

void HttpTestServer::writeNextPiece(QTcpSocket *socket)
{
    const auto connection = m_connections.value(socket);
    if (!connection)
        return;
    const ScriptedResponse &response = connection->response;
    if (response.pieceDelayMs >= 0 && socket->bytesToWrite() > MaxUnsentBytes) {
        connection->waitingForDrain = true;
        return;
    }
    const bool chunked = response.framing == ScriptedResponse::Framing::Chunked;
    const qsizetype count = response.pieces.size()
                            + (response.pieces.isEmpty() ? 0 : response.repeatLastPiece);
    while (connection->nextPiece < count) {
        const QByteArray &piece = response.pieces.at(
            qMin<qsizetype>(connection->nextPiece++, response.pieces.size() - 1));
        if (!chunked)
            socket->write(piece);
        else if (!piece.isEmpty()) // an empty chunk would end the body
            socket->write(QByteArray::number(piece.size(), 16) + "\r\n" + piece + "\r\n");
        if (response.pieceDelayMs < 0)
            continue;
        socket->flush();
        // Each piece in its own event-loop turn (or after a pause), so that it leaves separately.
        const bool more = connection->nextPiece < count;
        if (more || response.ending == ScriptedResponse::Ending::Drop
            || response.ending == ScriptedResponse::Ending::DropWithReset) {
            const auto next = [this, socket, more] {
                if (more)
                    writeNextPiece(socket);
                else
                    endResponse(socket);
            };
            if (response.pieceDelayMs > 0)
                QTimer::singleShot(response.pieceDelayMs, socket, next);
            else
                QMetaObject::invokeMethod(socket, next, Qt::QueuedConnection);
            return;
        }
    }
    endResponse(socket);
}

void HttpTestServer::endResponse(QTcpSocket *socket)
{
    const auto connection = m_connections.value(socket);
    if (!connection)
        return;
    const int index = connection->requestIndex;
    switch (connection->response.ending) {
    case ScriptedResponse::Ending::Close:
        if (connection->response.framing == ScriptedResponse::Framing::Chunked)
            socket->write("0\r\n\r\n");
        if (keepsOpen(connection->response)) {
            emit responseFinished(index);
            awaitNextRequest(socket);
            return;
        }
        socket->disconnectFromHost(); // writes what is buffered first
        break;
    case ScriptedResponse::Ending::Drop:
    case ScriptedResponse::Ending::CloseAtStart:
    case ScriptedResponse::Ending::CloseMidHead:
    case ScriptedResponse::Ending::CloseAfterHead:
        socket->disconnectFromHost();
        break;
    case ScriptedResponse::Ending::Stall:
    case ScriptedResponse::Ending::Silent:
        break;
    case ScriptedResponse::Ending::DropWithReset:
        socket->waitForBytesWritten(1000); // a reset discards what is still buffered
        [[fallthrough]];
    case ScriptedResponse::Ending::Reset:
        m_connections.remove(socket);
        socket->disconnect(this);
        resetConnection(socket);
        socket->deleteLater();
        break;
    }
    emit responseFinished(index);
}

bool HttpTestServer::keepsOpen(const ScriptedResponse &response) const
{
    return m_keepAlive && response.ending == ScriptedResponse::Ending::Close
           && response.framing != ScriptedResponse::Framing::CloseDelimited;
}

void HttpTestServer::awaitNextRequest(QTcpSocket *socket)
{
    const auto connection = m_connections.value(socket);
    if (!connection)
        return;
    const QByteArray rest = connection->buffer; // a request that came early stays
    const int index = connection->index;
    *connection = Connection();
    connection->index = index;
    connection->buffer = rest;
    if (!rest.isEmpty())
        connection->request.startedAt = std::chrono::steady_clock::now();
    if (!rest.isEmpty() || socket->bytesAvailable() > 0)
        readRequest(socket);
}

void HttpTestServer::forget(QTcpSocket *socket)
{
    if (!m_connections.remove(socket))
        return;
    socket->disconnect(this);
    socket->abort();
    socket->deleteLater();
}

} // namespace TestSupport
