#include "mcpstdiotransport.h"
#include "translation.h"

#include <process/childgroupguard.h>

#include <QCoreApplication>
#include <QProcess>

#include <csignal>
#include <unistd.h>

namespace AgentCore {

namespace {

constexpr int stopGraceMs = 500;
} // namespace

McpStdioTransport::McpStdioTransport(const McpServerConfig &config,
                                     const QProcessEnvironment &environment,
                                     const QString &workingDirectory,
                                     qsizetype maxLineBytes,
                                     QObject *parent)
    : McpTransport(parent)
    , m_config(config)
    , m_environment(environment)
    , m_workingDirectory(workingDirectory)
    , m_reader(maxLineBytes)
{}

McpStdioTransport::~McpStdioTransport()
{
    stop(false);
}

void McpStdioTransport::open()
{
    if (m_process)
        return;
    m_process = new QProcess(this);
    m_process->setProgram(m_config.command);
    m_process->setArguments(m_config.args);
    m_process->setProcessEnvironment(m_environment);
    if (!m_workingDirectory.isEmpty())
        m_process->setWorkingDirectory(m_workingDirectory);
    // A group of its own: `npx server` starts node as a child, which the stop must reach too,
    // and which the guard ends should AgentDesk die without a stop (kill -9, a crash).
    const int announce = ChildGroupGuard::instance().announceDescriptor();
    m_process->setChildProcessModifier([announce] {
        ::setsid();
        ChildGroupGuard::announceFromChild(announce);
    });
    QProcess *process = m_process;
    connect(process, &QProcess::readyReadStandardOutput, this, &McpStdioTransport::readStdout);
    connect(process, &QProcess::readyReadStandardError, this, &McpStdioTransport::readStderr);
    connect(process,
            &QProcess::finished,
            this,
            [this, process](int code, QProcess::ExitStatus status) {
                if (process != m_process)
                    return;
                readStdout();
                readStderr();
                if (process != m_process)
                    return;
                onGone(status == QProcess::CrashExit
                           ? McpTr::tr("the MCP server \"%1\" crashed").arg(m_config.name)
                           : McpTr::tr("the MCP server \"%1\" exited with code %2")
                                 .arg(m_config.name)
                                 .arg(code));
            });
    connect(process, &QProcess::errorOccurred, this, [this, process](QProcess::ProcessError error) {
        if (process != m_process || error != QProcess::FailedToStart)
            return;
        onGone(McpTr::tr("the MCP server \"%1\" could not be started (%2): %3")
                   .arg(m_config.name, m_config.command, process->errorString()));
    });
    m_process->start(QIODevice::ReadWrite);
    m_group = m_process->processId(); // 0 when it could not be started
}

void McpStdioTransport::releaseGroup()
{
    ChildGroupGuard::instance().release(std::exchange(m_group, 0));
}

void McpStdioTransport::send(const QByteArray &line, qint64 requestId)
{
    Q_UNUSED(requestId)
    if (m_process) // buffered by QProcess until the process runs
        m_process->write(line);
}

void McpStdioTransport::stop(bool gracefully)
{
    QProcess *process = std::exchange(m_process, nullptr);
    if (!process)
        return;
    process->disconnect(this);
    if (process->state() != QProcess::NotRunning) {
        bool ended = false;
        if (gracefully) {
            // The specification's order: close stdin, then SIGTERM, then SIGKILL.
            process->closeWriteChannel();
            ended = process->waitForFinished(stopGraceMs);
            if (!ended) {
                ::kill(-pid_t(process->processId()), SIGTERM);
                ended = process->waitForFinished(stopGraceMs);
            }
        }
        if (!ended) {
            ::kill(-pid_t(process->processId()), SIGKILL);
            process->kill();
            process->waitForFinished(stopGraceMs);
        }
    }
    releaseGroup();
    // Its signal may be what led here: deleted once that is over.
    process->deleteLater();
}

void McpStdioTransport::onGone(const QString &reason)
{
    QString full = reason;
    if (!m_lastStderrLine.isEmpty())
        full += McpTr::tr("; its last words on stderr: %1").arg(QString::fromUtf8(m_lastStderrLine));
    if (QProcess *process = std::exchange(m_process, nullptr)) {
        process->disconnect(this);
        process->deleteLater();
    }
    releaseGroup();
    emit gone(full);
}

void McpStdioTransport::readStdout()
{
    if (!m_process)
        return;
    QProcess *process = m_process;
    const QList<McpLineReader::Line> lines = m_reader.feed(process->readAllStandardOutput());
    for (const McpLineReader::Line &line : lines) {
        if (process != m_process) // a message made the client give the server up
            return;
        emit received(line);
    }
}

void McpStdioTransport::readStderr()
{
    if (!m_process)
        return;
    const QByteArray text = m_process->readAllStandardError();
    const QList<QByteArray> lines = text.split('\n');
    for (auto it = lines.crbegin(); it != lines.crend(); ++it) {
        if (!it->trimmed().isEmpty()) {
            m_lastStderrLine = it->trimmed().left(500);
            break;
        }
    }
    emit logged(text);
}

} // namespace AgentCore

#include "moc_mcpstdiotransport.cpp"
