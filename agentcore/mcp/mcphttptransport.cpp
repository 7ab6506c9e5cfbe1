#include "mcphttptransport.h"
#include "translation.h"

#include <ai/sseparser.h>

#include <QCoreApplication>
#include <QEventLoop>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QRegularExpression>
#include <QTimer>

namespace AgentCore {

namespace {

constexpr qsizetype maxErrorBodyBytes = 4096;
constexpr qsizetype maxSessionIdBytes = 1024;
constexpr int defaultRetryMs = 1000;
} // namespace

/// One HTTP exchange: a message POSTed, a request's stream resumed, or the GET stream.
struct McpHttpTransport::Stream
{
    enum class Kind { Post, Resume, Events };
    Kind kind = Kind::Post;
    qint64 requestId = -1; ///< the request it answers; -1 for notifications and Events
    QNetworkReply *reply = nullptr;
    bool isInitialize = false; ///< a new session's initialize (resetSession())
    bool sentSession = false;  ///< carried Mcp-Session-Id: a 404 means the session is gone
    bool headersSeen = false;
    int status = 0;
    bool sse = false;
    bool done = false; ///< the request is answered or given up (requestDone())
    QByteArray body;   ///< a JSON answer, or the start of an error's
    SseParser parser;
    int resumes = 0;
};

McpHttpTransport::McpHttpTransport(const McpServerConfig &config,
                                   qsizetype maxBodyBytes,
                                   QObject *parent)
    : McpTransport(parent)
    , m_config(config)
    , m_url(config.url)
    , m_maxBodyBytes(maxBodyBytes)
{}

McpHttpTransport::~McpHttpTransport()
{
    stop(false);
}

void McpHttpTransport::open()
{
    // Made here, on the client's thread, where its replies are read.
    if (!m_network)
        m_network = new QNetworkAccessManager(this);
}

QNetworkRequest McpHttpTransport::request(const QByteArray &accept) const
{
    QNetworkRequest request(m_url);
    for (auto it = m_config.headers.cbegin(); it != m_config.headers.cend(); ++it)
        request.setRawHeader(it.key().toUtf8(), it.value().toUtf8());
    request.setRawHeader("Accept", accept);
    if (!m_sessionId.isEmpty())
        request.setRawHeader("Mcp-Session-Id", m_sessionId);
    if (!m_protocolVersion.isEmpty())
        request.setRawHeader("MCP-Protocol-Version", m_protocolVersion);
    return request;
}

void McpHttpTransport::send(const QByteArray &line, qint64 requestId)
{
    if (m_stopped)
        return;
    switch (m_renewal) {
    case Renewal::Holding:
        m_held.append({line, requestId});
        return;
    case Renewal::NextIsInitialize:
        m_renewal = Renewal::Holding;
        post(line, requestId);
        return;
    case Renewal::None:
        post(line, requestId);
        return;
    }
}

void McpHttpTransport::post(const QByteArray &line, qint64 requestId)
{
    open();
    QNetworkRequest request = this->request("application/json, text/event-stream");
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("application/json"));
    auto stream = std::make_shared<Stream>();
    stream->requestId = requestId;
    stream->sentSession = !m_sessionId.isEmpty();
    stream->isInitialize = m_renewal == Renewal::Holding && m_held.isEmpty();
    watch(m_network->post(request, line.trimmed()), stream);
}

void McpHttpTransport::watch(QNetworkReply *reply, const std::shared_ptr<Stream> &stream)
{
    stream->reply = reply;
    // A line of the stream, or an event, is one message: the same cap as a message's.
    stream->parser.setLimits(m_maxBodyBytes, m_maxBodyBytes);
    m_streams.insert(reply, stream);
    connect(reply, &QNetworkReply::readyRead, this, [this, stream] { onReadyRead(stream); });
    connect(reply, &QNetworkReply::finished, this, [this, stream] { onFinished(stream); });
}

void McpHttpTransport::onReadyRead(const std::shared_ptr<Stream> &stream)
{
    QNetworkReply *reply = stream->reply;
    if (!m_streams.contains(reply))
        return;
    if (!stream->headersSeen) {
        const QVariant status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
        if (!status.isValid())
            return;
        stream->headersSeen = true;
        stream->status = status.toInt();
        stream->sse = stream->status == 200
                      && reply->rawHeader("Content-Type")
                             .trimmed()
                             .toLower()
                             .startsWith("text/event-stream");
        const QByteArray session = reply->rawHeader("Mcp-Session-Id");
        if (stream->status / 100 == 2 && m_sessionId.isEmpty() && !session.isEmpty()
            && session.size() <= maxSessionIdBytes)
            m_sessionId = session;
        if (stream->isInitialize && stream->status / 100 == 2)
            flushHeld();
    }
    const QByteArray data = reply->readAll();
    if (!stream->sse) {
        if (stream->status / 100 != 2) {
            stream->body.append(data.left(maxErrorBodyBytes - stream->body.size()));
        } else if (stream->body.size() + data.size() > m_maxBodyBytes) {
            fail(stream,
                 McpTr::tr(
                     "the MCP server \"%1\" sent a message over the %2 MiB cap; it was dropped")
                     .arg(m_config.name)
                     .arg(m_maxBodyBytes / (1024 * 1024)));
        } else {
            stream->body.append(data);
        }
        return;
    }
    QList<QByteArray> messages;
    stream->parser.feed(data, [&messages](const SseEvent &event) {
        if (!event.data.isEmpty() && (event.type.isEmpty() || event.type == "message"))
            messages.append(event.data);
    });
    if (stream->parser.overflow() != SseParser::Overflow::None) {
        fail(stream,
             McpTr::tr("the MCP server \"%1\" sent a message over the %2 MiB cap; it was dropped")
                 .arg(m_config.name)
                 .arg(m_maxBodyBytes / (1024 * 1024)));
        return;
    }
    if (stream->kind == Stream::Kind::Events) {
        m_eventsLastId = stream->parser.lastEventId();
        if (!messages.isEmpty())
            m_eventStreamFailures = 0;
    }
    for (const QByteArray &message : std::as_const(messages)) {
        if (!m_streams.contains(reply)) // the client stopped
            return;
        JsonRpcFrame line;
        line.text = message;
        line.size = message.size();
        emit received(line);
    }
}

void McpHttpTransport::onFinished(const std::shared_ptr<Stream> &stream)
{
    QNetworkReply *reply = stream->reply;
    onReadyRead(stream); // what came with the end
    if (!m_streams.contains(reply))
        return;
    if (stream->isInitialize)
        flushHeld();
    if (!stream->headersSeen) {
        const QString error = McpTr::tr("the MCP server \"%1\" cannot be reached at %2: %3")
                                  .arg(m_config.name, m_config.url, reply->errorString());
        if (stream->kind != Stream::Kind::Events
            && reply->error() != QNetworkReply::OperationCanceledError) {
            // Nothing answered a message at all: the server is down. Like a stdio server whose
            // process ended, it is reported (Failed, with the reason) and started again on the
            // next call, rather than staying "ready" while every call fails.
            forget(stream);
            emit gone(error);
            return;
        }
        fail(stream, error);
        return;
    }
    if (stream->kind == Stream::Kind::Events) {
        forget(stream);
        if (stream->status == 405) {
            emit logged(McpTr::tr("agentdesk: the server offers no stream of its own messages "
                                  "(GET: HTTP 405)\n")
                            .toUtf8());
            return;
        }
        if (stream->status == 404 && stream->sentSession)
            return; // the session is gone; the next request finds out and starts a new one
        if (++m_eventStreamFailures > maxEventStreamFailures) {
            emit logged(McpTr::tr("agentdesk: the server's stream of its own messages ended %1 "
                                  "times; it is not opened again\n")
                            .arg(maxEventStreamFailures)
                            .toUtf8());
            return;
        }
        QTimer::singleShot(stream->parser.retryMs().value_or(defaultRetryMs), this, [this] {
            openEventStream();
        });
        return;
    }
    if (stream->status == 404 && stream->sentSession && stream->requestId >= 0 && !stream->done) {
        stream->done = true;
        forget(stream);
        emit sessionExpired(stream->requestId);
        return;
    }
    if (stream->status / 100 != 2) {
        fail(stream,
             httpError(stream->status,
                       reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toString(),
                       stream->body));
        return;
    }
    if (stream->requestId < 0 || stream->done) {
        forget(stream);
        return;
    }
    if (stream->sse) {
        stream->parser.finish();
        if (!stream->parser.lastEventId().isEmpty() && stream->resumes < maxResumes) {
            resume(stream);
            return;
        }
        fail(stream,
             McpTr::tr("the MCP server \"%1\" ended the stream before its answer (%2)")
                 .arg(m_config.name,
                      reply->error() == QNetworkReply::NoError ? McpTr::tr("closed by the server")
                                                               : reply->errorString()));
        return;
    }
    if (stream->body.trimmed().isEmpty()) {
        fail(stream,
             McpTr::tr("the MCP server \"%1\" answered HTTP %2 without a message")
                 .arg(m_config.name)
                 .arg(stream->status));
        return;
    }
    JsonRpcFrame line;
    line.text = std::exchange(stream->body, {});
    line.size = line.text.size();
    emit received(line);
    if (m_streams.contains(reply) && !stream->done)
        fail(stream,
             McpTr::tr("the MCP server \"%1\" answered without a response to the request")
                 .arg(m_config.name));
    else
        forget(stream);
}

void McpHttpTransport::resume(const std::shared_ptr<Stream> &stream)
{
    auto next = std::make_shared<Stream>();
    next->kind = Stream::Kind::Resume;
    next->requestId = stream->requestId;
    next->sentSession = !m_sessionId.isEmpty();
    next->parser = stream->parser; // its last event id and retry
    next->resumes = stream->resumes + 1;
    forget(stream);
    emit logged(
        McpTr::tr("agentdesk: the stream of request %1 ended early; resuming after event %2\n")
            .arg(stream->requestId)
            .arg(QString::fromUtf8(next->parser.lastEventId().left(100)))
            .toUtf8());
    QNetworkRequest request = this->request("text/event-stream");
    request.setRawHeader("Last-Event-ID", next->parser.lastEventId());
    watch(m_network->get(request), next);
}

void McpHttpTransport::openEventStream()
{
    if (m_stopped || !m_network || m_protocolVersion.isEmpty())
        return;
    for (const auto &stream : std::as_const(m_streams)) {
        if (stream->kind == Stream::Kind::Events)
            return;
    }
    QNetworkRequest request = this->request("text/event-stream");
    if (!m_eventsLastId.isEmpty())
        request.setRawHeader("Last-Event-ID", m_eventsLastId);
    auto stream = std::make_shared<Stream>();
    stream->kind = Stream::Kind::Events;
    stream->sentSession = !m_sessionId.isEmpty();
    watch(m_network->get(request), stream);
}

void McpHttpTransport::fail(const std::shared_ptr<Stream> &stream, const QString &error)
{
    forget(stream);
    if (stream->requestId >= 0 && !std::exchange(stream->done, true))
        emit requestFailed(stream->requestId, error);
    else
        emit logged(QStringLiteral("agentdesk: %1\n").arg(error).toUtf8());
}

void McpHttpTransport::forget(const std::shared_ptr<Stream> &stream)
{
    QNetworkReply *reply = stream->reply;
    if (!m_streams.remove(reply))
        return;
    reply->disconnect(this);
    // Inside the reply's own signal: it goes once that is over.
    QMetaObject::invokeMethod(
        reply,
        [reply] {
            reply->abort();
            reply->deleteLater();
        },
        Qt::QueuedConnection);
}

void McpHttpTransport::requestDone(qint64 requestId, bool answered)
{
    const auto streams = m_streams.values();
    for (const auto &stream : streams) {
        if (stream->requestId != requestId)
            continue;
        // An answered request's stream ends by itself, and its connection is used again; a
        // given up one's may never end.
        if (!std::exchange(stream->done, true) && !answered && stream->headersSeen)
            forget(stream);
    }
}

void McpHttpTransport::sessionStarted(const QString &protocolVersion)
{
    m_protocolVersion = protocolVersion.toUtf8();
    m_eventStreamFailures = 0;
    openEventStream();
}

void McpHttpTransport::resetSession()
{
    const auto streams = m_streams.values();
    for (const auto &stream : streams) {
        if (stream->kind == Stream::Kind::Events)
            forget(stream);
    }
    m_sessionId.clear();
    m_protocolVersion.clear();
    m_eventsLastId.clear();
    m_renewal = Renewal::NextIsInitialize;
}

void McpHttpTransport::flushHeld()
{
    if (m_renewal == Renewal::None)
        return;
    m_renewal = Renewal::None;
    const auto held = std::exchange(m_held, {});
    for (const auto &[line, requestId] : held)
        post(line, requestId);
}

QString McpHttpTransport::httpError(int status, const QString &reason, const QByteArray &body) const
{
    QString text = QString::fromUtf8(body);
    if (text.contains(QLatin1Char('<'))) {
        // An HTML error page: its words, not its markup.
        static const QRegularExpression hidden(QStringLiteral("<(script|style|head)\\b.*?</\\1>"),
                                               QRegularExpression::CaseInsensitiveOption
                                                   | QRegularExpression::DotMatchesEverythingOption);
        static const QRegularExpression tag(QStringLiteral("<[^>]*>"));
        text.remove(hidden);
        text.replace(tag, QStringLiteral(" "));
    }
    text = text.simplified();
    if (text.size() > 300)
        text = text.left(300) + QStringLiteral("…");
    QString error
        = McpTr::tr("the MCP server \"%1\" answered HTTP %2").arg(m_config.name).arg(status);
    if (!reason.isEmpty())
        error += QLatin1Char(' ') + reason;
    if (!text.isEmpty())
        error += QStringLiteral(": ") + text;
    return error;
}

void McpHttpTransport::stop(bool gracefully)
{
    if (std::exchange(m_stopped, true))
        return;
    const auto streams = m_streams.values();
    m_streams.clear();
    for (const auto &stream : streams) {
        stream->reply->disconnect(this);
        stream->reply->abort();
        stream->reply->deleteLater();
    }
    m_held.clear();
    if (!gracefully || !m_network || m_sessionId.isEmpty())
        return;
    // The session ends with a DELETE; a server that does not allow it answers 405, one that is
    // gone does not answer: either way the stop goes on after a short wait.
    QNetworkRequest request = this->request("application/json, text/event-stream");
    request.setTransferTimeout(stopGraceMs);
    QNetworkReply *reply = m_network->deleteResource(request);
    QEventLoop loop;
    connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    QTimer::singleShot(stopGraceMs, &loop, &QEventLoop::quit);
    loop.exec(QEventLoop::ExcludeUserInputEvents);
    reply->disconnect();
    reply->abort();
    delete reply;
}

} // namespace AgentCore

#include "moc_mcphttptransport.cpp"
