#include "navigationtools.h"
#include "diagnosticstool.h"
#include "translation.h"

#include <lsp/lsphost.h>
#include <tools/textfile.h>
#include <tools/toolschema.h>
#include <tools/toolworkspace.h>

#include <QDir>
#include <QHash>
#include <QJsonArray>
#include <QUrl>

#include <algorithm>

namespace AgentCore {

namespace {

constexpr qsizetype maxLocationsRead = 1000; ///< of a server's answer; the rest is not looked at
constexpr qsizetype maxLineShown = 200;
constexpr int maxPosition = 10'000'000;

struct Location
{
    QString path; ///< absolute
    int line = 0; ///< 1-based
    int column = 0;

    friend bool operator<(const Location &a, const Location &b)
    {
        return std::tie(a.path, a.line, a.column) < std::tie(b.path, b.line, b.column);
    }
    friend bool operator==(const Location &, const Location &) = default;
};

bool isIdentifierChar(QChar c)
{
    return c.isLetterOrNumber() || c == u'_' || c == u'$';
}

// The 1-based column of \a symbol on \a line: an occurrence standing alone first (not part of a
// longer name); 0 when it is not there.
int columnOf(const QString &line, const QString &symbol)
{
    int first = -1;
    for (qsizetype at = line.indexOf(symbol); at >= 0; at = line.indexOf(symbol, at + 1)) {
        if (first < 0)
            first = int(at);
        const qsizetype end = at + symbol.size();
        const bool alone = (at == 0 || !isIdentifierChar(line.at(at - 1)))
                           && (end >= line.size() || !isIdentifierChar(line.at(end)));
        if (alone)
            return int(at) + 1;
    }
    return first + 1;
}

std::optional<Location> locationOf(const QJsonObject &json)
{
    // A Location ({uri, range}) or a LocationLink ({targetUri, targetSelectionRange}).
    const bool link = json.contains(QLatin1String("targetUri"));
    const QUrl uri(json.value(QLatin1String(link ? "targetUri" : "uri")).toString());
    const QJsonObject start = json.value(QLatin1String(link ? "targetSelectionRange" : "range"))
                                  .toObject()
                                  .value(QLatin1String("start"))
                                  .toObject();
    const QJsonValue line = start.value(QLatin1String("line"));
    const QJsonValue character = start.value(QLatin1String("character"));
    if (!uri.isLocalFile() || !line.isDouble() || !character.isDouble())
        return std::nullopt;
    const double l = line.toDouble();
    const double c = character.toDouble();
    if (l < 0 || c < 0 || l >= maxPosition || c >= maxPosition)
        return std::nullopt;
    return Location{QDir::cleanPath(uri.toLocalFile()), int(l) + 1, int(c) + 1};
}

QList<Location> locationsOf(const QJsonValue &result)
{
    QList<Location> locations;
    const QJsonArray list = result.isArray() ? result.toArray() : QJsonArray{result};
    for (qsizetype i = 0; i < list.size() && i < maxLocationsRead; ++i) {
        if (const std::optional<Location> location = locationOf(list.at(i).toObject()))
            locations.append(*location);
    }
    std::sort(locations.begin(), locations.end());
    locations.erase(std::unique(locations.begin(), locations.end()), locations.end());
    return locations;
}

} // namespace

LspNavigationTool::LspNavigationTool(Kind kind,
                                     std::shared_ptr<LspHost> host,
                                     std::shared_ptr<ToolWorkspace> workspace)
    : m_kind(kind)
    , m_host(std::move(host))
    , m_workspace(std::move(workspace))
{}

QString LspNavigationTool::toolName(Kind kind)
{
    return kind == Kind::Definition ? QStringLiteral("Definition") : QStringLiteral("References");
}

ToolDefinition LspNavigationTool::definition() const
{
    const QString what
        = m_kind == Kind::Definition
              ? CodingTr::tr("Where a symbol is defined, from the language server (go to "
                             "definition): file:line:column and that line.")
              : CodingTr::tr("Every use of a symbol in the code, from the language server (find "
                             "references): file:line:column and each line.");
    return {
        toolName(m_kind),
        what + u' '
            + CodingTr::tr("Give the file, a line where the symbol is written and the symbol as "
                           "written there."),
        QJsonObject{
            {QStringLiteral("type"), QStringLiteral("object")},
            {QStringLiteral("properties"),
             QJsonObject{{QStringLiteral("file_path"), schemaProperty("string")},
                         {QStringLiteral("line"),
                          schemaProperty("integer", CodingTr::tr("1-based, as Read numbers it"))},
                         {QStringLiteral("symbol"),
                          schemaProperty("string",
                                         CodingTr::tr("the name as written on that line"))}}},
            {QStringLiteral("required"),
             QJsonArray{QStringLiteral("file_path"),
                        QStringLiteral("line"),
                        QStringLiteral("symbol")}},
            {QStringLiteral("additionalProperties"), false},
        },
    };
}

ToolResult LspNavigationTool::execute(const ToolCallContext &context)
{
    const ResolvedPath path
        = m_workspace->resolve(context.arguments.value(QLatin1String("file_path")).toString(),
                               PathAccess::Read);
    if (!path.ok())
        return ToolResult::makeError(path.error);
    if (!path.insideRoot) {
        return ToolResult::makeError(
            CodingTr::tr("%1 is outside the repository: only its files are asked about.")
                .arg(path.displayPath()));
    }
    const std::shared_ptr<LspClient> client = m_host->clientFor(path.path);
    if (!client) {
        return ToolResult::makeError(
            CodingTr::tr("No language server here is for %1.").arg(path.displayPath()));
    }
    const std::optional<QString> text = DiagnosticsTool::serverText(path.path);
    if (!text) {
        return ToolResult::makeError(
            CodingTr::tr("%1 cannot be asked about: it is missing, binary or over 4 MB.")
                .arg(path.displayPath()));
    }
    const QStringList lines = text->split(u'\n');
    const int line = context.arguments.value(QLatin1String("line")).toInt();
    const QString symbol = context.arguments.value(QLatin1String("symbol")).toString().trimmed();
    if (line < 1 || line > lines.size()) {
        return ToolResult::makeError(CodingTr::tr("%1 has %n line(s): line %2 is not one of them.",
                                                  nullptr,
                                                  int(lines.size()))
                                         .arg(path.displayPath())
                                         .arg(line));
    }
    const int column = symbol.isEmpty() ? 0 : columnOf(lines.at(line - 1), symbol);
    if (column < 1) {
        return ToolResult::makeError(
            CodingTr::tr("\"%1\" is not on line %2 of %3, which reads: %4")
                .arg(symbol.left(maxLineShown))
                .arg(line)
                .arg(path.displayPath(), lines.at(line - 1).trimmed().left(maxLineShown)));
    }
    const bool definition = m_kind == Kind::Definition;
    const LspAnswer answer
        = client->ask(path.path,
                      *text,
                      definition ? QStringLiteral("textDocument/definition")
                                 : QStringLiteral("textDocument/references"),
                      definition ? QStringLiteral("definitionProvider")
                                 : QStringLiteral("referencesProvider"),
                      line,
                      column,
                      definition
                          ? QJsonObject()
                          : QJsonObject{{QStringLiteral("context"),
                                         QJsonObject{{QStringLiteral("includeDeclaration"), true}}}},
                      waitMs,
                      context.abort);
    if (!answer.ok)
        return ToolResult::makeError(answer.error);

    const QList<Location> locations = locationsOf(answer.result);
    const QString server = client->config().name;
    QString out = answer.notice.isEmpty() ? QString() : answer.notice + QStringLiteral(".\n");
    if (locations.isEmpty()) {
        out += definition ? CodingTr::tr("%1 knows no definition of %2 at %3:%4.")
                                .arg(server, symbol, path.displayPath())
                                .arg(line)
                          : CodingTr::tr("%1 knows no references to %2 at %3:%4.")
                                .arg(server, symbol, path.displayPath())
                                .arg(line);
        return ToolResult::makeText(out);
    }
    out += definition ? CodingTr::tr("%1: %2 is defined at:").arg(server, symbol)
                      : CodingTr::tr("%1: %n reference(s) to %2:", nullptr, int(locations.size()))
                            .arg(server, symbol);
    const QDir root(m_workspace->root());
    QHash<QString, QStringList> files; // the lines of each file of the repository shown
    for (qsizetype i = 0; i < locations.size() && i < maxShown; ++i) {
        const Location &location = locations.at(i);
        // Read only where a Read may (the workspace's guard keeps hidden paths out).
        const ResolvedPath where = m_workspace->resolve(location.path, PathAccess::Read);
        const bool inside = where.ok() && where.insideRoot;
        out += u'\n' + (inside ? root.relativeFilePath(location.path) : location.path)
               + QStringLiteral(":%1:%2").arg(location.line).arg(location.column);
        if (!inside) {
            out += CodingTr::tr(" (outside the repository)");
            continue;
        }
        if (!files.contains(location.path)) {
            const std::optional<QString> content = DiagnosticsTool::serverText(location.path);
            files.insert(location.path, content ? content->split(u'\n') : QStringList());
        }
        const QStringList &fileLines = files[location.path];
        if (location.line <= fileLines.size())
            out += QStringLiteral(": ")
                   + fileLines.at(location.line - 1).trimmed().left(maxLineShown);
    }
    if (locations.size() > maxShown)
        out += u'\n' + CodingTr::tr("and %n more", nullptr, int(locations.size() - maxShown));
    return ToolResult::makeText(out);
}

} // namespace AgentCore
