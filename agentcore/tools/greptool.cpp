#include "greptool.h"
#include "translation.h"

#include "builtinsearcher.h"
#include "pathsuggestions.h"
#include "ripgrepsearcher.h"
#include "textfile.h"
#include "toolschema.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonArray>

namespace AgentCore {

namespace {

QJsonObject count(const QString &description)
{
    QJsonObject object = schemaProperty("integer", description);
    object.insert(QStringLiteral("minimum"), 0);
    return object;
}

const QString filesMode = QStringLiteral("files_with_matches");
const QString contentMode = QStringLiteral("content");
const QString countMode = QStringLiteral("count");

} // namespace

GrepTool::GrepTool(std::shared_ptr<ToolWorkspace> workspace, Backend backend)
    : m_workspace(std::move(workspace))
{
    if (backend != Backend::BuiltIn)
        m_ripgrep = RipgrepSearcher::findExecutable();
    if (backend == Backend::Ripgrep && m_ripgrep.isEmpty())
        m_ripgrep = QStringLiteral("rg"); // fails visibly at execute()
}

QString GrepTool::backendName() const
{
    return m_ripgrep.isEmpty() ? QStringLiteral("builtin") : QStringLiteral("ripgrep");
}

ToolDefinition GrepTool::definition() const
{
    // Descriptions say only what the names (ripgrep's flags) and the schema do not: every
    // request carries them.
    QJsonObject mode = schemaProperty("string",
                                      ToolsTr::tr("files_with_matches: paths; content: "
                                                  "path:line:text (-n, -A, -B, -C apply); "
                                                  "count: path:count."));
    mode.insert(QStringLiteral("enum"), QJsonArray{filesMode, contentMode, countMode});
    mode.insert(QStringLiteral("default"), filesMode);
    QJsonObject numbers = schemaProperty("boolean");
    numbers.insert(QStringLiteral("default"), true);
    QJsonObject head = schemaProperty("integer", ToolsTr::tr("First N output lines."));
    head.insert(QStringLiteral("minimum"), 1);
    return {
        toolKindName(ToolKind::Grep),
        ToolsTr::tr(
            "Searches file contents with a regular expression (ripgrep syntax: escape regex "
            "characters for a literal search); a match never spans lines. Skips files ignored "
            "by .gitignore, binary files and .git/. Paths are relative to the repository root, "
            "sorted."),
        QJsonObject{
            {QStringLiteral("type"), QStringLiteral("object")},
            {QStringLiteral("properties"),
             QJsonObject{
                 {QStringLiteral("pattern"), schemaProperty("string")},
                 {QStringLiteral("path"),
                  schemaProperty("string",
                                 ToolsTr::tr("File or directory (default: the repository "
                                             "root)."))},
                 {QStringLiteral("glob"),
                  schemaProperty("string",
                                 ToolsTr::tr("Only files matching it (`*.cpp`, "
                                             "`src/**/*.{h,cpp}`; `!glob` excludes); without "
                                             "'/' it matches names at any depth."))},
                 {QStringLiteral("output_mode"), mode},
                 {QStringLiteral("-i"), schemaProperty("boolean")},
                 {QStringLiteral("-n"), numbers},
                 {QStringLiteral("-A"), count({})},
                 {QStringLiteral("-B"), count({})},
                 {QStringLiteral("-C"), count({})},
                 {QStringLiteral("head_limit"), head},
             }},
            {QStringLiteral("required"), QJsonArray{QStringLiteral("pattern")}},
            {QStringLiteral("additionalProperties"), false},
        },
    };
}

QString GrepTool::format(const GrepOutcome &outcome,
                         GrepQuery::Mode mode,
                         const QString &prefix,
                         bool lineNumbers,
                         bool context,
                         int headLimit,
                         bool *truncated)
{
    QStringList out;
    qint64 entries = 0; // files, lines or counts: what head_limit counts
    qint64 matches = 0;
    qint64 shown = 0;
    qsizetype chars = 0;
    bool cut = false;
    const auto add = [&](const QString &line, bool isEntry) {
        if (isEntry)
            ++entries;
        if (cut || (headLimit > 0 && entries > headLimit) || chars + line.size() > maxOutputChars) {
            cut = true;
            return;
        }
        chars += line.size() + 1;
        out.append(line);
        if (isEntry)
            ++shown;
    };
    const auto clip = [](const QString &text) -> QString {
        if (text.size() <= maxLineLength)
            return text;
        return text.left(maxLineLength)
               + ToolsTr::tr("... [%1 more characters]").arg(text.size() - maxLineLength);
    };

    for (const GrepFile &file : outcome.files) {
        matches += file.count;
        const QString path = prefix + file.path;
        switch (mode) {
        case GrepQuery::Mode::FilesWithMatches:
            add(path, true);
            break;
        case GrepQuery::Mode::Count:
            add(path + QLatin1Char(':') + QString::number(file.count), true);
            break;
        case GrepQuery::Mode::Content: {
            qint64 previous = -1;
            for (const GrepLine &line : file.lines) {
                if (context && (previous < 0 ? !out.isEmpty() : line.number != previous + 1))
                    add(QStringLiteral("--"), false);
                previous = line.number;
                const QChar separator = line.match ? QLatin1Char(':') : QLatin1Char('-');
                QString text = path + separator;
                if (lineNumbers)
                    text += QString::number(line.number) + separator;
                add(text + clip(line.text), true);
            }
            break;
        }
        }
    }

    if (outcome.files.isEmpty())
        return ToolsTr::tr("No matches found.");
    const qint64 fileCount = outcome.files.size();
    const QString header = mode == GrepQuery::Mode::FilesWithMatches
                               ? TextFile::plural(fileCount,
                                                  ToolsTr::tr("Found 1 file."),
                                                  ToolsTr::tr("Found %1 files."))
                               : ToolsTr::tr("%1 in %2.")
                                     .arg(TextFile::plural(matches,
                                                           ToolsTr::tr("1 matching line"),
                                                           ToolsTr::tr("%1 matching lines")),
                                          TextFile::plural(fileCount,
                                                           ToolsTr::tr("1 file"),
                                                           ToolsTr::tr("%1 files")));
    QString text = header + QLatin1Char('\n') + out.join(QLatin1Char('\n'));
    if (cut) {
        text += QLatin1Char('\n')
                + ToolsTr::tr(
                      "[Showing the first %1 of %2 results. Narrow the search with path, glob "
                      "or a more specific pattern, or raise head_limit.]")
                      .arg(shown)
                      .arg(entries);
    }
    if (outcome.incomplete) {
        text += QLatin1Char('\n')
                + ToolsTr::tr("[The search stopped early: too many matches. Narrow it down.]");
    }
    if (truncated)
        *truncated = cut || outcome.incomplete;
    return text;
}

ToolResult GrepTool::execute(const ToolCallContext &context)
{
    const QJsonObject &args = context.arguments;
    GrepQuery query;
    query.pattern = args.value(QLatin1String("pattern")).toString();
    if (query.pattern.isEmpty())
        return ToolResult::makeError(ToolsTr::tr("pattern is empty."));
    const QString where = args.value(QLatin1String("path")).toString();
    const ResolvedPath path = m_workspace->resolve(where.isEmpty() ? QStringLiteral(".") : where,
                                                   PathAccess::Read);
    if (!path.ok())
        return ToolResult::makeError(path.error);
    const QFileInfo info(path.path);
    if (!info.exists()) {
        return ToolResult::makeError(PathSuggestions::notFoundMessage(
            m_workspace->root(), path, ToolsTr::tr("Path not found: %1").arg(path.displayPath())));
    }
    QString prefix;
    if (info.isDir()) {
        query.directory = path.path;
        prefix = path.insideRoot ? path.relative : path.path;
    } else {
        query.directory = info.path();
        query.file = info.fileName();
        prefix = path.insideRoot ? QFileInfo(path.relative).path() : query.directory;
        if (prefix == QLatin1String("."))
            prefix.clear();
    }
    if (!prefix.isEmpty() && !prefix.endsWith(QLatin1Char('/')))
        prefix += QLatin1Char('/');

    const QString mode = args.value(QLatin1String("output_mode")).toString(filesMode);
    if (mode == contentMode)
        query.mode = GrepQuery::Mode::Content;
    else if (mode == countMode)
        query.mode = GrepQuery::Mode::Count;
    else if (mode != filesMode)
        return ToolResult::makeError(ToolsTr::tr("Unknown output_mode \"%1\".").arg(mode));
    query.glob = args.value(QLatin1String("glob")).toString();
    query.caseInsensitive = args.value(QLatin1String("-i")).toBool(false);
    const int around = int(std::max<qint64>(0, args.value(QLatin1String("-C")).toInteger(0)));
    query.before = int(std::max<qint64>(0, args.value(QLatin1String("-B")).toInteger(around)));
    query.after = int(std::max<qint64>(0, args.value(QLatin1String("-A")).toInteger(around)));
    query.abort = context.abort;
    const bool lineNumbers = args.value(QLatin1String("-n")).toBool(true);
    const int headLimit = int(
        std::max<qint64>(0, args.value(QLatin1String("head_limit")).toInteger(0)));

    const GrepOutcome outcome = m_ripgrep.isEmpty() ? BuiltinSearcher::run(query)
                                                    : RipgrepSearcher::run(m_ripgrep, query);
    if (!outcome.error.isEmpty())
        return ToolResult::makeError(ToolsTr::tr("Grep failed: %1").arg(outcome.error));
    bool truncated = false;
    const bool withContext = query.mode == GrepQuery::Mode::Content
                             && (query.before > 0 || query.after > 0);
    const QString text
        = format(outcome, query.mode, prefix, lineNumbers, withContext, headLimit, &truncated);
    qint64 matches = 0;
    for (const GrepFile &file : outcome.files)
        matches += file.count;
    ToolDetails details;
    details.other = {{QStringLiteral("backend"), backendName()},
                     {QStringLiteral("mode"), mode},
                     {QStringLiteral("files"), int(outcome.files.size())},
                     {QStringLiteral("matches"), double(matches)},
                     {QStringLiteral("truncated"), truncated}};
    return ToolResult::makeText(text, details);
}

} // namespace AgentCore
