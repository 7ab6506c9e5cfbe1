#pragma once

#include "permissionrequest.h"

#include <loop/agenttypes.h>
#include <tools/toolworkspace.h>
#include <tools/unifieddiff.h>

#include <QList>
#include <QString>

#include <optional>

namespace AgentCore {

/// An Edit or Write the reviewer allowed with some of its hunks unchecked
/// (PermissionAnswer::rejectedHunks): rewrites the call so that the tool itself applies only
/// the kept hunks of the diff the reviewer saw (PermissionRequest::diff, never recomputed), and
/// tells the model exactly which hunks were left out. A partial write is a success with that
/// notice; rejecting every hunk is a deny (the middleware's). A value; used on the tool's
/// thread. Writes nothing itself: the rewritten call goes through the rest of the onion, the
/// second argument validation and the effect hooks like any other.
class PartialChange final
{
public:
    /// The hunks \a answer rejects, checked against \a request's diff: sorted, unique, indexes
    /// out of range dropped. Nothing is rejected for a Deny, or for anything but an Edit or
    /// Write whose change PermissionReview described.
    static PartialChange of(const PermissionRequest &request, const PermissionAnswer &answer);

    bool isPartial() const { return !m_rejected.isEmpty(); }
    bool rejectsEverything() const { return isPartial() && m_rejected.size() == hunkCount(); }
    const QList<int> &rejected() const { return m_rejected; }
    int hunkCount() const { return int(m_request.diff.hunks().size()); }

    /// "rejected hunks 2, 3 of 3" (1-based, as the model is told): for the audit.
    QString auditText() const;

    /// The call made to apply only the kept hunks, or why it cannot be.
    struct Rewrite
    {
        QJsonObject arguments; ///< the same tool's: a Write of the kept content, or an Edit
                               ///< of the lines around the kept hunks
        std::optional<ToolResult> refused; ///< set: do not run anything, return this
    };
    /// Re-prepares the call as the tool would and refuses (an error result naming the
    /// rejected hunks) unless the file and the change are still exactly the request's
    /// oldText and newText. Otherwise rewrites the arguments so the tool writes the file's
    /// own bytes with only the kept hunks spliced in (line endings, byte order mark and the
    /// bytes outside the changed lines kept), checked with the tool's own prepare(): a file
    /// whose kept hunks the arguments cannot express exactly (mixed line endings, bytes that
    /// are not UTF-8 in the changed lines) is refused too. Reads the file; writes nothing.
    Rewrite rewrite(const ToolWorkspace &workspace) const;

    /// What the model gets for the rewritten call's \a toolResult: on success the tool's
    /// details (diff of what was written, path, displayPath) plus "rejectedHunks" (0-based)
    /// and "hunks", and a text naming the kept and rejected hunks with \a feedback (the
    /// reviewer's) in place of the tool's first text block; on failure an error saying nothing
    /// was written and why; an aborted result as it is.
    ToolResult result(const ToolResult &toolResult, const QString &feedback) const;

private:
    QString rejectedHunksText() const;
    /// What the model should do next: read the file again, leaving out the rejected hunks.
    QString redoHint() const;
    QString appliedMessage(const QString &feedback) const;
    QString staleMessage(const QString &why) const;
    QString failedMessage(const QString &why) const;

    PermissionRequest m_request;
    QList<int> m_rejected;
};

} // namespace AgentCore
