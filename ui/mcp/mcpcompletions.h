#pragma once

#include <ai/aborttoken.h>

#include <QList>
#include <QObject>
#include <QPointer>
#include <QThreadPool>

#include <memory>

namespace AgentCore {
class McpClient;
}

namespace Ui {

class McpServers;

/// One entry the composer offers for an MCP server's resource or prompt.
struct McpCompletion
{
    QString text;   ///< what is put in: "SERVER:URI" after an `@`, "/SERVER:PROMPT " at the start
    QString label;  ///< the entry's first part: the reference as it will read
    QString detail; ///< the resource's name or title; the prompt's description and arguments
    QString toolTip;
};

/// What the composer knows of the ready MCP servers of a repository (McpServers): their
/// resources for `@` and their prompts for `/`, from the listings each McpClient keeps.
///
/// The listings are fetched once per started server, on a thread of this object's pool (the
/// UI thread never waits on a server), and kept up to date by the client when the server says
/// they changed; changed() follows every new listing and every change of the servers. The
/// lookups (resources(), prompts(), references()) only read what is kept. UI thread.
class McpCompletions final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(McpCompletions)
public:
    static constexpr int maxDetailChars = 90;

    /// The one of \a servers, made on the first call (a child of \a servers, gone with it).
    static McpCompletions *of(McpServers *servers);

    explicit McpCompletions(McpServers *servers, QObject *parent = nullptr);
    ~McpCompletions() override; ///< stops the listings under way and waits for them

    /// The resources whose "SERVER:URI" or name contains \a typed (case-insensitive); those
    /// starting with it first. At most \a max.
    QList<McpCompletion> resources(const QString &typed, int max) const;
    /// The prompts whose "SERVER:PROMPT" contains \a typed (without the `/`), likewise.
    QList<McpCompletion> prompts(const QString &typed, int max) const;

    /// True when \a text starts with `/SERVER:PROMPT` or holds an `@SERVER:URI` that names a
    /// configured server of the repository: it is to be expanded (expandMcpReferences) before
    /// it is sent. Cheap: text without an `@` or a leading `/` is not even scanned.
    bool references(const QString &text) const;
    /// The clients to expand \a text with; empty with \a problem when it names a configured
    /// server that does not run (off, not trusted, not started).
    QList<std::shared_ptr<AgentCore::McpClient>> clientsFor(const QString &text,
                                                            QString *problem) const;

signals:
    void changed();

private:
    void onServersChanged();
    void list(const std::shared_ptr<AgentCore::McpClient> &client);
    QStringList namedServers(const QString &text) const;

    QPointer<McpServers> m_servers;
    QThreadPool m_pool;
    AgentCore::AbortToken m_abort;
    /// Listed since they were last Ready; a restarted server is listed again.
    QList<std::weak_ptr<AgentCore::McpClient>> m_listed;
};

} // namespace Ui
