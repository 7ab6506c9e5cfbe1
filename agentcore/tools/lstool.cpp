#include "lstool.h"
#include "translation.h"

#include "filewalker.h"
#include "textfile.h"
#include "toolschema.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonArray>

namespace AgentCore {

LsTool::LsTool(std::shared_ptr<ToolWorkspace> workspace)
    : m_workspace(std::move(workspace))
{}

ToolDefinition LsTool::definition() const
{
    QJsonObject depth = schemaProperty("integer", ToolsTr::tr("Levels (default 1)."));
    depth.insert(QStringLiteral("minimum"), 1);
    depth.insert(QStringLiteral("maximum"), maxDepth);
    QJsonObject ignore = schemaProperty("array",
                                        ToolsTr::tr("Glob patterns of entries to leave out."));
    ignore.insert(QStringLiteral("items"),
                  QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}});
    return {
        toolKindName(ToolKind::Ls),
        ToolsTr::tr(
            "Lists a directory as an indented tree; directories end in '/'. Entries ignored "
            "by .gitignore and .git/ are left out."),
        QJsonObject{
            {QStringLiteral("type"), QStringLiteral("object")},
            {QStringLiteral("properties"),
             QJsonObject{
                 {QStringLiteral("path"),
                  schemaProperty("string", ToolsTr::tr("Default: the repository root."))},
                 {QStringLiteral("depth"), depth},
                 {QStringLiteral("ignore"), ignore},
             }},
            {QStringLiteral("additionalProperties"), false},
        },
    };
}

ToolResult LsTool::execute(const ToolCallContext &context)
{
    const QJsonObject &args = context.arguments;
    const QString where = args.value(QLatin1String("path")).toString();
    const ResolvedPath path = m_workspace->resolve(where.isEmpty() ? QStringLiteral(".") : where,
                                                   PathAccess::Read);
    if (!path.ok())
        return ToolResult::makeError(path.error);
    const QFileInfo info(path.path);
    if (!info.exists())
        return ToolResult::makeError(ToolsTr::tr("Directory not found: %1").arg(path.displayPath()));
    if (!info.isDir()) {
        return ToolResult::makeError(
            ToolsTr::tr("%1 is a file, not a directory; use Read to see it.")
                .arg(path.displayPath()));
    }
    const int depth = int(
        std::clamp<qint64>(args.value(QLatin1String("depth")).toInteger(1), 1, maxDepth));
    QList<QByteArray> excluded;
    for (const QJsonValue &pattern : args.value(QLatin1String("ignore")).toArray()) {
        if (!pattern.toString().isEmpty())
            excluded.append('!' + pattern.toString().toUtf8());
    }

    FileWalker walker(path.path);
    walker.setMaxDepth(depth);
    walker.setOverrideGlobs(excluded);
    walker.setAbortToken(context.abort);
    QStringList lines;
    int total = 0;
    int directories = 0;
    walker.walk([&](QByteArrayView relative, bool isDirectory) {
        ++total;
        directories += isDirectory ? 1 : 0;
        if (total > maxEntries)
            return FileWalker::Visit::Continue;
        const qsizetype level = relative.count('/');
        const qsizetype slash = relative.lastIndexOf('/');
        QString line(int(level + 1) * 2, QLatin1Char(' '));
        line += QString::fromUtf8(relative.sliced(slash + 1));
        if (isDirectory)
            line += QLatin1Char('/');
        lines.append(line);
        return FileWalker::Visit::Continue;
    });

    const QString name = path.displayPath().isEmpty() ? QStringLiteral(".") : path.displayPath();
    QString text = name + QLatin1Char('/');
    if (!lines.isEmpty())
        text += QLatin1Char('\n') + lines.join(QLatin1Char('\n'));
    else
        text += QLatin1Char('\n') + ToolsTr::tr("  (empty)");
    if (total > maxEntries) {
        text += QLatin1Char('\n')
                + ToolsTr::tr(
                      "[Showing %1 of %2 entries. List a subdirectory or use a smaller depth.]")
                      .arg(maxEntries)
                      .arg(total);
    }
    if (walker.ignoredCount() > 0) {
        text += QLatin1Char('\n')
                + TextFile::plural(walker.ignoredCount(),
                                   ToolsTr::tr(
                                       "(1 entry left out by .gitignore or ignore patterns)"),
                                   ToolsTr::tr(
                                       "(%1 entries left out by .gitignore or ignore patterns)"));
    }
    ToolDetails details;
    details.path = path.path;
    details.other = {{QStringLiteral("entries"), total},
                     {QStringLiteral("directories"), directories},
                     {QStringLiteral("ignored"), walker.ignoredCount()},
                     {QStringLiteral("truncated"), total > maxEntries}};
    return ToolResult::makeText(text, details);
}

} // namespace AgentCore
