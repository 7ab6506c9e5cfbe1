#pragma once

#include "permissionrequest.h"

#include <loop/agenttypes.h>
#include <tools/toolworkspace.h>

#include <QJsonObject>
#include <QString>

#include <optional>

namespace AgentCore {

/// An Edit or Write the reviewer changed before allowing it (PermissionAnswer::userText):
/// rewrites the call so that the tool itself writes exactly the user's version, through the
/// same checks as the model's call (the file must still be as reviewed, the path rules, the
/// second argument validation, the effect hooks that checkpoints hang on), and tells the model
/// what the user changed against its proposal as a unified diff, so that its next edit starts
/// from the file as it is. The tool records what it wrote as read: the model's next Edit of
/// the file is not refused as stale. A value; used on the tool's thread. Writes nothing itself.
class EditedChange final
{
public:
    /// The user's version of \a answer, for an allowed Edit or Write whose change
    /// PermissionReview described; not edited when the answer carries none, or the proposal
    /// itself.
    static EditedChange of(const PermissionRequest &request, const PermissionAnswer &answer);

    bool isEdited() const { return m_edited; }
    /// The user's version is the file as it is: nothing would be written (a deny).
    bool changesNothing() const { return m_edited && m_userText == m_request.oldText; }
    const QString &userText() const { return m_userText; }

    /// What the user changed against the proposal: "--- a/PATH" (the model's proposal),
    /// "+++ b/PATH" (the user's version), as `diff -u` prints it.
    QString userDiff() const;
    /// "edited by the user, +2 -1 against the proposal": for the audit.
    QString auditText() const;

    struct Rewrite
    {
        QJsonObject arguments; ///< the same tool's: a Write of the user's version, or an Edit
        std::optional<ToolResult> refused; ///< set: do not run anything, return this
    };
    /// Re-prepares the model's call and refuses (an error naming the user's changes) unless
    /// the file and the change are still exactly the request's oldText and newText; otherwise
    /// the arguments that make the tool write the user's version, checked with the tool's own
    /// prepare(): a version the arguments cannot express exactly is refused too.
    Rewrite rewrite(const ToolWorkspace &workspace) const;

    /// What the model gets for the rewritten call's \a toolResult: on success the tool's
    /// details (the diff of what was written) plus "userEdited": true, and a text with the
    /// user's diff and \a feedback in place of the tool's first text block; on failure an error
    /// saying nothing was written, why, and what the user wanted; an aborted result as it is.
    ToolResult result(const ToolResult &toolResult, const QString &feedback) const;

private:
    QString cappedUserDiff() const;
    QString notWritten(const QString &why) const;

    PermissionRequest m_request;
    QString m_userText;
    bool m_edited = false;
};

} // namespace AgentCore
