#include "mcpreferences.h"
#include "translation.h"

#include "mcpclient.h"

#include <QCoreApplication>
#include <QProcess>
#include <QRegularExpression>

namespace AgentCore {

namespace {

// Server names as .mcp.json files spell them; a prompt's or URI's characters up to a space.
const QRegularExpression &commandPattern()
{
    static const QRegularExpression pattern(
        QStringLiteral("^\\s*/([A-Za-z0-9_.-]+):(\\S+)(?:[ \\t]+([^\\n]*))?(?:\\n|$)"));
    return pattern;
}

const QRegularExpression &mentionPattern()
{
    static const QRegularExpression pattern(
        QStringLiteral("(?:^|(?<=\\s))@([A-Za-z0-9_.-]+):(\\S+)"));
    return pattern;
}

std::shared_ptr<McpClient> clientNamed(const QList<std::shared_ptr<McpClient>> &clients,
                                       const QString &name)
{
    for (const std::shared_ptr<McpClient> &client : clients) {
        if (client->config().name == name)
            return client;
    }
    return {};
}

// A URI's last character when it ends a sentence ("read @docs:file://a.md.") is not the URI's.
QString withoutTrailingPunctuation(QString uri)
{
    while (!uri.isEmpty() && QStringLiteral(".,;:!?)]}\"'").contains(uri.back()))
        uri.chop(1);
    return uri;
}

} // namespace

std::optional<McpPromptCommand> McpPromptCommand::parse(const QString &text)
{
    const QRegularExpressionMatch match = commandPattern().match(text);
    if (!match.hasMatch())
        return std::nullopt;
    return McpPromptCommand{match.captured(1), match.captured(2), match.captured(3).trimmed()};
}

QMap<QString, QString> McpPromptCommand::argumentsFor(const QStringList &names,
                                                      QString *problem) const
{
    QMap<QString, QString> values;
    qsizetype next = 0;
    for (const QString &word : QProcess::splitCommand(arguments)) {
        const qsizetype equals = word.indexOf(QLatin1Char('='));
        if (equals > 0 && names.contains(word.left(equals))) {
            values.insert(word.left(equals), word.mid(equals + 1));
            continue;
        }
        while (next < names.size() && values.contains(names.at(next)))
            ++next;
        if (next >= names.size()) {
            *problem = names.isEmpty()
                           ? McpTr::tr("the prompt \"%1\" takes no arguments, but got \"%2\"")
                                 .arg(prompt, word)
                           : McpTr::tr("the prompt \"%1\" takes %2, but got one more: \"%3\"")
                                 .arg(prompt, names.join(QStringLiteral(", ")), word);
            return {};
        }
        values.insert(names.at(next++), word);
    }
    return values;
}

McpExpansion expandMcpReferences(const QString &text,
                                 const QList<std::shared_ptr<McpClient>> &clients,
                                 const AbortToken &abort)
{
    McpExpansion expansion;
    expansion.text = text;
    if (const std::optional<McpPromptCommand> command = McpPromptCommand::parse(text)) {
        const std::shared_ptr<McpClient> client = clientNamed(clients, command->server);
        if (!client) {
            expansion.error = McpTr::tr("/%1:%2: there is no MCP server \"%1\"")
                                  .arg(command->server, command->prompt);
            return expansion;
        }
        QList<McpPromptInfo> prompts = client->prompts();
        if (prompts.isEmpty()) {
            const McpListed<McpPromptInfo> listed = client->listPrompts(abort);
            if (!listed.ok()) {
                expansion.error = McpTr::tr("/%1:%2: %3")
                                      .arg(command->server, command->prompt, listed.error);
                return expansion;
            }
            prompts = listed.items;
        }
        const auto info = std::find_if(prompts.cbegin(),
                                       prompts.cend(),
                                       [&command](const McpPromptInfo &prompt) {
                                           return prompt.name == command->prompt;
                                       });
        QStringList names;
        if (info != prompts.cend()) {
            for (const McpPromptArgument &argument : info->arguments)
                names.append(argument.name);
        }
        QString problem;
        // An unknown prompt is getPrompt's to report, whatever its arguments.
        const QMap<QString, QString> arguments = info == prompts.cend()
                                                     ? QMap<QString, QString>()
                                                     : command->argumentsFor(names, &problem);
        McpGetPromptResult got;
        if (problem.isEmpty())
            got = client->getPrompt(command->prompt, arguments, abort);
        if (!problem.isEmpty() || !got.ok()) {
            expansion.error = McpTr::tr("/%1:%2: %3")
                                  .arg(command->server,
                                       command->prompt,
                                       problem.isEmpty() ? got.error : problem);
            return expansion;
        }
        // The lines after the command's stay the person's own words, after the prompt.
        const QString rest = text.mid(commandPattern().match(text).capturedEnd()).trimmed();
        expansion.text = got.prompt.asText();
        if (!rest.isEmpty())
            expansion.text += QStringLiteral("\n\n") + rest;
    }

    QStringList blocks;
    QRegularExpressionMatchIterator mentions = mentionPattern().globalMatch(expansion.text);
    while (mentions.hasNext()) {
        const QRegularExpressionMatch mention = mentions.next();
        const std::shared_ptr<McpClient> client = clientNamed(clients, mention.captured(1));
        if (!client)
            continue; // an address, or a server this run does not have: the model reads it
        const QString uri = withoutTrailingPunctuation(mention.captured(2));
        const QString reference = mention.captured(1) + QLatin1Char(':') + uri;
        if (expansion.attached.contains(reference))
            continue;
        if (expansion.attached.size() >= maxMcpResourceMentions) {
            expansion.error = McpTr::tr("more than %1 MCP resources are named with @")
                                  .arg(maxMcpResourceMentions);
            return expansion;
        }
        const McpReadResult read = client->readResource(uri, abort);
        if (!read.ok()) {
            expansion.error = McpTr::tr("@%1: %2").arg(reference, read.error);
            return expansion;
        }
        expansion.attached.append(reference);
        blocks.append(QStringLiteral("<resource server=\"%1\" uri=\"%2\">\n%3\n</resource>")
                          .arg(mention.captured(1), uri.toHtmlEscaped(), read.asText()));
    }
    if (!blocks.isEmpty())
        expansion.text += QStringLiteral("\n\n") + blocks.join(QStringLiteral("\n\n"));
    return expansion;
}

} // namespace AgentCore
