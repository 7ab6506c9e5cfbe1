#include "toolargumentstext.h"
#include "translation.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QLocale>
#include <QStringList>

namespace Ui {

namespace {

// JSON's own escapes, and \uXXXX for what JSON would let through unseen: a right-to-left
// override could show "rm -rf /" as something else, a zero-width space hides in a name.
QString quoted(const QString &text)
{
    QString out;
    out.reserve(text.size() + 2);
    out += QLatin1Char('"');
    const QString shown = text.size() > ToolArgumentsText::maxStringChars
                              ? text.left(ToolArgumentsText::maxStringChars)
                              : text;
    for (const QChar c : shown) {
        switch (c.unicode()) {
        case '"':
            out += QLatin1String("\\\"");
            continue;
        case '\\':
            out += QLatin1String("\\\\");
            continue;
        case '\n':
            out += QLatin1String("\\n");
            continue;
        case '\t':
            out += QLatin1String("\\t");
            continue;
        case '\r':
            out += QLatin1String("\\r");
            continue;
        default:
            break;
        }
        const QChar::Category category = c.category();
        if (category == QChar::Other_Control || category == QChar::Other_Format
            || category == QChar::Separator_Line || category == QChar::Separator_Paragraph) {
            out += QStringLiteral("\\u%1").arg(c.unicode(), 4, 16, QLatin1Char('0'));
            continue;
        }
        out += c;
    }
    out += QLatin1Char('"');
    if (shown.size() < text.size())
        out += QLatin1Char(' ')
               + UiTr::tr("[%n more character(s) not shown]",
                          nullptr,
                          int(text.size() - shown.size()));
    return out;
}

void write(const QJsonValue &value, int depth, QStringList *lines, QString *line);

void writeMembers(const QJsonValue &container, int depth, QStringList *lines, QString *line)
{
    const bool isObject = container.isObject();
    const QJsonObject object = container.toObject();
    const QJsonArray array = container.toArray();
    const qsizetype count = isObject ? object.size() : array.size();
    const QString indent(2 * (depth + 1), QLatin1Char(' '));
    *line += isObject ? QLatin1Char('{') : QLatin1Char('[');
    if (count == 0) {
        *line += isObject ? QLatin1Char('}') : QLatin1Char(']');
        return;
    }
    if (depth + 1 >= ToolArgumentsText::maxDepth) {
        *line += QStringLiteral(" … ")
                 + UiTr::tr("%n item(s) nested too deep to show", nullptr, int(count))
                 + QLatin1Char(' ') + (isObject ? QLatin1Char('}') : QLatin1Char(']'));
        return;
    }
    const qsizetype shown = qMin<qsizetype>(count, ToolArgumentsText::maxMembers);
    auto it = object.begin();
    for (qsizetype i = 0; i < shown; ++i) {
        lines->append(*line);
        *line = indent;
        if (isObject) {
            *line += quoted(it.key()) + QStringLiteral(": ");
            write(it.value(), depth + 1, lines, line);
            ++it;
        } else {
            write(array.at(i), depth + 1, lines, line);
        }
        if (i + 1 < count)
            *line += QLatin1Char(',');
    }
    if (shown < count) {
        lines->append(*line);
        *line = indent + QStringLiteral("… ")
                + UiTr::tr("%n more item(s) not shown", nullptr, int(count - shown));
    }
    lines->append(*line);
    *line = QString(2 * depth, QLatin1Char(' ')) + (isObject ? QLatin1Char('}') : QLatin1Char(']'));
}

void write(const QJsonValue &value, int depth, QStringList *lines, QString *line)
{
    switch (value.type()) {
    case QJsonValue::Object:
    case QJsonValue::Array:
        writeMembers(value, depth, lines, line);
        return;
    case QJsonValue::String:
        *line += quoted(value.toString());
        return;
    case QJsonValue::Double:
        *line += QString::number(value.toDouble(), 'g', QLocale::FloatingPointShortest);
        return;
    case QJsonValue::Bool:
        *line += value.toBool() ? QLatin1String("true") : QLatin1String("false");
        return;
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        *line += QLatin1String("null");
        return;
    }
}

} // namespace

QString ToolArgumentsText::format(const QJsonObject &arguments)
{
    QStringList lines;
    QString line;
    write(arguments, 0, &lines, &line);
    lines.append(line);
    if (lines.size() > maxLines) {
        const qsizetype cut = lines.size() - maxLines;
        lines.resize(maxLines);
        lines.append(UiTr::tr("… %n more line(s) not shown", nullptr, int(cut)));
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace Ui
