#include "partialchange.h"

#include <tools/edittool.h>
#include <tools/textfile.h>
#include <tools/writetool.h>

#include <QCoreApplication>
#include <QJsonArray>

#include <algorithm>

namespace AgentCore {

namespace {
struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(AgentCore::PartialChange)
};

// A rejected hunk is shown to the model in full up to this many lines.
constexpr int maxHunkLines = 60;

bool isFileTool(const QString &toolName)
{
    return changesFile(toolKind(toolName));
}

// What Edit or Write would do to the file now.
struct Prepared
{
    ResolvedPath path;
    QByteArray after; ///< the bytes the tool would write
    QByteArray oldBody;
    QByteArray newBody;
    QString error;
};

Prepared prepare(const ToolWorkspace &workspace, const PermissionRequest &request)
{
    if (toolKind(request.toolName) == ToolKind::Edit) {
        const EditTool::Change change = EditTool::prepare(workspace, request.arguments);
        return {change.path, change.after, change.oldBody, change.newBody, change.error};
    }
    const WriteTool::Change change = WriteTool::prepare(workspace, request.arguments);
    return {change.path, change.after, change.oldBody, change.newBody, change.error};
}

QString lfText(const QByteArray &body)
{
    return QString::fromUtf8(TextFile::toLf(body));
}

// "lines 40-47", "line 3", "after line 12": where a hunk is in the file before the change.
QString oldRange(const UnifiedDiff::Hunk &hunk)
{
    if (hunk.oldCount == 0) {
        return hunk.oldStart == 0 ? Tr::tr("at the start of the file")
                                  : Tr::tr("after line %1").arg(hunk.oldStart);
    }
    if (hunk.oldCount == 1)
        return Tr::tr("line %1").arg(hunk.oldStart);
    return Tr::tr("lines %1-%2").arg(hunk.oldStart).arg(hunk.oldStart + hunk.oldCount - 1);
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
                              Tr::tr("... (1 more line of this hunk)"),
                              Tr::tr("... (%1 more lines of this hunk)"))
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
    change.m_diff = UnifiedDiff::compute(request.oldText, request.newText);
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

ToolResult PartialChange::write(ToolWorkspace &workspace, const QString &feedback) const
{
    const Prepared change = prepare(workspace, m_request);
    if (!change.error.isEmpty())
        return ToolResult::makeError(staleMessage(change.error));
    if (lfText(change.oldBody) != m_request.oldText || lfText(change.newBody) != m_request.newText)
        return ToolResult::makeError(
            staleMessage(Tr::tr("the file changed while the user was reviewing the change.")));

    // The hunks are those of the LF text the reviewer saw; Latin-1 maps each byte to one
    // character, so the file's own bytes are spliced line by line, whatever their encoding
    // and line endings.
    const QByteArray body = m_diff
                                .apply(QString::fromLatin1(change.oldBody),
                                       QString::fromLatin1(change.newBody),
                                       m_rejected)
                                .toLatin1();
    // The byte order mark the tool keeps (or adds) in front of the body.
    const QByteArray bom = change.after.first(change.after.size() - change.newBody.size());
    if (const QString failed = workspace.writeFile(change.path, bom + body); !failed.isEmpty())
        return ToolResult::makeError(failed);

    const ResolvedPath &path = change.path;
    const QString label = path.insideRoot ? path.relative : path.path;
    ToolDetails details = UnifiedDiff::compute(m_request.oldText, lfText(body))
                              .toDetails(m_request.newFile ? QStringLiteral("/dev/null")
                                                           : QStringLiteral("a/") + label,
                                         QStringLiteral("b/") + label);
    details.path = path.path;
    details.displayPath = path.displayPath();
    if (toolKind(m_request.toolName) == ToolKind::Write)
        details.created = m_request.newFile;
    QJsonArray rejected;
    for (const int index : m_rejected)
        rejected.append(index);
    details.other.insert(QStringLiteral("rejectedHunks"), rejected);
    details.other.insert(QStringLiteral("hunks"), hunkCount());
    return ToolResult::makeText(appliedMessage(feedback), details);
}

QString PartialChange::rejectedHunksText() const
{
    QString text;
    for (const int index : m_rejected) {
        text += Tr::tr("Rejected hunk %1 of %2 (%3 of the file before your change):")
                    .arg(index + 1)
                    .arg(hunkCount())
                    .arg(oldRange(m_diff.hunks().at(index)))
                + QLatin1Char('\n') + capped(m_diff.hunkToString(index));
    }
    return text;
}

QString PartialChange::appliedMessage(const QString &feedback) const
{
    const int kept = hunkCount() - int(m_rejected.size());
    QString text = Tr::tr("The user approved only part of this %1 of %2: %3 of %4 hunks were "
                          "applied and %5. The file now has your change without the rejected "
                          "hunks; their lines are as they were before.")
                       .arg(m_request.toolName,
                            m_request.displayPath,
                            QString::number(kept),
                            QString::number(hunkCount()),
                            TextFile::plural(m_rejected.size(),
                                             Tr::tr("1 was rejected"),
                                             Tr::tr("%1 were rejected")))
                   + QLatin1Char('\n') + rejectedHunksText();
    if (!feedback.trimmed().isEmpty())
        text += Tr::tr("Their feedback: %1").arg(feedback.trimmed()) + QLatin1Char('\n');
    text += Tr::tr("Do not propose the rejected changes again as they were: if one is still "
                   "needed, explain why and ask the user, or solve it another way. %1 is not what "
                   "your change would have made it: Read it again before editing near these "
                   "lines.")
                .arg(m_request.displayPath);
    return text;
}

QString PartialChange::staleMessage(const QString &why) const
{
    return Tr::tr("Nothing was written: the user approved part of this %1 of %2, but %2 is no "
                  "longer as they reviewed it: %3")
               .arg(m_request.toolName, m_request.displayPath, why.trimmed())
           + QLatin1Char('\n')
           + Tr::tr("Read %1 again; if you redo the change, leave out the hunks the user "
                    "rejected:")
                 .arg(m_request.displayPath)
           + QLatin1Char('\n') + rejectedHunksText();
}

} // namespace AgentCore
