#include "headlessrun.h"

#include "interruptwatcher.h"
#include "streamjson.h"
#include "windowsetup.h"

#include <ai/messagejson.h>
#include <checkpoint/checkpointstore.h>
#include <coding/codingsession.h>
#include <coding/repository.h>
#include <context/compaction.h>
#include <mcp/mcpconfigexpansion.h>
#include <mcp/mcpreferences.h>
#include <mcp/mcpserverlist.h>
#include <permissions/permissionsettings.h>
#include <permissions/projecttrust.h>
#include <session/sessionrecorder.h>
#include <session/sessionstore.h>
#include <tools/sandboxcaches.h>

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QMutex>
#include <QSettings>
#include <QStandardPaths>
#include <QUuid>

#include <csignal>
#include <cstdio>

namespace App {

using AgentCore::AgentEvent;
using AgentCore::Message;
using AgentCore::SessionLog;
using AgentCore::SessionStore;
using AgentCore::StopReason;

namespace {
struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(App::HeadlessRun)
};

// Lines from the tool threads (denials, audit failures) and the main thread never interleave.
QMutex outputMutex;

void writeStdout(const QByteArray &bytes)
{
    QMutexLocker locker(&outputMutex);
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stdout);
    std::fflush(stdout);
}

void writeStderr(const QString &text)
{
    const QByteArray bytes = (QStringLiteral("agentdesk: ") + text + u'\n').toLocal8Bit();
    QMutexLocker locker(&outputMutex);
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stderr);
    std::fflush(stderr);
}

const Message *lastAssistant(const QList<Message> &messages)
{
    for (auto it = messages.crbegin(); it != messages.crend(); ++it) {
        if (it->isAssistant())
            return &*it;
    }
    return nullptr;
}

// "Read src/main.cpp", "Bash git status": what a tool call is about, on one short line.
QString callSummary(const QString &tool, const QJsonObject &arguments)
{
    for (const char *key : {"command", "file_path", "pattern", "path"}) {
        QString value = arguments.value(QLatin1String(key)).toString();
        if (value.isEmpty())
            continue;
        value = value.section(u'\n', 0, 0);
        if (value.size() > 120)
            value = value.left(117) + QStringLiteral("...");
        return tool + u' ' + value;
    }
    return tool;
}

QString firstLine(const QString &text)
{
    const QString line = text.trimmed().section(u'\n', 0, 0);
    return line.size() > 200 ? line.left(197) + QStringLiteral("...") : line;
}

// Why the run ended, for stderr; empty for a natural end.
QString outcomeMessage(const Message *last, int signalNumber, int maxTurns)
{
    if (signalNumber == SIGINT)
        return Tr::tr("interrupted: the run was aborted.");
    if (signalNumber != 0)
        return Tr::tr("terminated: the run was aborted.");
    if (!last)
        return Tr::tr("the run ended without an answer from the model.");
    switch (last->stopReason) {
    case StopReason::Stop:
    case StopReason::ToolUse:
        return {};
    case StopReason::TurnLimit:
        return Tr::tr("stopped after %n turn(s): the limit set with --max-turns.",
                      nullptr,
                      maxTurns);
    case StopReason::Length:
        return Tr::tr("the answer was cut off at the model's output limit.");
    case StopReason::Refusal:
        return Tr::tr("the model refused: %1")
            .arg(last->refusal.isEmpty() ? last->text() : last->refusal);
    case StopReason::Aborted:
        return Tr::tr("the run was aborted.");
    case StopReason::Error:
    case StopReason::ContextOverflow:
        break;
    }
    return Tr::tr("the run failed: %1").arg(last->errorMessage);
}

// AgentDesk's own files outside the repository that no tool may change unasked: the app's
// settings, the sessions and the audit logs.
QStringList ownFiles()
{
    return {QSettings().fileName(),
            QStandardPaths::writableLocation(QStandardPaths::AppDataLocation),
            QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation)};
}

std::optional<QString> readPrompt(const QString &prompt)
{
    if (prompt != QLatin1String("-"))
        return prompt;
    QFile input;
    if (!input.open(stdin, QIODevice::ReadOnly))
        return std::nullopt;
    const QString text = QString::fromUtf8(input.readAll());
    if (text.trimmed().isEmpty())
        return std::nullopt;
    return text;
}

} // namespace

HeadlessRun::HeadlessRun(QObject *parent)
    : QObject(parent)
{}

HeadlessRun::~HeadlessRun()
{
    // The manager outlives this object's body (it is a member); it must not call back into it.
    if (m_parts.context)
        m_parts.context->setEvents({});
    // The same for the checkpoints: once idle, no snapshot is left to call back.
    if (m_parts.checkpoints) {
        m_parts.checkpoints->setEvents({});
        m_parts.checkpoints->waitForIdle();
    }
}

int HeadlessRun::exitCode(const QList<Message> &newMessages, int signalNumber)
{
    if (signalNumber != 0)
        return 128 + signalNumber;
    const Message *last = lastAssistant(newMessages);
    if (!last)
        return int(HeadlessExit::Failed);
    switch (last->stopReason) {
    case StopReason::Stop:
        return int(HeadlessExit::Success);
    case StopReason::TurnLimit:
        return int(HeadlessExit::MaxTurns);
    default:
        return int(HeadlessExit::Failed);
    }
}

std::optional<int> HeadlessRun::start(const CommandLine &commandLine)
{
    m_options = commandLine.print;
    m_format = m_options.outputFormat;
    constexpr int usage = int(HeadlessExit::Usage);

    QString error;
    const std::optional<AgentCore::Repository> repository
        = AgentCore::Repository::open(commandLine.repository, &error);
    if (!repository) {
        writeStderr(error);
        return usage;
    }
    const QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    const std::optional<AgentCore::ProviderConfig> provider = m_options.providerConfig(environment,
                                                                                       &error);
    if (!provider) {
        writeStderr(error);
        return usage;
    }
    const std::optional<QString> prompt = readPrompt(m_options.prompt);
    if (!prompt) {
        writeStderr(Tr::tr("--print - reads the prompt from standard input, which was empty."));
        return usage;
    }
    std::optional<SessionLog::Contents> resumed;
    if (m_options.session != SessionChoice::New) {
        resumed = openSession(repository->root);
        if (!resumed)
            return usage;
    } else if (m_options.persistSession) {
        m_sessionPath = SessionStore(SessionStore::defaultDirectory(repository->root))
                            .newSessionPath();
    }

    AgentCore::CodingAgentOptions options;
    options.provider = *provider;
    // A session's requests share OpenAI's cache routing, as the window's do (its id, so a
    // continued session keeps it); a run that records nothing gets one of its own.
    options.provider.promptCacheKey = m_sessionPath.isEmpty()
                                          ? QUuid::createUuid().toString(QUuid::WithoutBraces)
                                          : SessionStore::idOf(m_sessionPath);
    options.repositoryRoot = repository->root;
    options.permissionMode = m_options.permissionMode;
    options.allowRules = m_options.allowedTools;
    options.tools = m_options.tools;
    options.maxTurns = m_options.maxTurns;
    options.commandEnvironment = m_options.commandEnvironment(environment);
    options.userSettingsPath = AgentCore::PermissionSettings::userSettingsPath();
    options.projectTrustPath = AgentCore::ProjectTrust::defaultStorePath();
    options.trustProjectSettings = m_options.trustProjectSettings;
    options.protectedPaths = ownFiles();
    options.auditLogPath = AgentCore::AuditLog::newDefaultPath();
    options.onAuditError = [](const QString &message) { writeStderr(message); };
    options.onUnattendedDeny = [](const QString &message) { writeStderr(message); };
    options.sandbox.mode = m_options.sandboxMode.value_or(AgentCore::SandboxMode::On);
    options.sandbox.allowNetwork = m_options.sandboxNetwork;
    options.sandbox.hiddenPaths = AgentCore::SandboxPolicy::defaultHiddenPaths(QDir::homePath());
    // The key file of the window's file key store lives there, beside the app's settings.
    options.sandbox.hiddenPaths.append(
        QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation));
    // npm, pip and cargo write their caches: privately, so they work and nothing leaks out.
    options.sandbox.privatePaths = AgentCore::SandboxCaches::defaultPaths(QDir::homePath());
    options.onSandboxUnavailable = [](const QString &message) {
        writeStderr(Tr::tr("warning: %1").arg(message));
    };
    options.checkpointStoreRoot = AgentCore::CheckpointStore::defaultStoreRoot();
    // Review shell writes is on (as in the window), but --print has nobody to review them: a
    // command that is not read-only runs only when a rule or the mode allows it, then writes
    // directly, and the first such command says so on stderr (PermissionGate). No overlay.
    options.reviewShellWrites = [] { return true; };
    options.onShellWritesUnavailable = [](const QString &message) {
        writeStderr(Tr::tr("warning: %1").arg(message));
    };
    options.pruneCheckpoints = true;
    if (const std::optional<int> code = startMcpServers(repository->root,
                                                        environment,
                                                        options.commandEnvironment,
                                                        &options.liveTools)) {
        return code;
    }
    QString promptText = *prompt;
    if (m_mcp) {
        // `/SERVER:PROMPT ARGS` and `@SERVER:URI`, as the composer offers them.
        const AgentCore::McpExpansion expansion = AgentCore::expandMcpReferences(promptText,
                                                                                 m_mcp->clients());
        if (!expansion.ok()) {
            writeStderr(Tr::tr("The prompt names an MCP prompt or resource that cannot be had: %1")
                            .arg(expansion.error));
            return usage;
        }
        promptText = expansion.text;
    }
    m_parts = AgentCore::CodingAgent::assemble(options);
    for (const QString &warning : std::as_const(m_parts.warnings))
        writeStderr(Tr::tr("warning: %1").arg(warning));
    if (!m_parts.untrustedGrants.isEmpty()) {
        writeStderr(Tr::tr("warning: this repository's settings files (.agentdesk/) ask for more "
                           "than your own settings, which you have not accepted; ignored: %1. "
                           "Accept it once in the AgentDesk window, or run with "
                           "--trust-project-settings.")
                        .arg(m_parts.untrustedGrants.join(QStringLiteral("; "))));
    }

    m_watcher = std::make_unique<InterruptWatcher>();
    connect(m_watcher.get(), &InterruptWatcher::interrupted, this, &HeadlessRun::onInterrupted);
    if (resumed)
        m_parts.config.history = resumed->messages;
    m_agent = std::make_unique<AgentCore::Agent>(std::move(m_parts.config));
    watchCompaction();
    watchCheckpoints(options.provider.promptCacheKey); // the session's id, or the run's own
    if (resumed && m_parts.checkpoints)
        AgentCore::CodingSession::restoreCheckpoints(resumed->state, *m_parts.checkpoints);
    if (resumed) {
        // The session goes on as in the window (its queue, its leftover steering and the rules
        // allowed for it), except that a headless run's permission mode is always its command
        // line's and settings' (nothing unasked because a window once switched to bypass), and
        // that the window's follow-up queue waits for the window: paused, never run unattended.
        const AgentCore::PermissionMode mode = m_parts.policy->mode();
        QStringList warnings = resumed->warnings;
        const QList<AgentCore::PermissionRule> unconfirmed
            = AgentCore::CodingSession::restore(resumed->state,
                                                *m_agent,
                                                *m_parts.policy,
                                                &warnings);
        m_parts.policy->setMode(mode);
        // The session's allow rules are not this run's: a session file is data anyone or any
        // tool may have written, and --print has nobody to confirm them. They stay in the file
        // (a window offers them when it resumes the session); the run says how to grant them.
        if (!unconfirmed.isEmpty()) {
            m_unconfirmedRules = std::make_shared<const QList<AgentCore::PermissionRule>>(
                unconfirmed);
            const QStringList rules = unappliedRules();
            QString quoted = rules.join(QStringLiteral(", "));
            quoted.replace(u'\'', QStringLiteral("'\\''"));
            writeStderr(Tr::tr("warning: the session allows %1 without asking, but a session file "
                               "is not a grant: these rules were not applied to this run. To "
                               "allow them for this run, add --allowed-tools '%2'.")
                            .arg(rules.join(QStringLiteral(", ")), quoted));
        }
        if (!m_agent->followUpQueue().isEmpty())
            m_agent->setFollowUpsPaused(true);
        for (const QString &warning : std::as_const(warnings))
            writeStderr(Tr::tr("warning: %1").arg(warning));
    }
    if (!m_sessionPath.isEmpty()) {
        // Before the run's own handler: what stdout reports is on disk already.
        m_recorder.reset(AgentCore::CodingSession::record(m_agent.get(),
                                                          m_parts.policy,
                                                          m_sessionPath,
                                                          SessionStore::newHeader(repository->root),
                                                          resumed ? resumed->state : QJsonObject(),
                                                          std::exchange(m_resumption, std::nullopt),
                                                          nullptr,
                                                          m_parts.checkpoints,
                                                          m_unconfirmedRules));
        m_recorder->setStateValue(QStringLiteral("model"), modelSelectionOf(m_options).toJson());
        connect(m_recorder.get(), &AgentCore::SessionRecorder::failed, this, [](const QString &why) {
            writeStderr(Tr::tr("warning: %1").arg(why));
        });
    }
    connect(m_agent.get(), &AgentCore::Agent::eventEmitted, this, &HeadlessRun::onEvent);
    m_agent->prompt(promptText);
    return std::nullopt;
}

std::optional<SessionLog::Contents> HeadlessRun::openSession(const QString &repositoryRoot)
{
    const SessionStore store(SessionStore::defaultDirectory(repositoryRoot));
    const QString root = QDir::toNativeSeparators(repositoryRoot);
    QStringList candidates;
    if (m_options.session == SessionChoice::Continue) {
        const QList<AgentCore::SessionInfo> sessions = store.list();
        for (const AgentCore::SessionInfo &session : sessions) {
            if (session.error.isEmpty()) {
                candidates.append(session.path);
                continue;
            }
            writeStderr(Tr::tr("warning: skipped the session %1: %2")
                            .arg(QDir::toNativeSeparators(session.path), session.error));
        }
        if (candidates.isEmpty()) {
            writeStderr(Tr::tr("No session to continue: %1 has none yet. Run without --continue "
                               "to start one.")
                            .arg(root));
            return std::nullopt;
        }
    } else {
        const QString &id = m_options.resumeId;
        const bool isPath = id.contains(u'/') || id.contains(QDir::separator())
                            || id.endsWith(QLatin1String(".jsonl"));
        const QString path = isPath ? QFileInfo(id).absoluteFilePath() : store.pathOf(id);
        if (!QFileInfo(path).isFile()) {
            const QStringList elsewhere = isPath ? QStringList()
                                                 : store.findInOtherRepositories(id);
            const QString other = elsewhere.isEmpty()
                                      ? QString()
                                      : SessionStore::repositoryOf(elsewhere.constFirst());
            if (!other.isEmpty()) {
                writeStderr(Tr::tr("The session %1 belongs to another repository, %2: run with "
                                   "--repo %2 to continue it.")
                                .arg(id, QDir::toNativeSeparators(other)));
            } else {
                writeStderr(Tr::tr("No session %1 for %2. The window lists the repository's "
                                   "sessions; agent_start names each run's sessionId.")
                                .arg(id, root));
            }
            return std::nullopt;
        }
        candidates.append(path);
    }
    // A file given by its path, or a folder shared by a moved repository: the session must be
    // this repository's, or its file paths and tool results would describe another tree.
    const auto isAnotherRepositorys = [&repositoryRoot](const QString &path) {
        const QString recordedFor = SessionStore::repositoryOf(path);
        if (recordedFor.isEmpty() || recordedFor == repositoryRoot)
            return false;
        writeStderr(Tr::tr("The session %1 belongs to another repository, %2: run with --repo %2 "
                           "to continue it.")
                        .arg(SessionStore::idOf(path), QDir::toNativeSeparators(recordedFor)));
        return true;
    };
    const QString &first = candidates.constFirst();
    QString error;
    if (!m_options.persistSession) {
        if (isAnotherRepositorys(first))
            return std::nullopt;
        // Only read: nothing is added to it, so it needs no lock, and one open elsewhere is
        // read as it is now.
        std::optional<SessionLog::Contents> contents = SessionLog::load(first, &error);
        if (!contents) {
            writeStderr(
                Tr::tr("Cannot continue the session %1: %2").arg(SessionStore::idOf(first), error));
            return std::nullopt;
        }
        contents->messages += AgentCore::SessionRecorder::interruption(*contents);
        return contents;
    }
    // --continue means "go on where I left off": with several agents at once the most recent
    // session is often another window's or run's, which no second process may write. The most
    // recent one that is free is taken instead, and stderr says which were passed over.
    QStringList skipped; // "ID (process N)", most recent first
    for (const QString &path : std::as_const(candidates)) {
        if (isAnotherRepositorys(path))
            return std::nullopt;
        bool busy = false;
        m_resumption = AgentCore::SessionResumption::takeOver(path, &error, &busy);
        if (m_resumption) {
            if (skipped.size() == 1) {
                writeStderr(Tr::tr("the most recent session, %1, is open in another AgentDesk "
                                   "window or headless run; continuing %2, the most recent one "
                                   "that is free.")
                                .arg(skipped.constFirst(), SessionStore::idOf(path)));
            } else if (skipped.size() > 1) {
                writeStderr(Tr::tr("the %1 most recent sessions are open in other AgentDesk "
                                   "windows or headless runs: %2; continuing %3, the most recent "
                                   "one that is free.")
                                .arg(QString::number(skipped.size()),
                                     skipped.join(QStringLiteral(", ")),
                                     SessionStore::idOf(path)));
            }
            m_sessionPath = path;
            return std::move(m_resumption->contents);
        }
        if (!busy || m_options.session != SessionChoice::Continue) {
            writeStderr(
                Tr::tr("Cannot continue the session %1: %2").arg(SessionStore::idOf(path), error));
            return std::nullopt;
        }
        QString holder;
        if (!SessionLog::isBusy(path, &holder))
            holder = Tr::tr("another process"); // it let go just now: still not ours to take
        skipped.append(Tr::tr("%1 (%2)").arg(SessionStore::idOf(path), holder));
    }
    writeStderr(Tr::tr("No session to continue: every session of %1 is open in another AgentDesk "
                       "window or headless run (%2), and only one can add to a session at a "
                       "time. Run without --continue to start a new one, or --resume one of "
                       "them once it is closed.")
                    .arg(root, skipped.join(QStringLiteral(", "))));
    return std::nullopt;
}

std::optional<int> HeadlessRun::startMcpServers(const QString &root,
                                                const QProcessEnvironment &environment,
                                                const AgentCore::CommandEnvironment &filter,
                                                std::shared_ptr<AgentCore::ToolSlot> *tools)
{
    using namespace AgentCore;
    const ProjectTrust trust = m_options.trustProjectSettings
                                   ? ProjectTrust::everything()
                                   : ProjectTrust::load(ProjectTrust::defaultStorePath(), root);
    const McpServerList list = McpServerList::gather(root,
                                                     m_options.mcpConfigFiles,
                                                     m_options.strictMcpConfig,
                                                     trust);
    if (!list.error.isEmpty()) {
        writeStderr(Tr::tr("--mcp-config: %1").arg(list.error));
        return int(HeadlessExit::Usage);
    }
    for (const QString &problem : list.problems)
        writeStderr(Tr::tr("warning: %1").arg(problem));
    for (const McpServerConfig &server : list.untrusted) {
        writeStderr(Tr::tr("warning: the MCP server \"%1\" of this repository's .mcp.json (%2) "
                           "is not started: a repository's servers run code, and you have not "
                           "trusted this one. Run with --trust-project-settings, or name the "
                           "file with --mcp-config.")
                        .arg(server.name, server.commandLine()));
    }
    if (list.servers.isEmpty())
        return std::nullopt;

    // The same variables as Claude Code's, in milliseconds.
    McpClientOptions base;
    base.workingDirectory = root;
    if (const int ms = environment.value(QStringLiteral("MCP_TIMEOUT")).toInt(); ms > 0)
        base.initializeTimeoutMs = ms;
    if (const int ms = environment.value(QStringLiteral("MCP_TOOL_TIMEOUT")).toInt(); ms > 0)
        base.callTimeoutMs = ms;
    m_mcp = std::make_unique<McpHost>();
    for (const McpServerConfig &configured : list.servers) {
        // The window's rule: ${VAR} and ${VAR:-default} expanded, a provider's key never.
        // A run opens no keyring: a ${keyring:NAME} secret is the window's.
        QStringList problems;
        const QStringList secrets = McpConfigExpansion::keyringNames(configured);
        const McpServerConfig server = secrets.isEmpty() ? McpConfigExpansion::expand(configured,
                                                                                      environment,
                                                                                      {},
                                                                                      filter,
                                                                                      &problems)
                                                         : McpServerConfig();
        if (!secrets.isEmpty()) {
            problems.append(Tr::tr("it names the keyring secret \"%1\", which only the window "
                                   "reads; put it in a variable and name that")
                                .arg(secrets.first()));
        }
        if (!problems.isEmpty()) {
            const QString error = Tr::tr("the MCP server \"%1\" is not started: %2")
                                      .arg(configured.name, problems.join(QStringLiteral("; ")));
            writeStderr(Tr::tr("warning: %1.").arg(error));
            m_mcpServers.append(QJsonObject{{QStringLiteral("name"), configured.name},
                                            {QStringLiteral("status"), QStringLiteral("failed")},
                                            {QStringLiteral("tools"), 0},
                                            {QStringLiteral("error"), error}});
            continue;
        }
        McpClientOptions options = base;
        QStringList dropped;
        options.environment = McpHost::serverEnvironment(environment, filter, server.env, &dropped);
        if (!dropped.isEmpty()) {
            writeStderr(Tr::tr("warning: the MCP server \"%1\" does not get %2: the model "
                               "providers' keys are never passed to MCP servers.")
                            .arg(server.name, dropped.join(QStringLiteral(", "))));
        }
        m_mcp->addServer(server, options);
    }
    QElapsedTimer started;
    started.start();
    m_mcp->startAll();
    m_mcp->waitUntilSettled(base.initializeTimeoutMs + 1000);
    QStringList taken;
    for (ToolKind kind : {ToolKind::Bash,
                          ToolKind::Read,
                          ToolKind::Write,
                          ToolKind::Edit,
                          ToolKind::Glob,
                          ToolKind::Grep,
                          ToolKind::Ls})
        taken.append(toolKindName(kind));
    QStringList problems;
    m_mcp->tools(taken, &problems);
    // Kept up to date: a server's list_changed reaches the model at its next turn.
    *tools = std::make_shared<ToolSlot>();
    m_mcp->publishTools(*tools, taken);
    for (const QString &problem : std::as_const(problems))
        writeStderr(Tr::tr("warning: %1").arg(problem));
    for (const std::shared_ptr<McpClient> &client : m_mcp->clients()) {
        const bool ready = client->state() == McpClient::State::Ready;
        QString error = client->error();
        if (!ready && error.isEmpty())
            error = Tr::tr("the MCP server \"%1\" is still starting").arg(client->config().name);
        if (!ready)
            writeStderr(Tr::tr("warning: %1; its tools are not available in this run.").arg(error));
        QJsonObject server{{QStringLiteral("name"), client->config().name},
                           {QStringLiteral("status"),
                            ready ? QStringLiteral("connected") : QStringLiteral("failed")},
                           {QStringLiteral("tools"), ready ? qint64(client->tools().size()) : 0}};
        if (!ready)
            server.insert(QStringLiteral("error"), error);
        m_mcpServers.append(server);
    }
    m_mcpReadyMs = started.elapsed();
    return std::nullopt;
}

int HeadlessRun::run(const CommandLine &commandLine)
{
    HeadlessRun run;
    if (const std::optional<int> code = run.start(commandLine))
        return *code;
    connect(&run, &HeadlessRun::finished, QCoreApplication::instance(), &QCoreApplication::exit);
    return QCoreApplication::exec();
}

void HeadlessRun::onInterrupted(int signalNumber)
{
    if (m_signal != 0 || m_finished)
        return;
    m_signal = signalNumber;
    writeStderr(signalNumber == SIGINT ? Tr::tr("interrupted, stopping the run...")
                                       : Tr::tr("terminated, stopping the run..."));
    if (m_agent)
        m_agent->abort();
}

QJsonObject HeadlessRun::startInfo() const
{
    QJsonObject info{
        {QStringLiteral("repository"), m_parts.workspace->root()},
        {QStringLiteral("provider"), m_options.provider},
        {QStringLiteral("model"), m_options.model},
        {QStringLiteral("permissionMode"), AgentCore::permissionModeName(m_parts.policy->mode())},
        {QStringLiteral("auditLog"), m_parts.auditLog ? m_parts.auditLog->path() : QString()},
        {QStringLiteral("sessionId"),
         m_sessionPath.isEmpty() ? QString() : SessionStore::idOf(m_sessionPath)},
        {QStringLiteral("sessionFile"), m_sessionPath},
    };
    if (const QStringList rules = unappliedRules(); !rules.isEmpty()) {
        // The resumed session's allow rules, not applied (stderr says how to grant them).
        info.insert(QStringLiteral("sessionRulesNotApplied"), QJsonArray::fromStringList(rules));
    }
    if (!m_mcpServers.isEmpty()) {
        info.insert(QStringLiteral("mcpServers"), m_mcpServers);
        info.insert(QStringLiteral("mcpReadyMs"), m_mcpReadyMs);
    }
    return info;
}

void HeadlessRun::onEvent(const AgentEvent &event)
{
    if (m_finished)
        return;
    // A compaction the loop started before this event is told first (its own queued call may
    // come after the batch of events this one came in).
    printNotices();
    if (m_format == OutputFormat::StreamJson) {
        QJsonObject json = StreamJson::fromEvent(event);
        if (event.type == AgentEvent::Type::AgentStart) {
            const QJsonObject info = startInfo();
            for (auto it = info.begin(); it != info.end(); ++it)
                json.insert(it.key(), it.value());
        } else if (event.type == AgentEvent::Type::AgentEnd) {
            json.insert(u"exitCode", exitCode(event.newMessages, m_signal));
            // A snapshot still running belongs before the end.
            if (m_parts.checkpoints)
                m_parts.checkpoints->waitForIdle();
            printCheckpoints();
            // The session's state lists the checkpoints: those of a turn are written at its
            // end; the last ones now. Not at each checkpoint, so the file changes only with
            // the conversation while a turn waits for the model.
            if (m_recorder)
                m_recorder->refreshState();
        }
        writeStdout(StreamJson::line(json));
    } else {
        printTextActivity(event);
    }
    if (event.type == AgentEvent::Type::MessageEnd && AgentCore::Compaction::of(event.message))
        onCompacted(event.message);
    if (event.type == AgentEvent::Type::AgentEnd)
        finish(event.newMessages);
}

void HeadlessRun::watchCompaction()
{
    if (!m_parts.context)
        return;
    // Called on the summary's or the loop's thread.
    AgentCore::ContextManager::Events events;
    events.started = [this](bool waiting) { postNotice({waiting, {}}); };
    events.failed = [this](const QString &problem) { postNotice({false, problem}); };
    m_parts.context->setEvents(events);
}

void HeadlessRun::watchCheckpoints(const QString &sessionId)
{
    if (!m_parts.checkpoints)
        return;
    m_parts.checkpoints->setSessionId(sessionId);
    AgentCore::CheckpointRecorder::Events events;
    auto post = [this](CheckpointNotice notice) {
        {
            QMutexLocker locker(&m_noticeMutex);
            m_checkpointNotices.append(std::move(notice));
        }
        QMetaObject::invokeMethod(this, &HeadlessRun::printCheckpoints, Qt::QueuedConnection);
    };
    events.recorded = [post](const AgentCore::Checkpoint &checkpoint) {
        post({checkpoint, {}, {}});
    };
    events.failed = [post](const QString &problem) { post({{}, problem, {}}); };
    events.repaired = [post](const QString &repair) { post({{}, {}, repair}); };
    m_parts.checkpoints->setEvents(events);
}

void HeadlessRun::printCheckpoints()
{
    QList<CheckpointNotice> notices;
    {
        QMutexLocker locker(&m_noticeMutex);
        notices.swap(m_checkpointNotices);
    }
    if (notices.isEmpty() || m_finished)
        return;
    for (const CheckpointNotice &notice : std::as_const(notices)) {
        if (!notice.repaired.isEmpty()) {
            // On stderr whatever the format: stream-json has no line for it.
            writeStderr(Tr::tr("warning: %1").arg(notice.repaired));
            continue;
        }
        if (m_format == OutputFormat::StreamJson) {
            QJsonObject json;
            if (notice.checkpoint.isNull()) {
                json = {{QStringLiteral("type"), QStringLiteral("checkpoint")},
                        {QStringLiteral("error"), notice.problem}};
            } else {
                json = notice.checkpoint.toJson();
                json.insert(QStringLiteral("type"), QStringLiteral("checkpoint"));
            }
            writeStdout(StreamJson::line(json));
        } else if (notice.checkpoint.isNull()) {
            writeStderr(Tr::tr("warning: %1").arg(notice.problem));
        } else if (!notice.checkpoint.skipped.isEmpty()) {
            QStringList paths;
            for (const AgentCore::SkippedFile &file : notice.checkpoint.skipped)
                paths.append(file.path);
            writeStderr(Tr::tr("warning: checkpoint %1 does not cover %2 (over the size cap or "
                               "unreadable)")
                            .arg(notice.checkpoint.id.left(12), paths.join(QStringLiteral(", "))));
        }
    }
}

void HeadlessRun::postNotice(const CompactionNotice &notice)
{
    {
        QMutexLocker locker(&m_noticeMutex);
        m_notices.append(notice);
    }
    QMetaObject::invokeMethod(this, &HeadlessRun::printNotices, Qt::QueuedConnection);
}

void HeadlessRun::printNotices()
{
    QList<CompactionNotice> notices;
    {
        QMutexLocker locker(&m_noticeMutex);
        notices.swap(m_notices);
    }
    for (const CompactionNotice &notice : std::as_const(notices)) {
        if (notice.problem.isEmpty())
            onCompactionStarted(notice.waiting);
        else
            onCompactionFailed(notice.problem);
    }
}

void HeadlessRun::onCompactionStarted(bool waiting)
{
    if (m_finished)
        return;
    if (m_format == OutputFormat::StreamJson) {
        writeStdout(StreamJson::line({{QStringLiteral("type"), QStringLiteral("compaction_start")},
                                      {QStringLiteral("waiting"), waiting}}));
    } else if (waiting) {
        writeStderr(Tr::tr("Compacting: the conversation no longer fits the model's context "
                           "window; summarising its older part first."));
    } else {
        writeStderr(Tr::tr("Summarising the conversation's older part in the background."));
    }
}

void HeadlessRun::onCompactionFailed(const QString &problem)
{
    if (m_finished)
        return;
    if (m_format == OutputFormat::StreamJson) {
        writeStdout(StreamJson::line({{QStringLiteral("type"), QStringLiteral("compaction_end")},
                                      {QStringLiteral("error"), problem}}));
    } else {
        writeStderr(Tr::tr("warning: the conversation was not compacted: %1").arg(problem));
    }
}

void HeadlessRun::onCompacted(const AgentCore::Message &message)
{
    const std::optional<AgentCore::Compaction> compaction = AgentCore::Compaction::of(message);
    if (m_format == OutputFormat::StreamJson) {
        writeStdout(StreamJson::line(
            {{QStringLiteral("type"), QStringLiteral("compaction_end")},
             {QStringLiteral("coveredCount"), qint64(compaction->coveredCount)},
             {QStringLiteral("model"), compaction->model},
             {QStringLiteral("usage"),
              AgentCore::messageToJson(message).value(QLatin1StringView("usage"))}}));
    } else {
        writeStderr(Tr::tr("Compacted: a summary stands for the first %n message(s) in the "
                           "requests from now on.",
                           nullptr,
                           int(compaction->coveredCount)));
    }
}

void HeadlessRun::printTextActivity(const AgentEvent &event)
{
    switch (event.type) {
    case AgentEvent::Type::ToolExecutionStart:
        writeStderr(QStringLiteral("> ") + callSummary(event.toolName, event.arguments));
        break;
    case AgentEvent::Type::ToolExecutionEnd:
        if (event.isError)
            writeStderr(Tr::tr("%1 failed: %2").arg(event.toolName, firstLine(event.result.text())));
        break;
    case AgentEvent::Type::MessageUpdate:
        if (event.streamEvent.type == AgentCore::StreamEvent::Type::Retry) {
            writeStderr(Tr::tr("%1; retrying in %2 s.")
                            .arg(event.streamEvent.errorMessage)
                            .arg((event.streamEvent.retryDelayMs + 999) / 1000));
        }
        break;
    default:
        break;
    }
}

void HeadlessRun::finish(const QList<Message> &newMessages)
{
    m_finished = true;
    const int code = exitCode(newMessages, m_signal);
    const Message *last = lastAssistant(newMessages);
    if (const QString message = outcomeMessage(last, m_signal, m_options.maxTurns);
        !message.isEmpty()) {
        writeStderr(message);
    }
    if (m_format == OutputFormat::Text && !m_sessionPath.isEmpty()) {
        // stdout is the answer only; where the run was kept goes with the activity.
        writeStderr(Tr::tr("session %1 (continue it with --continue or --resume %1)")
                        .arg(SessionStore::idOf(m_sessionPath)));
    }
    if (m_format == OutputFormat::Text && code == int(HeadlessExit::Success) && last) {
        QByteArray text = last->text().toUtf8();
        if (!text.endsWith('\n'))
            text += '\n';
        writeStdout(text);
    }
    emit finished(code);
}

QStringList HeadlessRun::unappliedRules() const
{
    QStringList rules;
    if (m_unconfirmedRules) {
        for (const AgentCore::PermissionRule &rule : std::as_const(*m_unconfirmedRules))
            rules.append(rule.toString());
    }
    return rules;
}

} // namespace App
