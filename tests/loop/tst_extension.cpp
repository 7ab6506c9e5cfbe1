#include <loop/extension.h>
#include <loop/toolexecution.h>
#include <testmain.h>

#include "testtools.h"

#include <QJsonObject>
#include <QMutex>
#include <QTest>
#include <QThread>

#include <stdexcept>

using namespace AgentCore;
namespace tst_extension {

using TestSupport::FunctionTool;

namespace {

/// What the hooks of the extensions of one test saw, in order.
struct Journal
{
    QMutex mutex;
    QStringList entries;
    void add(const QString &entry)
    {
        QMutexLocker locker(&mutex);
        entries.append(entry);
    }
};

/// An extension that records its hooks and does what the test tells it to.
class Recorder final : public Extension
{
public:
    Recorder(QString name, Journal &journal)
        : m_name(std::move(name))
        , m_journal(journal)
    {}

    QString name() const override { return m_name; }

    std::optional<ToolResult> before(ToolCallContext &context) override
    {
        m_journal.add(m_name + QStringLiteral(".before"));
        if (throwInBefore)
            throw std::runtime_error("disk on fire");
        if (!rewrite.isEmpty())
            context.arguments = rewrite;
        return block;
    }

    void after(const ToolCallContext &context, const ToolResult &result, qint64 durationMs) override
    {
        m_journal.add(m_name + QStringLiteral(".after"));
        seenDecision = context.permissionDecision;
        seenArguments = context.arguments;
        seenResult = result;
        seenDuration = durationMs;
        if (throwInAfter)
            throw std::runtime_error("after failed");
    }

    std::optional<ToolResult> block;
    QJsonObject rewrite;
    bool throwInBefore = false;
    bool throwInAfter = false;

    QString seenDecision;
    QJsonObject seenArguments;
    std::optional<ToolResult> seenResult;
    qint64 seenDuration = -1;

private:
    QString m_name;
    Journal &m_journal;
};

/// The permission layer's stand-in: records that it ran and sets the decision.
ToolMiddleware decidingLayer(Journal &journal, const QString &decision)
{
    return [&journal, decision](ToolCallContext &context, const ToolNext &next) {
        journal.add(QStringLiteral("permission"));
        context.permissionDecision = decision;
        return next(context);
    };
}

ToolCallContext contextFor(const AgentToolPtr &tool, const QJsonObject &arguments)
{
    ToolCallContext context;
    context.toolCallId = QStringLiteral("call_1");
    context.toolName = tool->definition().name;
    context.arguments = arguments;
    context.tool = tool.get();
    return context;
}

ToolResult run(const AgentToolPtr &tool,
               const QList<ExtensionPtr> &extensions,
               Journal &journal,
               const QJsonObject &arguments = {{QStringLiteral("path"), QStringLiteral("a.txt")}})
{
    ToolJob job;
    job.tool = tool;
    job.context = contextFor(tool, arguments);
    job.middlewares = {makeExtensionMiddleware(extensions),
                       decidingLayer(journal, QStringLiteral("allow"))};
    return executeToolCall(std::move(job));
}

std::shared_ptr<FunctionTool> readTool(Journal &journal)
{
    return FunctionTool::make(QStringLiteral("Read"),
                              {QStringLiteral("path")},
                              ExecutionMode::Parallel,
                              [&journal](const ToolCallContext &context) {
                                  journal.add(QStringLiteral("tool"));
                                  return ToolResult::makeText(
                                      QStringLiteral("read ")
                                      + context.arguments.value(u"path").toString());
                              });
}

} // namespace

class tst_Extension : public QObject
{
    Q_OBJECT

private slots:
    void wrapsTheInnerLayersLikeAnOnion()
    {
        Journal journal;
        auto first = std::make_shared<Recorder>(QStringLiteral("first"), journal);
        auto second = std::make_shared<Recorder>(QStringLiteral("second"), journal);
        const ToolResult result = run(readTool(journal), {first, second}, journal);

        QCOMPARE(result.text(), QStringLiteral("read a.txt"));
        QCOMPARE(journal.entries,
                 (QStringList{"first.before",
                              "second.before",
                              "permission",
                              "tool",
                              "second.after",
                              "first.after"}));
        // after() sees what the inner layers did to the call.
        QCOMPARE(first->seenDecision, QStringLiteral("allow"));
        QCOMPARE(first->seenResult, result);
        QVERIFY(first->seenDuration >= 0);
    }

    void blockSkipsTheRestButEveryAfterRuns_data()
    {
        QTest::addColumn<int>("blocker");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("first blocks")
            << 0 << QStringList{"first.before", "second.after", "first.after"};
        QTest::newRow("second blocks")
            << 1 << QStringList{"first.before", "second.before", "second.after", "first.after"};
    }

    void blockSkipsTheRestButEveryAfterRuns()
    {
        QFETCH(int, blocker);
        QFETCH(QStringList, expected);
        Journal journal;
        auto tool = readTool(journal);
        QList<std::shared_ptr<Recorder>>
            recorders{std::make_shared<Recorder>(QStringLiteral("first"), journal),
                      std::make_shared<Recorder>(QStringLiteral("second"), journal)};
        recorders[blocker]->block = ToolResult::makeError(
            QStringLiteral("Blocked: a.txt is secret."));

        const ToolResult result = run(tool, {recorders[0], recorders[1]}, journal);

        QVERIFY(result.isError);
        QCOMPARE(result.text(), QStringLiteral("Blocked: a.txt is secret."));
        QCOMPARE(tool->calls(), 0);
        QCOMPARE(journal.entries, expected);
        for (const auto &recorder : recorders) {
            QCOMPARE(recorder->seenResult, result);
            QCOMPARE(recorder->seenDecision, QString()); // the permission layer never ran
        }
    }

    void rewrittenArgumentsReachTheTool()
    {
        Journal journal;
        auto tool = readTool(journal);
        auto rewriter = std::make_shared<Recorder>(QStringLiteral("rewriter"), journal);
        rewriter->rewrite = {{QStringLiteral("path"), QStringLiteral("b.txt")}};

        const ToolResult result = run(tool, {rewriter}, journal);

        QCOMPARE(result.text(), QStringLiteral("read b.txt"));
        QCOMPARE(rewriter->seenArguments.value(u"path").toString(), QStringLiteral("b.txt"));
    }

    void invalidRewriteIsCaughtBeforeTheTool()
    {
        Journal journal;
        auto tool = readTool(journal);
        auto rewriter = std::make_shared<Recorder>(QStringLiteral("rewriter"), journal);
        rewriter->rewrite = {{QStringLiteral("path"), 42}};

        const ToolResult result = run(tool, {rewriter}, journal);

        QVERIFY(result.isError);
        QVERIFY2(result.text().contains(QStringLiteral("rewrote the arguments of Read")),
                 qPrintable(result.text()));
        QCOMPARE(tool->calls(), 0);
        QCOMPARE(rewriter->seenResult, result);
    }

    void afterSeesFailures_data()
    {
        QTest::addColumn<bool>("throws");
        QTest::newRow("error result") << false;
        QTest::newRow("tool throws") << true;
    }

    void afterSeesFailures()
    {
        QFETCH(bool, throws);
        Journal journal;
        auto tool = FunctionTool::make(QStringLiteral("Bash"),
                                       {QStringLiteral("path")},
                                       ExecutionMode::Sequential,
                                       [throws](const ToolCallContext &) -> ToolResult {
                                           if (throws)
                                               throw std::runtime_error("segfault in make");
                                           return ToolResult::makeError(QStringLiteral("exit 2"));
                                       });
        auto recorder = std::make_shared<Recorder>(QStringLiteral("audit"), journal);

        const ToolResult result = run(tool, {recorder}, journal);

        QVERIFY(result.isError);
        QCOMPARE(recorder->seenResult, result);
        QCOMPARE(journal.entries, (QStringList{"audit.before", "permission", "audit.after"}));
    }

    void throwingHooksAreContained()
    {
        Journal journal;
        auto tool = readTool(journal);
        auto broken = std::make_shared<Recorder>(QStringLiteral("linter"), journal);
        broken->throwInBefore = true;
        auto outer = std::make_shared<Recorder>(QStringLiteral("audit"), journal);
        outer->throwInAfter = true;

        const ToolResult result = run(tool, {outer, broken}, journal);

        QVERIFY(result.isError);
        QVERIFY2(result.text().contains(QStringLiteral("The linter extension failed before Read "
                                                       "ran (disk on fire)")),
                 qPrintable(result.text()));
        QCOMPARE(tool->calls(), 0);
        QCOMPARE(journal.entries,
                 (QStringList{"audit.before", "linter.before", "linter.after", "audit.after"}));
        QCOMPARE(outer->seenResult, result);
    }

    void measuresTheWholeCall()
    {
        Journal journal;
        auto slow = FunctionTool::make(QStringLiteral("Slow"),
                                       {QStringLiteral("path")},
                                       ExecutionMode::Parallel,
                                       [](const ToolCallContext &) {
                                           QThread::msleep(60); // the duration under test
                                           return ToolResult::makeText(QStringLiteral("done"));
                                       });
        auto recorder = std::make_shared<Recorder>(QStringLiteral("audit"), journal);
        run(slow, {recorder}, journal);
        QVERIFY2(recorder->seenDuration >= 60, qPrintable(QString::number(recorder->seenDuration)));
    }

    void noExtensionsIsTransparent()
    {
        Journal journal;
        const ToolResult result = run(readTool(journal), {nullptr}, journal);
        QCOMPARE(result.text(), QStringLiteral("read a.txt"));
        QCOMPARE(journal.entries, (QStringList{"permission", "tool"}));
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_Extension)

} // namespace tst_extension

#include "tst_extension.moc"
