#include "headlessrun.h"
#include "translation.h"

#include "headlessmcp.h"
#include "headlessprinter.h"
#include "headlesssessionchoice.h"
#include "interruptwatcher.h"
#include "modelstate.h"

#include <coding/codingsession.h>
#include <coding/repository.h>
#include <common/picturecodec.h>
#include <loop/agent.h>
#include <mcp/mcpreferences.h>
#include <session/sessionstore.h>

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>

#include <csignal>

namespace App {

using AgentCore::AgentEvent;
using AgentCore::CodingSession;
using AgentCore::Message;
using AgentCore::SessionLog;
using AgentCore::SessionStore;
using AgentCore::StopReason;

namespace {

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

HeadlessRun::~HeadlessRun() = default;

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
    constexpr int usage = int(HeadlessExit::Usage);

    QString error;
    const std::optional<AgentCore::Repository> repository
        = AgentCore::Repository::open(commandLine.repository, &error);
    if (!repository) {
        headlessStderr(error);
        return usage;
    }
    const QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    const std::optional<AgentCore::ProviderConfig> provider = m_options.providerConfig(environment,
                                                                                       &error);
    if (!provider) {
        headlessStderr(error);
        return usage;
    }
    const std::optional<QString> prompt = readPrompt(m_options.prompt);
    if (!prompt) {
        headlessStderr(
            AppTr::tr("--print - reads the prompt from standard input, which was empty."));
        return usage;
    }
    AgentCore::CodingSessionFile file;
    QString chosen; // the session this run goes on with, taken over or only read
    if (m_options.session != SessionChoice::New) {
        HeadlessSessionChoice choice(m_options);
        file.resumed = choice.open(repository->root);
        if (!file.resumed)
            return usage;
        m_sessionPath = choice.path();
        chosen = choice.chosenPath();
        file.resumption = choice.takeResumption();
    } else if (m_options.persistSession) {
        m_sessionPath = SessionStore(SessionStore::defaultDirectory(repository->root))
                            .newSessionPath();
    }
    pointAtInterruptedSession(repository->root, chosen);
    file.path = m_sessionPath;
    file.header = SessionStore::newHeader(repository->root);

    // Every session's defaults, the window's too; then what the command line says.
    AgentCore::CodingAgentOptions options = CodingSession::defaultOptions();
    options.provider = *provider;
    options.tools.pictures = Ui::PictureCodec::scaler(); // Read's pictures, scaled with QtGui
    options.repositoryRoot = repository->root;
    options.permissions.mode = m_options.permissionMode;
    options.permissions.allowRules = m_options.allowedTools;
    options.permissions.trustProjectSettings = m_options.trustProjectSettings;
    options.tools.builtIn = m_options.tools;
    options.languageServers.enabled = m_options.languageServers;
    options.maxTurns = m_options.maxTurns;
    options.commandEnvironment = m_options.commandEnvironment(environment);
    options.sandbox.mode = m_options.sandboxMode.value_or(AgentCore::SandboxMode::On);
    options.sandbox.allowNetwork = m_options.sandboxNetwork;
    // Review shell writes is on (as in the window), but --print has nobody to review them: a
    // command that is not read-only runs only when a rule or the mode allows it, then writes
    // directly, and the first such command says so on stderr (PermissionGate). No overlay.
    options.shellWrites.review = [] { return true; };
    m_mcp = std::make_unique<HeadlessMcp>();
    if (const std::optional<int> code = m_mcp->start(m_options,
                                                     repository->root,
                                                     environment,
                                                     options.commandEnvironment,
                                                     &options.tools.live)) {
        return code;
    }
    QString promptText = *prompt;
    if (m_mcp->host()) {
        // `/SERVER:PROMPT ARGS` and `@SERVER:URI`, as the composer offers them.
        const AgentCore::McpExpansion expansion
            = AgentCore::expandMcpReferences(promptText, m_mcp->host()->clients());
        if (!expansion.ok()) {
            headlessStderr(
                AppTr::tr("The prompt names an MCP prompt or resource that cannot be had: %1")
                    .arg(expansion.error));
            return usage;
        }
        promptText = expansion.text;
    }

    m_session = std::make_unique<CodingSession>(std::move(options),
                                                std::move(file),
                                                /*interactive=*/false);
    m_printer = std::make_unique<HeadlessPrinter>(
        m_options.outputFormat,
        m_options.maxTurns,
        [this] { return startInfo(); },
        [this](const QList<Message> &messages) { return exitCode(messages, m_signal); });
    m_printer->setPages(m_session->pages());
    if (!m_sessionPath.isEmpty())
        m_session->setModelState(modelStateOf(m_options));
    watch();
    m_watcher = std::make_unique<InterruptWatcher>();
    connect(m_watcher.get(), &InterruptWatcher::interrupted, this, &HeadlessRun::onInterrupted);
    m_session->open();
    m_session->send(promptText); // sent once the session is ready
    return std::nullopt;
}

void HeadlessRun::watch()
{
    CodingSession *session = m_session.get();
    HeadlessPrinter *printer = m_printer.get();
    const auto warn = [](const QString &message) {
        headlessStderr(AppTr::tr("warning: %1").arg(message));
    };
    connect(session, &CodingSession::warning, this, warn);
    connect(session, &CodingSession::sandboxUnavailable, this, warn);
    connect(session, &CodingSession::shellWritesUnavailable, this, warn);
    connect(session, &CodingSession::checkpointRepaired, this, warn); // stream-json has no line
    connect(session, &CodingSession::auditLogFailed, this, &headlessStderr);
    connect(session, &CodingSession::unattendedDenied, this, &headlessStderr);
    connect(session, &CodingSession::projectTrustNeeded, this, [](const QStringList &grants) {
        headlessStderr(AppTr::tr("warning: this repository's settings files (.agentdesk/) ask for "
                                 "more than your own settings, which you have not accepted; "
                                 "ignored: %1. Accept it once in the AgentDesk window, or run with "
                                 "--trust-project-settings.")
                           .arg(grants.join(QStringLiteral("; "))));
    });
    // The session's allow rules are not this run's: a session file is data anyone or any tool
    // may have written, and --print has nobody to confirm them. They stay in the file (a
    // window offers them when it resumes the session); the run says how to grant them.
    connect(session, &CodingSession::sessionRulesNeedConfirmation, this, [this] {
        const QStringList rules = unappliedRules();
        QString quoted = rules.join(QStringLiteral(", "));
        quoted.replace(u'\'', QStringLiteral("'\\''"));
        headlessStderr(
            AppTr::tr("warning: the session allows %1 without asking, but a session file "
                      "is not a grant: these rules were not applied to this run. To "
                      "allow them for this run, add --allowed-tools '%2'.")
                .arg(rules.join(QStringLiteral(", ")), quoted));
    });
    // An interrupt while the agent was being assembled stops the run it starts.
    connect(
        session,
        &CodingSession::ready,
        this,
        [this] {
            if (m_signal != 0)
                m_session->stop();
        },
        Qt::QueuedConnection);
    connect(session, &CodingSession::compactionStarted, this, [printer](bool waiting) {
        printer->compactionStarted(waiting);
    });
    connect(session, &CodingSession::compactionFailed, this, [printer](const QString &problem) {
        printer->compactionFailed(problem);
    });
    connect(session, &CodingSession::compacted, this, [printer](const Message &message) {
        printer->compacted(message);
    });
    connect(session,
            &CodingSession::checkpointRecorded,
            this,
            [printer](const AgentCore::Checkpoint &checkpoint) {
                printer->checkpointRecorded(checkpoint);
            });
    connect(session, &CodingSession::checkpointFailed, this, [printer](const QString &problem) {
        printer->checkpointFailed(problem);
    });
    connect(session, &CodingSession::hookRan, this, [printer](const AgentCore::HookRun &run) {
        printer->hookRan(run);
    });
    // Nothing was sent: the run ends here, as a failed one.
    connect(session,
            &CodingSession::promptRefused,
            this,
            [this](const QString &, const QString &reason) {
                headlessStderr(AppTr::tr("error: a hook refused the prompt: %1").arg(reason));
                emit finished(1);
            });
    connect(session, &CodingSession::eventEmitted, this, &HeadlessRun::onEvent);
    connect(session,
            &CodingSession::subagentEvent,
            this,
            [printer](const AgentCore::SubagentEvent &event) { printer->subagentEvent(event); });
    // `/NAME ARGS` that could not be expanded: nothing ran, as with an MCP prompt that cannot be
    // had, the prompt is at fault.
    connect(session, &CodingSession::commandFailed, this, [this](const QString &message) {
        if (m_printer->isFinished())
            return;
        headlessStderr(message);
        const int code = m_signal != 0 ? exitCode({}, m_signal) : int(HeadlessExit::Usage);
        m_printer->finish({},
                          m_signal,
                          code,
                          m_sessionPath.isEmpty() ? QString() : SessionStore::idOf(m_sessionPath));
        emit finished(code);
    });
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
    if (m_signal != 0 || m_printer->isFinished())
        return;
    m_signal = signalNumber;
    headlessStderr(signalNumber == SIGINT ? AppTr::tr("interrupted, stopping the run...")
                                          : AppTr::tr("terminated, stopping the run..."));
    if (m_session->isReady())
        m_session->stop();
}

QJsonObject HeadlessRun::startInfo() const
{
    const AgentCore::CodingAgent &parts = m_session->parts();
    QJsonObject info{
        {QStringLiteral("repository"), parts.workspace->root()},
        {QStringLiteral("provider"), m_options.provider},
        {QStringLiteral("model"), m_options.model},
        {QStringLiteral("permissionMode"), AgentCore::permissionModeName(parts.policy->mode())},
        {QStringLiteral("auditLog"), parts.auditLog ? parts.auditLog->path() : QString()},
        {QStringLiteral("sessionId"),
         m_sessionPath.isEmpty() ? QString() : SessionStore::idOf(m_sessionPath)},
        {QStringLiteral("sessionFile"), m_sessionPath},
    };
    if (const QStringList rules = unappliedRules(); !rules.isEmpty()) {
        // The resumed session's allow rules, not applied (stderr says how to grant them).
        info.insert(QStringLiteral("sessionRulesNotApplied"), QJsonArray::fromStringList(rules));
    }
    if (!m_mcp->servers().isEmpty()) {
        info.insert(QStringLiteral("mcpServers"), m_mcp->servers());
        info.insert(QStringLiteral("mcpReadyMs"), m_mcp->readyMs());
    }
    return info;
}

void HeadlessRun::onEvent(const AgentEvent &event)
{
    if (m_printer->isFinished())
        return;
    m_printer->event(event);
    if (event.type != AgentEvent::Type::AgentEnd)
        return;
    noteRunningBackgroundCommands();
    const int code = exitCode(event.newMessages, m_signal);
    m_printer->finish(event.newMessages,
                      m_signal,
                      code,
                      m_sessionPath.isEmpty() ? QString() : SessionStore::idOf(m_sessionPath));
    emit finished(code);
}

// The model may expect a server it started to go on: the run's end stops it (with the
// session), which stderr says rather than leave it silent.
void HeadlessRun::noteRunningBackgroundCommands() const
{
    const std::shared_ptr<AgentCore::BackgroundShells> shells = m_session->parts().shells;
    if (!shells)
        return;
    QStringList running;
    for (const AgentCore::BackgroundShell &shell : shells->shells()) {
        if (shell.running)
            running.append(QStringLiteral("%1 (%2)").arg(shell.id, shell.command));
    }
    if (!running.isEmpty()) {
        headlessStderr(AppTr::tr("note: background commands still running end with the run: %1")
                           .arg(running.join(QStringLiteral(", "))));
    }
}

QStringList HeadlessRun::unappliedRules() const
{
    QStringList rules;
    for (const AgentCore::PermissionRule &rule : m_session->unconfirmedRules())
        rules.append(rule.toString());
    return rules;
}

} // namespace App

#include "moc_headlessrun.cpp"
