#pragma once

#include "permissionrequest.h"

#include <loop/agenttypes.h>
#include <tools/shellwriteapplier.h>
#include <tools/shellwrites.h>

#include <QHash>
#include <QString>

namespace AgentCore {

/// The review of what a Bash command wrote on an overlay of the repository (ShellOverlay):
/// the request the reviewer sees (its changes, its output), the reviewer's answer turned into
/// the applier's choices, and the tool result the model gets, which names the changes that
/// were applied and those that were rejected, with the reviewer's feedback. Pure values; used
/// on the tool's thread by the permission middleware, which does the asking and applying.
class ShellWritesReview final
{
public:
    /// At most this many changes are named one by one in the model's result (the review shows
    /// at most ShellWritesReview::maxShown; accept-all and reject-all still cover the rest).
    static constexpr int maxNamed = 40;
    static constexpr int maxShown = 200;

    /// Fills \a request (toolName Bash, its arguments and call id already set) with \a writes
    /// and the command's output from \a commandResult.
    static void describe(const QList<ShellWrite> &writes,
                         const ToolResult &commandResult,
                         PermissionRequest &request);

    /// What the applier is to do for \a answer (nullopt, a deny: nothing).
    static QHash<int, ShellWriteApplier::Choice> choices(
        const PermissionRequest &request, const std::optional<PermissionAnswer> &answer);

    /// The model's result: the command's own text, then which changes reached the repository
    /// and which did not (rejected, or failed with why), the reviewer's feedback, and what
    /// to do about rejected ones. details.other["shellWrites"] lists every change with
    /// "path", "change", "applied" and "rejectedHunks" for the UI. An error result stays one.
    static ToolResult result(const ToolResult &commandResult,
                             const PermissionRequest &request,
                             const std::optional<PermissionAnswer> &answer,
                             const ShellWriteApplier::Outcome &outcome);

    /// The result when the command's writes were thrown away without a review (the run was
    /// aborted, or nobody could be asked): says so, so the model does not assume them.
    static ToolResult discarded(const ToolResult &commandResult,
                                const QList<ShellWrite> &writes,
                                const QString &why);
};

} // namespace AgentCore
