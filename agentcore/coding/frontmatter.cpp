#include "frontmatter.h"

#include "translation.h"

#include <QRegularExpression>

namespace AgentCore {

namespace {

QString unquoted(const QString &value, bool *unterminated)
{
    *unterminated = false;
    if (value.size() >= 1 && (value.front() == u'"' || value.front() == u'\'')) {
        const QChar quote = value.front();
        if (value.size() < 2 || value.back() != quote) {
            *unterminated = true;
            return value.mid(1);
        }
        QString inner = value.mid(1, value.size() - 2);
        if (quote == u'\'')
            return inner.replace(QStringLiteral("''"), QStringLiteral("'"));
        return inner.replace(QStringLiteral("\\\""), QStringLiteral("\""))
            .replace(QStringLiteral("\\\\"), QStringLiteral("\\"));
    }
    return value;
}

} // namespace

FrontMatter FrontMatter::parse(const QString &text, const QString &path)
{
    FrontMatter matter;
    QStringList lines = text.split(u'\n');
    for (QString &line : lines) {
        if (line.endsWith(u'\r'))
            line.chop(1);
    }
    // A byte order mark is not part of the first line.
    if (!lines.isEmpty() && lines.first().startsWith(QChar(0xfeff)))
        lines.first().remove(0, 1);
    if (lines.isEmpty() || lines.first().trimmed() != QLatin1String("---")) {
        matter.body = text;
        return matter;
    }
    const auto error = [&](int line, const QString &what) {
        matter.errors.append(QStringLiteral("%1:%2: %3").arg(path).arg(line).arg(what));
    };
    static const QRegularExpression keyValue(QStringLiteral("^([A-Za-z0-9_-]+)\\s*:(.*)$"));
    qsizetype end = -1;
    QString key; // the field a continuation line adds to
    int keyLine = 0;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QString &line = lines.at(i);
        const int number = int(i) + 1;
        if (line.trimmed() == QLatin1String("---")) {
            end = i;
            break;
        }
        if (line.trimmed().isEmpty() || line.trimmed().startsWith(u'#'))
            continue;
        if (line.front().isSpace()) {
            if (key.isEmpty()) {
                error(number, CodingTr::tr("an indented line belongs to no field"));
                continue;
            }
            QString &value = matter.fields[key];
            value = value.isEmpty() ? line.trimmed() : QString(value + u' ' + line.trimmed());
            continue;
        }
        const QRegularExpressionMatch match = keyValue.match(line);
        if (!match.hasMatch()) {
            error(number, CodingTr::tr("not a \"key: value\" line"));
            key.clear();
            continue;
        }
        key = match.captured(1).toLower();
        keyLine = number;
        if (matter.fields.contains(key))
            error(number, CodingTr::tr("\"%1\" is given twice: the last one counts").arg(key));
        QString value = match.captured(2).trimmed();
        if (value == u'>' || value == u'|' || value == QLatin1String(">-")
            || value == QLatin1String("|-")) {
            value.clear(); // a block: its indented lines follow
        }
        bool unterminated = false;
        value = unquoted(value, &unterminated);
        if (unterminated)
            error(number, CodingTr::tr("the quoted value of \"%1\" has no closing quote").arg(key));
        matter.fields.insert(key, value);
    }
    if (end < 0) {
        // Its lines were the body's: what was said of them as fields does not count.
        matter.errors.clear();
        error(1, CodingTr::tr("the front matter has no closing \"---\" line"));
        matter.fields.clear();
        matter.body = text;
        return matter;
    }
    for (auto it = matter.fields.begin(); it != matter.fields.end(); ++it) {
        if (it.value().size() > maxValueChars) {
            error(keyLine,
                  CodingTr::tr("\"%1\" is longer than %2 characters: cut")
                      .arg(it.key())
                      .arg(maxValueChars));
            it.value().truncate(maxValueChars);
        }
    }
    matter.bodyLine = int(end) + 2;
    matter.body = lines.mid(end + 1).join(u'\n');
    return matter;
}

QStringList FrontMatter::listOf(const QString &value)
{
    QString text = value.trimmed();
    if (text.startsWith(u'[') && text.endsWith(u']'))
        text = text.mid(1, text.size() - 2);
    QStringList items;
    QString current;
    int depth = 0;
    for (const QChar c : std::as_const(text)) {
        if (c == u'(')
            ++depth;
        else if (c == u')' && depth > 0)
            --depth;
        if (depth == 0 && (c == u',' || c.isSpace())) {
            if (!current.trimmed().isEmpty())
                items.append(current.trimmed());
            current.clear();
            continue;
        }
        current += c;
    }
    if (!current.trimmed().isEmpty())
        items.append(current.trimmed());
    for (QString &item : items) {
        bool unterminated = false;
        item = unquoted(item, &unterminated);
    }
    return items;
}

} // namespace AgentCore
