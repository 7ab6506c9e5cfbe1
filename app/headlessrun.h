#pragma once

#include "commandline.h"

#include <coding/codingagent.h>
#include <loop/agenttypes.h>
#include <mcp/mcphost.h>
#include <permissions/permissionrule.h>
#include <session/sessionresumption.h>

#include <QJsonArray>
#include <QMutex>
#include <QObject>

#include <memory>
#include <optional>

namespace AgentCore {
class SessionRecorder;
}

namespace App {

class InterruptWatcher;

/// The exit codes of agentdesk --print (also in --help and docs/stream-json.md).
enum class HeadlessExit {
    Success = 0,       ///< the task ended naturally
    Failed = 1,        ///< provider or network error, a truncated or refused answer, an abort
    Usage = 2,         ///< bad option value, no API key, repository not found, bad settings rule
    MaxTurns = 3,      ///< --max-turns reached
    Interrupted = 130, ///< SIGINT (SIGTERM gives 143)
};

/// One agent task without a window (agentdesk --print): builds a coding agent from the command
/// line, runs the prompt, prints the answer (text) or every event (stream-json) on stdout and
/// problems on stderr, and reports the exit code. The run is a session of the repository,
/// recorded in the window's SessionStore as the window records its own (CodingSession), unless
/// --no-session-persistence; --continue and --resume go on with one, holding its lock for the
/// whole run. Denies every call that needs approval
/// (nobody can be asked). SIGINT and SIGTERM abort the run cleanly: agent_end is still printed.
/// Lives on the main thread of a QCoreApplication; needs no display.
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
    /// Starts the MCP servers of --mcp-config and the repository's trusted .mcp.json and waits
    /// for their tools (the run has no window to keep painting); the exit code when a named
    /// file is unusable.
    std::optional<int> startMcpServers(const QString &root,
                                       const QProcessEnvironment &environment,
                                       const AgentCore::CommandEnvironment &filter,
                                       std::shared_ptr<AgentCore::ToolSlot> *tools);

    void onEvent(const AgentCore::AgentEvent &event);
    void onInterrupted(int signalNumber);
    void printTextActivity(const AgentCore::AgentEvent &event);
    /// Shows what the context manager reports (on this thread; see watchCompaction()).
    void watchCompaction();
    /// What the context manager reported (on its threads), printed in order with the agent's
    /// events: before any event the loop emitted after it, since printNotices() runs first.
    struct CompactionNotice
    {
        bool waiting = false;
        QString problem; ///< empty: a summary started
    };
    void postNotice(const CompactionNotice &notice);
    void printNotices();
    void onCompactionStarted(bool waiting);
    void onCompactionFailed(const QString &problem);
    /// compaction_end (or its line on stderr) for a compaction message the loop appended.
    void onCompacted(const AgentCore::Message &message);
    /// Checkpoints recorded or failed (on a worker or tool thread), printed on this thread in
    /// order with the agent's events: a "checkpoint" line in stream-json, failures on stderr.
    void watchCheckpoints(const QString &sessionId);
    struct CheckpointNotice
    {
        AgentCore::Checkpoint checkpoint; ///< null: a failure (or a repair)
        QString problem;
        QString repaired; ///< set: the store was repaired on the way (a stale lock removed)
    };
    void printCheckpoints();
    void finish(const QList<AgentCore::Message> &newMessages);
    /// The resumed session's allow rules this run did not apply, as --allowed-tools writes them.
    QStringList unappliedRules() const;
    QJsonObject startInfo() const;
    /// The session --continue or --resume names, taken over (or only read, without
    /// persistence); nullopt with the reason on stderr when there is none to go on with.
    std::optional<AgentCore::SessionLog::Contents> openSession(const QString &repositoryRoot);

    OutputFormat m_format = OutputFormat::Text;
    PrintOptions m_options;
    // Before m_parts: the context manager's threads may still post while it is destroyed.
    QMutex m_noticeMutex;
    QList<CompactionNotice> m_notices;           // under m_noticeMutex
    QList<CheckpointNotice> m_checkpointNotices; // under m_noticeMutex
    // Before m_parts and m_agent: its servers stop after the tools that call them are gone.
    std::unique_ptr<AgentCore::McpHost> m_mcp;
    QJsonArray m_mcpServers; ///< for agent_start: each server's state and tools
    qint64 m_mcpReadyMs = 0; ///< from starting the servers to their tools
    AgentCore::CodingAgent m_parts;
    std::unique_ptr<AgentCore::Agent> m_agent;
    QString m_sessionPath;                                    ///< empty: not recorded
    std::optional<AgentCore::SessionResumption> m_resumption; // until the recorder adopts it
    /// A resumed session's allow rules, not applied: kept in its file as they were.
    std::shared_ptr<const QList<AgentCore::PermissionRule>> m_unconfirmedRules;
    /// Destroyed before the agent (it reads the agent's queues for the last state it writes).
    std::unique_ptr<AgentCore::SessionRecorder> m_recorder;
    std::unique_ptr<InterruptWatcher> m_watcher;
    int m_signal = 0;
    bool m_finished = false;
};

} // namespace App
