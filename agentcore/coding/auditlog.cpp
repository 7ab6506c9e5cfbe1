#include "auditlog.h"
#include "translation.h"

#include <files/privatefiles.h>

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>

#include <atomic>
#include <utility>

namespace AgentCore {

AuditLog::AuditLog(const QString &path, ErrorHandler onError)
    : m_path(path)
    , m_onError(std::move(onError))
{}

QString AuditLog::newDefaultPath()
{
    // Milliseconds too, and a number of the process's own: several sessions of one process
    // (each agent has its log) may start in the same millisecond, and must never share a file.
    static std::atomic<int> made{0};
    const int number = ++made;
    const QString folder = QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation);
    const QString stamp = QStringLiteral("%1-%2")
                              .arg(QDateTime::currentDateTime().toString(
                                  QStringLiteral("yyyyMMdd-HHmmss-zzz")))
                              .arg(QCoreApplication::applicationPid());
    return QDir(folder).filePath(number == 1
                                     ? QStringLiteral("audit/%1.jsonl").arg(stamp)
                                     : QStringLiteral("audit/%1-%2.jsonl").arg(stamp).arg(number));
}

QString AuditLog::name() const
{
    return CodingTr::tr("audit log");
}

QByteArray AuditLog::formatLine(const ToolCallContext &context,
                                const ToolResult &result,
                                qint64 durationMs,
                                const QDateTime &time)
{
    QJsonObject line{
        {QStringLiteral("time"), time.toUTC().toString(Qt::ISODateWithMs)},
        {QStringLiteral("toolCallId"), context.toolCallId},
        {QStringLiteral("tool"), context.toolName},
        {QStringLiteral("arguments"), context.arguments},
        {QStringLiteral("decision"),
         context.permissionDecision.isEmpty() ? QJsonValue(QJsonValue::Null)
                                              : QJsonValue(context.permissionDecision)},
        {QStringLiteral("durationMs"), durationMs},
        {QStringLiteral("isError"), result.isError},
        {QStringLiteral("resultBytes"), qint64(result.text().toUtf8().size())},
    };
    // A subagent's call says whose it is.
    if (!context.caller.isEmpty())
        line.insert(QStringLiteral("subagent"), context.caller);
    return QJsonDocument(line).toJson(QJsonDocument::Compact);
}

void AuditLog::after(const ToolCallContext &context, const ToolResult &result, qint64 durationMs)
{
    const QByteArray line = formatLine(context, result, durationMs, QDateTime::currentDateTimeUtc())
                            + '\n';
    QString error;
    bool report = false;
    {
        QMutexLocker locker(&m_mutex);
        const bool ok = append(line, &error);
        report = !ok && !m_failing;
        m_failing = !ok;
    }
    // Outside the lock: the handler may take its time (or log through something that locks).
    if (report && m_onError)
        m_onError(error);
}

bool AuditLog::append(const QByteArray &line, QString *error)
{
    const QFileInfo info(m_path);
    if (!PrivateFiles::makePath(info.absolutePath())) {
        *error = CodingTr::tr("Cannot write the audit log %1: cannot create its folder. Tool calls "
                              "are not being recorded.")
                     .arg(m_path);
        return false;
    }
    // Opened for each line: the lines land in whatever file is at the path now (rotated or
    // removed by the user), and O_APPEND keeps each line whole.
    QFile file(m_path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Append, PrivateFiles::fileMode)
        || file.write(line) != line.size() || !file.flush()) {
        *error = CodingTr::tr(
                     "Cannot write the audit log %1: %2. Tool calls are not being recorded.")
                     .arg(m_path, file.errorString());
        return false;
    }
    return true;
}

} // namespace AgentCore
