#include "mcpcompletions.h"

#include "mcpservers.h"

#include <mcp/mcpclient.h>
#include <mcp/mcpreferences.h>

#include <QRegularExpression>

#include <algorithm>

namespace Ui {

using AgentCore::McpClient;

namespace {

// As expandMcpReferences reads a mention: `@SERVER:` at the start of a word.
const QRegularExpression &mentionPattern()
{
    static const QRegularExpression pattern(QStringLiteral("(?:^|(?<=\\s))@([A-Za-z0-9_.-]+):\\S"));
    return pattern;
}

// One line, cut: a server's texts are as long as it likes.
QString shortened(const QString &text, int chars = McpCompletions::maxDetailChars)
{
    const QString line = text.simplified();
    return line.size() <= chars ? line : line.left(chars - 1) + QChar(0x2026);
}

// How well \a reference ("SERVER:NAME") or its \a name matches what was typed: 0 begins with it,
// 1 contains it, -1 not at all. "SERVER:" typed in full narrows to that server and the rest is
// matched against the part after it ("everything:feat" finds ".../features.md").
int rankOf(const QString &typed,
           const QString &server,
           const QString &reference,
           const QString &name)
{
    if (reference.startsWith(typed, Qt::CaseInsensitive))
        return 0;
    if (typed.isEmpty())
        return -1;
    QString rest = typed;
    const QString prefix = server + QLatin1Char(':');
    if (typed.startsWith(prefix, Qt::CaseInsensitive))
        rest = typed.mid(prefix.size());
    else if (typed.contains(QLatin1Char(':')) && !reference.contains(typed, Qt::CaseInsensitive))
        return -1; // another server's
    const QString own = reference.mid(prefix.size());
    if (own.startsWith(rest, Qt::CaseInsensitive))
        return 0;
    return own.contains(rest, Qt::CaseInsensitive) || name.contains(rest, Qt::CaseInsensitive) ? 1
                                                                                               : -1;
}

// The servers whose lists are offered: those running and ready.
QList<McpServerEntry> readyServers(const McpServers *servers)
{
    QList<McpServerEntry> ready;
    if (!servers)
        return ready;
    for (const McpServerEntry &entry : servers->servers()) {
        if (entry.client && entry.client->state() == McpClient::State::Ready)
            ready.append(entry);
    }
    return ready;
}

// Those starting with \a typed first, each group in the server's order.
QList<McpCompletion> ranked(const QList<std::pair<int, McpCompletion>> &found, int max)
{
    QList<McpCompletion> first;
    QList<McpCompletion> rest;
    for (const auto &[rank, completion] : found)
        (rank == 0 ? first : rest).append(completion);
    first += rest;
    if (first.size() > max)
        first.resize(max);
    return first;
}

} // namespace

McpCompletions *McpCompletions::of(McpServers *servers)
{
    if (auto existing = servers->findChild<McpCompletions *>(QString(), Qt::FindDirectChildrenOnly))
        return existing;
    return new McpCompletions(servers, servers);
}

McpCompletions::McpCompletions(McpServers *servers, QObject *parent)
    : QObject(parent)
    , m_servers(servers)
{
    m_pool.setMaxThreadCount(2);
    connect(servers, &McpServers::changed, this, &McpCompletions::onServersChanged);
    onServersChanged();
}

McpCompletions::~McpCompletions()
{
    m_abort.abort();
    m_pool.waitForDone();
}

void McpCompletions::onServersChanged()
{
    QList<std::weak_ptr<McpClient>> listed;
    QList<std::shared_ptr<McpClient>> toList;
    for (const McpServerEntry &entry : readyServers(m_servers)) {
        const bool known = std::any_of(m_listed.cbegin(),
                                       m_listed.cend(),
                                       [&entry](const std::weak_ptr<McpClient> &weak) {
                                           return weak.lock() == entry.client;
                                       });
        listed.append(entry.client);
        if (!known)
            toList.append(entry.client);
    }
    // A server that stopped or failed is forgotten: listed again once it is back.
    m_listed = listed;
    for (const std::shared_ptr<McpClient> &client : std::as_const(toList))
        list(client);
    emit changed();
}

void McpCompletions::list(const std::shared_ptr<McpClient> &client)
{
    // The client emits these on the thread that listed, or its own: queued to this one.
    connect(client.get(),
            &McpClient::resourcesChanged,
            this,
            &McpCompletions::changed,
            Qt::UniqueConnection);
    connect(client.get(),
            &McpClient::promptsChanged,
            this,
            &McpCompletions::changed,
            Qt::UniqueConnection);
    const AgentCore::AbortToken abort = m_abort;
    m_pool.start([client, abort] {
        // A server without resources or prompts answers with an error: nothing to offer.
        client->listResources(abort);
        if (!abort.isAborted())
            client->listPrompts(abort);
    });
}

QList<McpCompletion> McpCompletions::resources(const QString &typed, int max) const
{
    QList<std::pair<int, McpCompletion>> found;
    for (const McpServerEntry &entry : readyServers(m_servers)) {
        for (const AgentCore::McpResourceInfo &resource : entry.client->resources()) {
            const QString reference = entry.config.name + QLatin1Char(':') + resource.uri;
            const QString name = resource.title.isEmpty() ? resource.name : resource.title;
            const int rank = rankOf(typed, entry.config.name, reference, name);
            if (rank < 0)
                continue;
            McpCompletion completion;
            completion.text = reference;
            completion.label = QLatin1Char('@') + reference;
            // The name says nothing new when the URI ends with it ("docs://a/features.md").
            completion.detail = shortened(resource.title.isEmpty()
                                                  && resource.uri.endsWith(resource.name)
                                                  && !resource.description.isEmpty()
                                              ? resource.description
                                              : name);
            completion.toolTip = resource.description.isEmpty()
                                     ? name
                                     : name + QLatin1Char('\n')
                                           + shortened(resource.description, 400);
            found.append({rank, completion});
            if (found.size() >= AgentCore::McpClient::maxListItems)
                break;
        }
    }
    return ranked(found, max);
}

QList<McpCompletion> McpCompletions::prompts(const QString &typed, int max) const
{
    QList<std::pair<int, McpCompletion>> found;
    for (const McpServerEntry &entry : readyServers(m_servers)) {
        for (const AgentCore::McpPromptInfo &prompt : entry.client->prompts()) {
            const QString reference = entry.config.name + QLatin1Char(':') + prompt.name;
            const int rank = rankOf(typed, entry.config.name, reference, prompt.title);
            if (rank < 0)
                continue;
            QStringList arguments;
            for (const AgentCore::McpPromptArgument &argument : prompt.arguments)
                arguments.append(argument.required
                                     ? argument.name
                                     : QLatin1Char('[') + argument.name + QLatin1Char(']'));
            McpCompletion completion;
            completion.text = QLatin1Char('/') + reference + QLatin1Char(' ');
            completion.label = QLatin1Char('/') + reference;
            if (!arguments.isEmpty())
                completion.label += QLatin1Char(' ') + arguments.join(QLatin1Char(' '));
            const QString description = prompt.description.isEmpty() ? prompt.title
                                                                     : prompt.description;
            completion.detail = shortened(description);
            QStringList tip{shortened(prompt.description, 400)};
            for (const AgentCore::McpPromptArgument &argument : prompt.arguments) {
                //: A prompt's argument in the tool tip of the composer's / list
                tip.append(tr("%1%2: %3")
                               .arg(argument.name,
                                    argument.required ? tr(" (required)") : QString(),
                                    shortened(argument.description, 200)));
            }
            completion.toolTip = tip.join(QLatin1Char('\n')).trimmed();
            found.append({rank, completion});
        }
    }
    return ranked(found, max);
}

QStringList McpCompletions::namedServers(const QString &text) const
{
    QStringList names;
    if (const auto command = AgentCore::McpPromptCommand::parse(text))
        names.append(command->server);
    if (text.contains(QLatin1Char('@'))) {
        QRegularExpressionMatchIterator mentions = mentionPattern().globalMatch(text);
        while (mentions.hasNext()) {
            const QString name = mentions.next().captured(1);
            if (!names.contains(name))
                names.append(name);
        }
    }
    return names;
}

bool McpCompletions::references(const QString &text) const
{
    if (!m_servers || (!text.contains(QLatin1Char('@')) && !text.trimmed().startsWith(u'/')))
        return false;
    const QStringList names = namedServers(text);
    if (names.isEmpty())
        return false;
    const QList<McpServerEntry> entries = m_servers->servers();
    return std::any_of(entries.cbegin(), entries.cend(), [&names](const McpServerEntry &entry) {
        return !entry.replaced && names.contains(entry.config.name);
    });
}

QList<std::shared_ptr<McpClient>> McpCompletions::clientsFor(const QString &text,
                                                             QString *problem) const
{
    QList<std::shared_ptr<McpClient>> clients;
    if (!m_servers)
        return clients;
    const QStringList names = namedServers(text);
    for (const McpServerEntry &entry : m_servers->servers()) {
        if (entry.replaced)
            continue;
        if (entry.client) {
            clients.append(entry.client); // a failed one starts again when it is asked
            continue;
        }
        if (!names.contains(entry.config.name))
            continue;
        //: Why a message naming an MCP server is not sent
        *problem = !entry.enabled ? tr("the MCP server \"%1\" is switched off (Settings > "
                                       "MCP servers)")
                                        .arg(entry.config.name)
                   : entry.awaitingTrust ? tr("the MCP server \"%1\" is not started: this "
                                              "repository's .mcp.json is not trusted")
                                               .arg(entry.config.name)
                   : !entry.problem.isEmpty()
                       ? tr("the MCP server \"%1\" does not run: %2")
                             .arg(entry.config.name, entry.problem)
                       : tr("the MCP server \"%1\" does not run").arg(entry.config.name);
        return {};
    }
    return clients;
}

} // namespace Ui

#include "moc_mcpcompletions.cpp"
