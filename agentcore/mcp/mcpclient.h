#pragma once

#include "mcpcatalog.h"
#include "mcpconfig.h"
#include "mcptoolinfo.h"
#include <jsonrpc/jsonrpcframing.h>

#include <ai/aborttoken.h>

#include <QHash>
#include <QJsonObject>
#include <QMutex>
#include <QObject>
#include <QProcessEnvironment>
#include <QSet>
#include <QWaitCondition>

#include <functional>
#include <memory>

class QTimer;

namespace AgentCore {

struct JsonRpcMessage;
class McpTransport;

struct McpClientOptions
{
    QString workingDirectory;
    /// The server's whole environment, secrets already removed (McpHost::serverEnvironment).
    QProcessEnvironment environment;
    int initializeTimeoutMs = 30'000; ///< from start to the tools listed
    /// A call fails after this long without an answer or a progress notification.
    int callTimeoutMs = 10 * 60'000;
    /// A Ready server that has sent nothing for this long while no request of ours is waiting
    /// is sent a `ping`; 0: never. Any message from the server restarts the wait.
    int pingIntervalMs = 30'000;
    /// A ping unanswered this long: the server is not answering. It is stopped and Failed with
    /// that reason, as a server that died (the next call starts it again).
    int pingTimeoutMs = 10'000;
    /// A message's cap: a stdio line, an HTTP body or one event of a stream.
    qsizetype maxLineBytes = JsonRpcLineReader::defaultMaxLineBytes;
    qsizetype logBytes = 256 * 1024; ///< the server's stderr and AgentDesk's notes, newest kept
};

/// What a request came back with.
struct McpCallResult
{
    bool ok = false;
    QJsonObject result; ///< ok: the response's result
    QString error;      ///< not ok: for the model and the person
    bool aborted = false;
};

/// A notifications/progress of a running call.
struct McpProgress
{
    double progress = 0;
    double total = 0; ///< 0: unknown
    QString message;
};

/// The client of one MCP server (protocol revision 2025-11-25 and the earlier ones the SDKs
/// speak), JSON-RPC 2.0 over the server's transport: a child process's stdin and stdout, its
/// stderr going to a capped log (McpStdioTransport), or Streamable HTTP (McpHttpTransport,
/// config type "http"). The protocol is here; how the messages travel is the transport's.
///
/// Lives on a thread of its own (McpHost's): all I/O happens there, so neither the window nor
/// the loop ever waits on a server's pipe. The public functions are thread-safe; call() and
/// callTool() block their caller (a tool's thread) until the answer, the timeout, the server's
/// death or the abort token, whichever comes first; an abort sends notifications/cancelled.
///
/// start() runs `initialize`, `notifications/initialized` and tools/list (every page). A server
/// that dies, or stops answering the pings sent while it is idle (McpClientOptions::
/// pingIntervalMs), is Failed with the reason; the next call starts it again. What the server gets
/// wrong (malformed messages, answers to unknown ids, overlong lines, tools whose schema is not
/// JSON Schema) is noted in the log and otherwise ignored.
class McpClient final : public QObject
{
    Q_OBJECT

public:
    enum class State { Stopped, Starting, Ready, Failed };
    static constexpr int maxToolPages = 100;
    static constexpr int maxTools = 1000;
    static const QStringList &supportedProtocolVersions(); ///< newest first

    McpClient(McpServerConfig config, McpClientOptions options);
    ~McpClient() override;

    const McpServerConfig &config() const { return m_config; }
    State state() const;
    QString error() const; ///< why it is Failed
    QList<McpToolInfo> tools() const;
    QString log() const;
    QString protocolVersion() const;

    /// Starts the server unless it runs or is starting. Asynchronous.
    void start();
    /// Blocks until the server is Ready or Failed (after start()), at most \a timeoutMs.
    bool waitUntilSettled(int timeoutMs) const;
    /// Starting, or made and not started yet (start() queued, or held back): what
    /// waitUntilSettled() waits for. false once Ready, Failed or shut down.
    bool isPending() const;

    /// Sends a request and blocks until its answer. Starts the server when needed.
    McpCallResult call(const QString &method,
                       const QJsonObject &params,
                       const AbortToken &abort = {},
                       const std::function<void(const McpProgress &)> &onProgress = {});
    McpCallResult callTool(const QString &tool,
                           const QJsonObject &arguments,
                           const AbortToken &abort = {},
                           const std::function<void(const McpProgress &)> &onProgress = {});

    // Resources and prompts (mcpclientcatalog.cpp): blocking like call(), every page of a list
    // (at most maxListPages), entries that fail their checks left out with a problem. A listing
    // is kept (resources(), prompts()) and fetched again when the server says it changed.
    static constexpr int maxListPages = 100;
    static constexpr int maxListItems = 5000;
    McpListed<McpResourceInfo> listResources(const AbortToken &abort = {});
    McpListed<McpResourceTemplateInfo> listResourceTemplates(const AbortToken &abort = {});
    /// The contents of \a uri; texts longer than \a maxTextChars are cut and blobs over
    /// \a maxBinaryBytes left out, each with a note.
    McpReadResult readResource(const QString &uri,
                               const AbortToken &abort = {},
                               qsizetype maxTextChars = McpCatalogLimits::defaultMaxTextChars,
                               qsizetype maxBinaryBytes = McpCatalogLimits::defaultMaxBinaryBytes);
    McpListed<McpPromptInfo> listPrompts(const AbortToken &abort = {});
    /// The prompt \a name filled with \a arguments, checked against its listed arguments first
    /// (listed now when prompts() is still empty).
    McpGetPromptResult getPrompt(const QString &name,
                                 const QMap<QString, QString> &arguments,
                                 const AbortToken &abort = {});
    QList<McpResourceInfo> resources() const; ///< the last listing; empty before one
    QList<McpPromptInfo> prompts() const;     ///< the last listing; empty before one

    /// Stops the server (stdio: stdin closed, then SIGTERM, then SIGKILL to its process group;
    /// HTTP: the session DELETEd) and fails every call still waiting; calls after it fail at
    /// once. Blocking.
    void shutdown();

signals:
    void stateChanged(AgentCore::McpClient::State state);
    void toolsChanged();
    /// A listing was kept: after listResources() / listPrompts(), or fetched again after the
    /// server's notifications/{resources,prompts}/list_changed. On the thread that listed.
    void resourcesChanged();
    void promptsChanged();

private:
    struct Call;
    struct Pending;
    using Done = std::function<void(const McpCallResult &)>;

    void startNow();
    static QJsonObject initializeParams();
    void onSessionExpired(qint64 id);
    void stopNow();
    void beginCall(const std::shared_ptr<Call> &call,
                   const QString &method,
                   const QJsonObject &params,
                   const AbortToken &abort,
                   const std::function<void(const McpProgress &)> &onProgress);
    qint64 sendRequest(const QString &method,
                       QJsonObject params,
                       int timeoutMs,
                       Done done,
                       std::function<void(const McpProgress &)> onProgress = {});
    void complete(qint64 id, const McpCallResult &result);
    void cancelRequest(qint64 id, const QString &reason, const McpCallResult &result);
    void failEverything(const QString &reason);
    void failStart(const QString &reason);
    void onInitialized(const McpCallResult &result);
    void listTools(const QString &cursor, QList<McpToolInfo> listed, int page);
    void becomeReady();
    void onPingTimer();
    void stopPinging();
    McpListed<QJsonObject> listAll(const QString &method,
                                   const QString &key,
                                   const AbortToken &abort);
    void listAgain(const QString &method,
                   const QString &key,
                   const QString &cursor,
                   std::shared_ptr<McpListed<QJsonObject>> listed,
                   int page);
    void keepListing(const QString &method, const McpListed<QJsonObject> &listed); // any thread
    void onListChanged(const QString &method);
    void setState(State state, const QString &error = {});

    void onTransportGone(const QString &reason);
    void handleLine(const JsonRpcFrame &line);
    void handleMessage(const JsonRpcMessage &message);
    void handleInvalid(const JsonRpcMessage &message);
    void handleResponse(const JsonRpcMessage &message);
    void handleServerRequest(const JsonRpcMessage &message); ///< ping, or "method not found"
    void handleNotification(const JsonRpcMessage &message);
    void handleProgress(const QJsonObject &params);
    /// Sends \a message (unframed) through the transport, framed as a line.
    void write(const QByteArray &message, qint64 requestId = -1);
    void note(const QString &text);
    void appendLog(const QByteArray &text);

    const McpServerConfig m_config;
    const McpClientOptions m_options;

    // Only on the client's thread.
    McpTransport *m_transport = nullptr; ///< one connection; a new one on a restart
    QTimer *m_startTimer = nullptr;
    /// Idle: when to send the next ping; a ping out (m_pingId): when it is overdue.
    QTimer *m_pingTimer = nullptr;
    qint64 m_pingId = -1; ///< the ping waiting for its answer, -1: none
    qint64 m_nextId = 0;
    QHash<qint64, Pending *> m_pending;
    QSet<qint64> m_cancelled; ///< their late answers are expected, not unknown
    QList<std::pair<std::function<void()>, Done>> m_deferred; ///< calls waiting for Ready
    bool m_listing = false;
    bool m_relistWanted = false;
    bool m_renewing = false; ///< a new session's initialize is under way (HTTP)
    QList<qint64> m_expired; ///< requests to send again in the new session

    // Shared with the callers' threads.
    mutable QMutex m_mutex;
    mutable QWaitCondition m_settled;
    State m_state = State::Stopped;
    QString m_error;
    QList<McpToolInfo> m_tools;
    std::optional<QList<McpResourceInfo>> m_resources; ///< listed once: kept up to date
    std::optional<QList<McpPromptInfo>> m_prompts;
    QString m_protocolVersion;
    QByteArray m_log;
    bool m_closed = false;
    QSet<Call *> m_calls; ///< blocked callers, finished by shutdown()
};

} // namespace AgentCore
