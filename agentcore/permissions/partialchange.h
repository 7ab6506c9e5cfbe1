#pragma once

#include "permissionrequest.h"

#include <core/agenttypes.h>
#include <tools/toolworkspace.h>
#include <tools/unifieddiff.h>

#include <QList>
#include <QString>

namespace AgentCore {

/// An Edit or Write the reviewer allowed with some of its hunks unchecked
/// (PermissionAnswer::rejectedHunks): writes the file with the kept hunks only and tells the
/// model exactly which hunks were left out. A partial write is a success with that notice;
/// rejecting every hunk is a deny (the middleware's). A value; used on the tool's thread.
/// Never writes when the file is no longer what the reviewer saw.
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
    int hunkCount() const { return int(m_diff.hunks().size()); }

    /// "rejected hunks 2, 3 of 3" (1-based, as the model is told): for the audit.
    QString auditText() const;

    /// Applies the kept hunks to the file: re-prepares the call as the tool would, refuses
    /// (an error result, file untouched) unless the file and the change are still exactly
    /// the request's oldText and newText, then writes the file's own bytes with only the kept
    /// hunks spliced in (line endings, byte order mark and any non-UTF-8 bytes kept) through
    /// ToolWorkspace::writeFile, which records the result as read. The result's details are
    /// the tool's (diff of what was written, path, displayPath) plus "rejectedHunks"
    /// (0-based) and "hunks". \a feedback: the reviewer's, passed on to the model.
    ToolResult write(ToolWorkspace &workspace, const QString &feedback) const;

private:
    QString rejectedHunksText() const;
    QString appliedMessage(const QString &feedback) const;
    QString staleMessage(const QString &why) const;

    PermissionRequest m_request;
    UnifiedDiff m_diff;
    QList<int> m_rejected;
};

} // namespace AgentCore
