#include "toolsearchtool.h"

#include "tooldeferral.h"

#include <QJsonArray>
#include <QRegularExpression>

#include <algorithm>

namespace AgentCore {

namespace {

// What the model reads of ToolSearch before the listing: how to load, and that loading lasts.
QString searchDescription(const QList<ToolDefinition> &deferred)
{
    QString text = QStringLiteral(
        "Loads deferred tools, listed below: their definitions are not sent until loaded, and "
        "one cannot be called before. A loaded tool is offered from your next request on, for "
        "the rest of the session. \"select:a,b\" loads tools by name; keywords load the best "
        "matches among names and descriptions (\"+word\": word must be in the name).\n"
        "Deferred tools:");
    qsizetype bytes = 0;
    qsizetype listed = 0;
    for (const ToolDefinition &tool : deferred) {
        const QString line = QStringLiteral("\n%1: %2")
                                 .arg(tool.name, ToolDeferral::summaryOf(tool.description));
        bytes += line.toUtf8().size();
        if (bytes > ToolDeferral::maxListingBytes)
            break;
        text += line;
        ++listed;
    }
    if (listed < deferred.size()) {
        text += QStringLiteral("\n…and %1 more, not listed: find them by keyword.")
                    .arg(deferred.size() - listed);
    }
    return text;
}

QString lowerName(const ToolDefinition &tool)
{
    return tool.name.toLower();
}

} // namespace

ToolSearchTool::ToolSearchTool(const QList<ToolDefinition> &deferred,
                               std::function<QStringList(const QStringList &names)> load)
    : m_deferred(deferred)
    , m_load(std::move(load))
{
    m_definition.name = toolName();
    m_definition.description = searchDescription(m_deferred);
    m_definition.parameters
        = QJsonObject{{QStringLiteral("type"), QStringLiteral("object")},
                      {QStringLiteral("properties"),
                       QJsonObject{{QStringLiteral("query"),
                                    QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}}},
                                   {QStringLiteral("max_results"),
                                    QJsonObject{{QStringLiteral("type"), QStringLiteral("integer")},
                                                {QStringLiteral("minimum"), 1},
                                                {QStringLiteral("maximum"), maxMatches},
                                                {QStringLiteral("default"), defaultMatches}}}}},
                      {QStringLiteral("required"), QJsonArray{QStringLiteral("query")}},
                      {QStringLiteral("additionalProperties"), false}};
}

QStringList ToolSearchTool::match(const QList<ToolDefinition> &deferred,
                                  const QString &query,
                                  int limit)
{
    const QString trimmed = query.trimmed();
    if (trimmed.startsWith(QLatin1String("select:"), Qt::CaseInsensitive)) {
        QStringList names;
        const QStringList wanted = trimmed.mid(7).split(QLatin1Char(','), Qt::SkipEmptyParts);
        for (const QString &name : wanted) {
            const QString lower = name.trimmed().toLower();
            for (const ToolDefinition &tool : deferred) {
                // The whole name, or an MCP tool's own name after its server's prefix.
                if ((lowerName(tool) == lower
                     || lowerName(tool).endsWith(QLatin1String("__") + lower))
                    && !names.contains(tool.name)) {
                    names.append(tool.name);
                    break;
                }
            }
            if (names.size() >= maxMatches)
                break;
        }
        return names;
    }
    static const QRegularExpression separators(QStringLiteral("[\\s,]+"));
    QStringList required;
    QStringList terms;
    for (const QString &word : trimmed.toLower().split(separators, Qt::SkipEmptyParts)) {
        if (word.startsWith(QLatin1Char('+')) && word.size() > 1)
            required.append(word.mid(1));
        else
            terms.append(word);
    }
    struct Scored
    {
        int score;
        qsizetype index;
    };
    QList<Scored> scored;
    for (qsizetype index = 0; index < deferred.size(); ++index) {
        const ToolDefinition &tool = deferred.at(index);
        const QString name = lowerName(tool);
        if (!std::all_of(required.cbegin(), required.cend(), [&name](const QString &word) {
                return name.contains(word);
            }))
            continue;
        const QString description = tool.description.toLower();
        int score = required.isEmpty() ? 0 : 1;
        for (const QString &term : std::as_const(terms)) {
            if (name.contains(term))
                score += 3;
            else if (description.contains(term))
                score += 1;
        }
        if (score > 0)
            scored.append({score, index});
    }
    // Best first; among equals the listing's order.
    std::stable_sort(scored.begin(), scored.end(), [](const Scored &a, const Scored &b) {
        return a.score > b.score;
    });
    QStringList names;
    for (const Scored &entry : std::as_const(scored)) {
        if (names.size() >= limit)
            break;
        names.append(deferred.at(entry.index).name);
    }
    return names;
}

ToolResult ToolSearchTool::execute(const ToolCallContext &context)
{
    const QString query = context.arguments.value(QLatin1String("query")).toString();
    const int limit
        = std::clamp(context.arguments.value(QLatin1String("max_results")).toInt(defaultMatches),
                     1,
                     maxMatches);
    const QStringList names = match(m_deferred, query, limit);
    if (names.isEmpty()) {
        return ToolResult::makeError(
            QStringLiteral("No deferred tool matches \"%1\". Use names from the listing in "
                           "ToolSearch's description (\"select:name\"), or other keywords.")
                .arg(query));
    }
    const QStringList loaded = m_load ? m_load(names) : QStringList();
    QString text = QStringLiteral("Loaded: their definitions come with your next request; "
                                  "call them then.");
    for (const QString &name : names) {
        const auto tool = std::find_if(m_deferred.cbegin(),
                                       m_deferred.cend(),
                                       [&name](const ToolDefinition &d) { return d.name == name; });
        text += QStringLiteral("\n%1%2: %3")
                    .arg(name,
                         loaded.contains(name) ? QString() : QStringLiteral(" (already loaded)"),
                         ToolDeferral::summaryOf(tool->description));
    }
    ToolDetails details;
    details.other = {{QStringLiteral("loaded"), QJsonArray::fromStringList(names)}};
    return ToolResult::makeText(text, details);
}

} // namespace AgentCore
