#pragma once

#include <loop/agenttypes.h>

#include <QStringList>

#include <functional>

namespace AgentCore {

/// ToolSearch: the model's way to the deferred tools (ToolDeferral). Its description lists
/// them, a line each (at most ToolDeferral::maxListingBytes); a call loads the tools its
/// query names ("select:a,b") or the best matches of its keywords among names and
/// descriptions, which are offered whole from the next request on. Read-only; thread-safe.
class ToolSearchTool final : public AgentTool
{
public:
    static QString toolName() { return QStringLiteral("ToolSearch"); }
    static constexpr int defaultMatches = 5;
    static constexpr int maxMatches = 10; ///< tools one call loads at most

    /// Over \a deferred (listed in this order); \a load loads names and returns those newly
    /// loaded (ToolDeferral::load).
    ToolSearchTool(const QList<ToolDefinition> &deferred,
                   std::function<QStringList(const QStringList &names)> load);

    ToolDefinition definition() const override { return m_definition; }
    /// The deferred tools it lists and loads, in order.
    const QList<ToolDefinition> &listedDefinitions() const { return m_deferred; }
    ToolResult execute(const ToolCallContext &context) override;

    /// The names of \a deferred that \a query selects or matches best (at most \a limit).
    static QStringList match(const QList<ToolDefinition> &deferred, const QString &query, int limit);

private:
    QList<ToolDefinition> m_deferred;
    std::function<QStringList(const QStringList &names)> m_load;
    ToolDefinition m_definition;
};

} // namespace AgentCore
