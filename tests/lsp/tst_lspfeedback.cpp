// Language servers through a whole CodingAgent loop (scripted model, real files, the real
// pylsp and clangd): an Edit that introduces an error gets it back in the same tool result,
// the Diagnostics tool lists a file's problems, and without a server nothing waits.
#include "../tools/toolstest.h"

#include <coding/codingagent.h>
#include <coding/diagnosticstool.h>
#include <coding/tooldeferral.h>
#include <loop/agentloop.h>
#include <permissions/permissionasker.h>
#include <testmain.h>

#include <scriptedmodel.h>

#include <QElapsedTimer>
#include <QTest>

using namespace AgentCore;
using namespace TestSupport;
using namespace Qt::StringLiterals;

namespace tst_lspfeedback {

namespace {

// Allows every call, as a reviewer who waits for the language server's check of an Edit's
// proposal first; keeps what the check said. With \a userText, allows the user's own version.
class CheckingReviewer final : public PermissionAsker
{
public:
    explicit CheckingReviewer(std::optional<QString> userText = std::nullopt)
        : m_userText(std::move(userText))
    {}

    std::optional<PermissionAnswer> ask(const PermissionRequest &request,
                                        const AbortToken &) override
    {
        PermissionAnswer answer;
        answer.choice = PermissionAnswer::Choice::AllowOnce;
        if (request.filePath.isEmpty())
            return answer;
        QFuture<ProposalCheck> check = request.proposalCheck;
        if (check.isValid()) {
            check.waitForFinished();
            checks.append(check.result());
        }
        answer.userText = m_userText;
        return answer;
    }

    QList<ProposalCheck> checks;

private:
    std::optional<QString> m_userText;
};

CodingAgent assembleFor(const ToolsTest::Repo &repo,
                        bool languageServers = true,
                        std::shared_ptr<PermissionAsker> reviewer = {})
{
    CodingAgentOptions options;
    options.permissions.mode = reviewer ? PermissionMode::Default : PermissionMode::AcceptEdits;
    options.permissions.asker = std::move(reviewer);
    options.repositoryRoot = repo.root();
    options.systemPrompt = u"You are AgentDesk."_s;
    options.languageServers.enabled = languageServers;
    // A cold server on a loaded 2-core machine: the test is about what comes back, not when.
    options.languageServers.editWaitMs = 60'000;
    return CodingAgent::assemble(options);
}

QList<Message> run(const CodingAgent &coding, const QList<ModelStep> &steps)
{
    AgentLoopConfig config = coding.config.loop;
    config.model = std::make_shared<ScriptedModel>(steps + QList{ModelStep::text(u"Done."_s)});
    AgentContext context;
    context.systemPrompt = coding.config.systemPrompt;
    context.tools = coding.config.tools;
    return agentLoop({Message::makeUser(u"Go."_s)}, context, config, AbortToken(), {});
}

const Message *resultOf(const QList<Message> &messages, const QString &id)
{
    for (const Message &message : messages) {
        if (message.isToolResult() && message.toolCallId == id)
            return &message;
    }
    return nullptr;
}

QString resultText(const QList<Message> &messages, const QString &id)
{
    const Message *result = resultOf(messages, id);
    return result ? result->text() : QString();
}

ModelStep edit(const QString &id, const QString &path, const QString &from, const QString &to)
{
    return ModelStep::toolCall(id,
                               u"Edit"_s,
                               {{u"file_path"_s, path},
                                {u"old_string"_s, from},
                                {u"new_string"_s, to}});
}

bool hasTool(const CodingAgent &coding, const QString &name)
{
    for (const AgentToolPtr &tool : coding.config.tools) {
        if (tool->definition().name == name)
            return true;
    }
    return false;
}

} // namespace

class tst_LspFeedback : public QObject
{
    Q_OBJECT

private slots:
    void anEditThatBreaksPythonGetsTheErrorInItsResult()
    {
        ToolsTest::Repo repo;
        QVERIFY(repo.isValid());
        QVERIFY(repo.write(u"tool.py"_s, "import os\n\n\ndef twice(x):\n    return 2 * x\n"));
        const CodingAgent coding = assembleFor(repo);
        QVERIFY2(coding.languageServers, "pylsp is not installed (scripts/lib/*-packages.txt)");
        QVERIFY(hasTool(coding, DiagnosticsTool::toolName()));
        // Ours, small: never deferred behind ToolSearch however many MCP tools there are.
        QVERIFY(ToolDeferral::isCore(DiagnosticsTool::toolName()));
        const QString path = repo.path(u"tool.py"_s);
        const QList<Message> messages
            = run(coding,
                  {ModelStep::toolCall(u"r1"_s, u"Read"_s, {{u"file_path"_s, path}}),
                   edit(u"e1"_s, path, u"return 2 * x"_s, u"return 2 * y"_s),
                   ModelStep::toolCall(u"d1"_s, u"Diagnostics"_s, {{u"file_path"_s, path}}),
                   ModelStep::toolCall(u"d2"_s, u"Diagnostics"_s, {})});
        const QString edited = resultText(messages, u"e1"_s);
        QVERIFY2(edited.startsWith(u"Edited tool.py"_s), qPrintable(edited));
        QVERIFY2(edited.contains(u"pylsp reports"_s), qPrintable(edited));
        QVERIFY2(edited.contains(u"\n5:"_s) && edited.contains(u"error: undefined name 'y'"_s),
                 qPrintable(edited));
        // The card shows the diff: its details show what the model was told.
        const QString shown
            = resultOf(messages, u"e1"_s)->details.other.value(u"diagnostics"_s).toString();
        QVERIFY2(shown.contains(u"undefined name 'y'"_s) && edited.endsWith(shown),
                 qPrintable(shown));
        // The unused import was there before the edit: not the edit's.
        QVERIFY2(!edited.contains(u"'os' imported but unused"_s), qPrintable(edited));

        const QString asked = resultText(messages, u"d1"_s);
        QVERIFY2(asked.contains(u"pylsp:"_s) && asked.contains(u"undefined name 'y'"_s)
                     && asked.contains(u"'os' imported but unused"_s),
                 qPrintable(asked));
        // Errors first.
        QVERIFY2(asked.indexOf(u"undefined name"_s) < asked.indexOf(u"imported but unused"_s),
                 qPrintable(asked));
        const QString every = resultText(messages, u"d2"_s);
        QVERIFY2(every.contains(u"tool.py (pylsp):"_s) && every.contains(u"undefined name 'y'"_s),
                 qPrintable(every));
    }

    // The review's check: the reviewer has the problem the proposal would introduce (not the
    // one the file had) before answering, and the model the same answer after the change.
    void aReviewedEditIsCheckedWhileItIsReviewed()
    {
        ToolsTest::Repo repo;
        QVERIFY(repo.isValid());
        QVERIFY(repo.write(u"tool.py"_s, "import os\n\n\ndef twice(x):\n    return 2 * x\n"));
        const auto reviewer = std::make_shared<CheckingReviewer>();
        const CodingAgent coding = assembleFor(repo, true, reviewer);
        QVERIFY2(coding.languageServers, "pylsp is not installed (scripts/lib/*-packages.txt)");
        const QString path = repo.path(u"tool.py"_s);
        const QList<Message> messages
            = run(coding,
                  {ModelStep::toolCall(u"r1"_s, u"Read"_s, {{u"file_path"_s, path}}),
                   edit(u"e1"_s, path, u"return 2 * x"_s, u"return 2 * y"_s)});
        QCOMPARE(reviewer->checks.size(), 1);
        const ProposalCheck check = reviewer->checks.first();
        QCOMPARE(check.checker, u"pylsp"_s);
        QVERIFY2(check.error.isEmpty(), qPrintable(check.error));
        QCOMPARE(check.introduced.size(), 1);
        QCOMPARE(check.introduced.first().line, 5);
        QVERIFY(check.introduced.first().isError);
        QVERIFY2(check.introduced.first().message.contains(u"undefined name 'y'"_s),
                 qPrintable(check.introduced.first().message));
        const QString edited = resultText(messages, u"e1"_s);
        QVERIFY2(edited.contains(u"pylsp reports 1 new problem"_s)
                     && edited.contains(u"undefined name 'y'"_s)
                     && !edited.contains(u"imported but unused"_s),
                 qPrintable(edited));
    }

    // The user's own version is what is written: the server checks that, not the proposal.
    void theUsersOwnVersionIsCheckedAsWritten()
    {
        ToolsTest::Repo repo;
        QVERIFY(repo.isValid());
        QVERIFY(repo.write(u"tool.py"_s, "def twice(x):\n    return 2 * x\n"));
        const auto reviewer = std::make_shared<CheckingReviewer>(
            u"def twice(x):\n    return x + x\n"_s);
        const CodingAgent coding = assembleFor(repo, true, reviewer);
        QVERIFY(coding.languageServers);
        const QString path = repo.path(u"tool.py"_s);
        const QList<Message> messages
            = run(coding,
                  {ModelStep::toolCall(u"r1"_s, u"Read"_s, {{u"file_path"_s, path}}),
                   edit(u"e1"_s, path, u"return 2 * x"_s, u"return 2 * y"_s)});
        QCOMPARE(reviewer->checks.size(), 1);
        QCOMPARE(reviewer->checks.first().introduced.size(), 1); // the proposal's
        const QString edited = resultText(messages, u"e1"_s);
        QVERIFY2(!edited.contains(u"pylsp"_s), qPrintable(edited)); // the version written
        QCOMPARE(QString::fromUtf8(repo.read(u"tool.py"_s)), u"def twice(x):\n    return x + x\n"_s);
    }

    // Go to definition and find references, as the model asks: a symbol as written on a line.
    void definitionAndReferencesFindAPythonFunction()
    {
        ToolsTest::Repo repo;
        QVERIFY(repo.isValid());
        QVERIFY(repo.write(u"tool.py"_s, "def twice(x):\n    return 2 * x\n"));
        QVERIFY(repo.write(u"use.py"_s, "from tool import twice\n\nprint(twice(2))\n"));
        const CodingAgent coding = assembleFor(repo);
        QVERIFY(coding.languageServers);
        QVERIFY(hasTool(coding, u"Definition"_s) && hasTool(coding, u"References"_s));
        const QString use = repo.path(u"use.py"_s);
        const QList<Message> messages = run(coding,
                                            {ModelStep::toolCall(u"d1"_s,
                                                                 u"Definition"_s,
                                                                 {{u"file_path"_s, use},
                                                                  {u"line"_s, 3},
                                                                  {u"symbol"_s, u"twice"_s}}),
                                             ModelStep::toolCall(u"r1"_s,
                                                                 u"References"_s,
                                                                 {{u"file_path"_s, u"tool.py"_s},
                                                                  {u"line"_s, 1},
                                                                  {u"symbol"_s, u"twice"_s}}),
                                             ModelStep::toolCall(u"x1"_s,
                                                                 u"Definition"_s,
                                                                 {{u"file_path"_s, use},
                                                                  {u"line"_s, 3},
                                                                  {u"symbol"_s, u"thrice"_s}}),
                                             ModelStep::toolCall(u"x2"_s,
                                                                 u"References"_s,
                                                                 {{u"file_path"_s, use},
                                                                  {u"line"_s, 9},
                                                                  {u"symbol"_s, u"twice"_s}})});
        const QString defined = resultText(messages, u"d1"_s);
        QVERIFY2(defined.contains(u"pylsp: twice is defined at:"_s)
                     && defined.contains(u"\ntool.py:1:5: def twice(x):"_s),
                 qPrintable(defined));
        const QString used = resultText(messages, u"r1"_s);
        QVERIFY2(used.contains(u"tool.py:1:5: def twice(x):"_s)
                     && used.contains(u"use.py:1:18: from tool import twice"_s)
                     && used.contains(u"use.py:3:7: print(twice(2))"_s),
                 qPrintable(used));
        // A symbol not on the line, a line not in the file: said, with what is there.
        QVERIFY(resultOf(messages, u"x1"_s)->isError);
        QVERIFY2(resultText(messages, u"x1"_s)
                     .contains(
                         u"\"thrice\" is not on line 3 of use.py, which reads: print(twice(2))"_s),
                 qPrintable(resultText(messages, u"x1"_s)));
        QVERIFY(resultOf(messages, u"x2"_s)->isError);
        QVERIFY2(resultText(messages, u"x2"_s).contains(u"line 9 is not one of them"_s),
                 qPrintable(resultText(messages, u"x2"_s)));
    }

    void definitionFindsACppFunction()
    {
        ToolsTest::Repo repo;
        QVERIFY(repo.isValid());
        QVERIFY(repo.write(u"main.cpp"_s,
                           "int twice(int x)\n{\n    return 2 * x;\n}\n\nint main()\n{\n"
                           "    return twice(2);\n}\n"));
        const CodingAgent coding = assembleFor(repo);
        QVERIFY(coding.languageServers);
        const QList<Message> messages = run(coding,
                                            {ModelStep::toolCall(u"d1"_s,
                                                                 u"Definition"_s,
                                                                 {{u"file_path"_s, u"main.cpp"_s},
                                                                  {u"line"_s, 8},
                                                                  {u"symbol"_s, u"twice"_s}})});
        const QString defined = resultText(messages, u"d1"_s);
        QVERIFY2(defined.contains(u"clangd: twice is defined at:\nmain.cpp:1:5: int twice(int x)"_s),
                 qPrintable(defined));
    }

    void anEditThatBreaksCppGetsTheCompilersError()
    {
        ToolsTest::Repo repo;
        QVERIFY(repo.isValid());
        QVERIFY(repo.write(u"main.cpp"_s, "int twice(int x)\n{\n    return 2 * x;\n}\n"));
        const CodingAgent coding = assembleFor(repo);
        QVERIFY2(coding.languageServers, "clangd is not installed (scripts/lib/*-packages.txt)");
        const QString path = repo.path(u"main.cpp"_s);
        const QList<Message> messages = run(
            coding,
            {ModelStep::toolCall(u"r1"_s, u"Read"_s, {{u"file_path"_s, path}}),
             edit(u"e1"_s, path, u"return 2 * x;"_s, u"int y = \"two\";\n    return 2 * x;"_s)});
        const QString edited = resultText(messages, u"e1"_s);
        QVERIFY2(edited.contains(u"clangd reports"_s), qPrintable(edited));
        QVERIFY2(edited.contains(u"3:"_s) && edited.contains(u"error:"_s), qPrintable(edited));
        QVERIFY2(edited.contains(u"cannot initialize"_s, Qt::CaseInsensitive), qPrintable(edited));
    }

    void aReadStartsTheServerOnTheFile()
    {
        ToolsTest::Repo repo;
        QVERIFY(repo.isValid());
        QVERIFY(repo.write(u"tool.py"_s, "import os\n"));
        const CodingAgent coding = assembleFor(repo);
        QVERIFY(coding.languageServers);
        const QString path = repo.path(u"tool.py"_s);
        QVERIFY(coding.languageServers->clients().isEmpty());
        run(coding, {ModelStep::toolCall(u"r1"_s, u"Read"_s, {{u"file_path"_s, path}})});
        // Checked while the model would think: an edit then waits only for its own check.
        const std::shared_ptr<LspClient> client = coding.languageServers->clientFor(path);
        QTRY_VERIFY_WITH_TIMEOUT(client->lastDiagnostics(path).has_value(), 60'000);
        QCOMPARE(client->lastDiagnostics(path)->size(), 1); // 'os' imported but unused
    }

    void aCleanEditSaysNothingMore()
    {
        ToolsTest::Repo repo;
        QVERIFY(repo.isValid());
        QVERIFY(repo.write(u"tool.py"_s, "def twice(x):\n    return 2 * x\n"));
        const CodingAgent coding = assembleFor(repo);
        QVERIFY(coding.languageServers);
        const QString path = repo.path(u"tool.py"_s);
        const QList<Message> messages = run(coding,
                                            {ModelStep::toolCall(u"r1"_s,
                                                                 u"Read"_s,
                                                                 {{u"file_path"_s, path}}),
                                             edit(u"e1"_s, path, u"2 * x"_s, u"x + x"_s)});
        const QString edited = resultText(messages, u"e1"_s);
        QVERIFY2(edited.startsWith(u"Edited tool.py"_s), qPrintable(edited));
        QVERIFY2(!edited.contains(u"pylsp"_s), qPrintable(edited));
    }

    void withoutServersNothingWaitsAndNoToolIsOffered()
    {
        ToolsTest::Repo repo;
        QVERIFY(repo.isValid());
        QVERIFY(repo.write(u"tool.py"_s, "def twice(x):\n    return 2 * x\n"));
        const CodingAgent coding = assembleFor(repo, false);
        QVERIFY(!coding.languageServers);
        QVERIFY(!hasTool(coding, DiagnosticsTool::toolName()));
        const QString path = repo.path(u"tool.py"_s);
        QElapsedTimer timer;
        timer.start();
        const QList<Message> messages = run(coding,
                                            {ModelStep::toolCall(u"r1"_s,
                                                                 u"Read"_s,
                                                                 {{u"file_path"_s, path}}),
                                             edit(u"e1"_s, path, u"2 * x"_s, u"2 * y"_s)});
        QVERIFY(timer.elapsed() < 2000);
        QCOMPARE(resultText(messages, u"e1"_s),
                 u"Edited tool.py: replaced 1 occurrence at line 2.\n1\tdef twice(x):\n"
                 "2\t    return 2 * y\n"_s);
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_LspFeedback)

} // namespace tst_lspfeedback

#include "tst_lspfeedback.moc"
