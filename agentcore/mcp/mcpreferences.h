#pragma once

#include <ai/aborttoken.h>

#include <QList>
#include <QMap>
#include <QString>

#include <memory>
#include <optional>

namespace AgentCore {

class McpClient;

/// `/SERVER:PROMPT ARGUMENTS` at the start of a prompt: an MCP server's prompt to send as the
/// user's message. A value type.
struct McpPromptCommand
{
    QString server;
    QString prompt;
    /// The rest of the line, as the person wrote it: NAME=VALUE pairs and values in the order
    /// of the prompt's arguments, quoted like a shell's words ("New York").
    QString arguments;

    /// The command of \a text, or nullopt when it does not start with one.
    static std::optional<McpPromptCommand> parse(const QString &text);
    /// The arguments by the prompt's names \a names: NAME=VALUE for a name of \a names, else
    /// the next name in order. Empty with \a problem on more values than names.
    QMap<QString, QString> argumentsFor(const QStringList &names, QString *problem) const;
};

/// What expandMcpReferences made of a prompt.
struct McpExpansion
{
    QString text;         ///< the message to send
    QString error;        ///< why it cannot be sent; the run should not start
    QStringList attached; ///< "SERVER:URI" of each resource attached
    bool ok() const { return error.isEmpty(); }
};

constexpr int maxMcpResourceMentions = 20;

/// Expands the MCP references in the user's \a text, the way the composer's `/` and `@` do:
/// a leading `/SERVER:PROMPT ARGS` becomes the prompt's messages (McpPromptResult::asText) and
/// every `@SERVER:URI` of a server of \a clients gets the resource's text attached after the
/// message (in a <resource> block; `@` followed by any other name stays text, an address).
/// Blocking: call from a thread other than the clients'. A prompt or resource that cannot be
/// had is an error naming it. At most maxMcpResourceMentions resources are attached.

McpExpansion expandMcpReferences(const QString &text,
                                 const QList<std::shared_ptr<McpClient>> &clients,
                                 const AbortToken &abort = {});

} // namespace AgentCore
