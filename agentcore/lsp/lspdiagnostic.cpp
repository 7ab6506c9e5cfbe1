#include "lspdiagnostic.h"
#include "translation.h"

#include <QJsonArray>

#include <algorithm>

namespace AgentCore {

namespace {

// A position's line or character: a non-negative integer below any file's length.
std::optional<int> positionPart(const QJsonObject &position, QLatin1String key)
{
    const QJsonValue value = position.value(key);
    if (!value.isDouble())
        return std::nullopt;
    const double number = value.toDouble();
    if (number < 0 || number > 1e8 || number != double(qint64(number)))
        return std::nullopt;
    return int(number);
}

QString capped(const QString &text, qsizetype chars)
{
    return text.size() <= chars ? text : text.left(chars) + QStringLiteral("…");
}

} // namespace

std::optional<LspDiagnostic> LspDiagnostic::fromJson(const QJsonObject &json)
{
    const QJsonObject range = json.value(QLatin1String("range")).toObject();
    const QJsonObject start = range.value(QLatin1String("start")).toObject();
    const QJsonObject end = range.value(QLatin1String("end")).toObject();
    const auto line = positionPart(start, QLatin1String("line"));
    const auto column = positionPart(start, QLatin1String("character"));
    const QJsonValue message = json.value(QLatin1String("message"));
    if (!line || !column || !message.isString())
        return std::nullopt;
    LspDiagnostic diagnostic;
    diagnostic.line = *line + 1;
    diagnostic.column = *column + 1;
    diagnostic.endLine = positionPart(end, QLatin1String("line")).value_or(*line) + 1;
    diagnostic.endColumn = positionPart(end, QLatin1String("character")).value_or(*column) + 1;
    // The specification: "If omitted it is up to the client to interpret"; an error is safest.
    const int severity = json.value(QLatin1String("severity")).toInt(1);
    diagnostic.severity = severity >= 1 && severity <= 4 ? Severity(severity) : Severity::Error;
    // One line: a message is shown after its position, and the model reads one problem a line.
    diagnostic.message = capped(message.toString().simplified(), maxMessageChars);
    diagnostic.source = capped(json.value(QLatin1String("source")).toString().simplified(), 60);
    const QJsonValue code = json.value(QLatin1String("code"));
    diagnostic.code = capped(code.isDouble() ? QString::number(code.toInteger())
                                             : code.toString().simplified(),
                             60);
    return diagnostic;
}

QList<LspDiagnostic> LspDiagnostic::listFromJson(const QJsonValue &json)
{
    QList<LspDiagnostic> list;
    const QJsonArray array = json.toArray();
    for (const QJsonValue &item : array) {
        if (list.size() >= maxPerFile)
            break;
        if (auto diagnostic = fromJson(item.toObject()))
            list.append(*diagnostic);
    }
    return list;
}

QString LspDiagnostic::severityName() const
{
    switch (severity) {
    case Severity::Error:
        return LspTr::tr("error");
    case Severity::Warning:
        return LspTr::tr("warning");
    case Severity::Information:
        return LspTr::tr("info");
    case Severity::Hint:
        return LspTr::tr("hint");
    }
    return {};
}

QString LspDiagnostic::toText() const
{
    QString text = QStringLiteral("%1:%2 %3: %4").arg(line).arg(column).arg(severityName(), message);
    QStringList origin;
    if (!source.isEmpty())
        origin.append(source);
    if (!code.isEmpty())
        origin.append(code);
    if (!origin.isEmpty())
        text += QStringLiteral(" [%1]").arg(origin.join(QLatin1Char(' ')));
    return text;
}

bool LspDiagnostic::isSameProblem(const LspDiagnostic &other) const
{
    return severity == other.severity && message == other.message && code == other.code
           && source == other.source;
}

QList<LspDiagnostic> introducedDiagnostics(const QList<LspDiagnostic> &before,
                                           const QList<LspDiagnostic> &after)
{
    QList<LspDiagnostic> unmatched = before;
    QList<LspDiagnostic> introduced;
    for (const LspDiagnostic &diagnostic : after) {
        const auto same = std::find_if(unmatched.begin(),
                                       unmatched.end(),
                                       [&diagnostic](const LspDiagnostic &old) {
                                           return old.isSameProblem(diagnostic);
                                       });
        if (same != unmatched.end())
            unmatched.erase(same);
        else
            introduced.append(diagnostic);
    }
    return introduced;
}

QString diagnosticsText(QList<LspDiagnostic> diagnostics, qsizetype maxShown)
{
    std::stable_sort(diagnostics.begin(),
                     diagnostics.end(),
                     [](const LspDiagnostic &a, const LspDiagnostic &b) {
                         if (a.severity != b.severity)
                             return a.severity < b.severity;
                         return std::pair(a.line, a.column) < std::pair(b.line, b.column);
                     });
    QStringList lines;
    for (qsizetype i = 0; i < diagnostics.size() && i < maxShown; ++i)
        lines.append(diagnostics.at(i).toText());
    if (diagnostics.size() > maxShown) {
        lines.append(LspTr::tr("… and %n more", nullptr, int(diagnostics.size() - maxShown)));
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace AgentCore
