#include "changearguments.h"

#include <tools/edittool.h>
#include <tools/textfile.h>
#include <tools/writetool.h>

#include <algorithm>

namespace AgentCore::ChangeArguments {

namespace {

// The lines of \a text, each with its '\n' (the last one may have none).
QStringList linesWithEnds(const QString &text)
{
    QStringList lines;
    qsizetype from = 0;
    while (from < text.size()) {
        const qsizetype end = text.indexOf(QLatin1Char('\n'), from);
        if (end < 0) {
            lines.append(text.mid(from));
            break;
        }
        lines.append(text.mid(from, end + 1 - from));
        from = end + 1;
    }
    return lines;
}

QString joined(const QStringList &lines, qsizetype first, qsizetype end)
{
    QString text;
    for (qsizetype i = first; i < end; ++i)
        text += lines.at(i);
    return text;
}

bool occursOnce(const QString &text, const QString &part)
{
    const qsizetype first = text.indexOf(part);
    return first >= 0 && text.indexOf(part, first + 1) < 0;
}

QJsonObject editArguments(const PermissionRequest &request, const QString &text)
{
    const QStringList before = linesWithEnds(request.oldText);
    const QStringList after = linesWithEnds(text);
    qsizetype prefix = 0;
    while (prefix < before.size() && prefix < after.size() && before.at(prefix) == after.at(prefix))
        ++prefix;
    qsizetype suffix = 0;
    while (suffix < before.size() - prefix && suffix < after.size() - prefix
           && before.at(before.size() - 1 - suffix) == after.at(after.size() - 1 - suffix))
        ++suffix;
    QString oldString;
    QString newString;
    for (qsizetype context = 0;; context = context == 0 ? 1 : context * 2) {
        const qsizetype lead = std::min(context, prefix);
        const qsizetype trail = std::min(context, suffix);
        oldString = joined(before, prefix - lead, before.size() - suffix + trail);
        newString = joined(after, prefix - lead, after.size() - suffix + trail);
        if ((lead == prefix && trail == suffix)
            || (!oldString.isEmpty() && occursOnce(request.oldText, oldString)))
            break;
    }
    QJsonObject arguments = request.arguments;
    arguments.insert(QStringLiteral("old_string"), oldString);
    arguments.insert(QStringLiteral("new_string"), newString);
    arguments.insert(QStringLiteral("replace_all"), false);
    return arguments;
}

} // namespace

Prepared prepare(const ToolWorkspace &workspace,
                 const QString &toolName,
                 const QJsonObject &arguments)
{
    if (toolKind(toolName) == ToolKind::Edit) {
        const EditTool::Change change = EditTool::prepare(workspace, arguments);
        return {change.path, change.after, change.oldBody, change.newBody, change.error};
    }
    const WriteTool::Change change = WriteTool::prepare(workspace, arguments);
    return {change.path, change.after, change.oldBody, change.newBody, change.error};
}

QString lfText(const QByteArray &body)
{
    return QString::fromUtf8(TextFile::toLf(body));
}

QJsonObject forText(const PermissionRequest &request, const QString &text)
{
    if (toolKind(request.toolName) == ToolKind::Edit)
        return editArguments(request, text);
    QJsonObject arguments = request.arguments;
    arguments.insert(QStringLiteral("content"), text); // the tool restores CRLF
    return arguments;
}

} // namespace AgentCore::ChangeArguments
