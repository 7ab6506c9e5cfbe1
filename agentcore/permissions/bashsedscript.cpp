#include "bashsedscript.h"

namespace AgentCore {

namespace {

// A recursive-descent reader of GNU sed scripts, just deep enough to find every command letter.
class ScriptReader
{
public:
    explicit ScriptReader(const QString &script)
        : m_script(script)
    {}

    QStringList filesRead; // by `r` and `R`, once readOnly() has run

    bool readOnly()
    {
        for (;;) {
            skip(QStringLiteral(" \t\n;"));
            if (atEnd())
                return true;
            if (!address())
                return false;
            skip(QStringLiteral(" \t"));
            if (peek() == QLatin1Char(',')) {
                ++m_pos;
                skip(QStringLiteral(" \t"));
                if (!address())
                    return false;
            }
            skip(QStringLiteral(" \t"));
            while (peek() == QLatin1Char('!')) {
                ++m_pos;
                skip(QStringLiteral(" \t"));
            }
            const bool opensBlock = peek() == QLatin1Char('{');
            if (!command())
                return false;
            if (opensBlock)
                continue;
            skip(QStringLiteral(" \t"));
            if (!atEnd() && !QStringLiteral(";\n}#").contains(peek()))
                return false;
        }
    }

private:
    bool atEnd() const { return m_pos >= m_script.size(); }
    QChar peek() const { return atEnd() ? QChar() : m_script.at(m_pos); }

    void skip(const QString &characters)
    {
        while (!atEnd() && characters.contains(peek()))
            ++m_pos;
    }

    void skipToLineEnd()
    {
        while (!atEnd() && peek() != QLatin1Char('\n')) {
            if (peek() == QLatin1Char('\\'))
                ++m_pos;
            ++m_pos;
        }
    }

    void skipLabel()
    {
        skip(QStringLiteral(" \t"));
        while (!atEnd() && peek() != QLatin1Char(';') && peek() != QLatin1Char('\n'))
            ++m_pos;
    }

    // Up to the unescaped delimiter, which it consumes.
    bool delimited(QChar delimiter)
    {
        while (!atEnd()) {
            const QChar c = peek();
            ++m_pos;
            if (c == QLatin1Char('\\')) {
                if (atEnd())
                    return false;
                ++m_pos;
            } else if (c == delimiter) {
                return true;
            } else if (c == QLatin1Char('\n') && delimiter != QLatin1Char('\n')) {
                return false;
            }
        }
        return false;
    }

    bool address()
    {
        const QChar c = peek();
        if (c.isDigit() || c == QLatin1Char('+') || c == QLatin1Char('~')) {
            ++m_pos;
            while (peek().isDigit() || peek() == QLatin1Char('~'))
                ++m_pos;
            return true;
        }
        if (c == QLatin1Char('$')) {
            ++m_pos;
            return true;
        }
        if (c == QLatin1Char('/') || c == QLatin1Char('\\')) {
            ++m_pos;
            QChar delimiter = c;
            if (c == QLatin1Char('\\')) {
                delimiter = peek();
                if (delimiter.isNull() || delimiter == QLatin1Char('\n'))
                    return false;
                ++m_pos;
            }
            if (!delimited(delimiter))
                return false;
            while (peek() == QLatin1Char('I') || peek() == QLatin1Char('M'))
                ++m_pos;
        }
        return true;
    }

    bool command()
    {
        const QChar c = peek();
        ++m_pos;
        static const QString simple = QStringLiteral("=dDgGhHlLnNpPqQxzF{}");
        if (simple.contains(c)) {
            skip(QStringLiteral(" \t"));
            while (peek().isDigit()) // q5, l70
                ++m_pos;
            return true;
        }
        switch (c.unicode()) {
        case '#':
        case 'a':
        case 'i':
        case 'c':
        case 'r': // reads a file: the rest of the line names it
        case 'R': {
            skip(QStringLiteral(" \t"));
            const qsizetype start = m_pos;
            skipToLineEnd();
            const QString file = m_script.mid(start, m_pos - start);
            if (!file.isEmpty())
                filesRead.append(file);
            return true;
        }
        case ':':
        case 'b':
        case 't':
        case 'T':
        case 'v':
            skipLabel();
            return true;
        case 's':
            return substitution();
        case 'y': {
            const QChar delimiter = peek();
            if (delimiter.isNull() || delimiter == QLatin1Char('\\')
                || delimiter == QLatin1Char('\n'))
                return false;
            ++m_pos;
            return delimited(delimiter) && delimited(delimiter);
        }
        default: // w, W, e and anything unknown
            return false;
        }
    }

    bool substitution()
    {
        const QChar delimiter = peek();
        if (delimiter.isNull() || delimiter == QLatin1Char('\\') || delimiter == QLatin1Char('\n'))
            return false;
        ++m_pos;
        if (!delimited(delimiter) || !delimited(delimiter))
            return false;
        static const QString flags = QStringLiteral("gpiImM0123456789");
        while (!atEnd() && flags.contains(peek()))
            ++m_pos;
        return true; // a following `w` or `e` flag fails the separator check
    }

    const QString &m_script;
    qsizetype m_pos = 0;
};

} // namespace

bool BashSedScript::isReadOnlyScript(const QString &script)
{
    return ScriptReader(script).readOnly();
}

bool BashSedScript::isReadOnlyInvocation(const QStringList &args,
                                         const QList<bool> &expands,
                                         QStringList *filesRead)
{
    QStringList scripts;
    bool sandbox = false;
    bool scriptGiven = false;
    bool operandsOnly = false;
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString &arg = args.at(i);
        if (expands.value(i))
            return false; // a script or an option we cannot see
        if (operandsOnly || arg == QLatin1String("-") || !arg.startsWith(QLatin1Char('-'))) {
            if (!scriptGiven) {
                scripts.append(arg);
                scriptGiven = true;
            }
            continue;
        }
        if (arg == QLatin1String("--")) {
            operandsOnly = true;
            continue;
        }
        if (arg.startsWith(QLatin1String("--"))) {
            static const QStringList harmless{QStringLiteral("--quiet"),
                                              QStringLiteral("--silent"),
                                              QStringLiteral("--regexp-extended"),
                                              QStringLiteral("--separate"),
                                              QStringLiteral("--null-data"),
                                              QStringLiteral("--unbuffered"),
                                              QStringLiteral("--posix"),
                                              QStringLiteral("--debug"),
                                              QStringLiteral("--sandbox")};
            if (arg == QLatin1String("--sandbox"))
                sandbox = true;
            if (arg.startsWith(QLatin1String("--expression="))) {
                scripts.append(arg.mid(13));
                scriptGiven = true;
            } else if (arg == QLatin1String("--expression") && i + 1 < args.size()) {
                if (expands.value(++i))
                    return false;
                scripts.append(args.at(i));
                scriptGiven = true;
            } else if (!harmless.contains(arg) && !arg.startsWith(QLatin1String("--line-length="))) {
                return false; // --in-place, --file, and whatever we do not know
            }
            continue;
        }
        // A cluster of short options: -n, -E, -ne 'p', -l 80.
        for (qsizetype at = 1; at < arg.size(); ++at) {
            const QChar option = arg.at(at);
            if (QStringLiteral("nErszu").contains(option))
                continue;
            if (option == QLatin1Char('e') || option == QLatin1Char('l')) {
                QString value = arg.mid(at + 1);
                if (value.isEmpty() && i + 1 < args.size()) {
                    if (expands.value(++i))
                        return false;
                    value = args.at(i);
                }
                if (option == QLatin1Char('e')) {
                    scripts.append(value);
                    scriptGiven = true;
                }
                break;
            }
            return false; // -i, -f, and whatever we do not know
        }
    }
    if (sandbox)
        return true; // --sandbox refuses r, w and e
    for (const QString &script : std::as_const(scripts)) {
        ScriptReader reader(script);
        if (!reader.readOnly())
            return false;
        if (filesRead)
            filesRead->append(reader.filesRead);
    }
    return true;
}

} // namespace AgentCore
