#pragma once

#include "lspdiagnostic.h"
#include "lspserverconfig.h"

#include <ai/aborttoken.h>
#include <jsonrpc/jsonrpcframing.h>

#include <QHash>
#include <QJsonObject>
#include <QJsonValue>
#include <QMutex>
#include <QObject>
#include <QProcessEnvironment>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

class QThread;
class QTimer;

namespace AgentCore {

class JsonRpcProcess;
struct JsonRpcMessage;

struct LspClientOptions
{
    QString rootPath; ///< the workspace: the repository
    /// The server's whole environment, secrets already removed.
    QProcessEnvironment environment;
    int initializeTimeoutMs = 20'000;
    /// A server unused this long is shut down; the next use starts it again.
    int idleTimeoutMs = 10 * 60'000;
    qsizetype maxMessageBytes = JsonRpcHeaderReader::defaultMaxBodyBytes;
    qsizetype logBytes = 64 * 1024; ///< the server's stderr, newest kept
};

/// What a language server said about one file's text.
struct LspFileDiagnostics
{
    bool ok = false; ///< the server published its diagnostics of that text in time
    QList<LspDiagnostic> diagnostics;
    /// The diagnostics it had published for the file's text before this one, when it had:
    /// what a change introduced is the difference (introducedDiagnostics()).
    std::optional<QList<LspDiagnostic>> before;
    QString error;  ///< !ok: why (it could not start, died, took too long)
    QString notice; ///< said once: the server had stopped since its last use and was started again
};

/// What a server answered to a request about a place in a file (LspClient::ask).
struct LspAnswer
{
    bool ok = false;   ///< it answered in time, without an error
    QJsonValue result; ///< its result, as sent: hostile input, to validate
    QString error;     ///< !ok: why (not offered, it could not start, died, took too long)
    QString notice;    ///< said once: the server had stopped since its last use
};

/// One language server for one repository, on the LSP base protocol over its stdin and stdout
/// (JsonRpcProcess). Started at its first use (initialize, initialized), it is sent the text of
/// each file AgentDesk asks about (didOpen the first time, then didChange with the whole text
/// and didSave) and keeps what it publishes (textDocument/publishDiagnostics). A server that
/// dies is reported once, to whoever waits for it or to the next use, which starts it again; a
/// server that does not answer initialize in time is stopped and treated as dead. What it
/// sends is hostile input: messages are capped (JsonRpcHeaderReader), diagnostics validated and
/// capped (LspDiagnostic), and its requests answered without doing anything (it is never let
/// edit a file: workspace/applyEdit is refused).
/// Lives on its host's thread (LspHost); diagnose(), lastDiagnostics() and close() are
/// thread-safe and called from other threads.
class LspClient final : public QObject
{
    Q_OBJECT

public:
    LspClient(const LspServerConfig &config, const LspClientOptions &options);
    ~LspClient() override;

    const LspServerConfig &config() const { return m_config; }

    /// Where a text sent to the server comes from.
    enum class TextSource {
        File,     ///< the file holds it: the server is told it was saved once it checked it
        Proposal, ///< a change not applied (a review's): the server holds it in memory only
    };

    /// The server's diagnostics of \a path holding \a text, waiting at most \a timeoutMs (from
    /// now, the server's start included) or until \a abort fires. Never on the client's thread.
    LspFileDiagnostics diagnose(const QString &path,
                                const QString &text,
                                int timeoutMs,
                                const AbortToken &abort = {},
                                TextSource source = TextSource::File);
    /// Asks the server \a method ("textDocument/definition", "textDocument/references") about
    /// \a line and \a column (1-based, UTF-16 units) of \a path holding \a text (sent first
    /// when the server has another text), with \a extra in the params; waits as diagnose()
    /// does. A server that does not offer \a capability ("definitionProvider") is not asked.
    LspAnswer ask(const QString &path,
                  const QString &text,
                  const QString &method,
                  const QString &capability,
                  int line,
                  int column,
                  const QJsonObject &extra,
                  int timeoutMs,
                  const AbortToken &abort = {});
    /// Tells the server \a path holds \a text without waiting: a later diagnose() of another
    /// text then knows what was there before (LspFileDiagnostics::before).
    void open(const QString &path, const QString &text);
    /// What the server last published for \a path; nullopt when it has not (or is not running).
    std::optional<QList<LspDiagnostic>> lastDiagnostics(const QString &path) const;
    /// What it last published for every file it was sent, by path (sorted).
    QList<std::pair<QString, QList<LspDiagnostic>>> allDiagnostics() const;
    /// Shuts the server down for good (shutdown, exit, then its process group) and blocks until
    /// it is gone; every later diagnose() fails at once (its host is going away).
    /// The client then lives on \a home (the calling thread when null), where its last
    /// holder's deleter sends it.
    void close(QThread *home = nullptr);
    /// The server's process id; 0 when it is not running. Thread-safe.
    qint64 processId() const { return m_processId; }
    /// The server's stderr, the newest logBytes of it.
    QByteArray log() const;

private:
    template<typename Result>
    struct Call;
    using DiagnoseCall = Call<LspFileDiagnostics>;
    using AskCall = Call<LspAnswer>;
    struct Question
    {
        qint64 id = 0; ///< of the request; 0 until sent
        std::shared_ptr<AskCall> call;
        QTimer *timer = nullptr;
    };
    struct Document
    {
        int version = 0;
        QString text;
        int publishedVersion = -1; ///< of the text the diagnostics are for; -1: none yet
        QList<LspDiagnostic> diagnostics;
        std::optional<QList<LspDiagnostic>> before; ///< published for the text before
        bool saveWhenChecked = false;               ///< didSave once this text's diagnostics are in
    };
    struct Waiter
    {
        QString uri;
        int version = 0;
        std::shared_ptr<DiagnoseCall> call;
        QTimer *timer = nullptr;
    };
    enum class State { Idle, Starting, Ready };

    void start();
    void whenReady(std::function<void()> action);
    void send(const QByteArray &message);
    qint64 request(const QString &method,
                   const QJsonObject &params,
                   std::function<void(const JsonRpcMessage &)> onAnswer);
    void onFrame(const JsonRpcFrame &frame);
    void onServerRequest(const JsonRpcMessage &message);
    void onPublished(const QJsonObject &params);
    void pull(const QString &uri, int version);
    /// \a diagnostics of \a uri's text \a version (nullopt: the latest sent), published or
    /// pulled: kept, and given to whoever waits for them.
    void take(const QString &uri,
              std::optional<int> version,
              const QList<LspDiagnostic> &diagnostics);
    bool offers(const QString &capability) const;
    void onGone(const QString &reason);
    void sync(const QString &path, const QString &text, TextSource source);
    template<typename Result>
    Result wait(Call<Result> &call, int timeoutMs, const AbortToken &abort) const;
    void beginAsk(const std::shared_ptr<AskCall> &call,
                  const QString &path,
                  const QString &text,
                  const QString &method,
                  const QString &capability,
                  const QJsonObject &params,
                  int timeoutMs);
    void finishQuestion(const std::shared_ptr<AskCall> &call, const LspAnswer &answer);
    void beginDiagnose(const std::shared_ptr<DiagnoseCall> &call,
                       const QString &path,
                       const QString &text,
                       int timeoutMs,
                       TextSource source);
    /// What the server published for \a document, with \a before; a death note is said once.
    LspFileDiagnostics answerOf(const Document &document,
                                const std::optional<QList<LspDiagnostic>> &before);
    void finishWaiter(qsizetype index, const LspFileDiagnostics &result);
    void stopNow();
    void touch();
    QString uriOf(const QString &path) const;

    const LspServerConfig m_config;
    const LspClientOptions m_options;
    const QString m_name; ///< "the language server clangd"

    // The client's thread only:
    JsonRpcProcess *m_process = nullptr;
    State m_state = State::Idle;
    qint64 m_nextId = 1;
    QHash<qint64, std::function<void(const JsonRpcMessage &)>> m_pending;
    QList<std::function<void()>> m_whenReady;
    QList<Waiter> m_waiters;
    QList<Question> m_questions;
    QJsonObject m_capabilities; ///< the server's, from its initialize answer
    QString m_deathNote;        ///< a death nobody waited for: the next result's notice
    QTimer *m_initializeTimer = nullptr;
    QTimer *m_idleTimer = nullptr;

    std::atomic_bool m_closed = false;
    std::atomic<qint64> m_processId = 0;
    // Under m_mutex (read from other threads):
    mutable QMutex m_mutex;
    QHash<QString, Document> m_documents; ///< by URI
    QByteArray m_log;
};

} // namespace AgentCore
