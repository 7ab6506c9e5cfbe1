#include "headlessrun.h"

#include "httptestserver.h"
#include "testfiles.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QStandardPaths>

namespace TestSupport {

const QString HeadlessApiKey = QStringLiteral("sk-test-headless-0123");
const QByteArray HeadlessAgentsRule = "Answer in exactly three words (rule 7319).";

HeadlessSandbox::HeadlessSandbox()
{
    m_ok = m_dir.isValid() && QDir().mkpath(m_dir.filePath(QStringLiteral("repo")))
           && QDir().mkpath(m_dir.filePath(QStringLiteral("home")));
    m_root = QFileInfo(m_dir.filePath(QStringLiteral("repo"))).canonicalFilePath();
    QProcess git;
    git.setWorkingDirectory(m_root);
    git.start(QStringLiteral("git"), {QStringLiteral("init"), QStringLiteral("-q")});
    m_ok = m_ok && git.waitForFinished(30'000) && git.exitCode() == 0
           && write(QStringLiteral("notes.txt"), "apple pie\n")
           && write(QStringLiteral("AGENTS.md"), "# Rules\n" + HeadlessAgentsRule + '\n');
}

QString HeadlessSandbox::home() const
{
    return m_dir.filePath(QStringLiteral("home"));
}

bool HeadlessSandbox::write(const QString &relative, const QByteArray &content) const
{
    QFile file(m_root + u'/' + relative);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate)
           && file.write(content) == content.size();
}

QByteArray HeadlessSandbox::read(const QString &relative) const
{
    return fileBytes(m_root + u'/' + relative);
}

QString HeadlessSandbox::sessionsRoot() const
{
    return home() + QStringLiteral("/.local/share/AgentDesk/agentdesk/sessions");
}

QStringList HeadlessSandbox::sessionFiles() const
{
    QStringList files;
    QDirIterator it(sessionsRoot(),
                    {QStringLiteral("*.jsonl")},
                    QDir::Files,
                    QDirIterator::Subdirectories);
    while (it.hasNext())
        files.append(it.next());
    files.sort();
    return files;
}

QString agentdeskBinary()
{
    return QStringLiteral(AGENTDESK_BINARY);
}

QString headlessProviderName(ReplyApi api)
{
    switch (api) {
    case ReplyApi::OpenAiChat:
        return QStringLiteral("openai");
    case ReplyApi::AnthropicMessages:
        return QStringLiteral("anthropic");
    case ReplyApi::OpenAiResponses:
        return QStringLiteral("openai-responses");
    }
    return {};
}

HeadlessRun::HeadlessRun(const HeadlessSandbox &sandbox,
                         const HttpTestServer &server,
                         ReplyApi api,
                         const QStringList &extra,
                         const QString &prompt)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char *name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
        env.remove(QLatin1String(name)); // headless means no display at all
    env.insert(QStringLiteral("HOME"), sandbox.home());
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), sandbox.home() + QStringLiteral("/.config"));
    env.insert(QStringLiteral("XDG_DATA_HOME"), sandbox.home() + QStringLiteral("/.local/share"));
    env.insert(QStringLiteral("OPENAI_API_KEY"), HeadlessApiKey);
    env.insert(QStringLiteral("ANTHROPIC_API_KEY"), HeadlessApiKey);
    env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C.UTF-8"));
    environment = env;

    arguments = QStringList{QStringLiteral("--print"),
                            prompt,
                            QStringLiteral("--repo"),
                            sandbox.root(),
                            QStringLiteral("--provider"),
                            headlessProviderName(api),
                            QStringLiteral("--base-url"),
                            api != ReplyApi::AnthropicMessages
                                ? server.url(QStringLiteral("/v1")).toString()
                                : server.url().toString(),
                            QStringLiteral("--model"),
                            QStringLiteral("test-model")}
                + extra;
}

void HeadlessRun::start()
{
    m_finished = std::make_unique<QSignalSpy>(&process, &QProcess::finished);
    process.setProcessEnvironment(environment);
    process.setStandardInputFile(stdinFile.isEmpty() ? QProcess::nullDevice() : stdinFile);
    process.start(agentdeskBinary(), arguments);
}

bool HeadlessRun::finish(int timeoutMs)
{
    if (m_finished->isEmpty() && !m_finished->wait(timeoutMs))
        return false;
    out = process.readAllStandardOutput();
    err = QString::fromLocal8Bit(process.readAllStandardError());
    return true;
}

int HeadlessRun::exitCode() const
{
    return process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
}

QList<QJsonObject> HeadlessRun::jsonLines() const
{
    QList<QJsonObject> lines;
    for (const QByteArray &line : out.split('\n')) {
        if (line.isEmpty())
            continue;
        QJsonParseError error;
        const QJsonDocument document = QJsonDocument::fromJson(line, &error);
        if (error.error != QJsonParseError::NoError || !document.isObject())
            return {};
        lines.append(document.object());
    }
    return lines;
}

QString HeadlessRun::report() const
{
    return QStringLiteral("exit %1\n--- stdout\n%2\n--- stderr\n%3")
        .arg(process.exitCode())
        .arg(QString::fromUtf8(out.left(4000)), err.left(4000));
}

QStringList headlessBypass(const QStringList &more)
{
    return QStringList{QStringLiteral("--permission-mode"), QStringLiteral("bypass")} + more;
}

PathWithoutBwrap::PathWithoutBwrap()
{
    const QString git = QStandardPaths::findExecutable(QStringLiteral("git"));
    m_ok = m_dir.isValid() && !git.isEmpty()
           && QFile::link(git, m_dir.filePath(QStringLiteral("git")));
}

Rewound headlessRewind(const HeadlessRun &run,
                       const HeadlessSandbox &sandbox,
                       const QStringList &arguments)
{
    QProcess process;
    process.setProcessEnvironment(run.environment);
    process.start(agentdeskBinary(),
                  QStringList{QStringLiteral("--repo"), sandbox.root(), QStringLiteral("--rewind")}
                      + arguments);
    Rewound result;
    if (!process.waitForFinished(HeadlessTimeoutMs))
        return result;
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.out = QString::fromUtf8(process.readAllStandardOutput());
    result.err = QString::fromUtf8(process.readAllStandardError());
    return result;
}

ReplyToolCall headlessReadCall()
{
    return {QStringLiteral("call_read"),
            QStringLiteral("Read"),
            {{QStringLiteral("file_path"), QStringLiteral("notes.txt")}}};
}

ReplyToolCall headlessEditCall()
{
    return {QStringLiteral("call_edit"),
            QStringLiteral("Edit"),
            {{QStringLiteral("file_path"), QStringLiteral("notes.txt")},
             {QStringLiteral("old_string"), QStringLiteral("apple")},
             {QStringLiteral("new_string"), QStringLiteral("banana")}}};
}

ReplyToolCall headlessBashCall(const QString &command)
{
    return {QStringLiteral("call_bash"),
            QStringLiteral("Bash"),
            {{QStringLiteral("command"), command}, {QStringLiteral("timeout"), 600'000}}};
}

QByteArray allFilesUnder(const QString &directory)
{
    QByteArray all;
    QDirIterator it(directory, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        QFile file(it.next());
        if (file.open(QIODevice::ReadOnly))
            all += file.readAll();
    }
    return all;
}

bool isProcessRunning(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (pid <= 0 || !stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray text = stat.readAll();
    const QByteArray state = text.mid(text.lastIndexOf(')') + 2, 1);
    return !state.isEmpty() && state != "Z" && state != "X";
}

} // namespace TestSupport
