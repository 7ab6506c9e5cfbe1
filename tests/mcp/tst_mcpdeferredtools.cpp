// Lean tool lists (issue #39): five real MCP servers (server-everything and server-filesystem
// twice each, fakeserver.py) give a coding agent some sixty tools; its requests carry the
// built-in tools whole and the servers' ones by name in ToolSearch's listing, until the model
// loads them, after which they are appended and what came before stays the same. A hostile
// server's catalogue (10,000 tools, huge descriptions) gets a capped listing.

#include <coding/codingagent.h>
#include <coding/tooldeferral.h>
#include <coding/toolsearchtool.h>
#include <loop/agent.h>
#include <loop/toolslot.h>
#include <mcp/mcpclient.h>
#include <mcp/mcphost.h>
#include <scriptedmodel.h>
#include <testmain.h>

#include <QFileInfo>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

#include <testpaths.h>

using namespace AgentCore;
using namespace TestSupport;

namespace tst_mcpdeferredtools {

namespace {

QString deferredPackage(const QString &name)
{
    return TestSupport::mcpServersDir() + QStringLiteral("/node_modules/@modelcontextprotocol/")
           + name + QStringLiteral("/dist/index.js");
}

McpServerConfig deferredServer(const QString &name, const QString &command, const QStringList &args)
{
    McpServerConfig config;
    config.name = name;
    config.type = QStringLiteral("stdio");
    config.command = command;
    config.args = args;
    return config;
}

McpClientOptions deferredClientOptions(
    const QProcessEnvironment &environment = QProcessEnvironment::systemEnvironment())
{
    McpClientOptions options;
    options.environment = environment;
    options.initializeTimeoutMs = 60'000;
    return options;
}

QStringList definitionNames(const QList<ToolDefinition> &tools)
{
    QStringList names;
    for (const ToolDefinition &tool : tools)
        names.append(tool.name);
    return names;
}

qsizetype definitionsBytes(const QList<ToolDefinition> &tools)
{
    qsizetype bytes = 0;
    for (const ToolDefinition &tool : tools)
        bytes += ToolDeferral::definitionBytes(tool);
    return bytes;
}

// What a request of \a context carries, as JSON bytes: prompt, tools, messages.
qsizetype requestBytes(const Context &context)
{
    qsizetype bytes = context.systemPrompt.toUtf8().size() + definitionsBytes(context.tools);
    for (const Message &message : context.messages)
        bytes += message.text().toUtf8().size();
    return bytes;
}

ToolDefinition definitionNamed(const QList<ToolDefinition> &tools, const QString &name)
{
    for (const ToolDefinition &tool : tools) {
        if (tool.name == name)
            return tool;
    }
    return {};
}

CodingAgentOptions deferredAgentOptions(const QString &root, std::shared_ptr<ToolSlot> slot)
{
    CodingAgentOptions options;
    options.repositoryRoot = root;
    options.systemPrompt = QStringLiteral("You are AgentDesk.");
    options.tools.live = std::move(slot);
    options.sandbox.mode = SandboxMode::Off;
    options.permissions.mode = PermissionMode::Bypass;
    options.hooks.enabled = false;
    return options;
}

} // namespace

class tst_McpDeferredTools : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo::exists(deferredPackage("server-everything")),
                 "run tests/mcp/install-servers.sh (the mcp_install_servers fixture) first");
    }

    void sixtyToolsGoByNameUntilLoaded()
    {
        QTemporaryDir folder;
        McpHost host;
        const QString fake = TestSupport::sourcePath(QStringLiteral("tests/mcp/fakeserver.py"));
        for (const McpServerConfig &config :
             {deferredServer("everything", "node", {deferredPackage("server-everything"), "stdio"}),
              deferredServer("everything2", "node", {deferredPackage("server-everything"), "stdio"}),
              deferredServer("fs", "node", {deferredPackage("server-filesystem"), folder.path()}),
              deferredServer("fs2", "node", {deferredPackage("server-filesystem"), folder.path()}),
              deferredServer("fake", "python3", {fake})})
            host.addServer(config, deferredClientOptions());
        host.startAll();
        host.waitUntilSettled(60'000);
        auto slot = std::make_shared<ToolSlot>();
        host.publishTools(slot, {});
        const qsizetype mcpTools = slot->tools().size();
        QVERIFY2(mcpTools >= 55, qPrintable(QString::number(mcpTools)));

        QTemporaryDir repository;
        CodingAgent coding = CodingAgent::assemble(deferredAgentOptions(repository.path(), slot));
        auto model = std::make_shared<ScriptedModel>(
            QList{ModelStep::toolCall("c1",
                                      "ToolSearch",
                                      {{"query", "select:mcp__everything__echo"}}),
                  // Not loaded: refused, and loaded for the next request.
                  ModelStep::toolCall("c2", "mcp__everything2__get-sum", {{"a", 1}, {"b", 2}}),
                  ModelStep::toolCall("c3", "mcp__everything__echo", {{"message", "deferred"}}),
                  ModelStep::text("done")});
        coding.config.loop.model = model;
        Agent agent(coding.config);
        agent.prompt("Echo something.");
        QVERIFY(agent.waitForIdle(60'000));
        const QList<Context> contexts = model->contexts();
        QCOMPARE(contexts.size(), 4);

        // The first request: the built-in tools and ToolSearch, whose listing names every
        // server's tools; less than half of what every schema would be.
        const QList<ToolDefinition> first = contexts.at(0).tools;
        const QStringList names = definitionNames(first);
        QVERIFY2(names.filter("mcp__").isEmpty(), qPrintable(names.join(", ")));
        QCOMPARE(names.last(), ToolSearchTool::toolName());
        QVERIFY(names.contains("Read") && names.contains("Task"));
        QVERIFY(!names.contains("BashOutput"));
        const QString listing = first.last().description;
        QVERIFY(listing.contains("mcp__everything__echo: "));
        QVERIFY(listing.contains("mcp__fake__delete_everything"));
        QList<ToolDefinition> all = first.mid(0, first.size() - 1);
        for (const AgentToolPtr &tool : slot->tools())
            all.append(tool->definition());
        Context whole = contexts.at(0);
        whole.tools = all;
        const qsizetype lean = requestBytes(contexts.at(0));
        const qsizetype everything = requestBytes(whole);
        qInfo("%lld MCP tools: the first request %lld bytes, with every schema %lld (listing %lld)",
              qint64(mcpTools),
              qint64(lean),
              qint64(everything),
              qint64(ToolDeferral::definitionBytes(first.last())));
        QVERIFY2(lean * 2 < everything,
                 qPrintable(QStringLiteral("%1 %2").arg(lean).arg(everything)));

        // ToolSearch loaded echo: the next request carries its schema after what was there.
        QCOMPARE(contexts.at(0).messages.size(), 1);
        QCOMPARE(contexts.at(1).tools.mid(0, first.size()), first);
        QCOMPARE(contexts.at(1).tools.size(), first.size() + 1);
        const ToolDefinition echo = contexts.at(1).tools.last();
        QCOMPARE(echo.name, "mcp__everything__echo");
        QVERIFY(echo.parameters.value("properties").toObject().contains("message"));
        QCOMPARE(QJsonDocument(echo.parameters).toJson(),
                 QJsonDocument(definitionNamed(all, echo.name).parameters).toJson());

        // The call to a tool not loaded did not run; it is loaded for the next request.
        const Message refused = contexts.at(2).messages.last();
        QCOMPARE(refused.role, Message::Role::ToolResult);
        QVERIFY(refused.isError);
        QVERIFY2(refused.text().contains("not run") && refused.text().contains("loaded now"),
                 qPrintable(refused.text()));
        QCOMPARE(contexts.at(2).tools.mid(0, first.size() + 1), contexts.at(1).tools);
        QCOMPARE(contexts.at(2).tools.last().name, "mcp__everything2__get-sum");

        // The loaded tool runs.
        const Message echoed = contexts.at(3).messages.last();
        QVERIFY2(!echoed.isError, qPrintable(echoed.text()));
        QVERIFY(echoed.text().contains("deferred"));
        QCOMPARE(contexts.at(3).tools, contexts.at(2).tools);
        QCOMPARE(coding.deferral->loaded(),
                 (QStringList{"mcp__everything__echo", "mcp__everything2__get-sum"}));

        // What the context view shows: every tool, deferred or not, loaded or not, its bytes.
        const QList<ToolOfferEntry> entries = coding.deferral->entries();
        qsizetype deferred = 0;
        for (const ToolOfferEntry &entry : entries) {
            QVERIFY(entry.bytes > 0);
            deferred += entry.deferred ? 1 : 0;
            if (entry.name == "mcp__everything__echo")
                QVERIFY(entry.deferred && entry.loaded && !entry.summary.isEmpty());
            if (entry.name == "Read")
                QVERIFY(!entry.deferred);
        }
        QCOMPARE(deferred, mcpTools + 2); // the servers' and BashOutput, KillShell
        QMap<QString, qsizetype> perServer;
        for (const ToolOfferEntry &entry : entries)
            perServer[entry.name.section("__", 1, 1)] += entry.bytes;
        for (auto it = perServer.cbegin(); it != perServer.cend(); ++it)
            qInfo("%s: %lld bytes of definitions",
                  qPrintable(it.key().isEmpty() ? "built-in" : it.key()),
                  qint64(it.value()));

        // A new agent of the same session (a resume) offers what was loaded as it was.
        CodingAgent resumed = CodingAgent::assemble(deferredAgentOptions(repository.path(), slot));
        resumed.deferral->restore(coding.deferral->loaded());
        QList<ToolDefinition> offered;
        for (const AgentToolPtr &tool : resumed.deferral->offer(resumed.config.tools))
            offered.append(tool->definition());
        QCOMPARE(offered, contexts.at(3).tools);
    }

    void hostileCatalogueGetsACappedListing()
    {
        // 10,000 tools (in one message under the client's 8 MiB cap), and 50 tools of
        // 20,000-character descriptions.
        McpHost host;
        const QString fake = TestSupport::sourcePath(QStringLiteral("tests/mcp/fakeserver.py"));
        QProcessEnvironment many = QProcessEnvironment::systemEnvironment();
        many.insert("FAKE_MCP_TOOLS", "10000");
        many.insert("FAKE_MCP_DESCRIPTION_CHARS", "600");
        host.addServer(deferredServer("hostile", "python3", {fake, "many"}),
                       deferredClientOptions(many));
        QProcessEnvironment huge = QProcessEnvironment::systemEnvironment();
        huge.insert("FAKE_MCP_TOOLS", "50");
        huge.insert("FAKE_MCP_DESCRIPTION_CHARS", "20000");
        host.addServer(deferredServer("huge", "python3", {fake, "many"}),
                       deferredClientOptions(huge));
        host.startAll();
        host.waitUntilSettled(60'000);
        auto slot = std::make_shared<ToolSlot>();
        host.publishTools(slot, {});
        const qsizetype count = slot->tools().size();
        // The client keeps McpClient::maxTools of each server.
        QVERIFY2(count >= 1000, qPrintable(QString::number(count)));

        QTemporaryDir repository;
        CodingAgent coding = CodingAgent::assemble(deferredAgentOptions(repository.path(), slot));
        const QList<AgentToolPtr> offer = coding.deferral->offer(coding.config.tools);
        const ToolDefinition search = offer.last()->definition();
        QCOMPARE(search.name, ToolSearchTool::toolName());
        // The listing stops at its cap and says how many it left out; each line is short.
        const qsizetype bytes = search.description.toUtf8().size();
        QVERIFY2(bytes <= ToolDeferral::maxListingBytes + 1024, qPrintable(QString::number(bytes)));
        QVERIFY(search.description.contains("more, not listed: find them by keyword"));
        for (const QString &line : search.description.split('\n')) {
            if (line.startsWith("mcp__"))
                QVERIFY2(line.size() < 64 + 2 + ToolDeferral::maxSummaryChars, qPrintable(line));
        }
        qsizetype requestBytesTotal = 0;
        for (const AgentToolPtr &tool : offer)
            requestBytesTotal += ToolDeferral::definitionBytes(tool->definition());
        qInfo("%lld hostile tools: the request's tools %lld bytes",
              qint64(count),
              qint64(requestBytesTotal));
        QVERIFY(requestBytesTotal < 64 * 1024);

        // A tool past the listing is found by keyword and loaded.
        const QString last = QStringLiteral("mcp__hostile__tool_00999");
        QVERIFY(!search.description.contains(last));
        ToolCallContext call;
        call.arguments = {{"query", "+hostile__tool_00999"}};
        const ToolResult found = offer.last()->execute(call);
        QVERIFY2(!found.isError, qPrintable(found.text()));
        QCOMPARE(coding.deferral->loaded(), QStringList{last});
        QCOMPARE(coding.deferral->offer(coding.config.tools).last()->definition().name, last);
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_McpDeferredTools)

} // namespace tst_mcpdeferredtools

#include "tst_mcpdeferredtools.moc"
