#include "partialchange.h"
#include "translation.h"

#include "changearguments.h"

#include <tools/textfile.h>

#include <QCoreApplication>
#include <QJsonArray>

#include <algorithm>

namespace AgentCore {

namespace {

// A rejected hunk is shown to the model in full up to this many lines.
constexpr int maxHunkLines = 60;

bool isFileTool(const QString &toolName)
{
    return changesFile(toolKind(toolName));
}

using ChangeArguments::lfText;
using ChangeArguments::prepare;
using ChangeArguments::Prepared;

// "lines 40-47", "line 3", "after line 12": where a hunk is in the file before the change.
QString oldRange(const UnifiedDiff::Hunk &hunk)
{
    if (hunk.oldCount == 0) {
        return hunk.oldStart == 0 ? PermissionsTr::tr("at the start of the file")
                                  : PermissionsTr::tr("after line %1").arg(hunk.oldStart);
    }
    if (hunk.oldCount == 1)
        return PermissionsTr::tr("line %1").arg(hunk.oldStart);
    return PermissionsTr::tr("lines %1-%2").arg(hunk.oldStart).arg(hunk.oldStart + hunk.oldCount - 1);
}

QString capped(const QString &hunkText)
{
    QStringList lines = hunkText.split(QLatin1Char('\n'));
    if (lines.size() <= maxHunkLines + 2) // the header, and the empty string after the last '\n'
        return hunkText;
    const qsizetype left = lines.size() - 2 - maxHunkLines;
    lines.resize(maxHunkLines + 1);
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n')
           + TextFile::plural(left,
                              PermissionsTr::tr("... (1 more line of this hunk)"),
                              PermissionsTr::tr("... (%1 more lines of this hunk)"))
           + QLatin1Char('\n');
}

QString numbers(const QList<int> &indexes)
{
    QStringList list;
    for (const int index : indexes)
        list.append(QString::number(index + 1));
    return list.join(QStringLiteral(", "));
}

} // namespace

PartialChange PartialChange::of(const PermissionRequest &request, const PermissionAnswer &answer)
{
    PartialChange change;
    if (answer.choice == PermissionAnswer::Choice::Deny || answer.rejectedHunks.isEmpty()
        || !isFileTool(request.toolName) || request.filePath.isEmpty())
        return change;
    change.m_request = request;
    for (const int index : answer.rejectedHunks) {
        if (index >= 0 && index < change.hunkCount() && !change.m_rejected.contains(index))
            change.m_rejected.append(index);
    }
    std::sort(change.m_rejected.begin(), change.m_rejected.end());
    return change;
}

QString PartialChange::auditText() const
{
    return (m_rejected.size() == 1 ? QStringLiteral("rejected hunk %1 of %2")
                                   : QStringLiteral("rejected hunks %1 of %2"))
        .arg(numbers(m_rejected))
        .arg(hunkCount());
}

PartialChange::Rewrite PartialChange::rewrite(const ToolWorkspace &workspace) const
{
    Rewrite rewrite;
    const Prepared change = prepare(workspace, m_request.toolName, m_request.arguments);
    if (!change.error.isEmpty()) {
        rewrite.refused = ToolResult::makeError(staleMessage(change.error));
        return rewrite;
    }
    if (lfText(change.oldBody) != m_request.oldText || lfText(change.newBody) != m_request.newText) {
        rewrite.refused = ToolResult::makeError(staleMessage(
            PermissionsTr::tr("the file changed while the user was reviewing the change.")));
        return rewrite;
    }

    // What the file must become: the hunks are those of the LF text the reviewer saw; Latin-1
    // maps each byte to one character, so the file's own bytes are spliced line by line,
    // whatever their encoding and line endings. The byte order mark the tool keeps (or adds)
    // goes in front.
    const QByteArray body = m_request.diff
                                .apply(QString::fromLatin1(change.oldBody),
                                       QString::fromLatin1(change.newBody),
                                       m_rejected)
                                .toLatin1();
    const QByteArray expected = change.after.first(change.after.size() - change.newBody.size())
                                + body;
    const QString kept = m_request.diff.apply(m_request.oldText, m_request.newText, m_rejected);
    rewrite.arguments = ChangeArguments::forText(m_request, kept);
    // The tool's own preparation of the rewritten call must give exactly those bytes.
    const Prepared rewritten = prepare(workspace, m_request.toolName, rewrite.arguments);
    if (!rewritten.error.isEmpty() || rewritten.after != expected) {
        rewrite.refused = ToolResult::makeError(failedMessage(
            PermissionsTr::tr(
                "%1 has mixed line endings or bytes that are not UTF-8 in the changed lines, "
                "which %2 cannot write exactly as the user kept them.")
                .arg(m_request.displayPath, m_request.toolName)));
    }
    return rewrite;
}

ToolResult PartialChange::result(const ToolResult &toolResult, const QString &feedback) const
{
    if (toolResult.isError) {
        if (toolResult.details.aborted)
            return toolResult;
        return ToolResult::makeError(failedMessage(toolResult.text()));
    }
    ToolDetails details = toolResult.details;
    details.other.remove(QLatin1String("replacements")); // of the rewritten Edit, not the model's
    QJsonArray rejected;
    for (const int index : m_rejected)
        rejected.append(index);
    details.other.insert(QStringLiteral("rejectedHunks"), rejected);
    details.other.insert(QStringLiteral("hunks"), hunkCount());
    ToolResult result = toolResult;
    result.details = details;
    // The tool's own text describes the rewritten call, which the model never made; what
    // follows it (a note from the loop) stays.
    const ContentBlock applied = ContentBlock::makeText(appliedMessage(feedback));
    if (!result.content.isEmpty() && result.content.first().isText())
        result.content.first() = applied;
    else
        result.content.prepend(applied);
    return result;
}

QString PartialChange::rejectedHunksText() const
{
    QString text;
    for (const int index : m_rejected) {
        text += PermissionsTr::tr("Rejected hunk %1 of %2 (%3 of the file before your change):")
                    .arg(index + 1)
                    .arg(hunkCount())
                    .arg(oldRange(m_request.diff.hunks().at(index)))
                + QLatin1Char('\n') + capped(m_request.diff.hunkToString(index));
    }
    return text;
}

QString PartialChange::appliedMessage(const QString &feedback) const
{
    const int kept = hunkCount() - int(m_rejected.size());
    QString text = PermissionsTr::tr(
                       "The user approved only part of this %1 of %2: %3 of %4 hunks were "
                       "applied and %5. The file now has your change without the rejected "
                       "hunks; their lines are as they were before.")
                       .arg(m_request.toolName,
                            m_request.displayPath,
                            QString::number(kept),
                            QString::number(hunkCount()),
                            TextFile::plural(m_rejected.size(),
                                             PermissionsTr::tr("1 was rejected"),
                                             PermissionsTr::tr("%1 were rejected")))
                   + QLatin1Char('\n') + rejectedHunksText();
    if (!feedback.trimmed().isEmpty())
        text += PermissionsTr::tr("Their feedback: %1").arg(feedback.trimmed()) + QLatin1Char('\n');
    text += PermissionsTr::tr(
                "Do not propose the rejected changes again as they were: if one is still "
                "needed, explain why and ask the user, or solve it another way. %1 is not what "
                "your change would have made it: Read it again before editing near these "
                "lines.")
                .arg(m_request.displayPath);
    return text;
}

QString PartialChange::redoHint() const
{
    return QLatin1Char('\n')
           + PermissionsTr::tr(
                 "Read %1 again; if you redo the change, leave out the hunks the user "
                 "rejected:")
                 .arg(m_request.displayPath)
           + QLatin1Char('\n') + rejectedHunksText();
}

QString PartialChange::failedMessage(const QString &why) const
{
    return PermissionsTr::tr(
               "Nothing was written: the user approved part of this %1 of %2, but applying "
               "the hunks they kept failed: %3")
               .arg(m_request.toolName, m_request.displayPath, why.trimmed())
           + redoHint();
}

QString PartialChange::staleMessage(const QString &why) const
{
    return PermissionsTr::tr(
               "Nothing was written: the user approved part of this %1 of %2, but %2 is no "
               "longer as they reviewed it: %3")
               .arg(m_request.toolName, m_request.displayPath, why.trimmed())
           + redoHint();
}

} // namespace AgentCore
