#include "edittool.h"
#include "translation.h"

#include "nearestregion.h"
#include "pathsuggestions.h"
#include "textfile.h"
#include "toolschema.h"
#include "unifieddiff.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonArray>
#include <QRegularExpression>

namespace AgentCore {

namespace {

constexpr int maxSnippetLines = 40;

QList<qsizetype> findAll(const QByteArray &haystack, const QByteArray &needle)
{
    QList<qsizetype> positions;
    for (qsizetype at = haystack.indexOf(needle); at >= 0;
         at = haystack.indexOf(needle, at + needle.size()))
        positions.append(at);
    return positions;
}

int lineOf(const QByteArray &text, qsizetype position)
{
    return int(QByteArrayView(text).first(position).count('\n')) + 1;
}

QString notFoundMessage(const QString &name, const TextFile &file, const QString &oldString)
{
    QString message = ToolsTr::tr("old_string was not found in %1.").arg(name);
    static const QRegularExpression lineNumberPrefix(QStringLiteral("^\\s*\\d+\\t"));
    if (lineNumberPrefix.match(oldString).hasMatch()) {
        message += QLatin1Char(' ')
                   + ToolsTr::tr(
                       "It seems to start with a line number from Read's output; the number "
                       "and the tab after it are not part of the file.");
    }
    const QStringList lines = file.lines();
    const NearestRegion region = NearestRegion::find(lines, oldString);
    if (region.isValid()) {
        message += QLatin1Char('\n');
        message += region.whitespaceOnly
                       ? ToolsTr::tr(
                             "Lines %1-%2 match it except for whitespace (indentation, tabs, "
                             "trailing spaces or line breaks):")
                             .arg(region.firstLine)
                             .arg(region.lastLine)
                       : ToolsTr::tr("The most similar text is at lines %1-%2:")
                             .arg(region.firstLine)
                             .arg(region.lastLine);
        message += QLatin1Char('\n');
        message += TextFile::numbered(region.lines.mid(0, maxSnippetLines), region.firstLine, 300);
        if (region.lines.size() > maxSnippetLines)
            message += QStringLiteral("...\n");
    } else {
        message += QLatin1Char(' ') + ToolsTr::tr("No similar text was found either.");
    }
    message += QLatin1Char('\n');
    message += ToolsTr::tr("Copy old_string exactly from the file (Read it again if it may have "
                           "changed), without the line-number prefix.");
    return message;
}

} // namespace

EditTool::EditTool(std::shared_ptr<ToolWorkspace> workspace)
    : m_workspace(std::move(workspace))
{}

ToolDefinition EditTool::definition() const
{
    // Descriptions say only what the names and the schema do not: every request carries them.
    QJsonObject replaceAll = schemaProperty("boolean");
    replaceAll.insert(QStringLiteral("default"), false);
    return {
        toolKindName(ToolKind::Edit),
        ToolsTr::tr(
            "Replaces exact text in a file read in this session and unchanged since (read it "
            "again if a command may have changed it). old_string must match exactly, whitespace "
            "included, without Read's line numbers, and occur once unless replace_all: include "
            "enough lines to make it unique. Line endings and byte order mark are kept."),
        QJsonObject{
            {QStringLiteral("type"), QStringLiteral("object")},
            {QStringLiteral("properties"),
             QJsonObject{
                 {QStringLiteral("file_path"), schemaProperty("string")},
                 {QStringLiteral("old_string"), schemaProperty("string")},
                 {QStringLiteral("new_string"),
                  schemaProperty("string", ToolsTr::tr("May be empty."))},
                 {QStringLiteral("replace_all"), replaceAll},
             }},
            {QStringLiteral("required"),
             QJsonArray{QStringLiteral("file_path"),
                        QStringLiteral("old_string"),
                        QStringLiteral("new_string")}},
            {QStringLiteral("additionalProperties"), false},
        },
    };
}

EditTool::Change EditTool::prepare(const ToolWorkspace &workspace, const QJsonObject &args)
{
    Change change;
    const QString oldString = args.value(QLatin1String("old_string")).toString();
    const QString newString = args.value(QLatin1String("new_string")).toString();
    const bool replaceAll = args.value(QLatin1String("replace_all")).toBool(false);
    change.path = workspace.resolve(args.value(QLatin1String("file_path")).toString(),
                                    PathAccess::Write);
    const ResolvedPath &path = change.path;
    const auto fail = [&change](const QString &error) {
        change.error = error;
        return change;
    };
    if (!path.ok())
        return fail(path.error);
    const QString name = path.displayPath();
    if (!path.exists) {
        return fail(PathSuggestions::notFoundMessage(
            workspace.root(),
            path,
            ToolsTr::tr("File not found: %1. To create a file, use Write.").arg(name)));
    }
    if (QFileInfo(path.path).isDir())
        return fail(ToolsTr::tr("%1 is a directory, not a file.").arg(name));
    if (oldString.isEmpty())
        return fail(ToolsTr::tr("old_string is empty. Give the exact text to replace, "
                                "or use Write to replace the whole file."));
    if (oldString == newString)
        return fail(ToolsTr::tr("old_string and new_string are the same; there is "
                                "nothing to change."));

    TextFile file;
    QString error;
    if (!file.load(path.path, 64 * 1024 * 1024, &error))
        return fail(error);
    change.before = file.bytes;
    if (const QString stale = workspace.checkFreshness(path, file.bytes); !stale.isEmpty())
        return fail(stale);
    if (TextFile::looksBinary(file.bytes))
        return fail(ToolsTr::tr("%1 is a binary file; Edit changes text files only.").arg(name));

    // The model sees LF line endings (Read drops the CR), so in a CRLF file its strings are
    // tried in the file's convention when they do not match as given.
    const QByteArray body = file.body();
    const QByteArray oldBytes = oldString.toUtf8();
    const QByteArray converted = file.crlf ? TextFile::toCrlf(oldBytes) : TextFile::toLf(oldBytes);
    QByteArray matched = oldBytes;
    QList<qsizetype> positions = findAll(body, oldBytes);
    if (positions.isEmpty() && converted != oldBytes) {
        matched = converted;
        positions = findAll(body, converted);
    }
    if (positions.isEmpty())
        return fail(notFoundMessage(name, file, oldString));
    if (positions.size() > 1 && !replaceAll) {
        QStringList lines;
        for (const qsizetype position : std::as_const(positions).mid(0, 10))
            lines.append(QString::number(lineOf(body, position)));
        if (positions.size() > 10)
            lines.append(QStringLiteral("..."));
        return fail(
            ToolsTr::tr("old_string occurs %1 times in %2 (at lines %3). Include more "
                        "surrounding lines to make it unique, or set replace_all to true to "
                        "change every occurrence.")
                .arg(positions.size())
                .arg(name, lines.join(QStringLiteral(", "))));
    }
    if (!replaceAll)
        positions.resize(1);

    // The replacement takes the line endings of the text it replaces (the file's when that
    // text has no line break).
    const bool crlf = matched.contains('\n') ? matched.contains("\r\n") : file.crlf;
    const QByteArray newBytes = newString.toUtf8();
    const QByteArray replacement = crlf ? TextFile::toCrlf(newBytes) : TextFile::toLf(newBytes);
    QByteArray newBody;
    newBody.reserve(body.size() + positions.size() * (replacement.size() - matched.size()));
    qsizetype from = 0;
    for (const qsizetype position : std::as_const(positions)) {
        newBody += QByteArrayView(body).sliced(from, position - from);
        newBody += replacement;
        from = position + matched.size();
    }
    newBody += QByteArrayView(body).sliced(from);

    change.after = file.bom ? QByteArray("\xEF\xBB\xBF") + newBody : newBody;
    change.oldBody = body;
    change.newBody = newBody;
    change.replacements = int(positions.size());
    change.firstLine = lineOf(body, positions.first());
    change.replacedLines = int(replacement.count('\n')) + 1;
    return change;
}

ToolResult EditTool::execute(const ToolCallContext &context)
{
    const Change change = prepare(*m_workspace, context.arguments);
    if (!change.error.isEmpty())
        return ToolResult::makeError(change.error);
    const ResolvedPath &path = change.path;
    const QString name = path.displayPath();
    const QByteArray &output = change.after;
    if (const QString failed = m_workspace->writeFile(path, output); !failed.isEmpty())
        return ToolResult::makeError(failed);

    const TextFile after = TextFile::fromBytes(output);
    const QString label = path.insideRoot ? path.relative : path.path;
    const UnifiedDiff diff = UnifiedDiff::compute(QString::fromUtf8(TextFile::toLf(change.oldBody)),
                                                  QString::fromUtf8(TextFile::toLf(change.newBody)));
    ToolDetails details = diff.toDetails(QStringLiteral("a/") + label, QStringLiteral("b/") + label);
    details.path = path.path;
    details.displayPath = name;
    details.other.insert(QStringLiteral("replacements"), change.replacements);

    const int firstLine = change.firstLine;
    QString text
        = change.replacements == 1
              ? ToolsTr::tr("Edited %1: replaced 1 occurrence at line %2.").arg(name).arg(firstLine)
              : ToolsTr::tr("Edited %1: replaced %2 occurrences.").arg(name).arg(change.replacements);
    // The changed lines with a little context, so the model can check its work.
    const QStringList lines = after.lines();
    const int replacedLines = change.replacedLines;
    const int start = std::max(1, firstLine - 3);
    const int end = std::min(int(lines.size()), firstLine + replacedLines + 2);
    if (end >= start && end - start < maxSnippetLines) {
        text += QLatin1Char('\n')
                + TextFile::numbered(lines.mid(start - 1, end - start + 1), start, 300);
    }
    return ToolResult::makeText(text, details);
}

} // namespace AgentCore
