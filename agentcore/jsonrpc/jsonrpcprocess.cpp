#include "jsonrpcprocess.h"
#include "translation.h"

#include <process/childgroupguard.h>

#include <QProcess>

#include <csignal>
#include <unistd.h>

namespace AgentCore {

namespace {

constexpr int stopGraceMs = 500;
} // namespace

JsonRpcProcess::JsonRpcProcess(const Command &command,
                               Framing framing,
                               qsizetype maxMessageBytes,
                               const QString &name,
                               QObject *parent)
    : QObject(parent)
    , m_command(command)
    , m_framing(framing)
    , m_name(name)
    , m_lines(maxMessageBytes)
    , m_headers(maxMessageBytes)
{}

JsonRpcProcess::~JsonRpcProcess()
{
    stop(false);
}

void JsonRpcProcess::open()
{
    if (m_process)
        return;
    m_process = new QProcess(this);
    m_process->setProgram(m_command.program);
    m_process->setArguments(m_command.arguments);
    m_process->setProcessEnvironment(m_command.environment);
    if (!m_command.workingDirectory.isEmpty())
        m_process->setWorkingDirectory(m_command.workingDirectory);
    // A group of its own: `npx server` starts node as a child, which the stop must reach too,
    // and which the guard ends should AgentDesk die without a stop (kill -9, a crash).
    const int announce = ChildGroupGuard::instance().announceDescriptor();
    m_process->setChildProcessModifier([announce] {
        ::setsid();
        ChildGroupGuard::announceFromChild(announce);
    });
    QProcess *process = m_process;
    connect(process, &QProcess::readyReadStandardOutput, this, &JsonRpcProcess::readStdout);
    connect(process, &QProcess::readyReadStandardError, this, &JsonRpcProcess::readStderr);
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
                           ? JsonRpcTr::tr("%1 crashed").arg(m_name)
                           : JsonRpcTr::tr("%1 exited with code %2").arg(m_name).arg(code));
            });
    connect(process, &QProcess::errorOccurred, this, [this, process](QProcess::ProcessError error) {
        if (process != m_process || error != QProcess::FailedToStart)
            return;
        onGone(JsonRpcTr::tr("%1 could not be started (%2): %3")
                   .arg(m_name, m_command.program, process->errorString()));
    });
    m_process->start(QIODevice::ReadWrite);
    m_group = m_process->processId(); // 0 when it could not be started
}

void JsonRpcProcess::releaseGroup()
{
    ChildGroupGuard::instance().release(std::exchange(m_group, 0));
}

void JsonRpcProcess::send(const QByteArray &message)
{
    if (!m_process) // buffered by QProcess until the process runs
        return;
    m_process->write(m_framing == Framing::Lines ? JsonRpcLineReader::frame(message)
                                                 : JsonRpcHeaderReader::frame(message));
}

void JsonRpcProcess::stop(bool gracefully)
{
    QProcess *process = std::exchange(m_process, nullptr);
    if (!process)
        return;
    process->disconnect(this);
    if (process->state() != QProcess::NotRunning) {
        bool ended = false;
        if (gracefully) {
            // MCP's order of closing, which a language server after its exit notification
            // follows too: close stdin, then SIGTERM, then SIGKILL.
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

void JsonRpcProcess::onGone(const QString &reason)
{
    QString full = reason;
    if (!m_lastStderrLine.isEmpty()) {
        full += JsonRpcTr::tr("; its last words on stderr: %1")
                    .arg(QString::fromUtf8(m_lastStderrLine));
    }
    if (QProcess *process = std::exchange(m_process, nullptr)) {
        process->disconnect(this);
        if (process->state() != QProcess::NotRunning) { // it wrote what is not the protocol
            ::kill(-pid_t(process->processId()), SIGKILL);
            process->kill();
            process->waitForFinished(stopGraceMs);
        }
        process->deleteLater();
    }
    releaseGroup();
    emit gone(full);
}

void JsonRpcProcess::readStdout()
{
    if (!m_process)
        return;
    QProcess *process = m_process;
    const QByteArray data = process->readAllStandardOutput();
    const QList<JsonRpcFrame> frames = m_framing == Framing::Lines ? m_lines.feed(data)
                                                                   : m_headers.feed(data);
    for (const JsonRpcFrame &frame : frames) {
        if (process != m_process) // a message made the owner give the peer up
            return;
        emit received(frame);
    }
    if (process == m_process && !m_headers.problem().isEmpty()) {
        onGone(JsonRpcTr::tr("%1 wrote what is not the Language Server Protocol (%2)")
                   .arg(m_name, m_headers.problem()));
    }
}

void JsonRpcProcess::readStderr()
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

#include "moc_jsonrpcprocess.cpp"
