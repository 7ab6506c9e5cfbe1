#include "headlessrun.h"

#include "interruptwatcher.h"
#include "streamjson.h"

#include <ai/messagejson.h>
#include <coding/repository.h>
#include <permissions/permissionsettings.h>
#include <permissions/projecttrust.h>

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
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

    AgentCore::CodingAgentOptions options;
    options.provider = *provider;
    // A run is one conversation: its requests share OpenAI's cache routing, other runs' do not.
    options.provider.promptCacheKey = QUuid::createUuid().toString(QUuid::WithoutBraces);
    options.repositoryRoot = repository->root;
    options.permissionMode = m_options.permissionMode;
    options.allowRules = m_options.allowedTools;
    options.maxTurns = m_options.maxTurns;
    options.commandEnvironment = m_options.commandEnvironment(environment);
    options.userSettingsPath = AgentCore::PermissionSettings::userSettingsPath();
    options.projectTrustPath = AgentCore::ProjectTrust::defaultStorePath();
    options.trustProjectSettings = m_options.trustProjectSettings;
    options.protectedPaths = ownFiles();
    options.auditLogPath = AgentCore::AuditLog::newDefaultPath();
    options.onAuditError = [](const QString &message) { writeStderr(message); };
    options.onUnattendedDeny = [](const QString &message) { writeStderr(message); };
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
    m_agent = std::make_unique<AgentCore::Agent>(std::move(m_parts.config));
    connect(m_agent.get(), &AgentCore::Agent::eventEmitted, this, &HeadlessRun::onEvent);
    m_agent->prompt(*prompt);
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
    return {
        {QStringLiteral("repository"), m_parts.workspace->root()},
        {QStringLiteral("provider"), m_options.provider},
        {QStringLiteral("model"), m_options.model},
        {QStringLiteral("permissionMode"), AgentCore::permissionModeName(m_parts.policy->mode())},
        {QStringLiteral("auditLog"), m_parts.auditLog ? m_parts.auditLog->path() : QString()},
    };
}

void HeadlessRun::onEvent(const AgentEvent &event)
{
    if (m_finished)
        return;
    if (m_format == OutputFormat::StreamJson) {
        QJsonObject json = StreamJson::fromEvent(event);
        if (event.type == AgentEvent::Type::AgentStart) {
            const QJsonObject info = startInfo();
            for (auto it = info.begin(); it != info.end(); ++it)
                json.insert(it.key(), it.value());
        } else if (event.type == AgentEvent::Type::AgentEnd) {
            json.insert(u"exitCode", exitCode(event.newMessages, m_signal));
        }
        writeStdout(StreamJson::line(json));
    } else {
        printTextActivity(event);
    }
    if (event.type == AgentEvent::Type::AgentEnd)
        finish(event.newMessages);
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
    if (m_format == OutputFormat::Text && code == int(HeadlessExit::Success) && last) {
        QByteArray text = last->text().toUtf8();
        if (!text.endsWith('\n'))
            text += '\n';
        writeStdout(text);
    }
    emit finished(code);
}

} // namespace App
