#pragma once

#include "agenttypes.h"

#include <QList>
#include <QString>

#include <memory>
#include <optional>

namespace AgentCore {

/// A hook around every tool call: the outer layer of the middleware onion (DESIGN.md
/// section 1). Implementations are thread-safe: parallel tool calls run the hooks on their
/// pool threads at the same time.
class Extension
{
public:
    virtual ~Extension() = default;

    /// Names the extension in the messages about it ("audit log").
    virtual QString name() const = 0;

    /// Before the call (and before the permission layer). Return a result to block the call:
    /// it becomes the call's result and the tool never runs. May rewrite context.arguments
    /// instead; the loop validates them again against the tool's schema before execute().
    virtual std::optional<ToolResult> before(ToolCallContext &context)
    {
        Q_UNUSED(context)
        return std::nullopt;
    }

    /// After the call, whatever happened: success, failure, a deny, an abort, or a block by
    /// any extension. \a context is the final one (rewritten arguments, permissionDecision);
    /// \a durationMs is the time the whole call spent inside the onion.
    virtual void after(const ToolCallContext &context, const ToolResult &result, qint64 durationMs)
    {
        Q_UNUSED(context)
        Q_UNUSED(result)
        Q_UNUSED(durationMs)
    }
};

using ExtensionPtr = std::shared_ptr<Extension>;

/// The middleware that runs \a extensions around each call: every before() in list order until
/// one blocks, then the inner layers (unless blocked), then every after() in reverse order.
/// Every extension's after() runs for every call, also when an earlier hook blocked or threw.
/// An exception from before() blocks the call with an error result naming the extension; one
/// from after() is dropped. Null entries are skipped. Never throws.
ToolMiddleware makeExtensionMiddleware(QList<ExtensionPtr> extensions);

} // namespace AgentCore
