#pragma once

#include "commandline.h"

#include <loop/agenttypes.h>

#include <QJsonObject>
#include <QObject>

#include <memory>
#include <optional>

namespace AgentCore {
class CodingSession;
}

namespace App {

class HeadlessMcp;
class HeadlessPrinter;
class InterruptWatcher;

/// The exit codes of agentdesk --print (also in --help and docs/stream-json.md).
enum class HeadlessExit {
    Success = 0,       ///< the task ended naturally
    Failed = 1,        ///< provider or network error, a truncated or refused answer, an abort
    Usage = 2,         ///< bad option value, no API key, repository not found, bad settings rule
    MaxTurns = 3,      ///< --max-turns reached
    Interrupted = 130, ///< SIGINT (SIGTERM gives 143)
};

/// One agent task without a window (agentdesk --print): the command line made into a
/// CodingSession (the same session the window opens, unattended: nobody answers a review, so
/// every call that needs approval is denied), its prompt sent, and what happens printed by a
/// HeadlessPrinter: the answer (text) or every event (stream-json) on stdout, problems on
/// stderr; then the exit code. The run is a session of the repository, recorded in the
/// window's SessionStore as the window records its own, unless --no-session-persistence;
/// --continue and --resume go on with one, holding its lock for the whole run. SIGINT and
/// SIGTERM abort the run cleanly: agent_end is still printed. Lives on the main thread of a
/// QCoreApplication; needs no display.
class HeadlessRun final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HeadlessRun)
public:
    explicit HeadlessRun(QObject *parent = nullptr);
    ~HeadlessRun() override;

    /// Sets everything up and starts the run. Returns the exit code when it cannot start
    /// (the reason is on stderr); otherwise finished() follows.
    std::optional<int> start(const CommandLine &commandLine);

    /// The exit code for a run that ended with \a newMessages; \a signalNumber: the signal
    /// that interrupted it, 0 for none.
    static int exitCode(const QList<AgentCore::Message> &newMessages, int signalNumber);

    /// Runs \a commandLine (Action::Print) in the running QCoreApplication; returns the exit code.
    static int run(const CommandLine &commandLine);

signals:
    void finished(int exitCode);

private:
    void watch();
    void onEvent(const AgentCore::AgentEvent &event);
    void onInterrupted(int signalNumber);
    /// The resumed session's allow rules this run did not apply, as --allowed-tools writes them.
    QStringList unappliedRules() const;
    void noteRunningBackgroundCommands() const;
    QJsonObject startInfo() const;

    PrintOptions m_options;
    QString m_sessionPath; ///< empty: not recorded
    // Before m_session: its servers stop after the tools that call them are gone.
    std::unique_ptr<HeadlessMcp> m_mcp;
    std::unique_ptr<AgentCore::CodingSession> m_session;
    std::unique_ptr<HeadlessPrinter> m_printer;
    std::unique_ptr<InterruptWatcher> m_watcher;
    int m_signal = 0;
};

} // namespace App
