#include "editedchange.h"
#include "translation.h"

#include "changearguments.h"

#include <tools/textfile.h>
#include <tools/unifieddiff.h>

#include <QCoreApplication>

namespace AgentCore {

namespace {

// The user's diff is shown to the model in full up to this many lines.
constexpr int maxUserDiffLines = 200;

} // namespace

EditedChange EditedChange::of(const PermissionRequest &request, const PermissionAnswer &answer)
{
    EditedChange change;
    if (answer.choice == PermissionAnswer::Choice::Deny || !answer.userText
        || !changesFile(toolKind(request.toolName)) || request.filePath.isEmpty())
        return change;
    // An editor may hand back CRLF; the texts of a review are LF throughout.
    QString text = *answer.userText;
    text.replace(QLatin1String("\r\n"), QLatin1String("\n"));
    if (text == request.newText)
        return change;
    change.m_request = request;
    change.m_userText = text;
    change.m_edited = true;
    return change;
}

QString EditedChange::userDiff() const
{
    const QString label = m_request.displayPath.isEmpty() ? m_request.filePath
                                                          : m_request.displayPath;
    return UnifiedDiff::compute(m_request.newText, m_userText)
        .toString(QStringLiteral("a/") + label, QStringLiteral("b/") + label);
}

QString EditedChange::auditText() const
{
    const UnifiedDiff diff = UnifiedDiff::compute(m_request.newText, m_userText);
    return QStringLiteral("edited by the user, +%1 -%2 against the proposal")
        .arg(diff.additions())
        .arg(diff.deletions());
}

QString EditedChange::cappedUserDiff() const
{
    QStringList lines = userDiff().split(QLatin1Char('\n'));
    if (!lines.isEmpty() && lines.last().isEmpty())
        lines.removeLast();
    if (lines.size() <= maxUserDiffLines)
        return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
    const qsizetype left = lines.size() - maxUserDiffLines;
    lines.resize(maxUserDiffLines);
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n')
           + TextFile::plural(left,
                              PermissionsTr::tr("... (1 more line of the user's diff: Read the "
                                                "file for the rest)"),
                              PermissionsTr::tr("... (%1 more lines of the user's diff: Read the "
                                                "file for the rest)"))
           + QLatin1Char('\n');
}

EditedChange::Rewrite EditedChange::rewrite(const ToolWorkspace &workspace) const
{
    Rewrite rewrite;
    const ChangeArguments::Prepared change = ChangeArguments::prepare(workspace,
                                                                      m_request.toolName,
                                                                      m_request.arguments);
    if (!change.error.isEmpty()) {
        rewrite.refused = ToolResult::makeError(
            notWritten(PermissionsTr::tr("%1 is no longer as they reviewed it: %2")
                           .arg(m_request.displayPath, change.error.trimmed())));
        return rewrite;
    }
    if (ChangeArguments::lfText(change.oldBody) != m_request.oldText
        || ChangeArguments::lfText(change.newBody) != m_request.newText) {
        rewrite.refused = ToolResult::makeError(notWritten(
            PermissionsTr::tr("%1 changed on disk while the user was reviewing the change.")
                .arg(m_request.displayPath)));
        return rewrite;
    }
    rewrite.arguments = ChangeArguments::forText(m_request, m_userText);
    // The tool's own preparation of the rewritten call must give exactly the user's text.
    const ChangeArguments::Prepared rewritten = ChangeArguments::prepare(workspace,
                                                                         m_request.toolName,
                                                                         rewrite.arguments);
    if (!rewritten.error.isEmpty() || ChangeArguments::lfText(rewritten.newBody) != m_userText) {
        rewrite.refused = ToolResult::makeError(notWritten(
            PermissionsTr::tr("%1 cannot write the user's version of %2 exactly (%3).")
                .arg(m_request.toolName,
                     m_request.displayPath,
                     rewritten.error.isEmpty()
                         ? PermissionsTr::tr("mixed line endings or bytes that are not UTF-8")
                         : rewritten.error.trimmed())));
    }
    return rewrite;
}

ToolResult EditedChange::result(const ToolResult &toolResult, const QString &feedback) const
{
    if (toolResult.isError) {
        if (toolResult.details.aborted)
            return toolResult;
        return ToolResult::makeError(notWritten(toolResult.text()));
    }
    ToolDetails details = toolResult.details;
    details.other.remove(QLatin1String("replacements")); // of the rewritten Edit, not the model's
    details.other.insert(QStringLiteral("userEdited"), true);
    ToolResult result = toolResult;
    result.details = details;

    QString text = PermissionsTr::tr(
                       "The user edited your proposed %1 of %2 before approving it: %2 now "
                       "has their version, not yours. What they changed against your proposal "
                       "(--- your proposal, +++ what was written):")
                       .arg(m_request.toolName, m_request.displayPath)
                   + QLatin1Char('\n') + cappedUserDiff();
    if (!feedback.trimmed().isEmpty())
        text += PermissionsTr::tr("Their feedback: %1").arg(feedback.trimmed()) + QLatin1Char('\n');
    text += PermissionsTr::tr(
                "Your next edit of %1 starts from the file as it is now (your proposal with "
                "this diff applied); do not undo the user's changes unless they ask.")
                .arg(m_request.displayPath);
    // The tool's own text describes the rewritten call, which the model never made; what
    // follows it (a note from the loop) stays.
    const ContentBlock applied = ContentBlock::makeText(text);
    if (!result.content.isEmpty() && result.content.first().isText())
        result.content.first() = applied;
    else
        result.content.prepend(applied);
    return result;
}

QString EditedChange::notWritten(const QString &why) const
{
    return PermissionsTr::tr(
               "Nothing was written: the user edited this %1 of %2 before approving it, but "
               "their version could not be applied: %3")
               .arg(m_request.toolName, m_request.displayPath, why.trimmed())
           + QLatin1Char('\n')
           + PermissionsTr::tr(
                 "Read %1 again. The user wanted your proposal with these changes (--- your "
                 "proposal, +++ their version):")
                 .arg(m_request.displayPath)
           + QLatin1Char('\n') + cappedUserDiff();
}

} // namespace AgentCore
