#include "lspclient.h"
#include "translation.h"

#include <jsonrpc/jsonrpcmessage.h>
#include <jsonrpc/jsonrpcprocess.h>

#include <QCoreApplication>
#include <QDir>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QThread>
#include <QTimer>
#include <QUrl>
#include <QWaitCondition>

namespace AgentCore {

namespace {

constexpr int shutdownWaitMs = 500;
} // namespace

// A blocking call's hand-over from the client's thread to the caller's.
template<typename Result>
struct LspClient::Call
{
    QMutex mutex;
    QWaitCondition condition;
    bool finished = false;
    Result result;

    void finish(const Result &value)
    {
        QMutexLocker locker(&mutex);
        if (finished)
            return;
        result = value;
        finished = true;
        condition.wakeAll();
    }
};

LspClient::LspClient(const LspServerConfig &config, const LspClientOptions &options)
    : m_config(config)
    , m_options(options)
    , m_name(LspTr::tr("the language server %1").arg(config.name))
{}

LspClient::~LspClient()
{
    stopNow();
}

QString LspClient::uriOf(const QString &path) const
{
    return QUrl::fromLocalFile(QDir::cleanPath(path)).toString(QUrl::FullyEncoded);
}

LspFileDiagnostics LspClient::diagnose(const QString &path,
                                       const QString &text,
                                       int timeoutMs,
                                       const AbortToken &abort,
                                       TextSource source)
{
    Q_ASSERT(QThread::currentThread() != thread());
    if (m_closed) {
        LspFileDiagnostics closed;
        closed.error = LspTr::tr("%1 was stopped").arg(m_name);
        return closed;
    }
    auto call = std::make_shared<DiagnoseCall>();
    QMetaObject::invokeMethod(
        this,
        [this, call, path, text, timeoutMs, source] {
            beginDiagnose(call, path, text, timeoutMs, source);
        },
        Qt::QueuedConnection);
    return wait(*call, timeoutMs, abort);
}

template<typename Result>
Result LspClient::wait(Call<Result> &call, int timeoutMs, const AbortToken &abort) const
{
    QMutexLocker locker(&call.mutex);
    // The client's timer ends every wait; the margin is for a host thread that is gone.
    QDeadlineTimer deadline(timeoutMs + 5'000);
    while (!call.finished) {
        if (abort.isAborted()) {
            Result stopped;
            stopped.error = LspTr::tr("stopped by the user");
            return stopped;
        }
        if (deadline.hasExpired()) {
            Result late;
            late.error = LspTr::tr("%1 did not answer").arg(m_name);
            return late;
        }
        call.condition.wait(&call.mutex, 50);
    }
    return call.result;
}

LspAnswer LspClient::ask(const QString &path,
                         const QString &text,
                         const QString &method,
                         const QString &capability,
                         int line,
                         int column,
                         const QJsonObject &extra,
                         int timeoutMs,
                         const AbortToken &abort)
{
    Q_ASSERT(QThread::currentThread() != thread());
    if (m_closed) {
        LspAnswer closed;
        closed.error = LspTr::tr("%1 was stopped").arg(m_name);
        return closed;
    }
    QJsonObject params = extra;
    params.insert(QStringLiteral("textDocument"), QJsonObject{{QStringLiteral("uri"), uriOf(path)}});
    params.insert(QStringLiteral("position"),
                  QJsonObject{{QStringLiteral("line"), std::max(0, line - 1)},
                              {QStringLiteral("character"), std::max(0, column - 1)}});
    auto call = std::make_shared<AskCall>();
    QMetaObject::invokeMethod(
        this,
        [this, call, path, text, method, capability, params, timeoutMs] {
            beginAsk(call, path, text, method, capability, params, timeoutMs);
        },
        Qt::QueuedConnection);
    return wait(*call, timeoutMs, abort);
}

void LspClient::beginAsk(const std::shared_ptr<AskCall> &call,
                         const QString &path,
                         const QString &text,
                         const QString &method,
                         const QString &capability,
                         const QJsonObject &params,
                         int timeoutMs)
{
    touch();
    if (m_state == State::Idle)
        start();
    Question question;
    question.call = call;
    question.timer = new QTimer(this);
    question.timer->setSingleShot(true);
    connect(question.timer, &QTimer::timeout, this, [this, call, timeoutMs] {
        LspAnswer late;
        late.error = LspTr::tr("%1 did not answer within %2 ms").arg(m_name).arg(timeoutMs);
        finishQuestion(call, late);
    });
    question.timer->start(timeoutMs);
    m_questions.append(question);
    whenReady([this, call, path, text, method, capability, params] {
        if (!offers(capability)) {
            LspAnswer refused;
            refused.error = LspTr::tr("%1 does not offer this").arg(m_name);
            finishQuestion(call, refused);
            return;
        }
        sync(path, text, TextSource::File);
        const qint64 id = request(method, params, [this, call](const JsonRpcMessage &message) {
            LspAnswer answer;
            answer.ok = !message.isError();
            if (answer.ok)
                answer.result = message.result;
            else
                answer.error = LspTr::tr("%1 answered: %2").arg(m_name, message.errorText());
            answer.notice = std::exchange(m_deathNote, {});
            finishQuestion(call, answer);
        });
        for (Question &question : m_questions) {
            if (question.call == call)
                question.id = id;
        }
    });
}

bool LspClient::offers(const QString &capability) const
{
    // A provider is true or an options object; absent, null or false: not offered.
    const QJsonValue offered = m_capabilities.value(capability);
    return !offered.isUndefined() && !offered.isNull() && offered != QJsonValue(false);
}

void LspClient::finishQuestion(const std::shared_ptr<AskCall> &call, const LspAnswer &answer)
{
    for (qsizetype i = 0; i < m_questions.size(); ++i) {
        if (m_questions.at(i).call != call)
            continue;
        const Question question = m_questions.takeAt(i);
        question.timer->deleteLater();
        m_pending.remove(question.id); // a late answer is dropped
        break;
    }
    call->finish(answer);
}

void LspClient::open(const QString &path, const QString &text)
{
    QMetaObject::invokeMethod(
        this,
        [this, path, text] {
            if (m_state == State::Idle)
                start();
            whenReady([this, path, text] { sync(path, text, TextSource::File); });
        },
        Qt::QueuedConnection);
}

std::optional<QList<LspDiagnostic>> LspClient::lastDiagnostics(const QString &path) const
{
    QMutexLocker locker(&m_mutex);
    const auto it = m_documents.constFind(uriOf(path));
    if (it == m_documents.cend() || it->publishedVersion < 0)
        return std::nullopt;
    return it->diagnostics;
}

QList<std::pair<QString, QList<LspDiagnostic>>> LspClient::allDiagnostics() const
{
    QList<std::pair<QString, QList<LspDiagnostic>>> all;
    QMutexLocker locker(&m_mutex);
    for (auto it = m_documents.cbegin(); it != m_documents.cend(); ++it) {
        if (it->publishedVersion >= 0)
            all.append({QUrl(it.key()).toLocalFile(), it->diagnostics});
    }
    locker.unlock();
    std::sort(all.begin(), all.end(), [](const auto &a, const auto &b) {
        return a.first < b.first;
    });
    return all;
}

QByteArray LspClient::log() const
{
    QMutexLocker locker(&m_mutex);
    return m_log;
}

void LspClient::close(QThread *home)
{
    m_closed = true;
    // The host's thread ends after this: the client goes to a thread that still runs when the
    // client's last holder lets it go (its deleter then finds a live thread).
    QThread *closing = home ? home : QThread::currentThread();
    const auto closeNow = [this, closing] {
        stopNow();
        for (QTimer *timer : {m_initializeTimer, m_idleTimer}) {
            if (timer)
                timer->stop();
        }
        moveToThread(closing);
    };
    if (QThread::currentThread() == thread())
        closeNow();
    else
        QMetaObject::invokeMethod(this, closeNow, Qt::BlockingQueuedConnection);
}

void LspClient::start()
{
    m_state = State::Starting;
    JsonRpcProcess::Command command{m_config.command,
                                    m_config.args,
                                    m_options.environment,
                                    m_options.rootPath};
    m_process = new JsonRpcProcess(command,
                                   JsonRpcProcess::Framing::Headers,
                                   m_options.maxMessageBytes,
                                   m_name,
                                   this);
    connect(m_process, &JsonRpcProcess::received, this, &LspClient::onFrame);
    connect(m_process, &JsonRpcProcess::gone, this, &LspClient::onGone);
    connect(m_process, &JsonRpcProcess::logged, this, [this](const QByteArray &text) {
        QMutexLocker locker(&m_mutex);
        m_log += text;
        if (m_log.size() > m_options.logBytes)
            m_log = m_log.right(m_options.logBytes);
    });
    if (!m_initializeTimer) {
        m_initializeTimer = new QTimer(this);
        m_initializeTimer->setSingleShot(true);
        connect(m_initializeTimer, &QTimer::timeout, this, [this] {
            // A server that never answers initialize would hold every later use: it is ended
            // as if it had died, and the next use starts it again.
            if (m_state == State::Starting)
                onGone(LspTr::tr("%1 did not answer initialize within %n second(s)",
                                 nullptr,
                                 m_options.initializeTimeoutMs / 1000)
                           .arg(m_name));
        });
    }
    m_initializeTimer->start(m_options.initializeTimeoutMs);
    m_process->open();
    m_processId = m_process->processId();

    const QString rootUri = uriOf(m_options.rootPath);
    const QJsonObject capabilities{
        {QStringLiteral("textDocument"),
         QJsonObject{
             {QStringLiteral("synchronization"),
              QJsonObject{{QStringLiteral("didSave"), true},
                          {QStringLiteral("dynamicRegistration"), false}}},
             {QStringLiteral("publishDiagnostics"),
              QJsonObject{{QStringLiteral("versionSupport"), true},
                          {QStringLiteral("relatedInformation"), false}}},
             {QStringLiteral("diagnostic"),
              QJsonObject{{QStringLiteral("dynamicRegistration"), false},
                          {QStringLiteral("relatedDocumentSupport"), false}}},
         }},
        {QStringLiteral("workspace"),
         QJsonObject{{QStringLiteral("workspaceFolders"), true},
                     {QStringLiteral("configuration"), true}}},
        {QStringLiteral("general"),
         QJsonObject{{QStringLiteral("positionEncodings"), QJsonArray{QStringLiteral("utf-16")}}}},
    };
    const QJsonObject params{
        {QStringLiteral("processId"), QCoreApplication::applicationPid()},
        {QStringLiteral("clientInfo"),
         QJsonObject{{QStringLiteral("name"), QStringLiteral("AgentDesk")},
                     {QStringLiteral("version"), QCoreApplication::applicationVersion()}}},
        {QStringLiteral("rootUri"), rootUri},
        {QStringLiteral("rootPath"), m_options.rootPath},
        {QStringLiteral("workspaceFolders"),
         QJsonArray{QJsonObject{{QStringLiteral("uri"), rootUri},
                                {QStringLiteral("name"), QDir(m_options.rootPath).dirName()}}}},
        {QStringLiteral("capabilities"), capabilities},
    };
    request(QStringLiteral("initialize"), params, [this](const JsonRpcMessage &answer) {
        if (m_state != State::Starting)
            return;
        if (answer.isError()) {
            onGone(LspTr::tr("%1 refused initialize: %2").arg(m_name, answer.errorText()));
            return;
        }
        m_initializeTimer->stop();
        m_capabilities = answer.result.toObject().value(QLatin1String("capabilities")).toObject();
        send(JsonRpc::notification(QStringLiteral("initialized")));
        m_state = State::Ready;
        const QList<std::function<void()>> actions = std::exchange(m_whenReady, {});
        for (const auto &action : actions)
            action();
    });
}

void LspClient::whenReady(std::function<void()> action)
{
    if (m_state == State::Ready)
        action();
    else
        m_whenReady.append(std::move(action));
}

void LspClient::send(const QByteArray &message)
{
    if (m_process)
        m_process->send(message);
}

qint64 LspClient::request(const QString &method,
                          const QJsonObject &params,
                          std::function<void(const JsonRpcMessage &)> onAnswer)
{
    const qint64 id = m_nextId++;
    m_pending.insert(id, std::move(onAnswer));
    send(JsonRpc::request(id, method, params));
    return id;
}

void LspClient::onFrame(const JsonRpcFrame &frame)
{
    if (frame.overlong) {
        // Too long to read: the request it answers (if any) can only go on waiting; a
        // diagnostics wait ends at its timeout.
        QMutexLocker locker(&m_mutex);
        m_log += LspTr::tr("[AgentDesk: a message of %1 bytes was dropped: over the cap]\n")
                     .arg(frame.size)
                     .toUtf8();
        return;
    }
    const JsonRpcMessage message = JsonRpcMessage::parse(frame.text);
    switch (message.kind) {
    case JsonRpcMessage::Kind::Response:
        if (message.id.isDouble()) {
            if (auto onAnswer = m_pending.take(message.id.toInteger()))
                onAnswer(message);
        }
        break;
    case JsonRpcMessage::Kind::Request:
        onServerRequest(message);
        break;
    case JsonRpcMessage::Kind::Notification:
        if (message.method == QLatin1String("textDocument/publishDiagnostics"))
            onPublished(message.params);
        break; // progress, log and show messages: nothing the agent needs
    case JsonRpcMessage::Kind::Invalid:
        break;
    }
}

void LspClient::onServerRequest(const JsonRpcMessage &message)
{
    const QString &method = message.method;
    if (method == QLatin1String("workspace/configuration")) {
        // No settings of ours: the server's defaults for each item asked about.
        const qsizetype items = message.params.value(QLatin1String("items")).toArray().size();
        QJsonArray nulls;
        for (qsizetype i = 0; i < items && i < 100; ++i)
            nulls.append(QJsonValue::Null);
        send(JsonRpc::result(message.id, nulls));
    } else if (method == QLatin1String("workspace/applyEdit")) {
        // The review is the only way into the user's files.
        send(JsonRpc::result(message.id,
                             QJsonObject{{QStringLiteral("applied"), false},
                                         {QStringLiteral("failureReason"),
                                          QStringLiteral("AgentDesk applies no server edits")}}));
    } else if (method == QLatin1String("client/registerCapability")
               || method == QLatin1String("client/unregisterCapability")
               || method == QLatin1String("window/workDoneProgress/create")
               || method == QLatin1String("window/showMessageRequest")
               || method == QLatin1String("workspace/workspaceFolders")) {
        send(JsonRpc::result(message.id, QJsonValue::Null));
    } else {
        send(JsonRpc::error(message.id,
                            JsonRpc::MethodNotFound,
                            QStringLiteral("Method not found: %1").arg(method.left(100))));
    }
}

void LspClient::onPublished(const QJsonObject &params)
{
    // With a version it says which text it is about. Without, it is about the text it has now,
    // the latest sent (messages are read in order).
    const QJsonValue version = params.value(QLatin1String("version"));
    take(params.value(QLatin1String("uri")).toString(),
         version.isDouble() ? std::optional(version.toInt()) : std::nullopt,
         LspDiagnostic::listFromJson(params.value(QLatin1String("diagnostics"))));
}

void LspClient::pull(const QString &uri, int version)
{
    // A server that is asked (LSP 3.17's pull diagnostics) answers as soon as it has checked
    // the text, where one that publishes may wait for more changes first.
    request(QStringLiteral("textDocument/diagnostic"),
            {{QStringLiteral("textDocument"), QJsonObject{{QStringLiteral("uri"), uri}}}},
            [this, uri, version](const JsonRpcMessage &answer) {
                const QJsonObject report = answer.result.toObject();
                // No previousResultId is sent: "unchanged" would be a server's mistake. An
                // error (the text changed meanwhile) leaves it to the next answer.
                if (answer.isError() || report.value(QLatin1String("kind")).toString() != u"full")
                    return;
                take(uri,
                     version,
                     LspDiagnostic::listFromJson(report.value(QLatin1String("items"))));
            });
}

void LspClient::take(const QString &uri,
                     std::optional<int> version,
                     const QList<LspDiagnostic> &diagnostics)
{
    Document document;
    bool save = false;
    {
        QMutexLocker locker(&m_mutex);
        const auto it = m_documents.find(uri);
        if (it == m_documents.end())
            return; // only the files AgentDesk opened are kept: a bound on what a server fills
        if (version && *version < it->version)
            return; // an older text's: stale
        it->publishedVersion = it->version;
        it->diagnostics = diagnostics;
        save = std::exchange(it->saveWhenChecked, false);
        document = *it;
    }
    if (save) {
        // Saved: the file on disk is this text (clangd then reads it again where it is
        // included; pylsp lints it once more).
        send(JsonRpc::notification(QStringLiteral("textDocument/didSave"),
                                   {{QStringLiteral("textDocument"),
                                     QJsonObject{{QStringLiteral("uri"), uri}}}}));
    }
    for (qsizetype i = m_waiters.size() - 1; i >= 0; --i) {
        const Waiter &waiter = m_waiters.at(i);
        if (waiter.uri != uri || waiter.version == 0 || document.publishedVersion < waiter.version)
            continue;
        finishWaiter(i, answerOf(document, document.before));
    }
}

void LspClient::sync(const QString &path, const QString &text, TextSource source)
{
    const QString uri = uriOf(path);
    QMutexLocker locker(&m_mutex);
    Document &document = m_documents[uri];
    if (document.version == 0) {
        document.version = 1;
        document.text = text;
        locker.unlock();
        send(JsonRpc::notification(QStringLiteral("textDocument/didOpen"),
                                   {{QStringLiteral("textDocument"),
                                     QJsonObject{{QStringLiteral("uri"), uri},
                                                 {QStringLiteral("languageId"),
                                                  LspServerConfig::languageId(path)},
                                                 {QStringLiteral("version"), 1},
                                                 {QStringLiteral("text"), text}}}}));
        return;
    }
    if (document.text == text)
        return;
    // What a change introduces is what it adds to the problems of the text before it.
    document.before = document.publishedVersion == document.version
                          ? std::optional(document.diagnostics)
                          : std::nullopt;
    document.text = text;
    // The file is this text now: the server hears so once it has checked it (clangd checks
    // every open file again on a save, which would hold up this check).
    document.saveWhenChecked = source == TextSource::File;
    const int version = ++document.version;
    locker.unlock();
    const QJsonObject identifier{{QStringLiteral("uri"), uri}};
    QJsonObject versioned = identifier;
    versioned.insert(QStringLiteral("version"), version);
    // wantDiagnostics is clangd's: without it clangd waits for more keystrokes (up to 500 ms)
    // before it checks a change; AgentDesk's changes are whole and waited for. Other servers
    // leave a member they do not know alone.
    send(JsonRpc::notification(QStringLiteral("textDocument/didChange"),
                               {{QStringLiteral("textDocument"), versioned},
                                {QStringLiteral("contentChanges"),
                                 QJsonArray{QJsonObject{{QStringLiteral("text"), text}}}},
                                {QStringLiteral("wantDiagnostics"), true}}));
}

void LspClient::beginDiagnose(const std::shared_ptr<DiagnoseCall> &call,
                              const QString &path,
                              const QString &text,
                              int timeoutMs,
                              TextSource source)
{
    touch();
    if (m_state == State::Idle)
        start();
    Waiter waiter;
    waiter.uri = uriOf(path);
    waiter.call = call;
    waiter.timer = new QTimer(this);
    waiter.timer->setSingleShot(true);
    connect(waiter.timer, &QTimer::timeout, this, [this, call, timeoutMs] {
        for (qsizetype i = 0; i < m_waiters.size(); ++i) {
            if (m_waiters.at(i).call == call) {
                LspFileDiagnostics late;
                late.error = LspTr::tr("%1 reported no diagnostics within %2 ms")
                                 .arg(m_name)
                                 .arg(timeoutMs);
                finishWaiter(i, late);
                return;
            }
        }
    });
    waiter.timer->start(timeoutMs);
    m_waiters.append(waiter);
    whenReady([this, call, path, text, source, uri = waiter.uri] {
        sync(path, text, source);
        QMutexLocker locker(&m_mutex);
        const Document document = m_documents.value(uri);
        locker.unlock();
        for (qsizetype i = 0; i < m_waiters.size(); ++i) {
            if (m_waiters.at(i).call != call)
                continue;
            m_waiters[i].version = document.version;
            if (document.publishedVersion == document.version) { // the same text as before
                finishWaiter(i, answerOf(document, document.diagnostics));
            } else if (offers(QStringLiteral("diagnosticProvider"))) {
                pull(uri, document.version);
            }
            return;
        }
    });
}

LspFileDiagnostics LspClient::answerOf(const Document &document,
                                       const std::optional<QList<LspDiagnostic>> &before)
{
    LspFileDiagnostics answer;
    answer.ok = true;
    answer.diagnostics = document.diagnostics;
    answer.before = before;
    answer.notice = std::exchange(m_deathNote, {});
    return answer;
}

void LspClient::finishWaiter(qsizetype index, const LspFileDiagnostics &result)
{
    const Waiter waiter = m_waiters.takeAt(index);
    waiter.timer->deleteLater();
    waiter.call->finish(result);
}

void LspClient::onGone(const QString &reason)
{
    m_processId = 0;
    if (m_process) {
        m_process->disconnect(this);
        m_process->stop(false);
        m_process->deleteLater();
        m_process = nullptr;
    }
    m_state = State::Idle;
    if (m_initializeTimer)
        m_initializeTimer->stop();
    m_pending.clear();
    m_whenReady.clear();
    {
        QMutexLocker locker(&m_mutex);
        m_documents.clear(); // a new server knows none of them
    }
    // Reported once: to those waiting now, or else to the next use.
    if (m_waiters.isEmpty() && m_questions.isEmpty()) {
        m_deathNote = LspTr::tr("%1 had stopped (%2) and was started again").arg(m_name, reason);
        return;
    }
    LspFileDiagnostics failed;
    failed.error = reason;
    while (!m_waiters.isEmpty())
        finishWaiter(m_waiters.size() - 1, failed);
    LspAnswer unanswered;
    unanswered.error = reason;
    while (!m_questions.isEmpty())
        finishQuestion(m_questions.last().call, unanswered);
}

void LspClient::touch()
{
    if (!m_idleTimer) {
        m_idleTimer = new QTimer(this);
        m_idleTimer->setSingleShot(true);
        connect(m_idleTimer, &QTimer::timeout, this, [this] {
            if (m_waiters.isEmpty() && m_questions.isEmpty())
                stopNow();
        });
    }
    m_idleTimer->start(m_options.idleTimeoutMs);
}

void LspClient::stopNow()
{
    if (!m_process)
        return;
    JsonRpcProcess *process = std::exchange(m_process, nullptr);
    m_processId = 0;
    process->disconnect(this);
    if (m_state == State::Ready) {
        // The specification's order: shutdown (answered), then exit; a server that does not
        // answer in time is ended all the same.
        const qint64 id = m_nextId++;
        QEventLoop waiting;
        connect(process, &JsonRpcProcess::received, &waiting, [&waiting, id](const JsonRpcFrame &f) {
            const JsonRpcMessage message = JsonRpcMessage::parse(f.text);
            if (message.kind == JsonRpcMessage::Kind::Response && message.id.toInteger() == id)
                waiting.quit();
        });
        connect(process, &JsonRpcProcess::gone, &waiting, &QEventLoop::quit);
        QTimer::singleShot(shutdownWaitMs, &waiting, &QEventLoop::quit);
        process->send(JsonRpc::request(id, QStringLiteral("shutdown"), {}));
        waiting.exec(QEventLoop::ExcludeUserInputEvents);
        process->disconnect(&waiting);
        process->send(JsonRpc::notification(QStringLiteral("exit")));
    }
    process->stop(true);
    process->deleteLater();
    m_state = State::Idle;
    m_pending.clear();
    m_whenReady.clear();
    {
        QMutexLocker locker(&m_mutex);
        m_documents.clear();
    }
    LspFileDiagnostics stopped;
    stopped.error = LspTr::tr("%1 was stopped").arg(m_name);
    while (!m_waiters.isEmpty())
        finishWaiter(m_waiters.size() - 1, stopped);
    LspAnswer unanswered;
    unanswered.error = stopped.error;
    while (!m_questions.isEmpty())
        finishQuestion(m_questions.last().call, unanswered);
}

} // namespace AgentCore

#include "moc_lspclient.cpp"
