// Issue #31: an MCP tool's annotations are the server's untrusted hints. A tool that says
// `readOnlyHint: true` (here a `delete_everything`) goes through the permission layer as every
// tool with side effects: it asks in default and acceptEdits mode unless a user's rule allows it,
// plan mode refuses it (a rule does not change that, as for Edit), bypass runs it as it runs
// every tool, and a headless run without a rule denies it.
#include "../tools/toolstest.h"

#include <coding/codingagent.h>
#include <loop/toolexecution.h>
#include <loop/toolslot.h>
#include <mcp/mcpclient.h>
#include <mcp/mcptool.h>
#include <permissions/permissionmiddleware.h>
#include <testmain.h>

#include <QMutex>
#include <QTest>

using namespace AgentCore;

namespace tst_mcptoolpermissions {

namespace {

// Allows once whatever it is asked, and counts the questions.
class CountingAsker final : public PermissionAsker
{
public:
    std::optional<PermissionAnswer> ask(const PermissionRequest &request,
                                        const AbortToken &) override
    {
        QMutexLocker locker(&m_mutex);
        m_reasons.append(request.reason);
        PermissionAnswer answer;
        answer.choice = PermissionAnswer::Choice::AllowOnce;
        return answer;
    }
    QStringList reasons() const
    {
        QMutexLocker locker(&m_mutex);
        return m_reasons;
    }

private:
    mutable QMutex m_mutex;
    QStringList m_reasons;
};

// A tool of a server that calls it read-only; the server is never started (the middleware's
// next step stands in for the call).
std::shared_ptr<McpTool> readOnlyByItsWord()
{
    McpServerConfig config;
    config.name = QStringLiteral("fake");
    config.type = QStringLiteral("stdio");
    config.command = QStringLiteral("false");
    McpToolInfo info;
    info.name = QStringLiteral("delete_everything");
    info.description = QStringLiteral("Deletes everything.");
    info.inputSchema = {{"type", "object"}};
    info.readOnlyHint = true;
    return std::make_shared<McpTool>(std::make_shared<McpClient>(config, McpClientOptions()),
                                     config.name,
                                     info);
}

} // namespace

class tst_McpToolPermissions : public QObject
{
    Q_OBJECT

private slots:
    void readOnlyHintSkipsNoQuestion_data()
    {
        QTest::addColumn<PermissionMode>("mode");
        QTest::addColumn<bool>("rule");       // the user allowed mcp__fake__delete_everything
        QTest::addColumn<bool>("withAsker");  // false: a headless run, nobody to ask
        QTest::addColumn<QString>("outcome"); // "asks", "allowed" or "denied"
        QTest::newRow("default") << PermissionMode::Default << false << true << "asks";
        QTest::newRow("default, a rule") << PermissionMode::Default << true << true << "allowed";
        QTest::newRow("default, headless") << PermissionMode::Default << false << false << "denied";
        QTest::newRow("default, headless, a rule")
            << PermissionMode::Default << true << false << "allowed";
        QTest::newRow("acceptEdits") << PermissionMode::AcceptEdits << false << true << "asks";
        QTest::newRow("acceptEdits, a rule")
            << PermissionMode::AcceptEdits << true << true << "allowed";
        QTest::newRow("plan") << PermissionMode::Plan << false << true << "denied";
        QTest::newRow("plan, a rule") << PermissionMode::Plan << true << true << "denied";
        QTest::newRow("bypass") << PermissionMode::Bypass << false << true << "allowed";
        QTest::newRow("bypass, headless") << PermissionMode::Bypass << false << false << "allowed";
    }

    void readOnlyHintSkipsNoQuestion()
    {
        QFETCH(PermissionMode, mode);
        QFETCH(bool, rule);
        QFETCH(bool, withAsker);
        QFETCH(QString, outcome);
        ToolsTest::Repo repo;
        QVERIFY(repo.isValid());
        const std::shared_ptr<McpTool> tool = readOnlyByItsWord();
        QVERIFY(tool->info().readOnlyHint);
        QVERIFY(tool->hasSideEffects());
        QCOMPARE(tool->executionMode(), ExecutionMode::Sequential);

        PermissionGate gate;
        gate.policy = std::make_shared<PermissionPolicy>(repo.root(), mode);
        auto asker = std::make_shared<CountingAsker>();
        if (withAsker)
            gate.asker = asker;
        gate.workspace = repo.workspace();
        if (rule) {
            PermissionRule allow = PermissionRule::parse(QStringLiteral(
                                                             "mcp__fake__delete_everything"),
                                                         PermissionBehavior::Allow)
                                       .value();
            allow.source = QStringLiteral("session");
            gate.policy->addRule(allow);
        }
        const ToolMiddleware middleware = makePermissionMiddleware(gate);

        ToolCallContext context;
        context.toolCallId = QStringLiteral("call_1");
        context.toolName = tool->definition().name;
        context.tool = tool.get();
        bool ran = false;
        const ToolResult result = middleware(context, [&ran](ToolCallContext &) {
            ran = true;
            return ToolResult::makeText(QStringLiteral("deleted everything"));
        });

        if (outcome == QLatin1String("asks")) {
            QCOMPARE(asker->reasons().size(), 1);
            QVERIFY(ran); // allowed once by the person
            QVERIFY2(!context.permissionDecision.contains(QLatin1String("reads are allowed")),
                     qPrintable(context.permissionDecision));
        } else if (outcome == QLatin1String("allowed")) {
            QVERIFY(asker->reasons().isEmpty());
            QVERIFY2(ran && !result.isError, qPrintable(result.text()));
            QVERIFY2(context.permissionDecision.startsWith(
                         rule ? QLatin1String("allow: allowed by mcp__fake__delete_everything")
                              : QLatin1String("allow: bypass mode")),
                     qPrintable(context.permissionDecision));
        } else {
            QVERIFY(asker->reasons().isEmpty());
            QVERIFY(!ran);
            QVERIFY(result.isError);
            QVERIFY2(context.permissionDecision.startsWith(QLatin1String("deny: ")),
                     qPrintable(context.permissionDecision));
            if (mode == PermissionMode::Plan)
                QVERIFY2(result.text().contains(QLatin1String("Plan mode")),
                         qPrintable(result.text()));
        }
    }

    // Plan mode does not even offer it to the model, as it does not offer Edit and Write: the
    // coding agent's own plan-mode context, with the tool published as a server's are.
    void planModeDoesNotOfferIt()
    {
        ToolsTest::Repo repo;
        QVERIFY(repo.isValid());
        auto slot = std::make_shared<ToolSlot>();
        slot->setTools({readOnlyByItsWord()});
        CodingAgentOptions options;
        options.repositoryRoot = repo.root();
        options.systemPrompt = QStringLiteral("You are AgentDesk.");
        options.tools.live = slot;
        CodingAgent coding = CodingAgent::assemble(options);
        coding.policy->setMode(PermissionMode::Plan);
        Context context;
        for (const AgentToolPtr &tool : coding.config.loop.currentTools())
            context.tools.append(tool->definition());
        const auto names = [](const Context &context) {
            QStringList names;
            for (const ToolDefinition &tool : context.tools)
                names.append(tool.name);
            return names;
        };
        QVERIFY(names(context).contains(QStringLiteral("mcp__fake__delete_everything")));
        const Context planned = coding.config.loop.prepareContext(context);
        QVERIFY2(!names(planned).contains(QStringLiteral("mcp__fake__delete_everything")),
                 qPrintable(names(planned).join(QStringLiteral(", "))));
        QVERIFY(names(planned).contains(QStringLiteral("Read")));
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_McpToolPermissions)

} // namespace tst_mcptoolpermissions

#include "tst_mcptoolpermissions.moc"
