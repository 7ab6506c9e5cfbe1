#include "httpmodelclient.h"
#include "translation.h"

#include "httperror.h"
#include "jsonreader.h"
#include "lowdelaysockets.h"
#include "requestbuilder.h"
#include "sseparser.h"
#include "streamassembler.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QLocale>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QRandomGenerator>
#include <QScopeGuard>
#include <QThread>
#include <QTimeZone>
#include <QTimer>

#include <cmath>
#include <limits>

namespace AgentCore {

namespace {

using EndReason = StreamAssembler::EndReason;

constexpr qsizetype ReadChunkSize = 64 * 1024;
constexpr qsizetype MaxErrorBodySize = 64 * 1024; // enough for any provider's error JSON
// What an error quotes of a 2xx body that was no event stream (an HTML page, a JSON answer).
constexpr qsizetype BodyStartSize = 512;
constexpr qsizetype QuotedBodyLength = 160;
// After the provider's final event the body normally ends at once; reading it to its end lets
// the connection be reused. A server that keeps it open is not waited for longer than this.
constexpr int CompletionGraceMs = 200;

/// How one HTTP exchange (request and response) ended.
struct ExchangeResult
{
    enum class End {
        /// The reply finished without a network error, or the assembler decided the message
        /// (its final event, an error event, a limit); whether the body was complete is the
        /// assembler's to say.
        BodyEnded,
        HttpError,    ///< a non-2xx status; errorBody holds (the start of) the body
        NetworkError, ///< the connection failed
        IdleTimeout,
        DeadlineExceeded, ///< ProviderConfig::requestTimeoutMs passed
        LimitExceeded,    ///< a line or an event was too long; limitMessage says which
        Aborted,
    };

    End end = End::BodyEnded;
    bool bodyStarted = false; ///< a byte of a 2xx body reached the parser
    int events = 0;           ///< SSE events handed to the assembler
    /// The body ended cleanly inside an event: its data was no whole payload.
    bool endedInsideEvent = false;
    int status = 0;
    QByteArray contentType;
    QByteArray bodyStart; ///< the first BodyStartSize bytes of a 2xx body
    QString limitMessage;
    QByteArray errorBody;
    QNetworkReply::NetworkError networkError = QNetworkReply::NoError;
    QString networkErrorText;
    std::optional<qint64> retryAfterMs;
};

QString formatDuration(qint64 ms)
{
    if (ms < 1000)
        return AiTr::tr("%n ms", nullptr, int(ms));
    if (ms < 120'000) {
        const qint64 tenths = (ms + 50) / 100;
        if (tenths % 10 == 0)
            return AiTr::tr("%n s", nullptr, int(tenths / 10));
        return AiTr::tr("%1 s").arg(QLocale::c().toString(double(tenths) / 10, 'f', 1));
    }
    return AiTr::tr("%n min", nullptr, int((ms + 59'999) / 60'000));
}

QString describeNetworkError(QNetworkReply::NetworkError error, const QString &fallback)
{
    switch (error) {
    case QNetworkReply::ConnectionRefusedError:
        return AiTr::tr("the connection was refused");
    case QNetworkReply::RemoteHostClosedError:
        return AiTr::tr("the server closed the connection");
    case QNetworkReply::HostNotFoundError:
        return AiTr::tr("the host was not found");
    case QNetworkReply::TimeoutError:
        return AiTr::tr("the connection timed out");
    case QNetworkReply::SslHandshakeFailedError:
        return AiTr::tr("the TLS handshake failed");
    case QNetworkReply::TemporaryNetworkFailureError:
    case QNetworkReply::NetworkSessionFailedError:
        return AiTr::tr("the network is unavailable");
    case QNetworkReply::ProxyConnectionRefusedError:
    case QNetworkReply::ProxyConnectionClosedError:
    case QNetworkReply::ProxyNotFoundError:
    case QNetworkReply::ProxyTimeoutError:
        return AiTr::tr("the proxy failed");
    case QNetworkReply::TooManyRedirectsError:
        return AiTr::tr("too many redirects");
    default:
        return fallback;
    }
}

/// Transient failures before a response: worth sending the same request again.
bool isRetryableNetworkError(QNetworkReply::NetworkError error)
{
    switch (error) {
    case QNetworkReply::ConnectionRefusedError:
    case QNetworkReply::RemoteHostClosedError:
    case QNetworkReply::TimeoutError:
    case QNetworkReply::TemporaryNetworkFailureError:
    case QNetworkReply::NetworkSessionFailedError:
    case QNetworkReply::ProxyConnectionClosedError:
    case QNetworkReply::UnknownNetworkError:
        return true;
    default:
        return false;
    }
}

QNetworkRequest makeNetworkRequest(const HttpRequestSpec &spec)
{
    QNetworkRequest request(spec.url);
    for (const auto &[name, value] : spec.headers)
        request.setRawHeader(name, value);
    if (!request.hasRawHeader("Accept"))
        request.setRawHeader("Accept", "text/event-stream");
    request.setAttribute(QNetworkRequest::CacheLoadControlAttribute, QNetworkRequest::AlwaysNetwork);
    request.setAttribute(QNetworkRequest::CacheSaveControlAttribute, false);
    return request;
}

/// Runs one request to its end inside \a loop, feeding a 2xx body through an SSE parser into
/// the assembler. The abort token's callback quits \a loop; an end without a recorded reason
/// therefore means "aborted".
class Exchange final
{
public:
    Exchange(const ProviderConfig &config, StreamAssembler &assembler, const StreamEventSink &sink)
        : m_config(config)
        , m_assembler(assembler)
        , m_sink(sink)
        , m_eventSink([this](const SseEvent &event) {
            ++m_result.events;
            m_assembler.feed(event, m_sink);
        })
    {
        m_parser.setLimits(config.maxLineBytes, config.maxEventBytes);
    }

    /// \a deadline: when the whole request must end.
    ExchangeResult run(QNetworkAccessManager &network,
                       const HttpRequestSpec &spec,
                       QEventLoop &loop,
                       const QDeadlineTimer &deadline)
    {
        m_loop = &loop;
        m_reply.reset(network.post(makeNetworkRequest(spec), spec.body));
        QNetworkReply *reply = m_reply.get();
        QObject::connect(reply, &QNetworkReply::metaDataChanged, &m_guard, [this] { touch(); });
        QObject::connect(reply, &QNetworkReply::uploadProgress, &m_guard, [this] { touch(); });
        QObject::connect(reply, &QNetworkReply::readyRead, &m_guard, [this] { readAvailable(); });
        QObject::connect(reply, &QNetworkReply::finished, &m_guard, [this] { replyFinished(); });
        // TCP_NODELAY on the connection (lowdelaysockets.h says why). Qt has made its socket
        // by the time it reports the request's first bytes written (requestSent, HTTP/1);
        // turning TCP_NODELAY on also sends at once what Nagle still holds, so the first
        // request of a new connection is not held back either, and every later one leaves at
        // once. The response's headers come after the request on any protocol (HTTP/2 too).
        const auto lowDelay = [url = spec.url] { setLowDelayOnConnectionsTo(url); };
        QObject::connect(reply, &QNetworkReply::requestSent, &m_guard, lowDelay);
        QObject::connect(reply, &QNetworkReply::metaDataChanged, &m_guard, lowDelay);
        startIdleTimer();
        if (!deadline.isForever()) {
            m_deadlineTimer.setSingleShot(true);
            QObject::connect(&m_deadlineTimer, &QTimer::timeout, &m_guard, [this] {
                end(ExchangeResult::End::DeadlineExceeded);
            });
            m_deadlineTimer.start(int(qBound(qint64(0),
                                             deadline.remainingTime(),
                                             qint64(std::numeric_limits<int>::max()))));
        }

        loop.exec();

        if (!m_ended)
            m_result.end = m_complete ? ExchangeResult::End::BodyEnded
                                      : ExchangeResult::End::Aborted;
        m_idleTimer.stop();
        m_deadlineTimer.stop();
        reply->disconnect(&m_guard);
        if (reply->isRunning())
            reply->abort();
        return m_result;
    }

private:
    struct ReplyDeleter
    {
        void operator()(QNetworkReply *reply) const { delete reply; }
    };

    void touch() { m_sinceLastByte.start(); }

    void startIdleTimer()
    {
        if (m_config.idleTimeoutMs <= 0)
            return;
        m_sinceLastByte.start();
        m_idleTimer.setSingleShot(true);
        QObject::connect(&m_idleTimer, &QTimer::timeout, &m_guard, [this] { checkIdle(); });
        m_idleTimer.start(m_config.idleTimeoutMs);
    }

    // Restarting a timer per chunk is costly on the hot path; the timer instead checks the
    // time since the last byte when it fires, and re-arms for the rest.
    void checkIdle()
    {
        const qint64 idle = m_sinceLastByte.elapsed();
        if (idle < m_config.idleTimeoutMs) {
            m_idleTimer.start(int(m_config.idleTimeoutMs - idle));
            return;
        }
        end(ExchangeResult::End::IdleTimeout);
    }

    void end(ExchangeResult::End how)
    {
        if (m_ended)
            return;
        m_ended = true;
        m_result.end = how;
        m_loop->quit();
    }

    bool readStatus()
    {
        if (m_result.status == 0) {
            const QVariant status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
            if (!status.isValid())
                return false;
            m_result.status = status.toInt();
            m_result.contentType = m_reply->rawHeader("Content-Type");
        }
        return true;
    }

    bool isSuccess() const { return m_result.status >= 200 && m_result.status < 300; }

    void readAvailable()
    {
        touch();
        if (m_ended || !readStatus())
            return;
        if (!isSuccess()) {
            const qsizetype room = MaxErrorBodySize - m_result.errorBody.size();
            m_result.errorBody += m_reply->read(qMax<qsizetype>(0, room));
            m_reply->skip(m_reply->bytesAvailable());
            return;
        }
        if (m_buffer.isEmpty())
            m_buffer.resize(ReadChunkSize);
        qint64 count = 0;
        while (!m_ended && (count = m_reply->read(m_buffer.data(), m_buffer.size())) > 0) {
            if (m_complete)
                continue; // the message ended: what follows is not part of it
            const QByteArrayView bytes(m_buffer.constData(), count);
            m_result.bodyStarted = true;
            if (m_result.bodyStart.size() < BodyStartSize)
                m_result.bodyStart += bytes.first(
                    qMin<qsizetype>(count, BodyStartSize - m_result.bodyStart.size()));
            m_parser.feed(bytes, m_eventSink);
            if (m_parser.overflow() != SseParser::Overflow::None) {
                m_result.limitMessage = m_parser.overflow() == SseParser::Overflow::Line
                                            ? streamLimitMessage(StreamLimit::Line,
                                                                 m_config.maxLineBytes)
                                            : streamLimitMessage(StreamLimit::Event,
                                                                 m_config.maxEventBytes);
                end(ExchangeResult::End::LimitExceeded);
                return;
            }
            if (m_assembler.isComplete()) {
                // A failed message (an error event, a limit) cannot change any more: reading
                // on would only buffer what the server still sends.
                if (m_assembler.partial().stopReason == StopReason::Error)
                    end(ExchangeResult::End::BodyEnded);
                else
                    startGracePeriod();
            }
        }
    }

    void startGracePeriod()
    {
        m_complete = true;
        m_idleTimer.stop();
        QTimer::singleShot(CompletionGraceMs, &m_guard, [this] {
            end(ExchangeResult::End::BodyEnded);
        });
    }

    void replyFinished()
    {
        readAvailable();
        if (m_ended)
            return;
        readStatus();
        if (m_result.status != 0 && !isSuccess()) {
            readRetryAfter();
            end(ExchangeResult::End::HttpError);
            return;
        }
        const QNetworkReply::NetworkError error = m_reply->error();
        if (m_complete) {
            m_parser.finish();
            end(ExchangeResult::End::BodyEnded);
            return;
        }
        if (error == QNetworkReply::NoError) {
            // A clean end closes the last event even without its blank line, as the SDKs keep
            // it (some recorded Anthropic streams end so); a payload cut short stays out.
            m_parser.finishAtCleanEnd([this](const SseEvent &event) {
                if (isWholePayload(event.data))
                    m_eventSink(event);
                else
                    m_result.endedInsideEvent = true;
            });
            end(ExchangeResult::End::BodyEnded);
            return;
        }
        m_result.networkError = error;
        m_result.networkErrorText = describeNetworkError(error, m_reply->errorString());
        end(ExchangeResult::End::NetworkError);
    }

    /// Every payload of the three APIs is a JSON document or "[DONE]": anything else at the
    /// end of a body is the start of one.
    static bool isWholePayload(const QByteArray &data)
    {
        return data == "[DONE]" || JsonReader().parse(data);
    }

    void readRetryAfter()
    {
        m_result.retryAfterMs = retryAfterDelayMs(m_reply->rawHeader("retry-after-ms"),
                                                  m_reply->rawHeader("Retry-After"),
                                                  QDateTime::currentDateTimeUtc());
    }

    const ProviderConfig &m_config;
    StreamAssembler &m_assembler;
    const StreamEventSink &m_sink;
    const SseParser::Sink m_eventSink;
    SseParser m_parser;
    QByteArray m_buffer;
    QObject m_guard; // context of every connection, so that they all end with the exchange
    QTimer m_idleTimer;
    QTimer m_deadlineTimer;
    QElapsedTimer m_sinceLastByte;
    QEventLoop *m_loop = nullptr;
    std::unique_ptr<QNetworkReply, ReplyDeleter> m_reply;
    ExchangeResult m_result;
    bool m_ended = false;
    bool m_complete = false; ///< the assembler has the provider's final event
};

/// The wait before retry number \a retry (0-based), without a server's wish.
qint64 backoffDelayMs(const ProviderConfig &config, int retry)
{
    const double base = qMax(0, config.retryBaseDelayMs) * std::pow(2.0, qMin(retry, 30));
    const double jitter = base * 0.25 * QRandomGenerator::global()->generateDouble();
    return qint64(qMin(base + jitter, double(qMax(0, config.retryMaxDelayMs))));
}

QDateTime parseHttpDate(const QByteArray &value)
{
    const QString text = QString::fromLatin1(value).simplified();
    // IMF-fixdate, the form HTTP/1.1 servers must send; RFC 850 and asctime are obsolete.
    const QDateTime local = QLocale::c().toDateTime(text,
                                                    QStringLiteral(
                                                        "ddd, dd MMM yyyy HH:mm:ss 'GMT'"));
    if (local.isValid())
        return QDateTime(local.date(), local.time(), QTimeZone::utc());
    return QDateTime::fromString(text, Qt::RFC2822Date);
}

} // namespace

std::optional<qint64> retryAfterDelayMs(const QByteArray &retryAfterMs,
                                        const QByteArray &retryAfter,
                                        const QDateTime &now)
{
    bool ok = false;
    const double ms = retryAfterMs.trimmed().toDouble(&ok);
    if (ok && std::isfinite(ms))
        return qint64(qBound(0.0, std::ceil(ms), 1e12));
    const QByteArray value = retryAfter.trimmed();
    if (value.isEmpty())
        return std::nullopt;
    const qint64 seconds = value.toLongLong(&ok);
    if (ok)
        return qBound<qint64>(0, seconds, 1'000'000'000LL) * 1000;
    const QDateTime date = parseHttpDate(value);
    if (!date.isValid())
        return std::nullopt;
    return qMax<qint64>(0, now.msecsTo(date));
}

HttpModelClient::HttpModelClient(ProviderConfig config)
    : m_config(std::move(config))
{}

HttpModelClient::~HttpModelClient()
{
    if (!m_network)
        return;
    // thread() is null once the owning QThread object is gone.
    QThread *owner = m_network->thread();
    if (owner && owner != QThread::currentThread() && !owner->isFinished())
        m_network.release()->deleteLater();
}

namespace {

/// What complete() does after one exchange; keeps the retry policy in one place.
///
/// One rule decides between a retry, an error and a clean end: the message ends cleanly only
/// when the assembler has the provider's final event (a clean end of the body dispatches a last
/// event that no blank line followed, if its payload is whole), or, for Chat Completions, when
/// the body ended cleanly after the finish_reason (StreamAssembler::isCompleteAtCleanEnd()).
/// A response of which no event reached the assembler is sent again when the failure is
/// transient (nothing was shown yet, so nothing is duplicated): a connection closed or reset
/// before, during or after the headers, or a body that ended before its first event, whatever
/// Qt reports for it. A body that ended after events but otherwise (a transport error, a cut
/// inside an event, no final event) is a connection lost mid-stream.
///
/// Every event and the final message pass through redacted(): no text a provider sent (error
/// events inside a stream included) carries the session's API key further.
class RequestRun final
{
public:
    RequestRun(const ProviderConfig &config, const AbortToken &abort, const StreamEventSink &sink)
        : m_config(config)
        , m_abort(abort)
        , m_sink([this, &sink](const StreamEvent &event) { forward(event, sink); })
        , m_assembler(createStreamAssembler(config))
    {}

    Message run(QNetworkAccessManager &network, const Context &context)
    {
        Message message = attempt(network, context);
        message.errorMessage = redacted(message.errorMessage);
        return message;
    }

private:
    Message attempt(QNetworkAccessManager &network, const Context &context)
    {
        if (m_abort.isAborted())
            return aborted();
        if (m_config.requestTimeoutMs > 0)
            m_deadline.setRemainingTime(m_config.requestTimeoutMs, Qt::PreciseTimer);
        const HttpRequestSpec spec = buildRequest(m_config, context);
        const int abortId = m_abort.onAbort(&m_loop, [this] { m_loop.quit(); });
        const auto unregister = qScopeGuard([&] { m_abort.disconnect(abortId); });
        for (int retry = 0;; ++retry) {
            if (m_abort.isAborted())
                return aborted();
            if (m_deadline.hasExpired())
                return deadlineExceeded();
            const ExchangeResult result = Exchange(m_config, *m_assembler, m_sink)
                                              .run(network, spec, m_loop, m_deadline);
            if (std::optional<Message> message = conclude(result, retry))
                return *message;
        }
    }

    void forward(const StreamEvent &event, const StreamEventSink &sink) const
    {
        if (!sink)
            return;
        if (event.errorMessage.isEmpty()) {
            sink(event);
            return;
        }
        StreamEvent copy = event;
        copy.errorMessage = redacted(event.errorMessage);
        sink(copy);
    }

    /// The final message, or nullopt after a retry wait.
    std::optional<Message> conclude(const ExchangeResult &result, int retry)
    {
        using End = ExchangeResult::End;
        switch (result.end) {
        case End::BodyEnded:
        case End::NetworkError:
            return bodyEnded(result, retry);
        case End::Aborted:
            return aborted();
        case End::IdleTimeout:
            return m_assembler->finish(EndReason::IdleTimeout,
                                       AiTr::tr("No data from the server for %1; the response was "
                                                "abandoned")
                                           .arg(formatDuration(m_config.idleTimeoutMs)),
                                       m_sink);
        case End::DeadlineExceeded:
            return deadlineExceeded();
        case End::LimitExceeded:
            return m_assembler->finish(EndReason::ConnectionDropped, result.limitMessage, m_sink);
        case End::HttpError:
            return httpFailure(result, retry);
        }
        return aborted();
    }

    std::optional<Message> bodyEnded(const ExchangeResult &result, int retry)
    {
        using End = ExchangeResult::End;
        const bool cleanEnd = result.end == End::BodyEnded && !result.endedInsideEvent;
        if (m_assembler->isComplete() || (cleanEnd && m_assembler->isCompleteAtCleanEnd()))
            return m_assembler->finish(EndReason::StreamEnded, {}, m_sink);
        const QString host = m_config.baseUrl.host();
        if (result.events == 0) {
            if (result.end == End::BodyEnded && result.bodyStarted
                && !isEventStream(result.contentType)) {
                return failed(notAnEventStream(result), StopReason::Error);
            }
            return connectionFailure(result, retry);
        }
        const QString reason = result.end == End::NetworkError ? result.networkErrorText
                               : result.endedInsideEvent
                                   ? AiTr::tr("the response ended inside an event")
                                   : AiTr::tr("the response ended before the provider's final "
                                              "event");
        return m_assembler->finish(EndReason::ConnectionDropped,
                                   AiTr::tr("Connection to %1 lost mid-stream: %2").arg(host, reason),
                                   m_sink);
    }

    /// Nothing of the response reached the assembler: a transient failure is retried.
    std::optional<Message> connectionFailure(const ExchangeResult &result, int retry)
    {
        QString reason;
        bool retryable = true;
        if (result.end == ExchangeResult::End::NetworkError) {
            reason = result.networkErrorText;
            retryable = isRetryableNetworkError(result.networkError) || result.status != 0;
        } else if (result.bodyStarted) {
            reason = AiTr::tr("the response ended before its first event");
        } else if (result.status != 0) {
            reason = AiTr::tr("the server closed the connection after the response headers");
        } else {
            reason = AiTr::tr("the server closed the connection");
        }
        const QString message = AiTr::tr("Connection to %1 failed: %2")
                                    .arg(m_config.baseUrl.host(), reason);
        if (retryable && retry < m_config.maxRetries) {
            if (!waitBeforeRetry(retry, backoffDelayMs(m_config, retry), message))
                return aborted();
            return std::nullopt;
        }
        return m_assembler->finish(EndReason::ConnectionDropped,
                                   withRetries(message, retry),
                                   m_sink);
    }

    static bool isEventStream(const QByteArray &contentType)
    {
        return contentType.trimmed().toLower().startsWith("text/event-stream");
    }

    /// A 2xx answer that is no event stream: most often a wrong base URL (a web page, or a
    /// server that ignored "stream": true).
    QString notAnEventStream(const ExchangeResult &result) const
    {
        QString quoted = QString::fromUtf8(result.bodyStart).simplified();
        if (quoted.size() > QuotedBodyLength || result.bodyStart.size() >= BodyStartSize)
            quoted = quoted.left(QuotedBodyLength) + QChar(0x2026);
        const QString type = result.contentType.isEmpty()
                                 ? AiTr::tr("no content type")
                                 : QString::fromLatin1(result.contentType.trimmed());
        const QString url = m_config.baseUrl.toDisplayString(QUrl::RemoveUserInfo);
        return AiTr::tr("The server answered HTTP %1 with %2 instead of an event stream, beginning "
                        "\"%3\". Is %4 the right base URL?")
            .arg(QString::number(result.status), type, quoted, url);
    }

    Message deadlineExceeded()
    {
        return m_assembler->finish(EndReason::DeadlineExceeded,
                                   AiTr::tr("The request was abandoned after %1, its deadline for "
                                            "the whole response")
                                       .arg(formatDuration(m_config.requestTimeoutMs)),
                                   m_sink);
    }

    std::optional<Message> httpFailure(const ExchangeResult &result, int retry)
    {
        const HttpError error = describeHttpError(m_config, result.status, result.errorBody);
        QString message = error.message;
        if (error.retryable && retry < m_config.maxRetries) {
            const qint64 delay = result.retryAfterMs.value_or(backoffDelayMs(m_config, retry));
            if (delay <= m_config.retryMaxDelayMs) {
                if (!waitBeforeRetry(retry, delay, message))
                    return aborted();
                return std::nullopt;
            }
            message = AiTr::tr("%1 (the server asked to wait %2 before retrying; not retried)")
                          .arg(message, formatDuration(delay));
        } else if (error.retryable) {
            message = withRetries(message, retry);
        }
        return failed(message,
                      error.contextOverflow ? StopReason::ContextOverflow : StopReason::Error);
    }

    /// Emits the Retry event and waits (never past the deadline); false when aborted meanwhile.
    bool waitBeforeRetry(int retry, qint64 delayMs, const QString &reason)
    {
        StreamEvent event;
        event.type = StreamEvent::Type::Retry;
        event.retryAttempt = retry + 1;
        event.retryDelayMs = int(qMin<qint64>(delayMs, std::numeric_limits<int>::max()));
        event.errorMessage = reason;
        m_sink(event);
        if (m_abort.isAborted())
            return false;
        QTimer timer;
        timer.setSingleShot(true);
        timer.setTimerType(Qt::PreciseTimer);
        QObject::connect(&timer, &QTimer::timeout, &m_loop, &QEventLoop::quit);
        timer.start(
            m_deadline.isForever()
                ? event.retryDelayMs
                : int(qBound(qint64(0), m_deadline.remainingTime(), qint64(event.retryDelayMs))));
        m_loop.exec();
        return !m_abort.isAborted();
    }

    // Some servers echo the credentials they rejected; a message must never carry the key.
    QString redacted(const QString &text) const { return redactSecret(text, m_config.apiKey); }

    QString withRetries(const QString &message, int retries) const
    {
        if (retries == 0)
            return message;
        return AiTr::tr("%1 (gave up after %n retries)", nullptr, retries).arg(message);
    }

    /// An error before any content: the assembler makes the message, its stop reason and the
    /// single Error event are set here.
    Message failed(const QString &message, StopReason reason)
    {
        Message result = m_assembler->finish(EndReason::ConnectionDropped,
                                             message,
                                             [](const StreamEvent &) {});
        result.stopReason = reason;
        result.errorMessage = message;
        StreamEvent event;
        event.type = StreamEvent::Type::Error;
        event.stopReason = reason;
        event.errorMessage = message;
        m_sink(event);
        return result;
    }

    Message aborted()
    {
        return m_assembler->finish(EndReason::Aborted, AiTr::tr("The request was aborted"), m_sink);
    }

    const ProviderConfig &m_config;
    const AbortToken &m_abort;
    const StreamEventSink m_sink; ///< the caller's sink behind redacted()
    std::unique_ptr<StreamAssembler> m_assembler;
    QEventLoop m_loop;
    QDeadlineTimer m_deadline{QDeadlineTimer::Forever};
};

} // namespace

Message HttpModelClient::complete(const Context &context,
                                  const AbortToken &abort,
                                  const StreamEventSink &sink)
{
    if (!m_network)
        m_network = std::make_unique<QNetworkAccessManager>();
    const ProviderConfig config = m_config;
    return RequestRun(config, abort, sink).run(*m_network, context);
}

} // namespace AgentCore
