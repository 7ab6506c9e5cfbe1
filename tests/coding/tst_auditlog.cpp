#include <coding/auditlog.h>
#include <loop/toolexecution.h>
#include <testmain.h>

#include "testtools.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMutex>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QTimeZone>

#include <memory>

using namespace AgentCore;
namespace tst_auditlog {

using TestSupport::FunctionTool;

namespace {

std::shared_ptr<FunctionTool> echoTool()
{
    return FunctionTool::make(QStringLiteral("Read"),
                              {QStringLiteral("path")},
                              ExecutionMode::Parallel,
                              [](const ToolCallContext &context) {
                                  const QString path = context.arguments.value(u"path").toString();
                                  if (path == QLatin1String("missing"))
                                      return ToolResult::makeError(QStringLiteral("not found"));
                                  return ToolResult::makeText(QStringLiteral("contents of ") + path);
                              });
}

/// One call through [audit, permission stand-in] to \a tool.
ToolResult call(const std::shared_ptr<AuditLog> &audit,
                const AgentToolPtr &tool,
                const QString &id,
                const QString &path,
                const QString &decision = QStringLiteral("allow"))
{
    ToolJob job;
    job.tool = tool;
    job.context.toolCallId = id;
    job.context.toolName = tool->definition().name;
    job.context.arguments = {{QStringLiteral("path"), path}};
    job.context.tool = tool.get();
    job.middlewares = {makeExtensionMiddleware({audit}),
                       [decision](ToolCallContext &context, const ToolNext &next) {
                           context.permissionDecision = decision;
                           if (decision.startsWith(QLatin1String("deny")))
                               return ToolResult::makeError(QStringLiteral("Denied."));
                           return next(context);
                       }};
    return executeToolCall(std::move(job));
}

QList<QJsonObject> readLines(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QList<QJsonObject> lines;
    for (const QByteArray &line : file.readAll().split('\n')) {
        if (line.isEmpty())
            continue;
        QJsonParseError error;
        const QJsonDocument document = QJsonDocument::fromJson(line, &error);
        if (error.error != QJsonParseError::NoError || !document.isObject())
            return {}; // a torn or interleaved line
        lines.append(document.object());
    }
    return lines;
}

/// Collects the messages of the error handler, from any thread.
struct Reports
{
    QMutex mutex;
    QStringList messages;
    AuditLog::ErrorHandler handler()
    {
        return [this](const QString &message) {
            QMutexLocker locker(&mutex);
            messages.append(message);
        };
    }
    qsizetype count()
    {
        QMutexLocker locker(&mutex);
        return messages.size();
    }
};

} // namespace

class tst_AuditLog : public QObject
{
    Q_OBJECT

private slots:
    void formatsOneLine()
    {
        ToolCallContext context;
        context.toolCallId = QStringLiteral("call_7");
        context.toolName = QStringLiteral("Bash");
        context.arguments = {{QStringLiteral("command"), QStringLiteral("git status")}};
        context.permissionDecision = QStringLiteral("allow: read-only command");
        const QDateTime time(QDate(2025, 1, 31), QTime(13, 4, 5, 123), QTimeZone::utc());

        QCOMPARE(AuditLog::formatLine(context,
                                      ToolResult::makeText(QStringLiteral("On branch é")),
                                      42,
                                      time),
                 QByteArray("{\"arguments\":{\"command\":\"git status\"},"
                            "\"decision\":\"allow: read-only command\",\"durationMs\":42,"
                            "\"isError\":false,\"resultBytes\":12,"
                            "\"time\":\"2025-01-31T13:04:05.123Z\",\"tool\":\"Bash\","
                            "\"toolCallId\":\"call_7\"}"));

        context.permissionDecision.clear();
        const QJsonObject noDecision
            = QJsonDocument::fromJson(AuditLog::formatLine(context, ToolResult(), 0, time)).object();
        QVERIFY(noDecision.value(u"decision").isNull());
    }

    void appendsEveryCall()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("sessions/today/s1.audit.jsonl"));
        Reports reports;
        auto audit = std::make_shared<AuditLog>(path, reports.handler());
        auto tool = echoTool();

        QCOMPARE(call(audit, tool, QStringLiteral("c1"), QStringLiteral("a.txt")).text(),
                 QStringLiteral("contents of a.txt"));
        QVERIFY(call(audit, tool, QStringLiteral("c2"), QStringLiteral("missing")).isError);
        QVERIFY(call(audit,
                     tool,
                     QStringLiteral("c3"),
                     QStringLiteral("/etc/shadow"),
                     QStringLiteral("deny: outside the repository"))
                    .isError);

        const QList<QJsonObject> lines = readLines(path);
        QCOMPARE(lines.size(), 3);
        QCOMPARE(lines[0].value(u"toolCallId").toString(), QStringLiteral("c1"));
        QCOMPARE(lines[0].value(u"tool").toString(), QStringLiteral("Read"));
        QCOMPARE(lines[0].value(u"arguments").toObject().value(u"path").toString(),
                 QStringLiteral("a.txt"));
        QCOMPARE(lines[0].value(u"decision").toString(), QStringLiteral("allow"));
        QCOMPARE(lines[0].value(u"isError").toBool(), false);
        QCOMPARE(lines[0].value(u"resultBytes").toInteger(), qint64(17));
        QVERIFY(lines[0].value(u"durationMs").toInteger(-1) >= 0);
        const QDateTime time = QDateTime::fromString(lines[0].value(u"time").toString(),
                                                     Qt::ISODateWithMs);
        QVERIFY(time.isValid());
        QVERIFY(qAbs(time.secsTo(QDateTime::currentDateTimeUtc())) < 60);
        QCOMPARE(lines[1].value(u"isError").toBool(), true);
        QCOMPARE(lines[2].value(u"decision").toString(),
                 QStringLiteral("deny: outside the repository"));
        QCOMPARE(lines[2].value(u"isError").toBool(), true);
        QCOMPARE(reports.count(), 0);
    }

    void parallelCallsKeepLinesWhole()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("audit.jsonl"));
        auto audit = std::make_shared<AuditLog>(path);
        auto tool = echoTool();
        // Long arguments make a torn write likely if appends were not serialised.
        const QString longPath = QString(5000, u'p');
        constexpr int threads = 8;
        constexpr int callsPerThread = 40;
        QList<QThread *> workers;
        for (int t = 0; t < threads; ++t) {
            workers.append(QThread::create([=] {
                for (int i = 0; i < callsPerThread; ++i)
                    call(audit, tool, QStringLiteral("t%1-%2").arg(t).arg(i), longPath);
            }));
            workers.last()->start();
        }
        for (QThread *worker : workers) {
            QVERIFY(worker->wait(60000));
            delete worker;
        }

        const QList<QJsonObject> lines = readLines(path);
        QCOMPARE(lines.size(), threads * callsPerThread);
        QSet<QString> ids;
        for (const QJsonObject &line : lines)
            ids.insert(line.value(u"toolCallId").toString());
        QCOMPARE(ids.size(), threads * callsPerThread);
    }

    void writeFailureReportedOnce()
    {
        QTemporaryDir dir;
        // A file where the log's folder should be: the folder cannot be made.
        const QString blocker = dir.filePath(QStringLiteral("sessions"));
        {
            QFile file(blocker);
            QVERIFY(file.open(QIODevice::WriteOnly));
        }
        const QString path = blocker + QStringLiteral("/s1.audit.jsonl");
        Reports reports;
        auto audit = std::make_shared<AuditLog>(path, reports.handler());
        auto tool = echoTool();

        for (int i = 0; i < 3; ++i) {
            const ToolResult result = call(audit,
                                           tool,
                                           QStringLiteral("c%1").arg(i),
                                           QStringLiteral("a.txt"));
            QCOMPARE(result.text(), QStringLiteral("contents of a.txt")); // the call is unharmed
        }
        QCOMPARE(reports.count(), 1);
        QVERIFY2(reports.messages.first().contains(path), qPrintable(reports.messages.first()));
        QVERIFY(reports.messages.first().contains(QStringLiteral("not being recorded")));

        // Writable again: lines go in, and a new failure is reported again.
        QVERIFY(QFile::remove(blocker));
        call(audit, tool, QStringLiteral("c3"), QStringLiteral("a.txt"));
        QCOMPARE(readLines(path).size(), 1);
        QVERIFY(QFile::remove(path));
        QVERIFY(QDir().mkpath(path)); // a folder where the file should be
        call(audit, tool, QStringLiteral("c4"), QStringLiteral("a.txt"));
        call(audit, tool, QStringLiteral("c5"), QStringLiteral("a.txt"));
        QCOMPARE(reports.count(), 2);
    }

    // Sessions started at once in one process (a window running several, two agents on two
    // threads) each get a log of their own, never one file for two conversations.
    void sessionsStartedAtOnceGetFilesOfTheirOwn()
    {
        QSet<QString> paths;
        QMutex mutex;
        QList<QThread *> threads;
        for (int t = 0; t < 4; ++t) {
            threads.append(QThread::create([&] {
                for (int i = 0; i < 50; ++i) {
                    const QString path = AuditLog::newDefaultPath();
                    const QMutexLocker locker(&mutex);
                    paths.insert(path);
                }
            }));
            threads.constLast()->start();
        }
        for (QThread *thread : std::as_const(threads)) {
            QVERIFY(thread->wait(30'000));
            delete thread;
        }
        QCOMPARE(paths.size(), 4 * 50);
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_AuditLog)

} // namespace tst_auditlog

#include "tst_auditlog.moc"
