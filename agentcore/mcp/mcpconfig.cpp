#include "mcpconfig.h"
#include "translation.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QUrl>

namespace AgentCore {

namespace {

QString quoted(const QString &word)
{
    static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9_@%+=:,./-]+$"));
    if (plain.match(word).hasMatch())
        return word;
    QString escaped = word;
    escaped.replace(QLatin1Char('\''), QLatin1String("'\\''"));
    return QLatin1Char('\'') + escaped + QLatin1Char('\'');
}

// The url and headers of an http server; the problem, if any.
QString parseHttp(const QJsonObject &entry, McpServerConfig *server)
{
    server->url = entry.value(QLatin1String("url")).toString();
    // Its ${VAR} references are expanded when the server starts (McpConfigExpansion, which
    // checks the result again); here they stand for a word of the URL.
    static const QRegularExpression reference(QStringLiteral(R"(\$\{[^}]*\})"));
    const QUrl url(QString(server->url).replace(reference, QStringLiteral("x")), QUrl::StrictMode);
    if (server->url.isEmpty())
        return McpTr::tr("no \"url\"");
    if (!url.isValid() || url.host().isEmpty()
        || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https")))
        return McpTr::tr("\"url\" is not an http or https URL");
    const QJsonValue headers = entry.value(QLatin1String("headers"));
    if (!headers.isUndefined() && !headers.isObject())
        return McpTr::tr("\"headers\" is not an object");
    // A header's name is a token, its value one line: nothing can smuggle in another header.
    static const QRegularExpression token(QStringLiteral("^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$"));
    const QJsonObject fields = headers.toObject();
    for (auto it = fields.begin(); it != fields.end(); ++it) {
        if (!it.value().isString() || !token.match(it.key()).hasMatch()
            || it.value().toString().contains(QLatin1Char('\n'))
            || it.value().toString().contains(QLatin1Char('\r'))
            || it.value().toString().size() > 8192)
            return McpTr::tr("\"headers\" holds something other than Name: \"value\"");
        server->headers.insert(it.key(), it.value().toString());
    }
    return {};
}

} // namespace

QString McpServerConfig::commandLine() const
{
    if (type == QLatin1String("http"))
        return url;
    QStringList words{quoted(command)};
    for (const QString &arg : args)
        words.append(quoted(arg));
    return words.join(QLatin1Char(' '));
}

QString McpServerConfig::grant() const
{
    return QStringLiteral("mcpServer: %1: %2")
        .arg(name, type == QLatin1String("stdio") ? commandLine() : url);
}

QString McpConfig::projectFile(const QString &repositoryRoot)
{
    return QDir(repositoryRoot).filePath(QStringLiteral(".mcp.json"));
}

McpConfig McpConfig::load(const QString &path, bool optional)
{
    McpConfig config;
    QFile file(path);
    if (!file.exists()) {
        if (!optional)
            config.error = McpTr::tr("%1 does not exist").arg(path);
        return config;
    }
    if (file.size() > maxFileBytes) {
        config.error = McpTr::tr("%1 is larger than %2 KiB").arg(path).arg(maxFileBytes / 1024);
        return config;
    }
    if (!file.open(QIODevice::ReadOnly)) {
        config.error = McpTr::tr("cannot read %1: %2").arg(path, file.errorString());
        return config;
    }
    return parse(file.read(maxFileBytes), path);
}

McpConfig McpConfig::parse(const QByteArray &json, const QString &source)
{
    McpConfig config;
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        config.error = McpTr::tr("%1 is not JSON: %2 at offset %3")
                           .arg(source, parseError.errorString())
                           .arg(parseError.offset);
        return config;
    }
    const QJsonValue servers = document.object().value(QLatin1String("mcpServers"));
    if (!document.isObject() || !servers.isObject()) {
        config.error = McpTr::tr("%1 has no \"mcpServers\" object").arg(source);
        return config;
    }
    static const QRegularExpression validName(QStringLiteral("^[A-Za-z0-9_.-]{1,64}$"));
    const QJsonObject entries = servers.toObject();
    for (auto it = entries.begin(); it != entries.end(); ++it) {
        const QString name = it.key();
        const auto leaveOut = [&](const QString &why) {
            config.problems.append(
                McpTr::tr("MCP server \"%1\" of %2 left out: %3").arg(name, source, why));
        };
        if (config.servers.size() >= maxServers) {
            leaveOut(McpTr::tr("more than %1 servers").arg(maxServers));
            continue;
        }
        if (!validName.match(name).hasMatch()) {
            leaveOut(McpTr::tr("a name has 1 to 64 letters, digits, '_', '-' or '.'"));
            continue;
        }
        if (!it.value().isObject()) {
            leaveOut(McpTr::tr("its entry is not an object"));
            continue;
        }
        const QJsonObject entry = it.value().toObject();
        McpServerConfig server;
        server.name = name;
        server.source = source;
        server.type = entry.value(QLatin1String("type")).toString();
        if (server.type.isEmpty())
            server.type = !entry.contains(QLatin1String("command"))
                                  && entry.contains(QLatin1String("url"))
                              ? QStringLiteral("http")
                              : QStringLiteral("stdio");
        if (server.type == QLatin1String("streamable-http"))
            server.type = QStringLiteral("http");
        if (server.type == QLatin1String("sse")) {
            leaveOut(
                McpTr::tr("the old HTTP+SSE transport (\"sse\") is not supported; a server "
                          "that speaks Streamable HTTP is configured with \"type\": \"http\""));
            continue;
        }
        if (server.type == QLatin1String("http")) {
            if (const QString problem = parseHttp(entry, &server); !problem.isEmpty())
                leaveOut(problem);
            else
                config.servers.append(server);
            continue;
        }
        if (server.type != QLatin1String("stdio")) {
            leaveOut(McpTr::tr("unknown type \"%1\"").arg(server.type));
            continue;
        }
        server.command = entry.value(QLatin1String("command")).toString();
        if (server.command.isEmpty()) {
            leaveOut(McpTr::tr("no \"command\""));
            continue;
        }
        const QJsonValue args = entry.value(QLatin1String("args"));
        if (!args.isUndefined() && !args.isArray()) {
            leaveOut(McpTr::tr("\"args\" is not a list"));
            continue;
        }
        bool argsOk = true;
        for (const QJsonValue &arg : args.toArray()) {
            argsOk = argsOk && arg.isString();
            server.args.append(arg.toString());
        }
        if (!argsOk) {
            leaveOut(McpTr::tr("\"args\" holds something other than strings"));
            continue;
        }
        const QJsonValue env = entry.value(QLatin1String("env"));
        if (!env.isUndefined() && !env.isObject()) {
            leaveOut(McpTr::tr("\"env\" is not an object"));
            continue;
        }
        bool envOk = true;
        const QJsonObject variables = env.toObject();
        for (auto var = variables.begin(); var != variables.end(); ++var) {
            envOk = envOk && var.value().isString() && !var.key().isEmpty()
                    && !var.key().contains(QLatin1Char('='));
            server.env.insert(var.key(), var.value().toString());
        }
        if (!envOk) {
            leaveOut(McpTr::tr("\"env\" holds something other than NAME: \"value\""));
            continue;
        }
        config.servers.append(server);
    }
    return config;
}

} // namespace AgentCore
