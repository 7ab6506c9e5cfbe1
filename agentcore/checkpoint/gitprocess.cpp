#include "gitprocess.h"

#include <QDir>
#include <QProcess>

namespace AgentCore {

QString GitProcess::Result::problem() const
{
    if (!startError.isEmpty())
        return startError;
    QString text = QString::fromUtf8(err).trimmed();
    const QStringList lines = text.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    if (lines.size() > 3)
        text = lines.mid(lines.size() - 3).join(QLatin1Char('\n'));
    return text.isEmpty() ? QStringLiteral("git exited with code %1").arg(exitCode) : text;
}

QProcessEnvironment GitProcess::cleanEnvironment()
{
    QProcessEnvironment environment;
    const QProcessEnvironment system = QProcessEnvironment::systemEnvironment();
    for (const QString &key : system.keys()) {
        if (!key.startsWith(QLatin1String("GIT_")))
            environment.insert(key, system.value(key));
    }
    environment.insert(QStringLiteral("GIT_TERMINAL_PROMPT"), QStringLiteral("0"));
    environment.insert(QStringLiteral("LC_ALL"), QStringLiteral("C"));
    return environment;
}

GitProcess::Result GitProcess::run(const QStringList &args,
                                   const QString &workingDirectory,
                                   const QProcessEnvironment &environment,
                                   const QByteArray &input,
                                   int timeoutMs)
{
    Result result;
    QProcess process;
    process.setProcessEnvironment(environment);
    process.setWorkingDirectory(QDir(workingDirectory).exists() ? workingDirectory
                                                                : QDir::rootPath());
    process.start(QStringLiteral("git"), args);
    if (!process.waitForStarted()) {
        result.startError = QStringLiteral("could not start git: %1").arg(process.errorString());
        return result;
    }
    if (!input.isEmpty())
        process.write(input);
    process.closeWriteChannel();
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished();
        result.startError = QStringLiteral("git did not finish in time");
        return result;
    }
    result.out = process.readAllStandardOutput();
    result.err = process.readAllStandardError();
    if (process.exitStatus() != QProcess::NormalExit) {
        result.startError = QStringLiteral("git crashed");
        return result;
    }
    result.exitCode = process.exitCode();
    return result;
}

} // namespace AgentCore
