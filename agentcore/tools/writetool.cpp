#include "writetool.h"
#include "translation.h"

#include "textfile.h"
#include "toolschema.h"
#include "unifieddiff.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonArray>

namespace AgentCore {

WriteTool::WriteTool(std::shared_ptr<ToolWorkspace> workspace)
    : m_workspace(std::move(workspace))
{}

ToolDefinition WriteTool::definition() const
{
    return {
        toolKindName(ToolKind::Write),
        ToolsTr::tr(
            "Writes a whole file: creates it (and missing directories) or replaces an existing "
            "file you read in this session, unchanged since, keeping its line endings and byte "
            "order mark. Files outside the repository cannot be written."),
        QJsonObject{
            {QStringLiteral("type"), QStringLiteral("object")},
            {QStringLiteral("properties"),
             QJsonObject{
                 {QStringLiteral("file_path"), schemaProperty("string")},
                 {QStringLiteral("content"),
                  schemaProperty("string", ToolsTr::tr("The whole file."))},
             }},
            {QStringLiteral("required"),
             QJsonArray{QStringLiteral("file_path"), QStringLiteral("content")}},
            {QStringLiteral("additionalProperties"), false},
        },
    };
}

WriteTool::Change WriteTool::prepare(const ToolWorkspace &workspace, const QJsonObject &args)
{
    Change change;
    const QString content = args.value(QLatin1String("content")).toString();
    change.path = workspace.resolve(args.value(QLatin1String("file_path")).toString(),
                                    PathAccess::Write);
    const ResolvedPath &path = change.path;
    if (!path.ok()) {
        change.error = path.error;
        return change;
    }
    if (QFileInfo(path.path).isDir()) {
        change.error = ToolsTr::tr("%1 is a directory, not a file.").arg(path.displayPath());
        return change;
    }

    TextFile before;
    if (path.exists) {
        QString error;
        if (!before.load(path.path, 64 * 1024 * 1024, &error)) {
            change.error = error;
            return change;
        }
        change.before = before.bytes;
        if (const QString stale = workspace.checkFreshness(path, before.bytes); !stale.isEmpty()) {
            change.error = stale;
            return change;
        }
    }

    // The model never sees CRs or the BOM (Read drops them): keep the file's conventions.
    QByteArray body = content.toUtf8();
    const bool bom = before.bom && !body.startsWith("\xEF\xBB\xBF");
    if (path.exists && before.crlf)
        body = TextFile::toCrlf(body);
    change.after = bom ? QByteArray("\xEF\xBB\xBF") + body : body;
    change.oldBody = before.body();
    change.newBody = body;
    change.created = !path.exists;
    return change;
}

ToolResult WriteTool::execute(const ToolCallContext &context)
{
    const Change change = prepare(*m_workspace, context.arguments);
    if (!change.error.isEmpty())
        return ToolResult::makeError(change.error);
    const ResolvedPath &path = change.path;
    const QString name = path.displayPath();
    const QByteArray &body = change.newBody;
    if (const QString failed = m_workspace->writeFile(path, change.after); !failed.isEmpty())
        return ToolResult::makeError(failed);

    const QString label = path.insideRoot ? path.relative : path.path;
    const UnifiedDiff diff = UnifiedDiff::compute(QString::fromUtf8(TextFile::toLf(change.oldBody)),
                                                  QString::fromUtf8(TextFile::toLf(body)));
    ToolDetails details = diff.toDetails(path.exists ? QStringLiteral("a/") + label
                                                     : QStringLiteral("/dev/null"),
                                         QStringLiteral("b/") + label);
    details.path = path.path;
    details.displayPath = name;
    details.created = !path.exists;
    const int lines = int(TextFile::fromBytes(body).lines().size());
    const QString count = TextFile::plural(lines, ToolsTr::tr("1 line"), ToolsTr::tr("%1 lines"));
    const QString text = path.exists
                             ? ToolsTr::tr("Wrote %1 (%2): the previous content was replaced.")
                                   .arg(name, count)
                             : ToolsTr::tr("Created %1 (%2).").arg(name, count);
    return ToolResult::makeText(text, details);
}

} // namespace AgentCore
