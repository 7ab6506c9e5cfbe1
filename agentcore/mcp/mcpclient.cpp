#include "mcpclient.h"
#include "translation.h"

#include "mcphttptransport.h"
#include "mcpstdiotransport.h"
#include <jsonrpc/jsonrpcmessage.h>

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QThread>
#include <QTimer>

namespace AgentCore {

namespace {

constexpr int maxCancelledRemembered = 1000;

QString seconds(int ms)
{
    return QString::number(ms / 1000.0, 'g', 3);
}

McpCallResult failure(const QString &error, bool aborted = false)
{
    McpCallResult result;
    result.error = error;
    result.aborted = aborted;
    return result;
}

} // namespace

/// One blocked caller of call().
struct McpClient::Call
{
    QMutex mutex;
    QWaitCondition condition;
    bool finished = false;
    McpCallResult result;

    void finish(const McpCallResult &value)
    {
        QMutexLocker locker(&mutex);
        if (finished)
            return;
        finished = true;
        result = value;
        condition.wakeAll();
    }
    bool isFinished()
    {
        QMutexLocker locker(&mutex);
        return finished;
    }
};

/// One request sent and not answered yet.
struct McpClient::Pending
{
    QString method;
    Done done;
    std::function<void(const McpProgress &)> onProgress;
    QTimer *timer = nullptr;
    AbortToken abort;
    int abortId = -1;
    QByteArray message;  ///< as sent, for a resend in a new session (HTTP)
    bool resent = false; ///< once only
};

const QStringList &McpClient::supportedProtocolVersions()
{
    static const QStringList versions{QStringLiteral("2025-11-25"),
                                      QStringLiteral("2025-06-18"),
                                      QStringLiteral("2025-03-26"),
                                      QStringLiteral("2024-11-05")};
    return versions;
}

McpClient::McpClient(McpServerConfig config, McpClientOptions options)
    : m_config(std::move(config))
    , m_options(std::move(options))
{}

McpClient::~McpClient()
{
    // shutdown() ran on the client's thread (McpHost); what is left are plain values.
    qDeleteAll(m_pending);
}

McpClient::State McpClient::state() const
{
    QMutexLocker locker(&m_mutex);
    return m_state;
}

QString McpClient::error() const
{
    QMutexLocker locker(&m_mutex);
    return m_error;
}

QList<McpToolInfo> McpClient::tools() const
{
    QMutexLocker locker(&m_mutex);
    return m_tools;
}

QString McpClient::log() const
{
    QMutexLocker locker(&m_mutex);
    return QString::fromUtf8(m_log);
}

QString McpClient::protocolVersion() const
{
    QMutexLocker locker(&m_mutex);
    return m_protocolVersion;
}

void McpClient::start()
{
    QMetaObject::invokeMethod(
        this, [this] { startNow(); }, Qt::QueuedConnection);
}

bool McpClient::waitUntilSettled(int timeoutMs) const
{
    QDeadlineTimer deadline(timeoutMs);
    QMutexLocker locker(&m_mutex);
    while (m_state == State::Starting || (m_state == State::Stopped && !m_closed)) {
        if (!m_settled.wait(&m_mutex, deadline))
            return false;
    }
    return m_state == State::Ready || m_state == State::Failed;
}

bool McpClient::isPending() const
{
    QMutexLocker locker(&m_mutex);
    return m_state == State::Starting || (m_state == State::Stopped && !m_closed);
}

McpCallResult McpClient::callTool(const QString &tool,
                                  const QJsonObject &arguments,
                                  const AbortToken &abort,
                                  const std::function<void(const McpProgress &)> &onProgress)
{
    return call(QStringLiteral("tools/call"),
                {{QStringLiteral("name"), tool}, {QStringLiteral("arguments"), arguments}},
                abort,
                onProgress);
}

McpCallResult McpClient::call(const QString &method,
                              const QJsonObject &params,
                              const AbortToken &abort,
                              const std::function<void(const McpProgress &)> &onProgress)
{
    Q_ASSERT(QThread::currentThread() != thread());
    auto call = std::make_shared<Call>();
    {
        QMutexLocker locker(&m_mutex);
        if (m_closed)
            return failure(McpTr::tr("the MCP server \"%1\" was stopped").arg(m_config.name));
        m_calls.insert(call.get());
    }
    QMetaObject::invokeMethod(
        this,
        [this, call, method, params, abort, onProgress] {
            beginCall(call, method, params, abort, onProgress);
        },
        Qt::QueuedConnection);
    {
        QMutexLocker locker(&call->mutex);
        while (!call->finished)
            call->condition.wait(&call->mutex);
    }
    QMutexLocker locker(&m_mutex);
    m_calls.remove(call.get());
    return call->result;
}

void McpClient::beginCall(const std::shared_ptr<Call> &call,
                          const QString &method,
                          const QJsonObject &params,
                          const AbortToken &abort,
                          const std::function<void(const McpProgress &)> &onProgress)
{
    const QString stopped = McpTr::tr("stopped by the user");
    if (m_closed || abort.isAborted()) {
        call->finish(failure(m_closed
                                 ? McpTr::tr("the MCP server \"%1\" was stopped").arg(m_config.name)
                                 : stopped,
                             !m_closed));
        return;
    }
    const Done done = [call](const McpCallResult &result) { call->finish(result); };
    auto send = [this, call, method, params, abort, onProgress, done, stopped] {
        if (call->isFinished()) // stopped while the server was starting
            return;
        const qint64 id = sendRequest(method, params, m_options.callTimeoutMs, done, onProgress);
        if (Pending *pending = m_pending.value(id)) {
            pending->abort = abort;
            pending->abortId = abort.onAbort(this, [this, id, stopped] {
                cancelRequest(id, McpTr::tr("The user stopped the run."), failure(stopped, true));
            });
        }
    };
    if (state() == State::Ready) {
        send();
        return;
    }
    // Waits for the server to be ready; a stop meanwhile ends the wait (the send sees it).
    const int abortId = abort.onAbort(this,
                                      [call, stopped] { call->finish(failure(stopped, true)); });
    m_deferred.append({[send, abort, abortId] {
                           abort.disconnect(abortId);
                           send();
                       },
                       [done, abort, abortId](const McpCallResult &result) {
                           abort.disconnect(abortId);
                           done(result);
                       }});
    if (state() != State::Starting)
        startNow();
}

void McpClient::startNow()
{
    if (m_closed || m_transport)
        return;
    m_listing = false;
    m_relistWanted = false;
    m_renewing = false;
    m_expired.clear();
    setState(State::Starting);
    if (m_config.type == QLatin1String("http"))
        m_transport = new McpHttpTransport(m_config, m_options.maxLineBytes, this);
    else
        m_transport = new McpStdioTransport(m_config,
                                            m_options.environment,
                                            m_options.workingDirectory,
                                            m_options.maxLineBytes,
                                            this);
    note(McpTr::tr("starting %1").arg(m_transport->describe()));
    McpTransport *transport = m_transport;
    connect(transport, &McpTransport::received, this, &McpClient::handleLine);
    connect(transport, &McpTransport::logged, this, &McpClient::appendLog);
    connect(transport, &McpTransport::gone, this, &McpClient::onTransportGone);
    connect(transport, &McpTransport::requestFailed, this, [this](qint64 id, const QString &error) {
        if (m_pending.contains(id))
            note(error);
        complete(id, failure(error));
    });
    connect(transport, &McpTransport::sessionExpired, this, &McpClient::onSessionExpired);

    m_startTimer = new QTimer(this);
    m_startTimer->setSingleShot(true);
    connect(m_startTimer, &QTimer::timeout, this, [this] {
        failStart(McpTr::tr("the MCP server \"%1\" did not finish starting (initialize and "
                            "tools/list) within %2 s")
                      .arg(m_config.name, seconds(m_options.initializeTimeoutMs)));
    });
    m_startTimer->start(m_options.initializeTimeoutMs);

    transport->open();
    // The start timer covers initialize; no timeout of its own.
    sendRequest(QStringLiteral("initialize"),
                initializeParams(),
                0,
                [this, transport](const McpCallResult &result) {
                    if (transport == m_transport) // not an answer for a server already given up
                        onInitialized(result);
                });
}

QJsonObject McpClient::initializeParams()
{
    return {
        {QStringLiteral("protocolVersion"), supportedProtocolVersions().first()},
        // No roots, sampling or elicitation (yet): the server must not ask for them.
        {QStringLiteral("capabilities"), QJsonObject()},
        {QStringLiteral("clientInfo"),
         QJsonObject{{QStringLiteral("name"), QStringLiteral("AgentDesk")},
                     {QStringLiteral("version"),
                      QCoreApplication::applicationVersion().isEmpty()
                          ? QStringLiteral("0")
                          : QCoreApplication::applicationVersion()}}},
    };
}

void McpClient::onSessionExpired(qint64 id)
{
    Pending *pending = m_pending.value(id);
    if (!pending)
        return;
    if (pending->resent || m_state != State::Ready) {
        complete(id,
                 failure(McpTr::tr("the MCP server \"%1\" no longer knows the session (HTTP 404)")
                             .arg(m_config.name)));
        return;
    }
    // The specification: a 404 to a request with the session id means the session is gone;
    // the client starts a new one with initialize and sends the request again, once.
    pending->resent = true;
    m_expired.append(id);
    if (m_renewing)
        return;
    m_renewing = true;
    note(McpTr::tr("the server ended the session (HTTP 404); initializing again"));
    m_transport->resetSession();
    McpTransport *transport = m_transport;
    sendRequest(QStringLiteral("initialize"),
                initializeParams(),
                m_options.initializeTimeoutMs,
                [this, transport](const McpCallResult &result) {
                    if (transport != m_transport)
                        return;
                    m_renewing = false;
                    const QList<qint64> expired = std::exchange(m_expired, {});
                    const QString version = result.result.value(QLatin1String("protocolVersion"))
                                                .toString();
                    QString error = result.error;
                    if (result.ok && version != protocolVersion())
                        error = McpTr::tr("it now speaks protocol revision \"%1\"").arg(version);
                    if (!error.isEmpty()) {
                        error = McpTr::tr("the MCP server \"%1\" ended the session and did not "
                                          "start a new one: %2")
                                    .arg(m_config.name, error);
                        note(error);
                        for (qint64 id : expired)
                            complete(id, failure(error));
                        return;
                    }
                    write(JsonRpc::notification(QStringLiteral("notifications/initialized")));
                    m_transport->sessionStarted(version);
                    for (qint64 id : expired) {
                        if (Pending *pending = m_pending.value(id))
                            write(pending->message, id);
                    }
                });
}

void McpClient::onInitialized(const McpCallResult &result)
{
    if (!result.ok) {
        failStart(McpTr::tr("the MCP server \"%1\" refused initialize: %2")
                      .arg(m_config.name, result.error));
        return;
    }
    const QString version = result.result.value(QLatin1String("protocolVersion")).toString();
    if (!supportedProtocolVersions().contains(version)) {
        failStart(McpTr::tr("the MCP server \"%1\" speaks protocol revision \"%2\"; AgentDesk "
                            "speaks %3")
                      .arg(m_config.name,
                           version,
                           supportedProtocolVersions().join(QStringLiteral(", "))));
        return;
    }
    {
        QMutexLocker locker(&m_mutex);
        m_protocolVersion = version;
    }
    const QJsonObject info = result.result.value(QLatin1String("serverInfo")).toObject();
    note(McpTr::tr("initialized: %1 %2, protocol %3")
             .arg(info.value(QLatin1String("name")).toString(),
                  info.value(QLatin1String("version")).toString(),
                  version));
    write(JsonRpc::notification(QStringLiteral("notifications/initialized")));
    m_transport->sessionStarted(version);
    const QJsonObject capabilities = result.result.value(QLatin1String("capabilities")).toObject();
    if (!capabilities.contains(QLatin1String("tools"))) {
        becomeReady();
        return;
    }
    listTools({}, {}, 0);
}

void McpClient::listTools(const QString &cursor, QList<McpToolInfo> listed, int page)
{
    m_listing = true;
    QJsonObject params;
    if (!cursor.isEmpty())
        params.insert(QStringLiteral("cursor"), cursor);
    McpTransport *transport = m_transport;
    sendRequest(QStringLiteral("tools/list"),
                params,
                m_state == State::Starting ? 0 : m_options.callTimeoutMs,
                [this, listed, page, transport](const McpCallResult &result) mutable {
                    if (transport != m_transport) // an answer for a server since replaced
                        return;
                    if (!result.ok) {
                        m_listing = false;
                        if (m_state == State::Starting)
                            failStart(McpTr::tr("the MCP server \"%1\" did not list its tools: %2")
                                          .arg(m_config.name, result.error));
                        else
                            note(McpTr::tr("tools/list failed: %1").arg(result.error));
                        return;
                    }
                    const QJsonValue tools = result.result.value(QLatin1String("tools"));
                    if (!tools.isArray())
                        note(McpTr::tr("tools/list answered without a \"tools\" list"));
                    for (const QJsonValue &value : tools.toArray()) {
                        if (listed.size() >= maxTools) {
                            note(McpTr::tr("more than %1 tools; the rest are left out")
                                     .arg(maxTools));
                            break;
                        }
                        QString problem;
                        if (const auto tool = McpToolInfo::fromJson(value.toObject(), &problem))
                            listed.append(*tool);
                        else
                            note(McpTr::tr("a tool is left out: %1").arg(problem));
                    }
                    const QString next = result.result.value(QLatin1String("nextCursor")).toString();
                    if (!next.isEmpty() && page + 1 < maxToolPages && listed.size() < maxTools) {
                        listTools(next, listed, page + 1);
                        return;
                    }
                    if (!next.isEmpty())
                        note(McpTr::tr("tools/list has more than %1 pages; the rest are left out")
                                 .arg(maxToolPages));
                    m_listing = false;
                    {
                        QMutexLocker locker(&m_mutex);
                        m_tools = listed;
                    }
                    emit toolsChanged();
                    if (m_state == State::Starting)
                        becomeReady();
                    else if (std::exchange(m_relistWanted, false))
                        listTools({}, {}, 0);
                });
}

void McpClient::becomeReady()
{
    delete std::exchange(m_startTimer, nullptr);
    setState(State::Ready);
    if (m_options.pingIntervalMs > 0) {
        if (!m_pingTimer) {
            m_pingTimer = new QTimer(this);
            m_pingTimer->setSingleShot(true);
            connect(m_pingTimer, &QTimer::timeout, this, &McpClient::onPingTimer);
        }
        m_pingId = -1;
        m_pingTimer->start(m_options.pingIntervalMs);
    }
    const auto deferred = std::exchange(m_deferred, {});
    for (const auto &entry : deferred)
        entry.first();
}

// The specification's ping: either side may ask, the other must answer promptly. A server
// that is silent while idle is asked; one that does not answer in time is taken for hung (a
// deadlocked process, a half-open connection) and given up like a dead one, so the next call
// starts a fresh one instead of waiting for its whole call timeout. While a request of ours is
// waiting no ping is sent: that request's own timeout (and progress) speaks for the server,
// and a server busy with a long tool need not answer anything else meanwhile.
void McpClient::onPingTimer()
{
    if (m_state != State::Ready || !m_transport)
        return;
    if (m_pingId >= 0) {
        m_pingId = -1;
        // As a server that never finished starting: stopped at once, every call failed.
        failStart(
            McpTr::tr("the MCP server \"%1\" did not answer a ping within %2 s; it was stopped")
                .arg(m_config.name, seconds(m_options.pingTimeoutMs)));
        return;
    }
    if (!m_pending.isEmpty()) {
        m_pingTimer->start(m_options.pingIntervalMs);
        return;
    }
    McpTransport *transport = m_transport;
    // No timeout of the request's own: the ping timer is its deadline. Any answer counts, an
    // error too (an old server without ping still answers).
    m_pingId = sendRequest(QStringLiteral("ping"), {}, 0, [this, transport](const McpCallResult &) {
        if (transport != m_transport || m_state != State::Ready)
            return; // given up meanwhile: onTransportGone stopped pinging
        m_pingId = -1;
        m_pingTimer->start(m_options.pingIntervalMs);
    });
    m_pingTimer->start(m_options.pingTimeoutMs);
}

void McpClient::stopPinging()
{
    m_pingId = -1;
    if (m_pingTimer)
        m_pingTimer->stop();
}

void McpClient::failStart(const QString &reason)
{
    // The process may live on (a server that never answers): it goes with the reason.
    if (m_transport)
        m_transport->stop(false);
    onTransportGone(reason);
}

void McpClient::onTransportGone(const QString &reason)
{
    note(reason);
    if (McpTransport *transport = std::exchange(m_transport, nullptr)) {
        transport->disconnect(this);
        transport->stop(false);
        transport->deleteLater(); // its signal may be what led here
    }
    delete std::exchange(m_startTimer, nullptr);
    stopPinging();
    m_listing = false;
    m_renewing = false;
    m_expired.clear();
    // The state before the calls: a caller woken by its failed call reads Failed, not Ready.
    setState(State::Failed, reason);
    failEverything(reason + McpTr::tr(" (it is started again on the next call)"));
}

void McpClient::failEverything(const QString &reason)
{
    const QList<qint64> ids = m_pending.keys();
    for (qint64 id : ids)
        complete(id, failure(reason));
    const auto deferred = std::exchange(m_deferred, {});
    for (const auto &entry : deferred)
        entry.second(failure(reason));
}

void McpClient::shutdown()
{
    if (QThread::currentThread() == thread() || !thread()->isRunning())
        stopNow();
    else
        QMetaObject::invokeMethod(
            this, [this] { stopNow(); }, Qt::BlockingQueuedConnection);
}

void McpClient::stopNow()
{
    {
        QMutexLocker locker(&m_mutex);
        if (m_closed)
            return;
        m_closed = true;
    }
    const QString reason = McpTr::tr("the MCP server \"%1\" was stopped").arg(m_config.name);
    delete std::exchange(m_startTimer, nullptr);
    stopPinging();
    if (McpTransport *transport = std::exchange(m_transport, nullptr)) {
        transport->disconnect(this);
        transport->stop(true);
        delete transport;
    }
    failEverything(reason);
    setState(State::Stopped);
    QMutexLocker locker(&m_mutex);
    for (Call *call : std::as_const(m_calls))
        call->finish(failure(reason));
}

qint64 McpClient::sendRequest(const QString &method,
                              QJsonObject params,
                              int timeoutMs,
                              Done done,
                              std::function<void(const McpProgress &)> onProgress)
{
    const qint64 id = ++m_nextId;
    if (onProgress) {
        QJsonObject meta = params.value(QLatin1String("_meta")).toObject();
        meta.insert(QStringLiteral("progressToken"), id);
        params.insert(QStringLiteral("_meta"), meta);
    }
    auto *pending = new Pending;
    pending->method = method;
    pending->done = std::move(done);
    pending->onProgress = std::move(onProgress);
    if (timeoutMs > 0) {
        pending->timer = new QTimer(this);
        pending->timer->setSingleShot(true);
        connect(pending->timer, &QTimer::timeout, this, [this, id, method, timeoutMs] {
            cancelRequest(id,
                          McpTr::tr("Timed out."),
                          failure(McpTr::tr("the MCP server \"%1\" did not answer %2 within %3 s")
                                      .arg(m_config.name, method, seconds(timeoutMs))));
        });
        pending->timer->start(timeoutMs);
    }
    pending->message = JsonRpc::request(id, method, params);
    m_pending.insert(id, pending);
    write(pending->message, id);
    return id;
}

void McpClient::complete(qint64 id, const McpCallResult &result)
{
    Pending *pending = m_pending.take(id);
    if (!pending)
        return;
    delete pending->timer;
    if (m_transport)
        m_transport->requestDone(id, false);
    if (pending->abortId >= 0)
        pending->abort.disconnect(pending->abortId);
    const Done done = std::move(pending->done);
    delete pending;
    if (done)
        done(result);
}

void McpClient::cancelRequest(qint64 id, const QString &reason, const McpCallResult &result)
{
    if (!m_pending.contains(id))
        return;
    write(JsonRpc::notification(QStringLiteral("notifications/cancelled"),
                                {{QStringLiteral("requestId"), id},
                                 {QStringLiteral("reason"), reason}}));
    if (m_cancelled.size() >= maxCancelledRemembered)
        m_cancelled.clear();
    m_cancelled.insert(id);
    complete(id, result);
}

void McpClient::setState(State state, const QString &error)
{
    {
        QMutexLocker locker(&m_mutex);
        m_state = state;
        m_error = error;
        m_settled.wakeAll();
    }
    emit stateChanged(state);
}

void McpClient::write(const QByteArray &message, qint64 requestId)
{
    if (m_transport)
        m_transport->send(message, requestId);
}

void McpClient::handleLine(const JsonRpcFrame &line)
{
    // A sign of life: the next ping waits its whole interval again (unless one is out: it
    // still wants its answer).
    if (m_pingId < 0 && m_pingTimer && m_pingTimer->isActive())
        m_pingTimer->start(m_options.pingIntervalMs);
    if (!line.overlong) {
        handleMessage(JsonRpcMessage::parse(line.text));
        return;
    }
    const QString problem = McpTr::tr("the MCP server \"%1\" sent a message of %2 MiB, over the "
                                      "%3 MiB cap; it was dropped")
                                .arg(m_config.name)
                                .arg(double(line.size) / (1024 * 1024), 0, 'f', 1)
                                .arg(m_options.maxLineBytes / (1024 * 1024));
    note(problem);
    // The answer to which request? Its id is at one end of the line (the SDKs put it last).
    static const QRegularExpression idPattern(QStringLiteral("\"id\"\\s*:\\s*(\\d+)"));
    for (const QByteArray &edge : {line.head, line.tail}) {
        const QRegularExpressionMatch match = idPattern.match(QString::fromLatin1(edge));
        if (match.hasMatch() && m_pending.contains(match.captured(1).toLongLong())) {
            complete(match.captured(1).toLongLong(), failure(problem));
            return;
        }
    }
}

void McpClient::handleMessage(const JsonRpcMessage &message)
{
    switch (message.kind) {
    case JsonRpcMessage::Kind::Invalid:
        handleInvalid(message);
        return;
    case JsonRpcMessage::Kind::Response:
        handleResponse(message);
        return;
    case JsonRpcMessage::Kind::Request:
        handleServerRequest(message);
        return;
    case JsonRpcMessage::Kind::Notification:
        handleNotification(message);
        return;
    }
}

void McpClient::handleInvalid(const JsonRpcMessage &message)
{
    note(McpTr::tr("a malformed message was ignored: %1").arg(message.problem));
    // A message too deep to read that names a waiting request is its answer: the call
    // fails now, not after its whole timeout. Other malformed messages name no request
    // (or a wrong one) reliably enough to end a call, so those calls go on.
    const qint64 id = message.id.isDouble() ? message.id.toInteger() : -1;
    if (m_pending.contains(id)) {
        if (m_transport)
            m_transport->requestDone(id, true);
        complete(id,
                 failure(McpTr::tr("the MCP server \"%1\" answered with %2, which AgentDesk "
                                   "does not read")
                             .arg(m_config.name, message.problem)));
    }
}

void McpClient::handleResponse(const JsonRpcMessage &message)
{
    if (message.id.isNull()) {
        note(McpTr::tr("the server reported an error: %1").arg(message.errorText()));
        return;
    }
    const qint64 id = message.id.isDouble() ? message.id.toInteger() : -1;
    if (!m_pending.contains(id)) {
        if (!m_cancelled.remove(id)) {
            note(McpTr::tr("a response to unknown id %1 was ignored")
                     .arg(message.id.isString() ? message.id.toString()
                                                : QString::number(message.id.toInteger())));
        }
        return;
    }
    if (m_transport)
        m_transport->requestDone(id, true);
    McpCallResult result;
    if (message.isError()) {
        result.error = message.errorText();
    } else if (!message.result.isObject()) {
        result.error = McpTr::tr("the server's result is not an object");
    } else {
        result.ok = true;
        result.result = message.result.toObject();
    }
    complete(id, result);
}

void McpClient::handleServerRequest(const JsonRpcMessage &message)
{
    if (message.method == QLatin1String("ping")) {
        write(JsonRpc::result(message.id, QJsonObject()));
    } else {
        write(JsonRpc::error(message.id,
                             JsonRpc::MethodNotFound,
                             QStringLiteral("Method not found: %1").arg(message.method)));
    }
}

void McpClient::handleNotification(const JsonRpcMessage &message)
{
    if (message.method == QLatin1String("notifications/progress")) {
        handleProgress(message.params);
    } else if (message.method == QLatin1String("notifications/tools/list_changed")) {
        if (m_state != State::Ready)
            return;
        if (m_listing)
            m_relistWanted = true;
        else
            listTools({}, {}, 0);
    } else if (message.method == QLatin1String("notifications/resources/list_changed")
               || message.method == QLatin1String("notifications/prompts/list_changed")) {
        if (m_state == State::Ready)
            onListChanged(message.method);
    } else if (message.method == QLatin1String("notifications/message")) {
        const QJsonValue data = message.params.value(QLatin1String("data"));
        appendLog(QStringLiteral("[%1] %2\n")
                      .arg(message.params.value(QLatin1String("level")).toString(),
                           data.isString()
                               ? data.toString()
                               : QString::fromUtf8(
                                   QJsonDocument(data.toObject()).toJson(QJsonDocument::Compact)))
                      .left(4000)
                      .toUtf8());
    }
}

void McpClient::handleProgress(const QJsonObject &params)
{
    const QJsonValue token = params.value(QLatin1String("progressToken"));
    Pending *pending = m_pending.value(token.isDouble() ? token.toInteger() : -1);
    if (!pending || !pending->onProgress)
        return;
    if (pending->timer) // a sign of life: the call's time starts again
        pending->timer->start();
    McpProgress progress;
    progress.progress = params.value(QLatin1String("progress")).toDouble();
    progress.total = params.value(QLatin1String("total")).toDouble();
    progress.message = params.value(QLatin1String("message")).toString().left(1000);
    // A copy: the callback may end the call (a stop), which deletes the pending request.
    const auto onProgress = pending->onProgress;
    onProgress(progress);
}

void McpClient::note(const QString &text)
{
    appendLog(QStringLiteral("agentdesk: %1\n").arg(text).toUtf8());
}

void McpClient::appendLog(const QByteArray &text)
{
    QMutexLocker locker(&m_mutex);
    m_log.append(text.right(m_options.logBytes));
    if (m_log.size() > m_options.logBytes) {
        // The newest is kept, from a line's start.
        qsizetype cut = m_log.size() - m_options.logBytes;
        const qsizetype newline = m_log.indexOf('\n', cut);
        if (newline >= 0 && newline < m_log.size() - 1)
            cut = newline + 1;
        m_log.remove(0, cut);
    }
}

} // namespace AgentCore

#include "moc_mcpclient.cpp"
