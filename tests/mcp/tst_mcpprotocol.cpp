// The MCP client's pure parts: the line framing with its cap, JSON-RPC messages (malformed ones
// included), the tools' schema check, .mcp.json, tool names, results as the model sees them
// and the servers' environment without the providers' keys.

#include <jsonrpc/jsonrpcframing.h>
#include <jsonrpc/jsonrpcmessage.h>
#include <mcp/mcpclient.h>
#include <mcp/mcpconfig.h>
#include <mcp/mcphost.h>
#include <mcp/mcptool.h>
#include <mcp/mcptoolinfo.h>
#include <testmain.h>
#include <tools/commandenvironment.h>

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include <algorithm>

using namespace AgentCore;

namespace tst_mcpprotocol {

class tst_McpProtocol : public QObject
{
    Q_OBJECT

private slots:
    void linesSplitAcrossReads()
    {
        JsonRpcLineReader reader;
        QCOMPARE(reader.feed("{\"a\":").size(), 0);
        const QList<JsonRpcFrame> lines = reader.feed("1}\r\n\n{\"b\":2}\n{\"c\"");
        QCOMPARE(lines.size(), 2);
        QCOMPARE(lines.at(0).text, QByteArray("{\"a\":1}"));
        QCOMPARE(lines.at(1).text, QByteArray("{\"b\":2}"));
        QCOMPARE(reader.feed(":3}\n").at(0).text, QByteArray("{\"c\":3}"));
    }

    void overlongLineIsDroppedWithItsEdges()
    {
        JsonRpcLineReader reader(1000);
        QByteArray line = "{\"jsonrpc\":\"2.0\",\"result\":\"" + QByteArray(5000, 'x')
                          + "\",\"id\":7}";
        // In small reads, as a pipe delivers it: never held whole.
        QList<JsonRpcFrame> lines;
        for (qsizetype i = 0; i < line.size(); i += 300)
            lines += reader.feed(line.mid(i, 300));
        QVERIFY(lines.isEmpty());
        lines = reader.feed("\n{\"ok\":1}\n");
        QCOMPARE(lines.size(), 2);
        QVERIFY(lines.at(0).overlong);
        QCOMPARE(lines.at(0).size, line.size());
        QVERIFY(lines.at(0).head.startsWith("{\"jsonrpc\""));
        QVERIFY(lines.at(0).tail.endsWith("\"id\":7}"));
        QVERIFY(lines.at(0).text.isEmpty());
        QCOMPARE(lines.at(1).text, QByteArray("{\"ok\":1}"));
    }

    void messages_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("problem");
        using K = JsonRpcMessage::Kind;
        QTest::newRow("response") << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}")
                                  << int(K::Response) << QString();
        QTest::newRow("error response") << QByteArray(
            "{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"error\":{\"code\":-32601,\"message\":\"no\"}}")
                                        << int(K::Response) << QString();
        QTest::newRow("request") << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}")
                                 << int(K::Request) << QString();
        QTest::newRow("notification")
            << QByteArray("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}")
            << int(K::Notification) << QString();
        QTest::newRow("not json") << QByteArray("hello") << int(K::Invalid) << "not JSON";
        QTest::newRow("array (a batch)")
            << QByteArray("[]") << int(K::Invalid) << "not a JSON-RPC message object";
        QTest::newRow("json-rpc 1.0") << QByteArray("{\"jsonrpc\":\"1.0\",\"id\":1,\"result\":{}}")
                                      << int(K::Invalid) << "not JSON-RPC 2.0";
        QTest::newRow("neither result nor error")
            << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":1}") << int(K::Invalid) << "exactly one";
        QTest::newRow("both") << QByteArray(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{},\"error\":{}}")
                              << int(K::Invalid) << "exactly one";
        QTest::newRow("fractional id")
            << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":1.5,\"result\":{}}") << int(K::Invalid)
            << "id";
        QTest::newRow("params not an object")
            << QByteArray("{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"params\":[1]}")
            << int(K::Invalid) << "params";
        QTest::newRow("nested too deeply")
            << QByteArray(QByteArray(5000, '[') + QByteArray(5000, ']')) << int(K::Invalid)
            << "nested deeper than 1024";
        // Issue #31: the model layer's cap (1024), not 100: valid answers of 150 levels are read.
        QTest::newRow("150 levels")
            << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"x\":" + QByteArray(147, '[')
                          + QByteArray(147, ']') + "}}")
            << int(K::Response) << QString();
        QTest::newRow("1024 levels")
            << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"x\":" + QByteArray(1022, '[')
                          + QByteArray(1022, ']') + "}}")
            << int(K::Response) << QString();
        QTest::newRow("1025 levels")
            << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"x\":" + QByteArray(1023, '[')
                          + QByteArray(1023, ']') + "}}")
            << int(K::Invalid) << "nested deeper than 1024";
    }

    // Issue #31: a message too deep to read still names the request it answers, found without
    // parsing it: the top-level "id" wherever it stands, never one nested inside.
    void idOfAMessageTooDeepToRead_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<QJsonValue>("id");
        const QByteArray deep = QByteArray(2000, '[') + QByteArray(2000, ']');
        QTest::newRow("id last, as the SDKs write it")
            << QByteArray("{\"jsonrpc\":\"2.0\",\"result\":{\"x\":" + deep + "},\"id\": 42}")
            << QJsonValue(42);
        QTest::newRow("id first") << QByteArray("{\"id\":43,\"jsonrpc\":\"2.0\",\"result\":" + deep
                                                + "}")
                                  << QJsonValue(43);
        QTest::newRow("string id")
            << QByteArray("{ \"id\" : \"a\\\"b\", \"result\":" + deep + "}") << QJsonValue("a\"b");
        QTest::newRow("nested ids and an id in a string are not it")
            << QByteArray("{\"result\":{\"id\":1,\"s\":\"\\\"id\\\":2\",\"x\":" + deep
                          + "},\"note\":\"\\\"id\\\": 3\",\"id\":44}")
            << QJsonValue(44);
        QTest::newRow("none") << QByteArray("{\"result\":" + deep + "}")
                              << QJsonValue(QJsonValue::Undefined);
        QTest::newRow("fractional") << QByteArray("{\"id\":4.5,\"result\":" + deep + "}")
                                    << QJsonValue(QJsonValue::Undefined);
    }

    void idOfAMessageTooDeepToRead()
    {
        QFETCH(QByteArray, line);
        QFETCH(QJsonValue, id);
        QCOMPARE(jsonRpcMessageId(line), id);
        const JsonRpcMessage message = JsonRpcMessage::parse(line);
        QCOMPARE(message.kind, JsonRpcMessage::Kind::Invalid);
        QVERIFY2(message.problem.contains("nested deeper than 1024"), qPrintable(message.problem));
        QCOMPARE(message.id, id);
    }

    void messages()
    {
        QFETCH(QByteArray, line);
        QFETCH(int, kind);
        QFETCH(QString, problem);
        const JsonRpcMessage message = JsonRpcMessage::parse(line);
        QCOMPARE(int(message.kind), kind);
        QVERIFY2(message.problem.contains(problem), qPrintable(message.problem));
    }

    void nestingIgnoresBracketsInStrings()
    {
        const QByteArray bracketsInString = "{\"a\":\"[[[[\\\"{{\"}";
        QCOMPARE(jsonNestingDepth(bracketsInString, 10), 1);
        QCOMPARE(jsonNestingDepth("[[[]]]", 2), 3); // stops counting above the limit
    }

    void schemas_data()
    {
        QTest::addColumn<QByteArray>("schema");
        QTest::addColumn<QString>("problem");
        QTest::newRow("empty object schema") << QByteArray("{\"type\":\"object\"}") << QString();
        QTest::newRow("properties")
            << QByteArray("{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"},\"b\":"
                          "true}, \"required\":[\"a\"],\"additionalProperties\":false}")
            << QString();
        QTest::newRow("not an object schema")
            << QByteArray("{\"type\":\"string\"}") << "not an object schema";
        QTest::newRow("property not a schema")
            << QByteArray("{\"type\":\"object\",\"properties\":{\"x\":42}}") << "/properties/x";
        QTest::newRow("unknown type")
            << QByteArray("{\"type\":\"object\",\"properties\":{\"x\":{\"type\":\"strng\"}}}")
            << "/properties/x/type";
        QTest::newRow("required not names")
            << QByteArray("{\"type\":\"object\",\"required\":[1]}") << "/required";
        QTest::newRow("items not a schema") << QByteArray(
            "{\"type\":\"object\",\"properties\":{\"l\":{\"type\":\"array\",\"items\":\"x\"}}}")
                                            << "/properties/l/items";
    }

    void schemas()
    {
        QFETCH(QByteArray, schema);
        QFETCH(QString, problem);
        const QString found = checkToolInputSchema(QJsonDocument::fromJson(schema).object());
        if (problem.isEmpty())
            QVERIFY2(found.isEmpty(), qPrintable(found));
        else
            QVERIFY2(found.contains(problem), qPrintable(found));
    }

    void toolInfo()
    {
        QString problem;
        const auto tool = McpToolInfo::fromJson(
            QJsonDocument::fromJson(
                "{\"name\":\"echo\",\"description\":\"Echoes.\", "
                "\"inputSchema\":{\"type\":\"object\"},\"annotations\":{\"readOnlyHint\":true}}")
                .object(),
            &problem);
        QVERIFY(tool);
        QVERIFY(tool->readOnlyHint); // kept, to be shown as the server's claim
        QVERIFY(!McpToolInfo::fromJson({{"name", "x"}}, &problem));
        QVERIFY2(problem.contains("no inputSchema"), qPrintable(problem));
    }

    void config()
    {
        const McpConfig config = McpConfig::parse(
            "{\"mcpServers\": { \"everything\": {\"command\": \"npx\", \"args\": [\"-y\", "
            "\"@modelcontextprotocol/server-everything\"], \"env\": {\"DEBUG\": \"1\"}}, "
            "\"remote\": {\"type\": \"http\", \"url\": \"https://example.com/mcp\"}, \"bad "
            "name!\": {\"command\": \"x\"}, \"no-command\": {\"args\": []}, \"bad-args\": "
            "{\"command\": \"x\", \"args\": \"y\"} }}",
            "/r/.mcp.json");
        QVERIFY(config.error.isEmpty());
        QCOMPARE(config.servers.size(), 2);
        const McpServerConfig &server = config.servers.first();
        QCOMPARE(server.name, "everything");
        QCOMPARE(server.args, QStringList({"-y", "@modelcontextprotocol/server-everything"}));
        QCOMPARE(server.env.value("DEBUG"), "1");
        QCOMPARE(server.grant(),
                 "mcpServer: everything: npx -y @modelcontextprotocol/server-everything");
        QCOMPARE(config.problems.size(), 3);
        QCOMPARE(config.servers.last().name, "remote");
        QCOMPARE(config.servers.last().type, "http");
        QCOMPARE(config.servers.last().url, "https://example.com/mcp");
        QCOMPARE(config.servers.last().grant(), "mcpServer: remote: https://example.com/mcp");
        QVERIFY(McpConfig::parse("{", "f").error.contains("not JSON"));
        QVERIFY(McpConfig::parse("{}", "f").error.contains("no \"mcpServers\""));
        QVERIFY(McpConfig::load("/nonexistent/.mcp.json", true).error.isEmpty());
        QVERIFY(!McpConfig::load("/nonexistent/.mcp.json", false).error.isEmpty());
    }

    void httpConfig()
    {
        const McpConfig config = McpConfig::parse(
            "{\"mcpServers\": { \"a\": {\"type\": \"http\", \"url\": \"http://127.0.0.1:3001/"
            "mcp\", \"headers\": {\"Authorization\": \"Bearer x\", \"X-Team\": \"core\"}}, \""
            "b\": {\"type\": \"streamable-http\", \"url\": \"https://example.com/mcp\"}, \"c\""
            ": {\"url\": \"https://example.com/c\"}, \"old\": {\"type\": \"sse\", \"url\": \""
            "https://example.com/sse\"}, \"no-url\": {\"type\": \"http\"}, \"ftp\": {\"type\""
            ": \"http\", \"url\": \"ftp://example.com/mcp\"}, \"bad-headers\": {\"type\": \"h"
            "ttp\", \"url\": \"https://e.com\", \"headers\": [\"x\"]}, \"smuggled\": {\"type\""
            ": \"http\", \"url\": \"https://e.com\", \"headers\": {\"X-A\": \"1\\r\\nX-Evil: 2\"}}"
            ", \"bad-name\": {\"type\": \"http\", \"url\": \"https://e.com\", \"headers\": {\""
            "a b\": \"1\"}} }}",
            "f");
        QStringList names;
        for (const McpServerConfig &server : config.servers) {
            names.append(server.name);
            QCOMPARE(server.type, "http");
        }
        QCOMPARE(names, QStringList({"a", "b", "c"}));
        QCOMPARE(config.servers.first().headers.value("Authorization"), "Bearer x");
        QCOMPARE(config.servers.first().headers.value("X-Team"), "core");
        QCOMPARE(config.servers.first().commandLine(), "http://127.0.0.1:3001/mcp");
        const QString problems = config.problems.join('\n');
        QCOMPARE(config.problems.size(), 6);
        QVERIFY2(problems.contains("\"old\" of f left out: the old HTTP+SSE transport (\"sse\") "
                                   "is not supported; a server that speaks Streamable HTTP is "
                                   "configured with \"type\": \"http\""),
                 qPrintable(problems));
        QVERIFY(problems.contains("\"no-url\" of f left out: no \"url\""));
        QVERIFY(problems.contains("\"ftp\" of f left out: \"url\" is not an http or https URL"));
        QVERIFY(problems.contains("\"bad-headers\" of f left out: \"headers\" is not an object"));
        QVERIFY(problems.contains("\"smuggled\" of f left out: \"headers\" holds something"));
        QVERIFY(problems.contains("\"bad-name\" of f left out: \"headers\" holds something"));
    }

    void toolNames()
    {
        QCOMPARE(McpTool::toolName("everything", "echo"), "mcp__everything__echo");
        QCOMPARE(McpTool::toolName("my.server", "get sum/2"), "mcp__my_server__get_sum_2");
        const QString a = McpTool::toolName("s", QString(100, 'a') + "1");
        const QString b = McpTool::toolName("s", QString(100, 'a') + "2");
        QCOMPARE(a.size(), McpTool::maxToolNameLength);
        QVERIFY(a != b);
    }

    void results()
    {
        McpCallResult call;
        call.ok = true;
        call.result = QJsonDocument::fromJson(
                          "{\"content\":[ {\"type\":\"text\",\"text\":\"hello\"}, "
                          "{\"type\":\"image\",\"mimeType\":\"image/png\",\"data\":\"AAAAAAAA\"}, "
                          "{\"type\":\"resource\",\"resource\":{\"uri\":\"file:///"
                          "a.txt\",\"text\":\"inside\"}}, "
                          "{\"type\":\"resource\",\"resource\":{\"uri\":\"file:///"
                          "b.bin\",\"mimeType\":\"application/zip\",\"blob\":\"AAAA\"}}, "
                          "{\"type\":\"resource_link\",\"uri\":\"file:///c\",\"name\":\"c\"}]}")
                          .object();
        ToolResult result = McpTool::resultOf(call, "s");
        QVERIFY(!result.isError);
        QCOMPARE(result.text(),
                 "hello\n[image image/png, 6 bytes: not passed on to the model: its data is no "
                 "PNG, JPEG, GIF or WebP picture]\n"
                 "[resource file:///a.txt]\ninside\n"
                 "[resource file:///b.bin, application/zip 3 bytes: binary, not passed on to the "
                 "model]\n[resource link: file:///c c]");
        QCOMPARE(result.content.size(), 1); // no picture among them

        call.result = {{"isError", true},
                       {"content", QJsonArray{QJsonObject{{"type", "text"}, {"text", "broken"}}}}};
        result = McpTool::resultOf(call, "s");
        QVERIFY(result.isError);
        QCOMPARE(result.text(), "broken");

        call.result = {
            {"content",
             QJsonArray{QJsonObject{{"type", "text"},
                                    {"text", QString(McpTool::maxResultChars + 10, 'x')}}}}};
        result = McpTool::resultOf(call, "s");
        QVERIFY(
            result.text().endsWith(QStringLiteral("[the result was cut at %1 of its %2 characters]")
                                       .arg(McpTool::maxResultChars)
                                       .arg(McpTool::maxResultChars + 10)));

        // Pictures go to the model as pictures: the type read from the bytes, not the server's word.
        const QByteArray png = QByteArray("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16).toBase64();
        const QByteArray gif = QByteArray("GIF89a\x01\0\x01\0", 10).toBase64();
        const QByteArray webp = QByteArray("RIFF\x10\0\0\0WEBPVP8 ", 16).toBase64();
        const auto image = [](const QByteArray &data, const QString &mimeType) {
            return QJsonObject{{"type", "image"},
                               {"mimeType", mimeType},
                               {"data", QString::fromLatin1(data)}};
        };
        call.result = {
            {"content",
             QJsonArray{image(png, "image/png"),
                        QJsonObject{{"type", "text"}, {"text", "a chart and a gif"}},
                        image(gif, "image/jpeg"),
                        QJsonObject{{"type", "resource"},
                                    {"resource",
                                     QJsonObject{{"uri", "shot://1"},
                                                 {"mimeType", "image/webp"},
                                                 {"blob", QString::fromLatin1(webp)}}}},
                        image(png, "image/svg+xml"),
                        image(QByteArray(ContentBlock::maxImageBase64 + 4, 'A'), "image/png"),
                        QJsonObject{{"type", "audio"},
                                    {"mimeType", "audio/wav"},
                                    {"data", "UklGRg=="}}}}};
        result = McpTool::resultOf(call, "s");
        QCOMPARE(result.text(),
                 "a chart and a gif\n[resource shot://1: the picture below]\n"
                 "[image image/svg+xml, 18 bytes: not passed on to the model: not a kind of "
                 "picture the models read]\n"
                 "[image image/png, 3840.0 KiB: not passed on to the model: larger than the 5 MB "
                 "the providers take]\n"
                 "[audio audio/wav, 6 bytes: not passed on to the model: the model takes no "
                 "sound]");
        QCOMPARE(result.content.size(), 4);
        QCOMPARE(result.content.at(1), ContentBlock::makeImage("image/png", png));
        QCOMPARE(result.content.at(2), ContentBlock::makeImage("image/gif", gif));
        QCOMPARE(result.content.at(3), ContentBlock::makeImage("image/webp", webp));

        // A result of pictures alone has no text block; at most maxImages are kept.
        QJsonArray many;
        for (int i = 0; i < McpTool::maxImages; ++i)
            many.append(image(png, "image/png"));
        call.result = {{"content", many}};
        result = McpTool::resultOf(call, "s");
        QCOMPARE(result.content.size(), McpTool::maxImages);
        QVERIFY(std::all_of(result.content.cbegin(), result.content.cend(), [](const auto &b) {
            return b.isImage();
        }));
        many.append(image(png, "image/png"));
        call.result = {{"content", many}};
        result = McpTool::resultOf(call, "s");
        QCOMPARE(result.content.size(), McpTool::maxImages + 1);
        QCOMPARE(result.text(),
                 "[image image/png, 18 bytes: not passed on to the model: more than 10 pictures "
                 "in one result]");

        McpCallResult failed;
        failed.error = "the MCP server \"s\" exited with code 3";
        result = McpTool::resultOf(failed, "s");
        QVERIFY(result.isError);
        QVERIFY(result.text().contains("exited with code 3"));
    }

    void serverEnvironmentHasNoProviderKeys()
    {
        QProcessEnvironment base;
        base.insert("PATH", "/usr/bin");
        base.insert("ANTHROPIC_API_KEY", "sk-ant-secret-value");
        base.insert("GITHUB_TOKEN", "ghp-inherited");
        CommandEnvironment filter;
        QStringList dropped;
        const QProcessEnvironment env = McpHost::serverEnvironment(base,
                                                                   filter,
                                                                   {{"GITHUB_TOKEN",
                                                                     "ghp-configured"},
                                                                    {"OPENAI_API_KEY", "sk-openai"},
                                                                    {"COPY", "sk-ant-secret-value"},
                                                                    {"MODE", "fast"}},
                                                                   &dropped);
        QCOMPARE(env.value("PATH"), "/usr/bin");
        QVERIFY(!env.contains("ANTHROPIC_API_KEY"));
        QVERIFY(!env.contains("OPENAI_API_KEY"));
        QVERIFY(!env.contains("COPY"));                        // the key under another name
        QCOMPARE(env.value("GITHUB_TOKEN"), "ghp-configured"); // named by the user: passed
        QCOMPARE(env.value("MODE"), "fast");
        QCOMPARE(dropped, QStringList({"COPY", "OPENAI_API_KEY"}));
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_McpProtocol)

} // namespace tst_mcpprotocol

#include "tst_mcpprotocol.moc"
