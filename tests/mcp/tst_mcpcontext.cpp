// MCP resources and prompts, lists that change while an agent runs, and the faults of a server
// written with the official TypeScript SDK: against the reference servers server-everything and
// server-filesystem and against tests/mcp/faultserver.mjs (all installed by
// tests/mcp/install-servers.sh at the versions pinned in servers/package-lock.json). Calls run
// on a thread of their own, as the loop's tools do.

#include <coding/codingagent.h>
#include <loop/agent.h>
#include <loop/toolslot.h>
#include <mcp/mcpclient.h>
#include <mcp/mcphost.h>
#include <mcp/mcpreferences.h>
#include <mcp/mcptool.h>
#include <scriptedmodel.h>
#include <testmain.h>

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <future>
#include <testpaths.h>

using namespace AgentCore;
using namespace TestSupport;

namespace tst_mcpcontext {

namespace {

const QString serversDir = TestSupport::mcpServersDir();

QString package(const QString &name)
{
    return serversDir + QStringLiteral("/node_modules/@modelcontextprotocol/") + name
           + QStringLiteral("/dist/index.js");
}

McpServerConfig server(const QString &name, const QStringList &args)
{
    McpServerConfig config;
    config.name = name;
    config.type = QStringLiteral("stdio");
    config.command = QStringLiteral("node");
    config.args = args;
    return config;
}

McpServerConfig everything()
{
    return server("everything", {package("server-everything"), "stdio"});
}

McpServerConfig fault(const QString &mode = QStringLiteral("faults"))
{
    return server("fault",
                  {TestSupport::sourcePath(QStringLiteral("tests/mcp/faultserver.mjs")),
                   serversDir,
                   mode});
}

McpClientOptions options()
{
    McpClientOptions options;
    options.environment = QProcessEnvironment::systemEnvironment();
    options.initializeTimeoutMs = 60'000; // node's first start on a cold disk
    return options;
}

// Runs \a work on a thread of its own, as the loop runs a tool, and waits for it.
template<typename F>
auto onToolThread(F work)
{
    std::packaged_task<decltype(work())()> task(std::move(work));
    auto future = task.get_future();
    std::unique_ptr<QThread> thread(QThread::create(std::move(task)));
    thread->start();
    while (future.wait_for(std::chrono::milliseconds(0)) != std::future_status::ready)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    thread->wait();
    return future.get();
}

template<typename T>
QStringList namesOf(const QList<T> &items)
{
    QStringList names;
    for (const T &item : items)
        names.append(item.name);
    return names;
}

QStringList toolNames(const QList<AgentToolPtr> &tools)
{
    QStringList names;
    for (const AgentToolPtr &tool : tools)
        names.append(tool->definition().name);
    return names;
}

QStringList toolNames(const Context &context)
{
    QStringList names;
    for (const ToolDefinition &tool : context.tools)
        names.append(tool.name);
    return names;
}

std::shared_ptr<McpClient> started(McpHost &host, const McpServerConfig &config)
{
    auto client = host.addServer(config, options());
    host.startAll();
    host.waitUntilSettled(60'000);
    return client;
}

AgentToolPtr toolNamed(const QList<AgentToolPtr> &tools, const QString &name)
{
    for (const AgentToolPtr &tool : tools) {
        if (tool->definition().name == name)
            return tool;
    }
    return {};
}

// A tool that does nothing, called \a name.
class NamedTool final : public AgentTool
{
public:
    explicit NamedTool(QString name)
        : m_name(std::move(name))
    {}
    ToolDefinition definition() const override
    {
        return {m_name, "Nothing.", QJsonObject{{"type", "object"}}};
    }
    ToolResult execute(const ToolCallContext &) override { return ToolResult::makeText("nothing"); }

private:
    QString m_name;
};

// A tool of the test's own: waits until \a slot offers \a name (a list_changed was handled).
class WaitForTool final : public AgentTool
{
public:
    WaitForTool(std::shared_ptr<ToolSlot> slot, QString name)
        : m_slot(std::move(slot))
        , m_name(std::move(name))
    {}
    ToolDefinition definition() const override
    {
        return {"wait_for_tool", "Waits for a tool.", QJsonObject{{"type", "object"}}};
    }
    ToolResult execute(const ToolCallContext &) override
    {
        QDeadlineTimer deadline(30'000);
        while (!deadline.hasExpired()) {
            if (toolNames(m_slot->tools()).contains(m_name))
                return ToolResult::makeText("there");
            QThread::msleep(10);
        }
        return ToolResult::makeError("never came");
    }

private:
    std::shared_ptr<ToolSlot> m_slot;
    QString m_name;
};

} // namespace

class tst_McpContext : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo::exists(package("server-everything")),
                 "run tests/mcp/install-servers.sh (the mcp_install_servers fixture) first");
        QVERIFY(QFileInfo::exists(package("server-filesystem")));
        QVERIFY(QFileInfo::exists(serversDir + "/node_modules/@modelcontextprotocol/sdk"));
    }

    // --- server-everything: resources and prompts as a real server offers them ---

    void everythingResources()
    {
        McpHost host;
        auto client = started(host, everything());
        QVERIFY2(client->state() == McpClient::State::Ready, qPrintable(client->log()));

        QElapsedTimer timer;
        timer.start();
        const McpListed<McpResourceInfo> listed = onToolThread(
            [&] { return client->listResources(); });
        qInfo("server-everything: resources/list (first, %lld entries) in %lld us",
              qint64(listed.items.size()),
              timer.nsecsElapsed() / 1000);
        QVERIFY2(listed.ok(), qPrintable(listed.error));
        QVERIFY(listed.problems.isEmpty());
        QVERIFY2(namesOf(listed.items).contains("features.md"),
                 qPrintable(namesOf(listed.items).join(", ")));
        QCOMPARE(namesOf(client->resources()), namesOf(listed.items)); // kept
        constexpr int rounds = 20;
        const qint64 perListUs = onToolThread([&] {
            QElapsedTimer each;
            each.start();
            for (int i = 0; i < rounds; ++i)
                client->listResources();
            return each.nsecsElapsed() / 1000 / rounds;
        });
        qInfo("server-everything: resources/list in %lld us each (mean of %d)", perListUs, rounds);

        // A text resource, then a binary one (decoded), then one that does not exist.
        const McpReadResult features = onToolThread(
            [&] { return client->readResource("demo://resource/static/document/features.md"); });
        QVERIFY2(features.ok(), qPrintable(features.error));
        QCOMPARE(features.contents.size(), 1);
        QVERIFY(features.contents.first().isText);
        QVERIFY(features.asText().contains("# Everything Server - Features"));
        const McpReadResult blob = onToolThread(
            [&] { return client->readResource("demo://resource/dynamic/blob/1"); });
        QVERIFY2(blob.ok(), qPrintable(blob.error));
        QVERIFY(!blob.contents.first().isText);
        QVERIFY2(blob.contents.first().blob.startsWith("Resource 1: This is a base64 blob"),
                 blob.contents.first().blob.constData());
        QVERIFY(blob.asText().contains("binary, not passed on to the model"));
        const McpReadResult missing = onToolThread(
            [&] { return client->readResource("demo://resource/static/document/nothing.md"); });
        QVERIFY(!missing.ok());
        QVERIFY2(!missing.error.isEmpty(), "a clear error");

        const McpListed<McpResourceTemplateInfo> templates = onToolThread(
            [&] { return client->listResourceTemplates(); });
        QVERIFY2(templates.ok(), qPrintable(templates.error));
        QStringList uris;
        for (const McpResourceTemplateInfo &info : templates.items)
            uris.append(info.uriTemplate);
        QVERIFY2(uris.contains("demo://resource/dynamic/text/{resourceId}"),
                 qPrintable(uris.join(", ")));
    }

    void everythingPrompts()
    {
        McpHost host;
        auto client = started(host, everything());
        QVERIFY2(client->state() == McpClient::State::Ready, qPrintable(client->log()));
        const McpListed<McpPromptInfo> listed = onToolThread([&] { return client->listPrompts(); });
        QVERIFY2(listed.ok(), qPrintable(listed.error));
        QVERIFY2(namesOf(listed.items).contains("simple-prompt")
                     && namesOf(listed.items).contains("args-prompt"),
                 qPrintable(namesOf(listed.items).join(", ")));
        McpPromptInfo args;
        for (const McpPromptInfo &prompt : listed.items) {
            if (prompt.name == "args-prompt")
                args = prompt;
        }
        QCOMPARE(args.arguments.size(), 2);
        QCOMPARE(args.arguments.at(0).name, "city");
        QVERIFY(args.arguments.at(0).required);
        QVERIFY(!args.arguments.at(1).required);

        // Arguments are checked before a request goes out.
        const McpGetPromptResult withoutCity = onToolThread(
            [&] { return client->getPrompt("args-prompt", {}); });
        QCOMPARE(withoutCity.error, "the prompt \"args-prompt\" needs the argument \"city\"");
        const McpGetPromptResult unknownArgument = onToolThread([&] {
            return client->getPrompt("args-prompt", {{"city", "Oslo"}, {"country", "NO"}});
        });
        QCOMPARE(unknownArgument.error,
                 "the prompt \"args-prompt\" has no argument \"country\" (it takes city, state)");
        const McpGetPromptResult unknownPrompt = onToolThread(
            [&] { return client->getPrompt("no-such-prompt", {}); });
        QCOMPARE(unknownPrompt.error,
                 "the MCP server \"everything\" has no prompt \"no-such-prompt\"");

        QElapsedTimer timer;
        timer.start();
        const McpGetPromptResult weather = onToolThread([&] {
            return client->getPrompt("args-prompt", {{"city", "Oslo"}, {"state", "Oslo"}});
        });
        QVERIFY2(weather.ok(), qPrintable(weather.error));
        QCOMPARE(weather.prompt.messages.size(), 1);
        QCOMPARE(weather.prompt.messages.first().role, "user");
        QCOMPARE(weather.prompt.asText(), "What's weather in Oslo, Oslo?");
        constexpr int rounds = 20;
        const qint64 perGetUs = onToolThread([&] {
            QElapsedTimer each;
            each.start();
            for (int i = 0; i < rounds; ++i)
                client->getPrompt("args-prompt", {{"city", "Oslo"}});
            return each.nsecsElapsed() / 1000 / rounds;
        });
        qInfo("server-everything: prompts/get in %lld us each (mean of %d)", perGetUs, rounds);

        // A prompt whose messages embed a resource.
        const McpGetPromptResult embedded = onToolThread([&] {
            return client->getPrompt("resource-prompt",
                                     {{"resourceType", "Text"}, {"resourceId", "3"}});
        });
        QVERIFY2(embedded.ok(), qPrintable(embedded.error));
        QCOMPARE(embedded.prompt.messages.size(), 2);
        const McpContent resource = embedded.prompt.messages.at(1).content;
        QCOMPARE(resource.type, McpContent::Type::Resource);
        QCOMPARE(resource.uri, "demo://resource/dynamic/text/3");
        QVERIFY2(embedded.prompt.asText().contains("[resource demo://resource/dynamic/text/3]"),
                 qPrintable(embedded.prompt.asText()));
    }

    void everythingResourceListChanges()
    {
        // gzip-file-as-resource registers a session resource: the server announces it with
        // notifications/resources/list_changed, and the kept listing is fetched again.
        McpHost host;
        auto client = started(host, everything());
        QVERIFY2(client->state() == McpClient::State::Ready, qPrintable(client->log()));
        const McpListed<McpResourceInfo> before = onToolThread(
            [&] { return client->listResources(); });
        QVERIFY(before.ok());
        QSignalSpy changed(client.get(), &McpClient::resourcesChanged);
        const McpCallResult gzip = onToolThread([&] {
            return client->callTool("gzip-file-as-resource",
                                    {{"name", "hello.txt.gz"},
                                     {"data", "data:text/plain;base64,aGVsbG8gd29ybGQ="}});
        });
        QVERIFY2(gzip.ok, qPrintable(gzip.error));
        QTRY_VERIFY2_WITH_TIMEOUT(namesOf(client->resources()).contains("hello.txt.gz"),
                                  qPrintable(namesOf(client->resources()).join(", ")),
                                  10'000);
        QVERIFY(changed.size() >= 1);
    }

    // --- the fault server (the official SDK) ---

    void faultToolsAreCheckedAndNamedApart()
    {
        McpHost host;
        auto client = started(host, fault());
        QVERIFY2(client->state() == McpClient::State::Ready, qPrintable(client->log()));
        QCOMPARE(namesOf(client->tools()),
                 QStringList({"Read", "fails", "huge", "image", "add-tool", "add-prompt"}));
        QVERIFY2(client->log().contains("the inputSchema of tool \"broken-schema\" is not valid "
                                        "JSON Schema: /properties/path/type names no JSON "
                                        "Schema type"),
                 qPrintable(client->log()));

        // "Read" is the server's own: mcp__fault__Read, beside the built-in Read, never it.
        QStringList problems;
        const QList<AgentToolPtr> tools = host.tools({"Bash", "Read", "Write"}, &problems);
        QVERIFY(problems.isEmpty());
        QVERIFY(toolNames(tools).contains("mcp__fault__Read"));
        QVERIFY(!toolNames(tools).contains("Read"));
        const ToolResult read = onToolThread(
            [&] { return toolNamed(tools, "mcp__fault__Read")->execute(ToolCallContext{}); });
        QCOMPARE(read.text(), "the fault server's Read");

        const ToolResult failed = onToolThread(
            [&] { return toolNamed(tools, "mcp__fault__fails")->execute(ToolCallContext{}); });
        QVERIFY(failed.isError);
        QCOMPARE(failed.text(), "the fault server failed on purpose");

        const ToolResult huge = onToolThread(
            [&] { return toolNamed(tools, "mcp__fault__huge")->execute(ToolCallContext{}); });
        QVERIFY(!huge.isError);
        QVERIFY2(huge.text().endsWith("[the result was cut at 102400 of its 300000 characters]"),
                 qPrintable(huge.text().right(200)));
        QCOMPARE(huge.text().size(), McpTool::maxResultChars + 56);

        const ToolResult images = onToolThread(
            [&] { return toolNamed(tools, "mcp__fault__image")->execute(ToolCallContext{}); });
        QVERIFY(!images.isError);
        // The picture goes on as one; 3 MB of "A" said to be a PNG does not.
        QCOMPARE(images.text(),
                 "two images:\n"
                 "[image image/png, 2304.0 KiB: not passed on to the model: its data is no PNG, "
                 "JPEG, GIF or WebP picture]");
        QCOMPARE(images.content.size(), 2);
        QVERIFY(images.content.at(1).isImage());
        QCOMPARE(images.content.at(1).mimeType, "image/png");
        QVERIFY(QByteArray::fromBase64(images.content.at(1).data).startsWith("\x89PNG"));
    }

    void liveToolsNeverShadowTheBuiltIns()
    {
        McpHost host;
        started(host, fault());
        auto slot = std::make_shared<ToolSlot>();
        host.publishTools(slot, {"Read"});
        QTemporaryDir repository;
        CodingAgentOptions options;
        options.repositoryRoot = repository.path();
        options.systemPrompt = "You are AgentDesk.";
        options.tools.live = slot;
        CodingAgent coding = CodingAgent::assemble(options);
        const QStringList names = toolNames(coding.config.tools);
        QCOMPARE(names.count("Read"), 1);
        QVERIFY(names.contains("mcp__fault__Read"));
        QCOMPARE(toolNamed(coding.config.tools, "Read")->kind(), ToolKind::Read);
        // Even a live tool that takes a built-in's name (in any case) is left out.
        slot->setTools({std::make_shared<NamedTool>("read")});
        const QList<AgentToolPtr> current = coding.config.loop.currentTools();
        QCOMPARE(toolNames(current).filter("read", Qt::CaseInsensitive), QStringList({"Read"}));
        QCOMPARE(toolNamed(current, "Read")->kind(), ToolKind::Read);

        // Plan mode takes the server's side-effecting tools out as it does the built-ins'.
        slot->setTools(host.tools({"Read"}, nullptr));
        coding.policy->setMode(PermissionMode::Plan);
        Context context;
        for (const AgentToolPtr &tool : coding.config.loop.currentTools())
            context.tools.append(tool->definition());
        QVERIFY(toolNames(context).contains("mcp__fault__fails"));
        const Context planned = coding.config.loop.prepareContext(context);
        QVERIFY(!toolNames(planned).contains("mcp__fault__fails"));
        QVERIFY(!toolNames(planned).contains("Write"));
        QVERIFY(toolNames(planned).contains("Read"));
    }

    void faultResourcesAreCheckedAndCapped()
    {
        McpHost host;
        auto client = started(host, fault());
        QVERIFY2(client->state() == McpClient::State::Ready, qPrintable(client->log()));
        // Three pages (nextCursor), the entry without a uri left out with the reason.
        const McpListed<McpResourceInfo> listed = onToolThread(
            [&] { return client->listResources(); });
        QVERIFY2(listed.ok(), qPrintable(listed.error));
        QCOMPARE(namesOf(listed.items), QStringList({"one", "big", "blob", "three"}));
        QCOMPARE(listed.problems, QStringList({"left out: a resource without a \"uri\" string"}));
        QCOMPARE(listed.items.at(1).size, 1024 * 1024);

        const McpReadResult big = onToolThread([&] { return client->readResource("fault://big"); });
        QVERIFY2(big.ok(), qPrintable(big.error));
        QCOMPARE(big.contents.first().text.size(), McpCatalogLimits::defaultMaxTextChars);
        QCOMPARE(big.contents.first().size, 1024 * 1024);
        QCOMPARE(big.contents.first().note, "[cut at 262144 of its 1048576 characters]");
        QVERIFY(big.asText().endsWith("\n[cut at 262144 of its 1048576 characters]"));

        const McpReadResult blob = onToolThread(
            [&] { return client->readResource("fault://blob"); });
        QVERIFY2(blob.ok(), qPrintable(blob.error));
        QCOMPARE(blob.contents.first().blob, QByteArray("\x00\x01\x02\xff", 4));
        // Over a smaller cap the blob is left out with a note.
        const McpReadResult capped = onToolThread(
            [&] { return client->readResource("fault://blob", {}, 100, 2); });
        QVERIFY(capped.contents.first().blob.isEmpty());
        QCOMPARE(capped.contents.first().note, "[4 bytes of data over the 2 bytes cap: left out]");

        const McpReadResult missing = onToolThread(
            [&] { return client->readResource("fault://none"); });
        QVERIFY(!missing.ok());
        QVERIFY2(missing.error.contains("Resource not found: fault://none"),
                 qPrintable(missing.error));
        const McpReadResult empty = onToolThread([&] { return client->readResource(""); });
        QCOMPARE(empty.error, "not a resource URI: \"\"");
    }

    void faultPromptsAreChecked()
    {
        McpHost host;
        auto client = started(host, fault());
        QVERIFY2(client->state() == McpClient::State::Ready, qPrintable(client->log()));
        const McpListed<McpPromptInfo> listed = onToolThread([&] { return client->listPrompts(); });
        QVERIFY2(listed.ok(), qPrintable(listed.error));
        QCOMPARE(namesOf(listed.items), QStringList({"review", "mixed", "empty"}));
        QCOMPARE(listed.problems,
                 QStringList({"left out: the prompt \"broken\" has an \"arguments\" that is not a "
                              "list"}));

        const McpGetPromptResult review = onToolThread([&] {
            return client->getPrompt("review", {{"file", "main.cpp"}});
        });
        QVERIFY2(review.ok(), qPrintable(review.error));
        QCOMPARE(review.prompt.description, "A review");
        QCOMPARE(review.prompt.asText(),
                 "Please review main.cpp.\n\n[assistant]\nWhich aspects matter most?");

        const McpGetPromptResult mixed = onToolThread(
            [&] { return client->getPrompt("mixed", {}); });
        QVERIFY2(mixed.ok(), qPrintable(mixed.error));
        QCOMPARE(mixed.prompt.messages.size(), 3);
        const McpContent image = mixed.prompt.messages.at(1).content;
        QCOMPARE(image.type, McpContent::Type::Image);
        QCOMPARE(image.mimeType, "image/png");
        QVERIFY(image.data.startsWith("\x89PNG"));
        QCOMPARE(mixed.prompt.asText(),
                 "Look at these:\n\n[image image/png, 70 bytes: not passed on to the model]\n\n"
                 "[resource fault://one]\nembedded text");

        const McpGetPromptResult empty = onToolThread(
            [&] { return client->getPrompt("empty", {}); });
        QCOMPARE(empty.error,
                 "the answer to prompts/get is malformed: the answer has no "
                 "\"messages\" list");
        const McpGetPromptResult broken = onToolThread(
            [&] { return client->getPrompt("broken", {}); });
        QCOMPARE(broken.error, "the MCP server \"fault\" has no prompt \"broken\"");
    }

    void promptListChanges()
    {
        McpHost host;
        auto client = started(host, fault());
        QVERIFY(onToolThread([&] { return client->listPrompts(); }).ok());
        QVERIFY(!namesOf(client->prompts()).contains("added"));
        QVERIFY(onToolThread([&] { return client->callTool("add-prompt", {}); }).ok);
        QTRY_VERIFY_WITH_TIMEOUT(namesOf(client->prompts()).contains("added"), 10'000);
        const McpGetPromptResult added = onToolThread(
            [&] { return client->getPrompt("added", {}); });
        QCOMPARE(added.prompt.asText(), "added prompt");
    }

    void runningAgentGetsNewToolsAtItsNextTurn()
    {
        // The model calls add-tool (the server announces tools/list_changed), waits for the
        // list to come back, then calls the new tool: it was offered from the next request on.
        McpHost host;
        auto client = started(host, fault());
        QVERIFY2(client->state() == McpClient::State::Ready, qPrintable(client->log()));
        auto slot = std::make_shared<ToolSlot>();
        host.publishTools(slot, {});
        const AgentToolPtr waiter = std::make_shared<WaitForTool>(slot, "mcp__fault__added");
        auto model = std::make_shared<ScriptedModel>(
            QList{ModelStep::toolCall("c1", "mcp__fault__add-tool", {}),
                  ModelStep::toolCall("c2", "wait_for_tool", {}),
                  ModelStep::toolCall("c3", "mcp__fault__added", {}),
                  ModelStep::text("done")});
        AgentConfig config;
        config.loop.model = model;
        config.tools = {waiter};
        config.loop.currentTools = [waiter, slot] { return QList{waiter} + slot->tools(); };
        Agent agent(config);
        agent.prompt("Add a tool and use it.");
        QVERIFY(agent.waitForIdle(60'000));
        const QList<Context> contexts = model->contexts();
        QCOMPARE(contexts.size(), 4);
        QVERIFY(toolNames(contexts.at(0)).contains("mcp__fault__add-tool"));
        QVERIFY(!toolNames(contexts.at(0)).contains("mcp__fault__added"));
        QVERIFY2(toolNames(contexts.at(2)).contains("mcp__fault__added"),
                 qPrintable(toolNames(contexts.at(2)).join(", ")));
        const Message last = contexts.at(3).messages.last();
        QCOMPARE(last.role, Message::Role::ToolResult);
        QVERIFY2(!last.isError, qPrintable(last.text()));
        QCOMPARE(last.text(), "the added tool ran");
    }

    void serverThatExitsOnItsFirstCall()
    {
        McpHost host;
        auto client = started(host, fault("exit-on-call"));
        QVERIFY2(client->state() == McpClient::State::Ready, qPrintable(client->log()));
        const McpCallResult died = onToolThread([&] { return client->callTool("fails", {}); });
        QVERIFY(!died.ok);
        QVERIFY2(died.error.contains("the MCP server \"fault\" exited with code 7; its last "
                                     "words on stderr: fault server: exiting on the first call "
                                     "(it is started again on the next call)"),
                 qPrintable(died.error));
        QTRY_COMPARE_WITH_TIMEOUT(client->state(), McpClient::State::Failed, 10'000);
        // The next request starts it again; the tools are listed again.
        const McpCallResult ping = onToolThread([&] { return client->call("ping", {}); });
        QVERIFY2(ping.ok, qPrintable(ping.error));
        QCOMPARE(client->state(), McpClient::State::Ready);
        QVERIFY(namesOf(client->tools()).contains("fails"));
    }

    // --- server-filesystem ---

    void filesystemReadsATempFolder()
    {
        QTemporaryDir folder;
        QFile note(folder.filePath("note.txt"));
        QVERIFY(note.open(QIODevice::WriteOnly));
        note.write("hello from a temp folder\n");
        note.close();
        McpHost host;
        auto client = started(host,
                              server("filesystem", {package("server-filesystem"), folder.path()}));
        QVERIFY2(client->state() == McpClient::State::Ready, qPrintable(client->log()));
        QStringList problems;
        const QList<AgentToolPtr> tools = host.tools({}, &problems);
        QVERIFY(problems.isEmpty());
        const QStringList names = toolNames(tools);
        QVERIFY2(names.contains("mcp__filesystem__read_text_file")
                     && names.contains("mcp__filesystem__write_file"),
                 qPrintable(names.join(", ")));

        // Its annotations say which tools change nothing: the server's word, kept to be shown,
        // never a reason to skip the question (issue #31): every tool asks and runs alone.
        for (const QString name : {"read_text_file", "list_directory", "search_files"}) {
            const auto tool = std::dynamic_pointer_cast<McpTool>(
                toolNamed(tools, "mcp__filesystem__" + name));
            QVERIFY2(tool && tool->info().readOnlyHint, qPrintable(name));
            QVERIFY(tool->hasSideEffects());
            QCOMPARE(tool->executionMode(), ExecutionMode::Sequential);
        }
        for (const QString name : {"write_file", "edit_file", "move_file"}) {
            const auto tool = std::dynamic_pointer_cast<McpTool>(
                toolNamed(tools, "mcp__filesystem__" + name));
            QVERIFY2(tool && !tool->info().readOnlyHint, qPrintable(name));
            QVERIFY(tool->hasSideEffects());
            QCOMPARE(tool->executionMode(), ExecutionMode::Sequential);
        }

        ToolCallContext context;
        context.arguments = {{"path", folder.filePath("note.txt")}};
        const ToolResult read = onToolThread(
            [&] { return toolNamed(tools, "mcp__filesystem__read_text_file")->execute(context); });
        QVERIFY2(!read.isError, qPrintable(read.text()));
        QCOMPARE(read.text(), "hello from a temp folder\n");
        // Outside its folder it refuses, as an error the model reads.
        context.arguments = {{"path", "/etc/hostname"}};
        const ToolResult outside = onToolThread(
            [&] { return toolNamed(tools, "mcp__filesystem__read_text_file")->execute(context); });
        QVERIFY2(outside.isError, qPrintable(outside.text()));
    }

    // --- the value types alone ---

    void hostileCatalogEntries_data()
    {
        QTest::addColumn<QJsonObject>("json");
        QTest::addColumn<QString>("problem");
        QTest::newRow("uri a number")
            << QJsonObject{{"uri", 3}, {"name", "x"}} << "a resource without a \"uri\" string";
        QTest::newRow("no name") << QJsonObject{{"uri", "a://b"}}
                                 << "resource a://b without a \"name\" string";
        QTest::newRow("long uri") << QJsonObject{{"uri", QString(5000, 'u')}, {"name", "x"}}
                                  << "a resource whose \"uri\" is longer than 4096 characters";
        QTest::newRow("control characters")
            << QJsonObject{{"uri", "a://b"}, {"name", "x\u001b[31m"}}
            << "resource a://b whose \"name\" holds control characters";
    }

    void hostileCatalogEntries()
    {
        QFETCH(QJsonObject, json);
        QFETCH(QString, problem);
        QString found;
        QVERIFY(!McpResourceInfo::fromJson(json, &found));
        QCOMPARE(found, problem);
    }

    void promptCommands()
    {
        const auto command = McpPromptCommand::parse(
            "/everything:args-prompt Oslo state=\"Oslo county\"\nand then this");
        QVERIFY(command);
        QCOMPARE(command->server, "everything");
        QCOMPARE(command->prompt, "args-prompt");
        QCOMPARE(command->arguments, "Oslo state=\"Oslo county\"");
        QString problem;
        const QMap<QString, QString> values = command->argumentsFor({"city", "state"}, &problem);
        QVERIFY(problem.isEmpty());
        QCOMPARE(values, (QMap<QString, QString>{{"city", "Oslo"}, {"state", "Oslo county"}}));
        // Named first, the rest in order; one value too many is an error.
        QCOMPARE(McpPromptCommand::parse("/s:p state=X Y")->argumentsFor({"city", "state"}, &problem),
                 (QMap<QString, QString>{{"city", "Y"}, {"state", "X"}}));
        QVERIFY(McpPromptCommand::parse("/s:p a b c")
                    ->argumentsFor({"city", "state"}, &problem)
                    .isEmpty());
        QCOMPARE(problem, "the prompt \"p\" takes city, state, but got one more: \"c\"");
        QVERIFY(!McpPromptCommand::parse("Fix /usr/bin:x"));
        QVERIFY(!McpPromptCommand::parse("/usr/bin:x"));
        QVERIFY(!McpPromptCommand::parse("/compact"));
    }

    void hostileContents()
    {
        QString problem;
        QVERIFY(!McpContent::fromJson({{"type", "text"}, {"text", QJsonArray{1}}}, &problem));
        QCOMPARE(problem, "a text content without a \"text\" string");
        QVERIFY(!McpContent::fromJson({{"type", "image"}, {"data", "&&&"}}, &problem));
        QCOMPARE(problem, "an image content whose \"data\" is not base64");
        QVERIFY(!McpContent::fromJson({{"type", "video"}}, &problem));
        QCOMPARE(problem, "a content of unknown type \"video\"");
        QVERIFY(!McpResourceContents::fromJson({{"uri", "a://b"}, {"text", "t"}, {"blob", "AA=="}},
                                               &problem,
                                               100,
                                               100));
        QCOMPARE(problem,
                 "the contents of a://b need exactly one of a \"text\" and a \"blob\" string");
        QVERIFY(!McpPromptResult::fromJson({{"messages",
                                             QJsonArray{QJsonObject{{"role", "system"},
                                                                    {"content", QJsonObject{}}}}}},
                                           &problem));
        QCOMPARE(problem, "message 1 has no role \"user\" or \"assistant\"");
        QJsonArray many;
        for (int i = 0; i < 101; ++i)
            many.append(QJsonObject{{"role", "user"},
                                    {"content", QJsonObject{{"type", "text"}, {"text", "x"}}}});
        QVERIFY(!McpPromptResult::fromJson({{"messages", many}}, &problem));
        QCOMPARE(problem, "the answer has more than 100 messages");
        QJsonArray arguments;
        for (int i = 0; i < 65; ++i)
            arguments.append(QJsonObject{{"name", QString::number(i)}});
        QVERIFY(!McpPromptInfo::fromJson({{"name", "p"}, {"arguments", arguments}}, &problem));
        QCOMPARE(problem, "the prompt \"p\" has more than 64 arguments");
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_McpContext)

} // namespace tst_mcpcontext

#include "tst_mcpcontext.moc"
