#include "globtool.h"
#include "translation.h"

#include "filewalker.h"
#include "globpattern.h"
#include "textfile.h"
#include "toolschema.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonArray>

namespace AgentCore {

namespace {

// The leading directories of a pattern that hold no wildcard: only they need walking.
QString literalDirectories(const QString &pattern)
{
    const QStringList parts = pattern.split(QLatin1Char('/'));
    QStringList literal;
    for (qsizetype i = 0; i + 1 < parts.size(); ++i) {
        const QString &part = parts[i];
        if (part.isEmpty() || part == QLatin1String(".") || part == QLatin1String("..")
            || GlobPattern::hasWildcards(part.toUtf8()) || part.contains(QLatin1Char('{')))
            break;
        literal.append(part);
    }
    return literal.join(QLatin1Char('/'));
}

} // namespace

GlobTool::GlobTool(std::shared_ptr<ToolWorkspace> workspace)
    : m_workspace(std::move(workspace))
{}

ToolDefinition GlobTool::definition() const
{
    return {
        toolKindName(ToolKind::Glob),
        ToolsTr::tr(
            "Finds files by path pattern: `*` and `?` match within a path component, `**` any "
            "number of directories; `{a,b}`, `[abc]`; e.g. `**/*.cpp`, `src/**/test_*.py`. "
            "Matched against paths relative to path; files ignored by .gitignore and .git/ "
            "are skipped. Returns up to %1 paths relative to the repository root, sorted.")
            .arg(maxResults),
        QJsonObject{
            {QStringLiteral("type"), QStringLiteral("object")},
            {QStringLiteral("properties"),
             QJsonObject{
                 {QStringLiteral("pattern"), schemaProperty("string")},
                 {QStringLiteral("path"),
                  schemaProperty("string", ToolsTr::tr("Default: the repository root."))},
             }},
            {QStringLiteral("required"), QJsonArray{QStringLiteral("pattern")}},
            {QStringLiteral("additionalProperties"), false},
        },
    };
}

ToolResult GlobTool::execute(const ToolCallContext &context)
{
    const QJsonObject &args = context.arguments;
    QString pattern = args.value(QLatin1String("pattern")).toString().trimmed();
    if (pattern.isEmpty())
        return ToolResult::makeError(ToolsTr::tr("pattern is empty."));
    const QString where = args.value(QLatin1String("path")).toString();
    const ResolvedPath base = m_workspace->resolve(where.isEmpty() ? QStringLiteral(".") : where,
                                                   PathAccess::Read);
    if (!base.ok())
        return ToolResult::makeError(base.error);
    if (!QFileInfo(base.path).isDir())
        return ToolResult::makeError(ToolsTr::tr("%1 is not a directory.").arg(base.displayPath()));
    // Absolute patterns under the searched directory, and "./", are common: make them relative.
    const QString basePrefix = base.path + QLatin1Char('/');
    if (pattern.startsWith(basePrefix))
        pattern = pattern.mid(basePrefix.size());
    while (pattern.startsWith(QLatin1String("./")))
        pattern = pattern.mid(2);
    if (QFileInfo(pattern).isAbsolute()) {
        return ToolResult::makeError(
            ToolsTr::tr("The pattern must be relative to path (%1).").arg(base.displayPath()));
    }

    const GlobPattern glob(pattern.toUtf8(), GlobPattern::PathName | GlobPattern::Braces);
    const QString literal = literalDirectories(pattern);
    QString start = base.path;
    if (!literal.isEmpty()) {
        // `link/*`: the walk never follows links, but it starts wherever the literal part leads.
        // A link out of the searched directory and the repository is not followed: the path
        // argument (which the permission layer sees) must name such a place.
        const ResolvedPath literalPath = m_workspace->resolve(base.path + QLatin1Char('/') + literal,
                                                              PathAccess::Read);
        if (!literalPath.ok())
            return ToolResult::makeError(literalPath.error);
        const bool underBase = literalPath.path == base.path
                               || literalPath.path.startsWith(base.path + QLatin1Char('/'));
        if (!underBase && !literalPath.insideRoot) {
            return ToolResult::makeError(
                ToolsTr::tr("%1 leads through a symbolic link to %2, outside the repository; Glob "
                            "does not follow it. To search there, give that directory as path.")
                    .arg(literal, literalPath.path));
        }
        start = literalPath.path;
    }
    QString prefix = base.insideRoot ? base.relative : base.path; // how results are named
    if (!prefix.isEmpty())
        prefix += QLatin1Char('/');

    QStringList found;
    qint64 total = 0;
    if (QFileInfo(start).isDir()) {
        FileWalker walker(start);
        walker.setAbortToken(context.abort);
        const QByteArray literalPrefix = literal.isEmpty() ? QByteArray() : literal.toUtf8() + '/';
        QByteArray candidate = literalPrefix;
        walker.walk([&](QByteArrayView relative, bool isDirectory) {
            if (isDirectory)
                return FileWalker::Visit::Continue;
            candidate.truncate(literalPrefix.size());
            candidate.append(relative);
            if (glob.matches(candidate)) {
                if (++total <= maxResults)
                    found.append(prefix + QString::fromUtf8(candidate));
            }
            return FileWalker::Visit::Continue;
        });
    }
    ToolDetails details;
    details.path = base.path;
    details.other = {{QStringLiteral("pattern"), pattern},
                     {QStringLiteral("count"), double(total)},
                     {QStringLiteral("truncated"), total > maxResults}};
    if (total == 0)
        return ToolResult::makeText(ToolsTr::tr("No files found matching %1.").arg(pattern),
                                    details);
    QString text = TextFile::plural(total,
                                    ToolsTr::tr("Found 1 file."),
                                    ToolsTr::tr("Found %1 files."))
                   + QLatin1Char('\n') + found.join(QLatin1Char('\n'));
    if (total > maxResults) {
        text += QLatin1Char('\n')
                + ToolsTr::tr("[Showing the first %1 of %2 files. Use a more specific pattern or "
                              "path.]")
                      .arg(maxResults)
                      .arg(total);
    }
    return ToolResult::makeText(text, details);
}

} // namespace AgentCore
