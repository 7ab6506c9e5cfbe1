#pragma once

#include <loop/agentloop.h>

#include <QMutex>
#include <QSet>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>

namespace AgentCore {

/// One tool of the agent as the deferral sees it, for the context view.
struct ToolOfferEntry
{
    QString name;
    QString summary;     ///< its line in ToolSearch's listing (deferred tools)
    qsizetype bytes = 0; ///< its whole definition as a request carries it (JSON)
    bool deferred = false;
    bool loaded = false; ///< deferred, then loaded: offered whole after ToolSearch
    friend bool operator==(const ToolOfferEntry &, const ToolOfferEntry &) = default;
};

/// Which of an agent's tools its requests carry whole and which only by name (deferred), so
/// that dozens of tools (MCP servers') do not cost their schemas on every request.
///
/// The core tools (the built-in coding tools, Task, Skill) always go whole. The others (MCP
/// servers', extensions') go whole while their definitions together stay within
/// wholeToolBudgetBytes; over it the MCP servers' tools are deferred, and the other ones too
/// when they alone are still over. Each deferred tool is a line (name: first line of its
/// description) in the listing of a ToolSearch tool offered after the whole ones; ToolSearch
/// (or a call to a deferred tool) loads tools, which are offered whole after it from the next
/// request on, in the order they were loaded, for the rest of the session: the part of the
/// request before them stays byte for byte the same (the provider's prompt cache).
/// BashOutput and KillShell go with Bash's background commands: deferred without a listing
/// line, loaded by the first command run in the background (loadCompanionsOf).
///
/// Thread-safe: the loop offers on its thread, ToolSearch loads on a tool thread, the session
/// restores and reads on its own.
class ToolDeferral final : public std::enable_shared_from_this<ToolDeferral>
{
public:
    /// Non-core tools go whole up to this many bytes of definitions, about what the built-in
    /// tools take together (8.3 KB): one small server (server-everything's 18 tools are
    /// 5.2 KB, server-filesystem's 14 are 8.1 KB) costs less whole than deferred, which adds
    /// ToolSearch (0.6 KB) and its listing (~0.1 KB a tool), a model turn for each load and,
    /// at each load, a prompt cache written anew from the tools on. Past it (several servers:
    /// five make ~28 KB) the listing is a fraction of the schemas.
    static constexpr qsizetype wholeToolBudgetBytes = 8 * 1024;
    /// ToolSearch's listing stops at this many bytes; the tools left out are counted in its
    /// last line and found by keyword (a server with thousands of tools or huge
    /// descriptions).
    static constexpr qsizetype maxListingBytes = 12 * 1024;
    static constexpr qsizetype maxSummaryChars = 100; ///< a listing line's description

    /// \a onLoaded is told every tool loaded so far each time tools are loaded, on the thread
    /// that loaded them (for the session file). Make it with std::make_shared.
    explicit ToolDeferral(std::function<void(const QStringList &loaded)> onLoaded = {});

    /// What a turn offers of \a tools (AgentLoopConfig::offeredTools): the same list objects
    /// while neither the tools nor the loaded ones changed.
    QList<AgentToolPtr> offer(const QList<AgentToolPtr> &tools);
    /// AgentLoopConfig::toolNotOffered: a call to a deferred tool not loaded loads it and is
    /// refused with why (its arguments were written without its schema; MCP tools act).
    std::optional<ToolResult> notOffered(const QString &toolName);

    /// Makes \a loop offer its tools through this deferral (offeredTools, toolNotOffered) and
    /// load BashOutput and KillShell after a background command (its innermost middleware:
    /// call it after the other middlewares are set). \a self shares it with the hooks.
    static void installInto(AgentLoopConfig &loop, const std::shared_ptr<ToolDeferral> &self);

    /// Loads the deferred tools of \a names (the others are left alone); returns those newly
    /// loaded, in order.
    QStringList load(const QStringList &names);
    /// A Bash call with run_in_background that succeeded loads BashOutput and KillShell.
    void loadCompanionsOf(const ToolCallContext &call, const ToolResult &result);
    QStringList loaded() const;
    /// A resumed session's loaded tools, before its first turn (not told to onLoaded). A
    /// name without a tool (its server not started yet) stays, and is offered once it is.
    void restore(const QStringList &loaded);
    /// Every tool of the last offer, offered or deferred, in the order they were given.
    QList<ToolOfferEntry> entries() const;

    /// The bytes of \a definition as a request carries it (compact JSON).
    static qsizetype definitionBytes(const ToolDefinition &definition);
    /// The first line of \a description, cut at maxSummaryChars.
    static QString summaryOf(const QString &description);
    /// Built-ins, Task, Skill and Diagnostics: always offered whole.
    static bool isCore(const QString &toolName);

private:
    void rebuild(const QList<AgentToolPtr> &tools); // under m_mutex
    QList<AgentToolPtr> offered() const;            // under m_mutex

    std::function<void(const QStringList &loaded)> m_onLoaded;
    mutable QMutex m_mutex;
    QStringList m_loaded;
    QList<AgentToolPtr> m_tools;    // the last offer's input
    QList<AgentToolPtr> m_whole;    // of it, the tools never deferred, in order
    QList<AgentToolPtr> m_deferred; // the deferred ones (listed first, then companions)
    QSet<QString> m_companions;     // of them, those without a listing line
    AgentToolPtr m_search;          // ToolSearch over the listed ones; null: none listed
    QList<AgentToolPtr> m_offer;    // the last offer
    QStringList m_offerLoaded;      // m_loaded when m_offer was made
};

} // namespace AgentCore
