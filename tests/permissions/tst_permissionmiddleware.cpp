#include "../tools/toolstest.h"

#include <loop/toolexecution.h>
#include <permissions/partialchange.h>
#include <permissions/permissionbroker.h>
#include <permissions/permissionmiddleware.h>
#include <permissions/permissionsettings.h>
#include <permissions/projecttrust.h>
#include <testmain.h>
#include <tools/backgroundshells.h>
#include <tools/codingtools.h>
#include <tools/shelloverlay.h>

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMutex>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <thread>

using namespace AgentCore;

namespace tst_permissionmiddleware {

namespace {

/// Answers every request with the next scripted answer (AllowOnce when none is left) and
/// keeps what it was asked. Thread-safe.
class FakeAsker final : public PermissionAsker
{
public:
    std::optional<PermissionAnswer> ask(const PermissionRequest &request,
                                        const AbortToken &) override
    {
        if (whileAsking)
            whileAsking(request);
        QMutexLocker locker(&m_mutex);
        m_requests.append(request);
        if (m_answers.isEmpty())
            return answer(PermissionAnswer::Choice::AllowOnce);
        return m_answers.takeFirst();
    }

    static PermissionAnswer answer(PermissionAnswer::Choice choice,
                                   const QString &feedback = {},
                                   const QList<int> &rejectedHunks = {})
    {
        PermissionAnswer answer;
        answer.choice = choice;
        answer.feedback = feedback;
        answer.rejectedHunks = rejectedHunks;
        return answer;
    }
    void script(const PermissionAnswer &answer)
    {
        QMutexLocker locker(&m_mutex);
        m_answers.append(answer);
    }
    QList<PermissionRequest> requests() const
    {
        QMutexLocker locker(&m_mutex);
        return m_requests;
    }

    /// Runs before each answer, as if it happened while the user was reviewing. Set before use.
    std::function<void(const PermissionRequest &request)> whileAsking;

private:
    mutable QMutex m_mutex;
    QList<PermissionAnswer> m_answers;
    QList<PermissionRequest> m_requests;
};

struct Outcome
{
    ToolResult result;
    QString decision; ///< ToolCallContext::permissionDecision afterwards
};

/// The real coding tools on a temporary git repository behind the permission middleware.
class Harness
{
public:
    explicit Harness(PermissionMode mode = PermissionMode::Default, bool withAsker = true)
    {
        policy = std::make_shared<PermissionPolicy>(repo.root(), mode);
        if (withAsker)
            asker = std::make_shared<FakeAsker>();
        for (const AgentToolPtr &tool : CodingTools::create(repo.workspace()))
            tools.insert(tool->definition().name, tool);
        gate.policy = policy;
        gate.asker = asker;
        gate.workspace = repo.workspace();
        gate.bash = std::make_shared<BashAnalyzer>(repo.root(), QStringLiteral("-"));
        gate.alwaysAllowSettingsPath = PermissionSettings::projectLocalSettingsPath(repo.root());
        gate.onUnattendedDeny = [this](const QString &message) {
            QMutexLocker locker(&mutex);
            unattended.append(message);
        };
        middleware = makePermissionMiddleware(gate);
    }

    /// Bash takes run_in_background (BackgroundShells, BashOutput, KillShell); shell writes
    /// are reviewed on an overlay, staged in \a folder.
    void reviewWritesWithBackground(const QString &folder)
    {
        shells = std::make_shared<BackgroundShells>(repo.workspace()->logDirectory());
        for (const AgentToolPtr &tool : CodingTools::create(repo.workspace(), shells))
            tools.insert(tool->definition().name, tool);
        gate.reviewShellWrites = [] { return true; };
        gate.shellWritesFolder = folder;
        middleware = makePermissionMiddleware(gate);
    }

    void setAsker(std::shared_ptr<PermissionAsker> other)
    {
        gate.asker = std::move(other);
        middleware = makePermissionMiddleware(gate);
    }

    Outcome call(const QString &name, const QJsonObject &arguments, const AbortToken &abort = {})
    {
        ToolCallContext context;
        context.toolCallId = QStringLiteral("call_") + name;
        context.toolName = name;
        context.arguments = arguments;
        context.tool = tools.value(name).get();
        context.abort = abort;
        const AgentToolPtr tool = tools.value(name);
        const ToolResult result = middleware(context, [tool](ToolCallContext &context) {
            return tool->execute(context);
        });
        return {result, context.permissionDecision};
    }

    bool read(const QString &path)
    {
        return !call(QStringLiteral("Read"), {{"file_path", path}}).result.isError;
    }

    ToolsTest::Repo repo;
    std::shared_ptr<BackgroundShells> shells; ///< null unless reviewWritesWithBackground()
    std::shared_ptr<PermissionPolicy> policy;
    std::shared_ptr<FakeAsker> asker;
    QHash<QString, AgentToolPtr> tools;
    PermissionGate gate;
    ToolMiddleware middleware;
    QMutex mutex;
    QStringList unattended;
};

const QJsonObject editB{{"file_path", "src/a.cpp"},
                        {"old_string", "int b = 2;"},
                        {"new_string", "int b = 20;"}};
const QByteArray original("int a = 1;\nint b = 2;\nint c = 3;\n");

// Lines "line FIRST" to "line LAST", with the \a changed ones upper-cased.
QByteArray lines(int first, int last, const QList<int> &changed = {}, const QByteArray &eol = "\n")
{
    QByteArray text;
    for (int i = first; i <= last; ++i)
        text += (changed.contains(i) ? "LINE " : "line ") + QByteArray::number(i) + eol;
    return text;
}

// Changes lines 2, 14 and 25 of lines(1, 30): three hunks.
QJsonObject threeHunkCall(const QString &tool)
{
    if (tool == QLatin1String("Write"))
        return {{"file_path", "src/t.txt"},
                {"content", QString::fromUtf8(lines(1, 30, {2, 14, 25}))}};
    return {{"file_path", "src/t.txt"},
            {"old_string", QString::fromUtf8(lines(2, 25))},
            {"new_string", QString::fromUtf8(lines(2, 25, {2, 14, 25}))}};
}

/// Runs \a arguments for \a tool as the loop does: first validation, the permission
/// middleware, the second validation, the effect hooks.
ToolResult runAsTheLoopDoes(Harness &h,
                            const AgentToolPtr &tool,
                            const QJsonObject &arguments,
                            const EffectBoundary &effects = {})
{
    const QString name = tool->definition().name;
    const ArgumentValidation validation = tool->compiledSchema().validate(name, arguments);
    if (!validation.ok)
        return ToolResult::makeError(validation.error);
    ToolJob job;
    job.tool = tool;
    job.context.toolCallId = QStringLiteral("call_") + name;
    job.context.toolName = name;
    job.context.arguments = validation.arguments;
    job.context.tool = tool.get();
    job.middlewares = {h.middleware};
    job.effects = effects;
    job.validatedArguments = validation.arguments;
    return executeToolCall(job);
}

/// Write, but taking only the content \a accepted (its schema says so): a tool whose contract
/// is narrower than what a middleware may rewrite a call into.
class NarrowWrite final : public AgentTool
{
public:
    NarrowWrite(AgentToolPtr write, const QString &accepted)
        : m_write(std::move(write))
        , m_accepted(accepted)
    {}
    ToolDefinition definition() const override
    {
        ToolDefinition definition = m_write->definition();
        QJsonObject properties = definition.parameters.value(QLatin1String("properties")).toObject();
        properties.insert(QStringLiteral("content"),
                          QJsonObject{{"type", "string"}, {"enum", QJsonArray{m_accepted}}});
        definition.parameters.insert(QStringLiteral("properties"), properties);
        return definition;
    }
    ExecutionMode executionMode() const override { return m_write->executionMode(); }
    ToolResult execute(const ToolCallContext &context) override
    {
        return m_write->execute(context);
    }

private:
    AgentToolPtr m_write;
    QString m_accepted;
};

const QString rejectedMiddleHunk = QStringLiteral(
    "Rejected hunk 2 of 3 (lines 11-17 of the file before your change):\n@@ -11,7 +11,7 @@\n"
    " line 11\n line 12\n line 13\n-line 14\n+LINE 14\n line 15\n line 16\n line 17\n");

} // namespace

class tst_PermissionMiddleware : public QObject
{
    Q_OBJECT

private slots:
    void approvedEditChangesTheFile()
    {
        Harness h;
        QVERIFY(h.repo.isValid());
        QVERIFY(h.repo.write(QStringLiteral("src/a.cpp"), original));
        const Outcome read = h.call(QStringLiteral("Read"), {{"file_path", "src/a.cpp"}});
        QVERIFY(!read.result.isError);
        QCOMPARE(read.decision, QStringLiteral("allow: reads are allowed"));
        QVERIFY(h.asker->requests().isEmpty());

        const Outcome edit = h.call(QStringLiteral("Edit"), editB);
        QVERIFY2(!edit.result.isError, qPrintable(edit.result.text()));
        QCOMPARE(h.repo.read(QStringLiteral("src/a.cpp")),
                 QByteArray("int a = 1;\nint b = 20;\nint c = 3;\n"));
        QCOMPARE(edit.decision, QStringLiteral("ask: allowed once"));

        QCOMPARE(h.asker->requests().size(), 1);
        const PermissionRequest request = h.asker->requests().first();
        QCOMPARE(request.toolName, QStringLiteral("Edit"));
        QCOMPARE(request.toolCallId, QStringLiteral("call_Edit"));
        QCOMPARE(request.arguments, editB);
        QCOMPARE(request.reason, QStringLiteral("Edit asks in “Ask before changes” mode"));
        QCOMPARE(request.filePath, h.repo.path(QStringLiteral("src/a.cpp")));
        QCOMPARE(request.displayPath, QStringLiteral("src/a.cpp"));
        QCOMPARE(request.oldText, QString::fromUtf8(original));
        QCOMPARE(request.newText, QStringLiteral("int a = 1;\nint b = 20;\nint c = 3;\n"));
        const QString shown = request.diff.toString(QStringLiteral("a/src/a.cpp"),
                                                    QStringLiteral("b/src/a.cpp"));
        QCOMPARE(shown,
                 QStringLiteral("--- a/src/a.cpp\n+++ b/src/a.cpp\n@@ -1,3 +1,3 @@\n int a = 1;\n"
                                "-int b = 2;\n+int b = 20;\n int c = 3;\n"));
        QVERIFY(!request.newFile);
        QVERIFY(!request.bash);
        QVERIFY(!request.suggestedRules.isEmpty());
        QCOMPARE(request.suggestedRules.first().toString(), QStringLiteral("Edit(src/**)"));
        // The diff the reviewer saw is the one the tool reports having made.
        QCOMPARE(edit.result.details.toJson().value(QLatin1String("diff")).toString(), shown);
    }

    void writeRequestShowsTheNewFile()
    {
        Harness h;
        QVERIFY(h.repo.write(QStringLiteral("crlf.txt"), "one\r\ntwo\r\n"));
        QVERIFY(h.read(QStringLiteral("crlf.txt")));
        QVERIFY(
            !h.call(QStringLiteral("Write"), {{"file_path", "docs/new.md"}, {"content", "# Hi\n"}})
                 .result.isError);
        QVERIFY(!h.call(QStringLiteral("Write"),
                        {{"file_path", "crlf.txt"}, {"content", "one\nthree\n"}})
                     .result.isError);
        QCOMPARE(h.asker->requests().size(), 2);

        const PermissionRequest created = h.asker->requests().at(0);
        QVERIFY(created.newFile);
        QCOMPARE(created.oldText, QString());
        QCOMPARE(created.diff.toString(QStringLiteral("/dev/null"), QStringLiteral("b/docs/new.md")),
                 QStringLiteral("--- /dev/null\n+++ b/docs/new.md\n@@ -0,0 +1 @@\n+# Hi\n"));
        QCOMPARE(created.suggestedRules.first().toString(), QStringLiteral("Edit(docs/**)"));

        // Shown with LF line endings, as Read showed it; written back as CRLF.
        const PermissionRequest replaced = h.asker->requests().at(1);
        QVERIFY(!replaced.newFile);
        QCOMPARE(replaced.oldText, QStringLiteral("one\ntwo\n"));
        QCOMPARE(replaced.diff.toString(QStringLiteral("a/crlf.txt"), QStringLiteral("b/crlf.txt")),
                 QStringLiteral(
                     "--- a/crlf.txt\n+++ b/crlf.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+three\n"));
        QCOMPARE(replaced.suggestedRules.first().toString(), QStringLiteral("Edit(./crlf.txt)"));
        QCOMPARE(h.repo.read(QStringLiteral("crlf.txt")), QByteArray("one\r\nthree\r\n"));
    }

    void denialLeavesTheFileAndCarriesFeedback_data()
    {
        QTest::addColumn<QString>("tool");
        QTest::addColumn<QString>("feedback");
        QTest::addColumn<QString>("expected");
        QTest::newRow("edit with feedback")
            << "Edit"
            << "keep b at 2, change c"
            << "The user denied this Edit of src/a.cpp. Their feedback: keep b at 2, change c";
        QTest::newRow("write without feedback")
            << "Write"
            << ""
            << "The user denied this Write of src/a.cpp. Do not retry it unchanged";
    }

    void denialLeavesTheFileAndCarriesFeedback()
    {
        QFETCH(QString, tool);
        QFETCH(QString, feedback);
        QFETCH(QString, expected);
        Harness h;
        QVERIFY(h.repo.write(QStringLiteral("src/a.cpp"), original));
        QVERIFY(h.read(QStringLiteral("src/a.cpp")));
        h.asker->script(FakeAsker::answer(PermissionAnswer::Choice::Deny, feedback));
        const QJsonObject arguments = tool == QLatin1String("Edit")
                                          ? editB
                                          : QJsonObject{{"file_path", "src/a.cpp"},
                                                        {"content", "gone\n"}};
        const Outcome outcome = h.call(tool, arguments);
        QVERIFY(outcome.result.isError);
        QVERIFY2(outcome.result.text().startsWith(expected), qPrintable(outcome.result.text()));
        QVERIFY(outcome.decision.startsWith(QLatin1String("ask: denied by the user")));
        QCOMPARE(h.repo.read(QStringLiteral("src/a.cpp")), original);
        QCOMPARE(h.asker->requests().size(), 1);
    }

    // The reviewer unchecked the middle hunk: the file gets the other two, in its own line
    // endings and byte order mark; the model is told what was left out, and may go on
    // editing the file without reading it again.
    void partlyApprovedChangeWritesKeptHunks_data()
    {
        QTest::addColumn<QString>("tool");
        QTest::addColumn<QByteArray>("eol");
        QTest::addColumn<QByteArray>("bom");
        QTest::addColumn<int>("choice");
        QTest::newRow("edit, LF, once") << "Edit" << QByteArray("\n") << QByteArray() << 0;
        QTest::newRow("edit, CRLF and BOM, session")
            << "Edit" << QByteArray("\r\n") << QByteArray("\xEF\xBB\xBF") << 1;
        QTest::newRow("write, LF, session") << "Write" << QByteArray("\n") << QByteArray() << 1;
        QTest::newRow("write, CRLF, once") << "Write" << QByteArray("\r\n") << QByteArray() << 0;
    }

    void partlyApprovedChangeWritesKeptHunks()
    {
        QFETCH(QString, tool);
        QFETCH(QByteArray, eol);
        QFETCH(QByteArray, bom);
        QFETCH(int, choice);
        const bool session = choice == 1;
        Harness h;
        QVERIFY(h.repo.write(QStringLiteral("src/t.txt"), bom + lines(1, 30, {}, eol)));
        QVERIFY(h.read(QStringLiteral("src/t.txt")));
        h.asker->script(FakeAsker::answer(session ? PermissionAnswer::Choice::AllowSession
                                                  : PermissionAnswer::Choice::AllowOnce,
                                          QStringLiteral("keep line 14"),
                                          {1}));
        const Outcome outcome = h.call(tool, threeHunkCall(tool));

        QVERIFY2(!outcome.result.isError, qPrintable(outcome.result.text()));
        QCOMPARE(h.repo.read(QStringLiteral("src/t.txt")),
                 QByteArray(bom + lines(1, 30, {2, 25}, eol)));
        const QString text = outcome.result.text();
        QVERIFY2(text.startsWith(QStringLiteral("The user approved only part of this %1 of "
                                                "src/t.txt: 2 of 3 hunks were applied and 1 was "
                                                "rejected.")
                                     .arg(tool)),
                 qPrintable(text));
        QVERIFY2(text.contains(rejectedMiddleHunk), qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("Their feedback: keep line 14")), qPrintable(text));
        QVERIFY2(!text.contains(QLatin1String("LINE 2\n")), qPrintable(text)); // kept: not listed
        QCOMPARE(outcome.decision,
                 (session ? QStringLiteral("ask: allowed for this session (Edit(src/**))")
                          : QStringLiteral("ask: allowed once"))
                     + QStringLiteral("; partially applied, rejected hunk 2 of 3"));
        const QJsonObject details = outcome.result.details.toJson();
        QCOMPARE(details.value(QLatin1String("rejectedHunks")).toArray(), QJsonArray{1});
        QCOMPARE(details.value(QLatin1String("additions")).toInt(), 2);
        QCOMPARE(details.value(QLatin1String("path")).toString(),
                 h.repo.path(QStringLiteral("src/t.txt")));

        // What was written counts as read; a session rule lets the next edit through.
        const Outcome next = h.call(QStringLiteral("Edit"),
                                    {{"file_path", "src/t.txt"},
                                     {"old_string", "line 14"},
                                     {"new_string", "line fourteen"}});
        QVERIFY2(!next.result.isError, qPrintable(next.result.text()));
        QCOMPARE(h.asker->requests().size(), session ? 1 : 2);
        QVERIFY(h.repo.read(QStringLiteral("src/t.txt"))
                    .contains(QByteArray("line fourteen").append(eol)));
    }

    void everyHunkRejectedIsADenial_data()
    {
        QTest::addColumn<QString>("tool");
        QTest::newRow("edit") << "Edit";
        QTest::newRow("write") << "Write";
    }

    void everyHunkRejectedIsADenial()
    {
        QFETCH(QString, tool);
        Harness h;
        QVERIFY(h.repo.write(QStringLiteral("src/t.txt"), lines(1, 30)));
        QVERIFY(h.read(QStringLiteral("src/t.txt")));
        h.asker->script(FakeAsker::answer(PermissionAnswer::Choice::AllowSession, {}, {2, 0, 1, 1}));
        const Outcome outcome = h.call(tool, threeHunkCall(tool));
        QVERIFY(outcome.result.isError);
        QVERIFY2(outcome.result.text().startsWith(
                     QStringLiteral("The user denied this %1 of src/t.txt: they rejected all 3 "
                                    "hunks of the change. Do not retry it unchanged")
                         .arg(tool)),
                 qPrintable(outcome.result.text()));
        QCOMPARE(outcome.decision, QStringLiteral("ask: denied by the user (every hunk rejected)"));
        QCOMPARE(h.repo.read(QStringLiteral("src/t.txt")), lines(1, 30));
        // Nothing was allowed, so no rule was added: the same call asks again.
        h.call(tool, threeHunkCall(tool));
        QCOMPARE(h.asker->requests().size(), 2);
    }

    // Someone changes the file while the user reviews: their change stays, the model hears
    // why nothing was written and which hunks the user did not want.
    void fileChangedDuringReviewIsNotOverwritten_data()
    {
        QTest::addColumn<QString>("tool");
        QTest::newRow("edit") << "Edit";
        QTest::newRow("write") << "Write";
    }

    void fileChangedDuringReviewIsNotOverwritten()
    {
        QFETCH(QString, tool);
        Harness h;
        QVERIFY(h.repo.write(QStringLiteral("src/t.txt"), lines(1, 30)));
        QVERIFY(h.read(QStringLiteral("src/t.txt")));
        const QByteArray meanwhile = lines(1, 30, {30});
        h.asker->whileAsking = [&h, &meanwhile](const PermissionRequest &) {
            QVERIFY(h.repo.write(QStringLiteral("src/t.txt"), meanwhile));
        };
        h.asker->script(FakeAsker::answer(PermissionAnswer::Choice::AllowOnce, {}, {1}));
        const Outcome outcome = h.call(tool, threeHunkCall(tool));
        QVERIFY(outcome.result.isError);
        const QString text = outcome.result.text();
        QVERIFY2(text.startsWith(QStringLiteral("Nothing was written: the user approved part of "
                                                "this %1 of src/t.txt, but src/t.txt is no longer "
                                                "as they reviewed it: ")
                                     .arg(tool)),
                 qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("Read src/t.txt again; if you redo the change, leave "
                                             "out the hunks the user rejected:\n")),
                 qPrintable(text));
        QVERIFY2(text.contains(rejectedMiddleHunk), qPrintable(text));
        QCOMPARE(h.repo.read(QStringLiteral("src/t.txt")), meanwhile);
    }

    // The hunk indexes of an answer are those of the diff the reviewer was shown, carried in
    // the request: a diff computed again (here: with the default context, which merges the two
    // changes into one hunk) would apply something else.
    void partialApplyUsesTheHunksTheReviewerSaw()
    {
        Harness h;
        QVERIFY(h.repo.write(QStringLiteral("src/t.txt"), lines(1, 10)));
        QVERIFY(h.read(QStringLiteral("src/t.txt")));
        PermissionRequest request;
        request.toolName = QStringLiteral("Edit");
        request.arguments = {{"file_path", "src/t.txt"},
                             {"old_string", QString::fromUtf8(lines(2, 6))},
                             {"new_string", QString::fromUtf8(lines(2, 6, {2, 6}))}};
        request.filePath = h.repo.path(QStringLiteral("src/t.txt"));
        request.displayPath = QStringLiteral("src/t.txt");
        request.oldText = QString::fromUtf8(lines(1, 10));
        request.newText = QString::fromUtf8(lines(1, 10, {2, 6}));
        request.diff = UnifiedDiff::compute(request.oldText, request.newText, 0);
        QCOMPARE(request.diff.hunks().size(), 2);
        QCOMPARE(UnifiedDiff::compute(request.oldText, request.newText).hunks().size(), 1);

        const PartialChange partial
            = PartialChange::of(request,
                                FakeAsker::answer(PermissionAnswer::Choice::AllowOnce, {}, {1}));
        QCOMPARE(partial.hunkCount(), 2);
        QCOMPARE(partial.rejected(), QList<int>{1});
        const PartialChange::Rewrite rewrite = partial.rewrite(*h.repo.workspace());
        QVERIFY2(!rewrite.refused, qPrintable(rewrite.refused.value_or(ToolResult()).text()));
        ToolCallContext context;
        context.toolName = QStringLiteral("Edit");
        context.arguments = rewrite.arguments;
        const ToolResult result
            = partial.result(h.tools.value(QStringLiteral("Edit"))->execute(context), {});
        QVERIFY2(!result.isError, qPrintable(result.text()));
        QCOMPARE(h.repo.read(QStringLiteral("src/t.txt")), lines(1, 10, {2}));
        QVERIFY2(result.text().contains(QLatin1String("Rejected hunk 2 of 2 (line 6 of the file "
                                                      "before your change):\n@@ -6 +6 @@\n"
                                                      "-line 6\n+LINE 6\n")),
                 qPrintable(result.text()));
    }

    // A partly approved change is written by the tool, between the effect hooks, like any
    // other: a journal sees the write the reviewer approved.
    void effectHooksSeeAPartlyApprovedChange_data()
    {
        QTest::addColumn<QString>("tool");
        QTest::newRow("edit") << "Edit";
        QTest::newRow("write") << "Write";
    }

    void effectHooksSeeAPartlyApprovedChange()
    {
        QFETCH(QString, tool);
        Harness h;
        QVERIFY(h.repo.write(QStringLiteral("src/t.txt"), lines(1, 30)));
        QVERIFY(h.read(QStringLiteral("src/t.txt")));
        h.asker->script(FakeAsker::answer(PermissionAnswer::Choice::AllowOnce, {}, {1}));
        QStringList journal;
        QJsonObject afterDetails;
        EffectBoundary effects;
        effects.beforeEffect = [&](const ToolCallContext &context) {
            journal << QStringLiteral("before %1, file %2")
                           .arg(context.toolName,
                                h.repo.read(QStringLiteral("src/t.txt")) == lines(1, 30)
                                    ? QStringLiteral("unchanged")
                                    : QStringLiteral("changed"));
        };
        effects.afterEffect = [&](const ToolCallContext &context, const ToolResult &result) {
            journal << QStringLiteral("after %1, %2")
                           .arg(context.toolName,
                                result.isError ? QStringLiteral("failed")
                                               : QStringLiteral("succeeded"));
            afterDetails = result.details.toJson();
        };
        const ToolResult result = runAsTheLoopDoes(h,
                                                   h.tools.value(tool),
                                                   threeHunkCall(tool),
                                                   effects);
        QVERIFY2(!result.isError, qPrintable(result.text()));
        QVERIFY2(result.text().startsWith(QLatin1String("The user approved only part")),
                 qPrintable(result.text()));
        QCOMPARE(h.repo.read(QStringLiteral("src/t.txt")), lines(1, 30, {2, 25}));
        QCOMPARE(journal,
                 QStringList({QStringLiteral("before %1, file unchanged").arg(tool),
                              QStringLiteral("after %1, succeeded").arg(tool)}));
        QCOMPARE(afterDetails.value(QLatin1String("path")).toString(),
                 h.repo.path(QStringLiteral("src/t.txt")));
        QCOMPARE(afterDetails.value(QLatin1String("additions")).toInt(), 2);
        QCOMPARE(afterDetails.value(QLatin1String("deletions")).toInt(), 2);
    }

    // The rewritten call is validated again before the tool runs: a tool that cannot take it
    // is not run, and the model hears that nothing was written.
    void rewrittenPartialCallIsValidatedAgain()
    {
        Harness h;
        QVERIFY(h.repo.write(QStringLiteral("src/t.txt"), lines(1, 30)));
        QVERIFY(h.read(QStringLiteral("src/t.txt")));
        const QJsonObject call = threeHunkCall(QStringLiteral("Write"));
        const auto narrow
            = std::make_shared<NarrowWrite>(h.tools.value(QStringLiteral("Write")),
                                            call.value(QLatin1String("content")).toString());
        h.asker->script(FakeAsker::answer(PermissionAnswer::Choice::AllowOnce, {}, {1}));
        const ToolResult result = runAsTheLoopDoes(h, narrow, call);
        QVERIFY(result.isError);
        QVERIFY2(result.text().startsWith(QLatin1String(
                     "Nothing was written: the user approved part of this Write of src/t.txt, "
                     "but applying the hunks they kept failed: Contract error: a tool "
                     "middleware rewrote the arguments of Write into invalid ones")),
                 qPrintable(result.text()));
        QVERIFY2(result.text().contains(rejectedMiddleHunk), qPrintable(result.text()));
        QCOMPARE(h.repo.read(QStringLiteral("src/t.txt")), lines(1, 30));
    }

    // The user edited the proposal before allowing it: exactly their version is written, in
    // the file's own line endings, the model is told their changes as a diff against its
    // proposal, and its next Edit of the file (from the file as it is) is not refused.
    void userVersionIsWrittenAndTheModelToldItsDiff_data()
    {
        QTest::addColumn<QString>("tool");
        QTest::addColumn<QByteArray>("eol");
        QTest::addColumn<QList<int>>("rejectedFirst");
        QTest::newRow("edit, LF") << "Edit" << QByteArray("\n") << QList<int>{};
        QTest::newRow("edit, CRLF") << "Edit" << QByteArray("\r\n") << QList<int>{};
        QTest::newRow("write, LF") << "Write" << QByteArray("\n") << QList<int>{};
        // The review took hunk 2 out before the user edited: not taken out again.
        QTest::newRow("edit, hunk 2 rejected first") << "Edit" << QByteArray("\n") << QList<int>{1};
    }

    void userVersionIsWrittenAndTheModelToldItsDiff()
    {
        QFETCH(QString, tool);
        QFETCH(QByteArray, eol);
        QFETCH(QList<int>, rejectedFirst);
        Harness h;
        QVERIFY(h.repo.write(QStringLiteral("src/t.txt"), lines(1, 30, {}, eol)));
        QVERIFY(h.read(QStringLiteral("src/t.txt")));
        // The proposal changes lines 2, 14 and 25; the user keeps 2 and 25 (and 14 unless it
        // was rejected), and writes line 20 their own way.
        QString mine = QString::fromUtf8(
            lines(1, 30, rejectedFirst.isEmpty() ? QList<int>{2, 14, 25} : QList<int>{2, 25}));
        mine.replace(QLatin1String("line 20\n"), QLatin1String("line twenty, mine\n"));
        PermissionAnswer answer = FakeAsker::answer(PermissionAnswer::Choice::AllowOnce,
                                                    QStringLiteral("spell it out"),
                                                    rejectedFirst);
        answer.userText = mine;
        h.asker->script(answer);
        QStringList journal;
        EffectBoundary effects;
        effects.beforeEffect = [&](const ToolCallContext &context) {
            journal << QStringLiteral("before %1").arg(context.toolName);
        };
        effects.afterEffect = [&](const ToolCallContext &context, const ToolResult &result) {
            journal << QStringLiteral("after %1, %2")
                           .arg(context.toolName, result.isError ? "failed" : "succeeded");
        };
        const ToolResult result = runAsTheLoopDoes(h,
                                                   h.tools.value(tool),
                                                   threeHunkCall(tool),
                                                   effects);

        QVERIFY2(!result.isError, qPrintable(result.text()));
        QByteArray expected = mine.toUtf8();
        if (eol != "\n")
            expected.replace("\n", eol);
        QCOMPARE(h.repo.read(QStringLiteral("src/t.txt")), expected);
        QCOMPARE(journal,
                 QStringList({QStringLiteral("before %1").arg(tool),
                              QStringLiteral("after %1, succeeded").arg(tool)}));
        const QString text = result.text();
        QVERIFY2(text.startsWith(QStringLiteral("The user edited your proposed %1 of src/t.txt "
                                                "before approving it")
                                     .arg(tool)),
                 qPrintable(text));
        QString diff = QStringLiteral("--- a/src/t.txt\n+++ b/src/t.txt\n");
        if (!rejectedFirst.isEmpty())
            diff += QStringLiteral("@@ -11,13 +11,13 @@\n line 11\n line 12\n line 13\n"
                                   "-LINE 14\n+line 14\n line 15\n line 16\n line 17\n"
                                   " line 18\n line 19\n-line 20\n+line twenty, mine\n"
                                   " line 21\n line 22\n line 23\n");
        else
            diff += QStringLiteral("@@ -17,7 +17,7 @@\n line 17\n line 18\n line 19\n"
                                   "-line 20\n+line twenty, mine\n line 21\n line 22\n"
                                   " line 23\n");
        QVERIFY2(text.contains(diff), qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("Their feedback: spell it out")), qPrintable(text));
        const QJsonObject details = result.details.toJson();
        QCOMPARE(details.value(QLatin1String("userEdited")).toBool(), true);
        QVERIFY(!details.contains(QLatin1String("replacements")));
        // The card's diff is what landed: the file before against the user's version.
        QVERIFY2(details.value(QLatin1String("diff"))
                     .toString()
                     .contains(QLatin1String("+line twenty, mine\n")),
                 qPrintable(details.value(QLatin1String("diff")).toString()));

        // The model's next Edit starts from the file as it is, without reading it again.
        const Outcome next = h.call(QStringLiteral("Edit"),
                                    {{"file_path", "src/t.txt"},
                                     {"old_string", "line twenty, mine"},
                                     {"new_string", "line twenty, theirs"}});
        QVERIFY2(!next.result.isError, qPrintable(next.result.text()));
        QVERIFY(h.repo.read(QStringLiteral("src/t.txt"))
                    .contains(QByteArray(QByteArray("line twenty, theirs") + eol)));
    }

    void userVersionIsAuditedAsEdited()
    {
        Harness h;
        QVERIFY(h.repo.write(QStringLiteral("src/a.cpp"), original));
        QVERIFY(h.read(QStringLiteral("src/a.cpp")));
        PermissionAnswer answer = FakeAsker::answer(PermissionAnswer::Choice::AllowOnce);
        answer.userText = QStringLiteral("int a = 1;\nint b = 200;\nint c = 3;\n");
        h.asker->script(answer);
        const Outcome outcome = h.call(QStringLiteral("Edit"), editB);
        QVERIFY2(!outcome.result.isError, qPrintable(outcome.result.text()));
        QCOMPARE(outcome.decision,
                 QStringLiteral(
                     "ask: allowed once; edited by the user, +1 -1 against the proposal"));
        QCOMPARE(h.repo.read(QStringLiteral("src/a.cpp")),
                 QByteArray("int a = 1;\nint b = 200;\nint c = 3;\n"));
    }

    // Someone changes the file while the user edits the proposal: their change stays, the
    // model hears why nothing was written and what the user wanted.
    void userVersionOfAFileChangedMeanwhileIsRefused()
    {
        Harness h;
        QVERIFY(h.repo.write(QStringLiteral("src/t.txt"), lines(1, 30)));
        QVERIFY(h.read(QStringLiteral("src/t.txt")));
        const QByteArray meanwhile = lines(1, 30, {30});
        h.asker->whileAsking = [&h, &meanwhile](const PermissionRequest &) {
            QVERIFY(h.repo.write(QStringLiteral("src/t.txt"), meanwhile));
        };
        PermissionAnswer answer = FakeAsker::answer(PermissionAnswer::Choice::AllowOnce);
        answer.userText = QString::fromUtf8(lines(1, 30, {2, 3}));
        h.asker->script(answer);
        const Outcome outcome = h.call(QStringLiteral("Write"),
                                       threeHunkCall(QStringLiteral("Write")));
        QVERIFY(outcome.result.isError);
        const QString text = outcome.result.text();
        QVERIFY2(text.startsWith(QLatin1String(
                     "Nothing was written: the user edited this Write of src/t.txt before "
                     "approving it, but their version could not be applied: src/t.txt is no "
                     "longer as they reviewed it: ")),
                 qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("Read src/t.txt again.")), qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("+LINE 3\n")), qPrintable(text));
        QCOMPARE(h.repo.read(QStringLiteral("src/t.txt")), meanwhile);
    }

    // A version that is the file as it is writes nothing: a deny, no rule remembered.
    void userVersionEqualToTheFileIsADenial()
    {
        Harness h;
        QVERIFY(h.repo.write(QStringLiteral("src/a.cpp"), original));
        QVERIFY(h.read(QStringLiteral("src/a.cpp")));
        PermissionAnswer answer = FakeAsker::answer(PermissionAnswer::Choice::AllowSession);
        answer.userText = QString::fromUtf8(original);
        h.asker->script(answer);
        const Outcome outcome = h.call(QStringLiteral("Edit"), editB);
        QVERIFY(outcome.result.isError);
        QVERIFY2(outcome.result.text().startsWith(QLatin1String(
                     "The user denied this Edit of src/a.cpp: they edited the change back to "
                     "the file as it is.")),
                 qPrintable(outcome.result.text()));
        QCOMPARE(h.repo.read(QStringLiteral("src/a.cpp")), original);
        h.call(QStringLiteral("Edit"), editB);
        QCOMPARE(h.asker->requests().size(), 2);
    }

    // Only Edit and Write have hunks; a list that names none of them changes nothing.
    void rejectedHunksOutsideAChangeAreIgnored()
    {
        Harness h;
        h.asker->script(FakeAsker::answer(PermissionAnswer::Choice::AllowOnce, {}, {0}));
        QVERIFY(!h.call(QStringLiteral("Bash"), {{"command", "touch made.txt"}}).result.isError);
        QVERIFY(QFile::exists(h.repo.path(QStringLiteral("made.txt"))));

        QVERIFY(h.repo.write(QStringLiteral("src/t.txt"), lines(1, 30)));
        QVERIFY(h.read(QStringLiteral("src/t.txt")));
        h.asker->script(FakeAsker::answer(PermissionAnswer::Choice::AllowOnce, {}, {3, -1}));
        const Outcome edit = h.call(QStringLiteral("Edit"), threeHunkCall(QStringLiteral("Edit")));
        QVERIFY2(!edit.result.isError, qPrintable(edit.result.text()));
        QCOMPARE(edit.decision, QStringLiteral("ask: allowed once"));
        QCOMPARE(h.repo.read(QStringLiteral("src/t.txt")), lines(1, 30, {2, 14, 25}));
    }

    void alwaysAllowWritesTheRule()
    {
        Harness h;
        QTemporaryDir config;
        const QString trustStore = config.filePath(QStringLiteral("trusted-projects.json"));
        h.gate.projectTrustPath = trustStore;
        h.middleware = makePermissionMiddleware(h.gate);
        QVERIFY(h.repo.write(QStringLiteral("src/a.cpp"), original));
        QVERIFY(h.repo.write(QStringLiteral("src/deep/b.cpp"), "b\n"));
        const QString settings = PermissionSettings::projectLocalSettingsPath(h.repo.root());
        QVERIFY(
            h.repo.write(QStringLiteral(".agentdesk/settings.local.json"), "{\"model\": \"m\"}"));
        QVERIFY(h.read(QStringLiteral("src/a.cpp")));
        QVERIFY(h.read(QStringLiteral("src/deep/b.cpp")));
        h.asker->script(FakeAsker::answer(PermissionAnswer::Choice::AllowAlways));

        const Outcome first = h.call(QStringLiteral("Edit"), editB);
        QVERIFY2(!first.result.isError, qPrintable(first.result.text()));
        QCOMPARE(first.decision, QStringLiteral("ask: always allowed (Edit(src/**))"));
        const QJsonObject saved = QJsonDocument::fromJson(
                                      h.repo.read(QStringLiteral(".agentdesk/settings.local.json")))
                                      .object();
        QCOMPARE(saved.value(QLatin1String("model")).toString(), QStringLiteral("m"));
        QCOMPARE(saved.value(QLatin1String("permissions"))
                     .toObject()
                     .value(QLatin1String("allow"))
                     .toArray(),
                 QJsonArray{"Edit(src/**)"});

        // The next edits under src/ do not ask, in this session or the next one.
        const Outcome second = h.call(QStringLiteral("Edit"),
                                      {{"file_path", "src/deep/b.cpp"},
                                       {"old_string", "b"},
                                       {"new_string", "bb"}});
        QVERIFY2(!second.result.isError, qPrintable(second.result.text()));
        QCOMPARE(second.decision, QStringLiteral("allow: allowed by Edit(src/**) in ") + settings);
        QCOMPARE(h.asker->requests().size(), 1);
        // The user accepted that rule: it is remembered as trusted, not asked about again.
        PermissionPolicy next(h.repo.root(), PermissionMode::Default);
        QStringList warnings;
        next.loadSettings({}, &warnings, ProjectTrust::load(trustStore, h.repo.root()));
        QVERIFY(next.untrustedGrants().isEmpty());
        QCOMPARE(next.rules().size(), 1);
        QCOMPARE(next.rules().first().toString(), QStringLiteral("Edit(src/**)"));
    }

    void sessionAllowForBash()
    {
        Harness h;
        PermissionAnswer answer = FakeAsker::answer(PermissionAnswer::Choice::AllowSession);
        h.asker->script(answer);
        const QJsonObject touch{{"command", "touch made.txt"}};
        const Outcome first = h.call(QStringLiteral("Bash"), touch);
        QVERIFY2(!first.result.isError, qPrintable(first.result.text()));
        QVERIFY(QFile::exists(h.repo.path(QStringLiteral("made.txt"))));
        QCOMPARE(h.asker->requests().size(), 1);
        const PermissionRequest request = h.asker->requests().first();
        QVERIFY(request.bash.has_value());
        QVERIFY(request.bash->understood);
        QCOMPARE(request.workingDirectory, h.repo.root());
        QCOMPARE(request.suggestedRules.first().toString(), QStringLiteral("Bash(touch:*)"));
        QCOMPARE(first.decision, QStringLiteral("ask: allowed for this session (Bash(touch:*))"));
        QVERIFY(!QFile::exists(PermissionSettings::projectLocalSettingsPath(h.repo.root())));

        QVERIFY(!h.call(QStringLiteral("Bash"), {{"command", "touch other.txt"}}).result.isError);
        QCOMPARE(h.asker->requests().size(), 1);
        // A compound command passes only when every part does.
        QVERIFY(
            !h.call(QStringLiteral("Bash"), {{"command", "touch x && rm made.txt"}}).result.isError);
        QCOMPARE(h.asker->requests().size(), 2);
    }

    void readOnlyCommandsPass_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<bool>("asks");
        QTest::newRow("git status") << "git status" << false;
        QTest::newRow("pipeline") << "git log --oneline | head -5" << false;
        QTest::newRow("redirect to a file") << "ls > listing.txt" << true;
        QTest::newRow("compound with a write") << "git status && touch x" << true;
        QTest::newRow("not understood") << "for f in *; do echo $f; done" << true;
    }

    void readOnlyCommandsPass()
    {
        QFETCH(QString, command);
        QFETCH(bool, asks);
        Harness h;
        const Outcome outcome = h.call(QStringLiteral("Bash"), {{"command", command}});
        QCOMPARE(h.asker->requests().size(), asks ? 1 : 0);
        QVERIFY2(outcome.decision.startsWith(asks ? QLatin1String("ask:") : QLatin1String("allow:")),
                 qPrintable(outcome.decision));
    }

    void abortWhileWaitingEndsPromptly()
    {
        Harness h;
        auto broker = std::make_shared<PermissionBroker>();
        h.setAsker(broker);
        QSignalSpy requested(broker.get(), &PermissionBroker::requested);
        QSignalSpy withdrawn(broker.get(), &PermissionBroker::withdrawn);
        QVERIFY(h.repo.write(QStringLiteral("src/a.cpp"), original));
        QVERIFY(h.read(QStringLiteral("src/a.cpp")));

        AbortToken abort;
        Outcome outcome;
        QElapsedTimer sinceAbort;
        qint64 waitedMs = -1;
        std::thread tool([&] {
            outcome = h.call(QStringLiteral("Edit"), editB, abort);
            waitedMs = sinceAbort.elapsed();
        });
        QTRY_COMPARE(requested.size(), 1);
        QCOMPARE(requested.first().first().value<PermissionRequest>().displayPath,
                 QStringLiteral("src/a.cpp"));
        sinceAbort.start();
        abort.abort();
        tool.join();
        QVERIFY2(waitedMs >= 0 && waitedMs < 200, qPrintable(QString::number(waitedMs)));
        QVERIFY(outcome.result.isError);
        QVERIFY2(outcome.result.text().contains(QLatin1String("Aborted")),
                 qPrintable(outcome.result.text()));
        QCOMPARE(outcome.decision, QStringLiteral("ask: aborted"));
        QCOMPARE(h.repo.read(QStringLiteral("src/a.cpp")), original);
        QTRY_COMPARE(withdrawn.size(), 1);
    }

    void brokerAnswerRunsTheTool()
    {
        Harness h;
        auto broker = std::make_shared<PermissionBroker>();
        h.setAsker(broker);
        QSignalSpy requested(broker.get(), &PermissionBroker::requested);
        QVERIFY(h.repo.write(QStringLiteral("src/a.cpp"), original));
        QVERIFY(h.read(QStringLiteral("src/a.cpp")));
        Outcome outcome;
        std::thread tool([&] { outcome = h.call(QStringLiteral("Edit"), editB); });
        QTRY_COMPARE(requested.size(), 1);
        QCOMPARE(h.repo.read(QStringLiteral("src/a.cpp")), original); // not before the answer
        PermissionAnswer answer;
        answer.choice = PermissionAnswer::Choice::AllowOnce;
        QVERIFY(broker->answer(requested.first().first().value<PermissionRequest>().id, answer));
        tool.join();
        QVERIFY2(!outcome.result.isError, qPrintable(outcome.result.text()));
        QCOMPARE(h.repo.read(QStringLiteral("src/a.cpp")),
                 QByteArray("int a = 1;\nint b = 20;\nint c = 3;\n"));
    }

    void headlessDeniesWhatNeedsAPerson()
    {
        Harness h(PermissionMode::Default, false);
        QVERIFY(h.repo.write(QStringLiteral("src/a.cpp"), original));
        QVERIFY(h.read(QStringLiteral("src/a.cpp")));
        const Outcome edit = h.call(QStringLiteral("Edit"), editB);
        QVERIFY(edit.result.isError);
        QVERIFY2(edit.result.text().contains(QLatin1String("nobody can be asked")),
                 qPrintable(edit.result.text()));
        QVERIFY(edit.decision.startsWith(QLatin1String("deny: nobody to ask")));
        QCOMPARE(h.repo.read(QStringLiteral("src/a.cpp")), original);
        QCOMPARE(h.unattended.size(), 1);
        QVERIFY2(h.unattended.first().contains(QLatin1String("src/a.cpp")),
                 qPrintable(h.unattended.first()));
        // What needs nobody still runs.
        QVERIFY(!h.call(QStringLiteral("Bash"), {{"command", "git status"}}).result.isError);
        QCOMPARE(h.unattended.size(), 1);
    }

    // Issue #14: in acceptEdits the agent wrote settings.local.json granting bypass and Bash.
    void settingsChangesAskInEveryMode_data()
    {
        QTest::addColumn<PermissionMode>("mode");
        QTest::addColumn<QString>("tool");
        QTest::addColumn<QJsonObject>("arguments");
        const QJsonObject write{{"file_path", ".agentdesk/settings.local.json"},
                                {"content",
                                 "{\"permissions\": {\"allow\": [\"Bash\"], "
                                 "\"defaultMode\": \"bypass\"}}"}};
        const QJsonObject bash{{"command",
                                "printf '{\"permissions\":{\"defaultMode\":\"bypass\"}}' > "
                                ".agentdesk/settings.local.json"}};
        QTest::newRow("acceptEdits write") << PermissionMode::AcceptEdits << "Write" << write;
        QTest::newRow("bypass write") << PermissionMode::Bypass << "Write" << write;
        QTest::newRow("bypass bash") << PermissionMode::Bypass << "Bash" << bash;
        QTest::newRow("default bash") << PermissionMode::Default << "Bash" << bash;
    }

    void settingsChangesAskInEveryMode()
    {
        QFETCH(PermissionMode, mode);
        QFETCH(QString, tool);
        QFETCH(QJsonObject, arguments);
        Harness h(mode);
        QVERIFY(QDir().mkpath(h.repo.path(QStringLiteral(".agentdesk"))));
        // Broad rules, even for the session, do not pre-approve it.
        for (const char *text : {"Bash", "Write", "Edit"}) {
            PermissionRule rule
                = PermissionRule::parse(QLatin1String(text), PermissionBehavior::Allow).value();
            rule.source = QStringLiteral("session");
            h.policy->addRule(rule);
        }
        const QList<PermissionRule> rulesBefore = h.policy->rules();
        h.asker->script(FakeAsker::answer(PermissionAnswer::Choice::AllowAlways));
        const Outcome first = h.call(tool, arguments);
        QVERIFY2(!first.result.isError, qPrintable(first.result.text()));
        QCOMPARE(h.asker->requests().size(), 1);
        const PermissionRequest request = h.asker->requests().first();
        QVERIFY2(request.reason.contains(QLatin1String("AgentDesk's own settings")),
                 qPrintable(request.reason));
        QVERIFY(request.suggestedRules.isEmpty()); // nothing to allow "always"
        QCOMPARE(first.decision,
                 QStringLiteral(
                     "ask: allowed once (AgentDesk's own settings: no rule remembered)"));
        QVERIFY(h.repo.read(QStringLiteral(".agentdesk/settings.local.json")).contains("bypass"));

        // The change takes no effect in this session: same mode, same rules.
        QCOMPARE(h.policy->mode(), mode);
        QCOMPARE(h.policy->rules(), rulesBefore);
        // The "always" answer did not approve the next change either.
        QVERIFY(h.read(QStringLiteral(".agentdesk/settings.local.json")));
        QVERIFY(!h.call(tool, arguments).result.isError);
        QCOMPARE(h.asker->requests().size(), 2);

        // The next start does not apply what the file grants until the user accepted it.
        PermissionPolicy next(h.repo.root(), PermissionMode::Default);
        QStringList warnings;
        next.loadSettings({}, &warnings, ProjectTrust());
        QCOMPARE(next.mode(), PermissionMode::Default);
        QVERIFY(next.untrustedGrants().contains(QStringLiteral("defaultMode: bypass")));
    }

    void settingsChangesDeniedHeadless()
    {
        Harness h(PermissionMode::Bypass, false);
        const Outcome outcome = h.call(QStringLiteral("Write"),
                                       {{"file_path", ".agentdesk/settings.local.json"},
                                        {"content", "{}"}});
        QVERIFY(outcome.result.isError);
        QVERIFY2(outcome.result.text().contains(QLatin1String("AgentDesk's own settings")),
                 qPrintable(outcome.result.text()));
        QVERIFY(outcome.decision.startsWith(QLatin1String("deny: nobody to ask")));
        QVERIFY(!QFile::exists(h.repo.path(QStringLiteral(".agentdesk/settings.local.json"))));
        QCOMPARE(h.unattended.size(), 1);
        QVERIFY2(h.unattended.first().contains(QLatin1String("No mode or rule allows it")),
                 qPrintable(h.unattended.first()));
    }

    // Issue #14: bypass skips the questions, not the path capability.
    void bashWritesOutsideAreRefused_data()
    {
        QTest::addColumn<PermissionMode>("mode");
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("rule");
        QTest::newRow("bypass sed -i")
            << PermissionMode::Bypass << "sed -i s/secret/leaked/ @/secret.txt"
            << "";
        QTest::newRow("bypass redirection") << PermissionMode::Bypass << "echo x > @/new.txt"
                                            << "";
        QTest::newRow("bypass cp") << PermissionMode::Bypass << "cp notes.txt @/copy.txt"
                                   << "";
        QTest::newRow("default, Bash rule") << PermissionMode::Default << "touch @/outside"
                                            << "Bash";
        QTest::newRow("acceptEdits, tee rule") << PermissionMode::AcceptEdits << "tee @/t.txt"
                                               << "Bash(tee:*)";
    }

    void bashWritesOutsideAreRefused()
    {
        QFETCH(PermissionMode, mode);
        QFETCH(QString, command);
        QFETCH(QString, rule);
        Harness h(mode);
        QTemporaryDir outside;
        const QString outsideRoot = QFileInfo(outside.path()).canonicalFilePath();
        QFile secret(outsideRoot + QStringLiteral("/secret.txt"));
        QVERIFY(secret.open(QIODevice::WriteOnly) && secret.write("secret\n") == 7);
        secret.close();
        QVERIFY(h.repo.write(QStringLiteral("notes.txt"), "notes\n"));
        if (!rule.isEmpty()) {
            PermissionRule allow = PermissionRule::parse(rule, PermissionBehavior::Allow).value();
            allow.source = QStringLiteral("test");
            h.policy->addRule(allow);
        }
        command.replace(QLatin1String("@"), outsideRoot);
        const Outcome outcome = h.call(QStringLiteral("Bash"), {{"command", command}});
        QVERIFY(outcome.result.isError);
        QVERIFY2(outcome.decision.startsWith(QLatin1String("deny: ")), qPrintable(outcome.decision));
        QVERIFY2(outcome.result.text().contains(QLatin1String("inside the repository")),
                 qPrintable(outcome.result.text()));
        QVERIFY(h.asker->requests().isEmpty());
        QCOMPARE(QDir(outsideRoot).entryList(QDir::Files), QStringList{"secret.txt"});
        QFile check(outsideRoot + QStringLiteral("/secret.txt"));
        QVERIFY(check.open(QIODevice::ReadOnly));
        QCOMPARE(check.readAll(), QByteArray("secret\n"));
    }

    void planModeDenies()
    {
        Harness h(PermissionMode::Plan);
        QVERIFY(h.repo.write(QStringLiteral("src/a.cpp"), original));
        QVERIFY(h.read(QStringLiteral("src/a.cpp")));
        for (const auto &[tool, arguments] :
             QList<std::pair<QString, QJsonObject>>{{"Edit", editB},
                                                    {"Bash", {{"command", "touch n"}}},
                                                    {"Write",
                                                     {{"file_path", "n"}, {"content", ""}}}}) {
            const Outcome outcome = h.call(tool, arguments);
            QVERIFY(outcome.result.isError);
            QVERIFY2(outcome.result.text().contains(QLatin1String("Plan mode")),
                     qPrintable(outcome.result.text()));
            QVERIFY(outcome.decision.startsWith(QLatin1String("deny: ")));
        }
        // A read-only command runs, unasked (issue #15).
        const Outcome status = h.call(QStringLiteral("Bash"), {{"command", "git status"}});
        QVERIFY2(!status.result.isError, qPrintable(status.result.text()));
        QVERIFY2(status.decision.startsWith(QLatin1String("allow: ")), qPrintable(status.decision));
        QVERIFY(h.asker->requests().isEmpty());
        QCOMPARE(h.repo.read(QStringLiteral("src/a.cpp")), original);
        QVERIFY(!QFileInfo::exists(h.repo.root() + QStringLiteral("/n")));
    }

    void acceptEditsDoesNotAsk()
    {
        Harness h(PermissionMode::AcceptEdits);
        QVERIFY(h.repo.write(QStringLiteral("src/a.cpp"), original));
        QVERIFY(h.read(QStringLiteral("src/a.cpp")));
        QVERIFY(!h.call(QStringLiteral("Edit"), editB).result.isError);
        QVERIFY(h.asker->requests().isEmpty());
        QVERIFY(!h.call(QStringLiteral("Bash"), {{"command", "touch x"}}).result.isError);
        QCOMPARE(h.asker->requests().size(), 1);
    }

    void failingEditIsNotAsked()
    {
        Harness h;
        QVERIFY(h.repo.write(QStringLiteral("src/a.cpp"), original));
        const Outcome unread = h.call(QStringLiteral("Edit"), editB);
        QVERIFY(unread.result.isError);
        QVERIFY2(unread.result.text().contains(QLatin1String("has not been read")),
                 qPrintable(unread.result.text()));
        QVERIFY(h.asker->requests().isEmpty());
        QCOMPARE(h.repo.read(QStringLiteral("src/a.cpp")), original);
    }

    void writesOutsideAreRefused_data()
    {
        QTest::addColumn<QString>("path");
        QTest::newRow("dot dot") << "../outside.txt";
        QTest::newRow("absolute") << "@outside/abs.txt";
        QTest::newRow("symlink") << "link/x.txt";
        QTest::newRow(".git") << ".git/hooks/pre-commit";
    }

    void writesOutsideAreRefused()
    {
        QFETCH(QString, path);
        Harness h(PermissionMode::Bypass);
        QTemporaryDir outside;
        const QString outsideRoot = QFileInfo(outside.path()).canonicalFilePath();
        QVERIFY(QFile::link(outsideRoot, h.repo.path(QStringLiteral("link"))));
        path.replace(QLatin1String("@outside"), outsideRoot);
        const Outcome outcome = h.call(QStringLiteral("Write"),
                                       {{"file_path", path}, {"content", "x"}});
        QVERIFY(outcome.result.isError);
        QVERIFY(outcome.decision.startsWith(QLatin1String("deny: ")));
        QVERIFY(h.asker->requests().isEmpty());
        QVERIFY(QDir(outsideRoot).isEmpty());
        QVERIFY(!QFile::exists(h.repo.path(QStringLiteral(".git/hooks/pre-commit"))));
    }

    void readsOutsideAskForThatCall()
    {
        Harness h;
        QTemporaryDir outside;
        const QString outsideRoot = QFileInfo(outside.path()).canonicalFilePath();
        const QString notes = outsideRoot + QStringLiteral("/notes.txt");
        QFile file(notes);
        QVERIFY(file.open(QIODevice::WriteOnly) && file.write("remember\n") == 9);
        file.close();

        h.asker->script(FakeAsker::answer(PermissionAnswer::Choice::AllowOnce));
        const Outcome once = h.call(QStringLiteral("Read"), {{"file_path", notes}});
        QVERIFY2(!once.result.isError, qPrintable(once.result.text()));
        QVERIFY(once.result.text().contains(QLatin1String("remember")));
        QCOMPARE(h.asker->requests().size(), 1);
        const PermissionRequest request = h.asker->requests().first();
        QVERIFY2(request.reason.contains(QLatin1String("outside the repository")),
                 qPrintable(request.reason));
        QCOMPARE(request.suggestedRules.first().toString(),
                 QStringLiteral("Read(%1/**)").arg(outsideRoot));
        // The grant was for that call only.
        QVERIFY(!h.repo.workspace()->resolve(notes, PathAccess::Read).ok());

        h.asker->script(FakeAsker::answer(PermissionAnswer::Choice::Deny));
        const Outcome denied = h.call(QStringLiteral("Read"), {{"file_path", notes}});
        QVERIFY(denied.result.isError);
        QVERIFY(!denied.result.text().contains(QLatin1String("remember")));
        QCOMPARE(h.asker->requests().size(), 2);

        h.asker->script(FakeAsker::answer(PermissionAnswer::Choice::AllowSession));
        QVERIFY(!h.call(QStringLiteral("Grep"), {{"pattern", "remember"}, {"path", outsideRoot}})
                     .result.isError);
        QCOMPARE(h.asker->requests().size(), 3);
        const Outcome later = h.call(QStringLiteral("Read"), {{"file_path", notes}});
        QVERIFY(!later.result.isError);
        QCOMPARE(h.asker->requests().size(), 3);
    }

    // BashOutput and KillShell reach only this session's own background commands: no question,
    // in plan mode too.
    void backgroundToolsAreNotAsked()
    {
        QTemporaryDir staging;
        Harness h;
        h.reviewWritesWithBackground(staging.path());
        const auto stopAll = qScopeGuard([&h] { h.shells->stopAll(); });
        for (const PermissionMode mode : {PermissionMode::Default, PermissionMode::Plan}) {
            h.policy->setMode(mode);
            const Outcome read = h.call(QStringLiteral("BashOutput"), {{"bash_id", "bash_1"}});
            QVERIFY2(read.result.text().startsWith(QLatin1String("No background command")),
                     qPrintable(read.result.text()));
            const Outcome kill = h.call(QStringLiteral("KillShell"), {{"shell_id", "bash_1"}});
            QVERIFY2(kill.result.text().startsWith(QLatin1String("No background command")),
                     qPrintable(kill.result.text()));
        }
        QCOMPARE(h.asker->requests().size(), 0);
    }

    // Where shell writes are reviewed (on an overlay, once the command ends), a background
    // command cannot be: it is asked for even when a rule allows it, told that it writes
    // directly, offered no rule, and runs without the overlay once approved.
    void backgroundCommandIsAskedAndRunsWithoutOverlay()
    {
        if (const QString why = ShellOverlay::unsupportedReason(); !why.isEmpty())
            QSKIP(qPrintable(why));
        QTemporaryDir staging;
        Harness h;
        h.reviewWritesWithBackground(staging.path());
        const auto stopAll = qScopeGuard([&h] { h.shells->stopAll(); });
        h.policy->addRule(
            PermissionRule::parse(QLatin1String("Bash(touch:*)"), PermissionBehavior::Allow).value());
        const QJsonObject command{{"command", "touch served.txt && sleep 300"},
                                  {"run_in_background", true}};
        h.asker->script(FakeAsker::answer(PermissionAnswer::Choice::Deny));
        const Outcome denied = h.call(QStringLiteral("Bash"), command);
        QVERIFY(denied.result.isError);
        QCOMPARE(h.asker->requests().size(), 1);
        const PermissionRequest request = h.asker->requests().first();
        QVERIFY2(request.reason.contains(QLatin1String("runs in the background"))
                     && request.reason.contains(QLatin1String("writes to the repository directly")),
                 qPrintable(request.reason));
        QVERIFY(request.suggestedRules.isEmpty());
        QCOMPARE(h.shells->shells().size(), 0);

        const Outcome approved = h.call(QStringLiteral("Bash"), command);
        QVERIFY2(!approved.result.isError, qPrintable(approved.result.text()));
        QVERIFY2(approved.result.text().startsWith(QLatin1String("Started in the background")),
                 qPrintable(approved.result.text()));
        QCOMPARE(h.asker->requests().size(), 2); // asked again: no rule runs it unasked
        // Written to the repository itself, not to a scratch layer.
        QTRY_VERIFY(QFile::exists(h.repo.path(QStringLiteral("served.txt"))));
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_PermissionMiddleware)

} // namespace tst_permissionmiddleware

#include "tst_permissionmiddleware.moc"
