#include "builtinbashparser.h"
#include "translation.h"

#include "bashcommandbuilder.h"

#include <QCoreApplication>
#include <QHash>
#include <QRegularExpression>

#include <utility>

namespace AgentCore {

namespace {

struct Word
{
    QString value;
    QString source;
    QString skeleton; // see BashCommandBuilder::hasPattern
    bool expands = false;
    bool quoted = false;
    QList<SimpleCommand> nested;
};

struct PendingHeredoc
{
    QString delimiter;
    bool stripTabs = false;
    bool quoted = false;
};

enum class ListEnd { Input, Paren, Brace };

bool isBlank(QChar c)
{
    return c == QLatin1Char(' ') || c == QLatin1Char('\t');
}

bool isWordBreak(QChar c)
{
    static const QString breaks = QStringLiteral(" \t\n;&|()<>");
    return c.isNull() || breaks.contains(c);
}

// Words that start shell syntax this parser does not follow.
QString unsupportedKeyword(const QString &word)
{
    static const QHash<QString, QString> constructs = [] {
        QHash<QString, QString> map;
        const auto add = [&map](const QString &words, const QString &construct) {
            for (const QString &keyword : words.split(QLatin1Char(' ')))
                map.insert(keyword, construct);
        };
        add(QStringLiteral("if then elif else fi"), QStringLiteral("if"));
        add(QStringLiteral("for select while until do done in"),
            QStringLiteral(QT_TRANSLATE_NOOP("AgentCore::Permissions", "for/while loops")));
        add(QStringLiteral("case esac"), QStringLiteral("case"));
        add(QStringLiteral("function"),
            QStringLiteral(QT_TRANSLATE_NOOP("AgentCore::Permissions", "function definitions")));
        add(QStringLiteral("let"), QStringLiteral("let"));
        add(QStringLiteral("coproc"), QStringLiteral("coproc"));
        add(QStringLiteral("[[ ]]"),
            QStringLiteral(QT_TRANSLATE_NOOP("AgentCore::Permissions", "[[ ]] tests")));
        return map;
    }();
    // Translated here, not in the table: the table outlives a change of language.
    return PermissionsTr::tr(constructs.value(word).toUtf8().constData());
}

class Parser
{
public:
    explicit Parser(QString text, int depth = 0)
        : m_text(std::move(text))
        , m_depth(depth)
    {}

    bool parseAll(QList<SimpleCommand> &out)
    {
        m_out = &out;
        if (!parseList(ListEnd::Input, true))
            return false;
        if (!m_heredocs.isEmpty())
            return syntaxError(PermissionsTr::tr("the here-document %1 is not terminated")
                                   .arg(m_heredocs.first().delimiter));
        return true;
    }

    QString problem() const { return m_problem; }

private:
    QChar peek(qsizetype ahead = 0) const
    {
        const qsizetype at = m_pos + ahead;
        return at < m_text.size() ? m_text.at(at) : QChar();
    }
    bool atEnd() const { return m_pos >= m_text.size(); }
    bool lookingAt(QLatin1String token) const
    {
        return QStringView(m_text).sliced(m_pos).startsWith(token);
    }

    bool syntaxError(const QString &what)
    {
        if (m_problem.isEmpty()) {
            const QStringView before = QStringView(m_text).first(qMin(m_pos, m_text.size()));
            const qsizetype line = before.count(QLatin1Char('\n')) + 1;
            const qsizetype column = m_pos - (before.lastIndexOf(QLatin1Char('\n')) + 1) + 1;
            m_problem = PermissionsTr::tr("Cannot parse the command (line %1, column %2): %3")
                            .arg(line)
                            .arg(column)
                            .arg(what);
        }
        return false;
    }

    bool unsupported(const QString &construct)
    {
        if (m_problem.isEmpty())
            m_problem = PermissionsTr::tr("The command uses %1, which AgentDesk does not analyse.")
                            .arg(construct);
        return false;
    }

    // A word made of plain characters only, as reserved words must be; empty otherwise.
    QString plainWordAt(qsizetype at) const
    {
        static const QString special = QStringLiteral("'\"\\$`");
        qsizetype end = at;
        while (end < m_text.size() && !isWordBreak(m_text.at(end))
               && !special.contains(m_text.at(end)))
            ++end;
        if (end < m_text.size() && !isWordBreak(m_text.at(end)))
            return {};
        return m_text.mid(at, end - at);
    }

    void skipBlanks()
    {
        while (!atEnd()) {
            if (isBlank(peek())) {
                ++m_pos;
            } else if (peek() == QLatin1Char('\\') && peek(1) == QLatin1Char('\n')) {
                m_pos += 2;
            } else if (peek() == QLatin1Char('#')) {
                while (!atEnd() && peek() != QLatin1Char('\n'))
                    ++m_pos;
            } else {
                break;
            }
        }
    }

    bool skipLinebreaks()
    {
        for (;;) {
            skipBlanks();
            if (peek() != QLatin1Char('\n'))
                return true;
            if (!consumeNewline())
                return false;
        }
    }

    bool consumeNewline()
    {
        ++m_pos;
        const QList<PendingHeredoc> heredocs = std::exchange(m_heredocs, {});
        for (const PendingHeredoc &heredoc : heredocs) {
            if (!readHeredoc(heredoc))
                return false;
        }
        return true;
    }

    bool readHeredoc(const PendingHeredoc &heredoc)
    {
        for (;;) {
            if (atEnd())
                return syntaxError(PermissionsTr::tr("the here-document %1 is not terminated")
                                       .arg(heredoc.delimiter));
            qsizetype lineEnd = m_text.indexOf(QLatin1Char('\n'), m_pos);
            if (lineEnd < 0)
                lineEnd = m_text.size();
            QStringView line = QStringView(m_text).sliced(m_pos, lineEnd - m_pos);
            while (heredoc.stripTabs && line.startsWith(QLatin1Char('\t')))
                line = line.sliced(1);
            if (line == heredoc.delimiter) {
                m_pos = qMin(lineEnd + 1, m_text.size());
                return true;
            }
            if (!heredoc.quoted
                && (line.contains(QLatin1String("$(")) || line.contains(QLatin1Char('`'))))
                return unsupported(
                    PermissionsTr::tr("command substitution inside a here-document"));
            m_pos = qMin(lineEnd + 1, m_text.size());
        }
    }

    bool atListEnd(ListEnd end) const
    {
        return atEnd() || (end == ListEnd::Paren && peek() == QLatin1Char(')'))
               || (end == ListEnd::Brace && plainWordAt(m_pos) == QLatin1String("}"));
    }

    // Nesting is bounded so that hostile input cannot exhaust the stack.
    bool parseList(ListEnd end, bool allowEmpty)
    {
        constexpr int maximumDepth = 64;
        if (m_depth >= maximumDepth)
            return unsupported(PermissionsTr::tr("more than %1 nested levels").arg(maximumDepth));
        ++m_depth;
        const bool ok = parseListItems(end, allowEmpty);
        --m_depth;
        return ok;
    }

    bool parseListItems(ListEnd end, bool allowEmpty)
    {
        bool any = false;
        if (!skipLinebreaks())
            return false;
        for (;;) {
            skipBlanks();
            if (atListEnd(end))
                break;
            if (!parseAndOr())
                return false;
            any = true;
            skipBlanks();
            const QChar c = peek();
            if (c == QLatin1Char(';')) {
                if (peek(1) == QLatin1Char(';') || peek(1) == QLatin1Char('&'))
                    return syntaxError(
                        PermissionsTr::tr("%1 outside a case statement").arg(m_text.mid(m_pos, 2)));
                ++m_pos;
            } else if (c == QLatin1Char('&')) {
                ++m_pos;
            } else if (c == QLatin1Char('\n')) {
                if (!consumeNewline())
                    return false;
            } else if (!atListEnd(end)) {
                return syntaxError(PermissionsTr::tr("unexpected %1").arg(c));
            }
            if (!skipLinebreaks())
                return false;
        }
        if (!any && !allowEmpty)
            return syntaxError(PermissionsTr::tr("expected a command"));
        if (end == ListEnd::Input)
            return true;
        if (atEnd())
            return syntaxError(end == ListEnd::Paren ? PermissionsTr::tr("missing )")
                                                     : PermissionsTr::tr("missing }"));
        ++m_pos; // the ) or }
        return true;
    }

    bool parseAndOr()
    {
        if (!parsePipeline())
            return false;
        for (;;) {
            skipBlanks();
            if (!lookingAt(QLatin1String("&&")) && !lookingAt(QLatin1String("||")))
                return true;
            m_pos += 2;
            if (!skipLinebreaks() || !parsePipeline())
                return false;
        }
    }

    bool atCommandEnd()
    {
        skipBlanks();
        const QChar c = peek();
        return atEnd() || c == QLatin1Char(';') || c == QLatin1Char('\n') || c == QLatin1Char(')')
               || (c == QLatin1Char('&') && peek(1) != QLatin1Char('>')) || (c == QLatin1Char('|'));
    }

    bool parsePipeline()
    {
        skipBlanks();
        if (plainWordAt(m_pos) == QLatin1String("!")) {
            ++m_pos;
            if (atCommandEnd())
                return syntaxError(PermissionsTr::tr("! without a command"));
        }
        skipBlanks();
        if (plainWordAt(m_pos) == QLatin1String("time")) {
            m_pos += 4;
            skipBlanks();
            if (plainWordAt(m_pos) == QLatin1String("-p"))
                m_pos += 2;
            if (atCommandEnd())
                return true;
        }
        if (!parseCommand())
            return false;
        for (;;) {
            skipBlanks();
            if (peek() != QLatin1Char('|') || peek(1) == QLatin1Char('|'))
                return true;
            m_pos += peek(1) == QLatin1Char('&') ? 2 : 1;
            if (!skipLinebreaks() || !parseCommand())
                return false;
        }
    }

    bool parseCommand()
    {
        skipBlanks();
        if (peek() == QLatin1Char('(')) {
            if (peek(1) == QLatin1Char('('))
                return unsupported(PermissionsTr::tr("arithmetic commands (( ))"));
            ++m_pos;
            const qsizetype first = m_out->size();
            return parseList(ListEnd::Paren, false) && parseGroupRedirections(first);
        }
        const QString word = plainWordAt(m_pos);
        if (word == QLatin1String("{")) {
            ++m_pos;
            const qsizetype first = m_out->size();
            return parseList(ListEnd::Brace, false) && parseGroupRedirections(first);
        }
        const QString keyword = unsupportedKeyword(word);
        if (!keyword.isEmpty())
            return unsupported(keyword);
        if (word == QLatin1String("}") || word == QLatin1String("!"))
            return syntaxError(PermissionsTr::tr("unexpected %1").arg(word));
        if (atEnd() || (isWordBreak(peek()) && !startsRedirection()))
            return syntaxError(atEnd()
                                   ? PermissionsTr::tr("expected a command at the end")
                                   : PermissionsTr::tr("expected a command before %1").arg(peek()));
        return parseSimple();
    }

    bool parseGroupRedirections(qsizetype first)
    {
        const qsizetype last = m_out->size();
        QList<SimpleCommand> nested;
        for (;;) {
            skipBlanks();
            if (!startsRedirection())
                break;
            BashRedirection redirection;
            if (!parseRedirection(redirection, nested))
                return false;
            BashCommandBuilder::attach(*m_out, first, last, redirection);
        }
        m_out->append(nested);
        if (!atCommandEnd() && plainWordAt(m_pos) != QLatin1String("}"))
            return syntaxError(PermissionsTr::tr("unexpected word after a group"));
        return true;
    }

    bool startsRedirection() const
    {
        qsizetype at = m_pos;
        while (at < m_text.size() && m_text.at(at).isDigit())
            ++at;
        const QChar c = at < m_text.size() ? m_text.at(at) : QChar();
        if (c == QLatin1Char('<') || c == QLatin1Char('>'))
            return true;
        return at == m_pos && c == QLatin1Char('&') && peek(1) == QLatin1Char('>');
    }

    bool parseRedirection(BashRedirection &redirection, QList<SimpleCommand> &nested)
    {
        const qsizetype start = m_pos;
        while (peek().isDigit())
            ++m_pos;
        const QString fd = m_text.mid(start, m_pos - start);
        // Longest first.
        static const QStringList operators
            = QStringLiteral("&>> &> <<< <<- << <> <& <( >> >& >| >( > <").split(QLatin1Char(' '));
        QString op;
        for (const QString &candidate : operators) {
            if (QStringView(m_text).sliced(m_pos).startsWith(candidate)) {
                op = candidate;
                break;
            }
        }
        if (op.endsWith(QLatin1Char('(')))
            return unsupported(PermissionsTr::tr("process substitution"));
        m_pos += op.size();
        skipBlanks();
        if (atEnd() || isWordBreak(peek()))
            return syntaxError(PermissionsTr::tr("%1 without a target").arg(fd + op));
        Word word;
        if (!parseWord(word))
            return false;
        nested.append(word.nested);
        if (op.startsWith(QLatin1String("<<")) && op != QLatin1String("<<<")) {
            m_heredocs.append({word.value, op == QLatin1String("<<-"), word.quoted});
            redirection = BashCommandBuilder::redirection(fd + op, word.value, false);
            return true;
        }
        redirection = BashCommandBuilder::redirection(fd + op,
                                                      word.expands ? word.source : word.value,
                                                      word.expands);
        return true;
    }

    bool parseSimple()
    {
        static const QRegularExpression assignment(
            QStringLiteral("^([A-Za-z_][A-Za-z0-9_]*)(\\+?=)"));
        static const QRegularExpression indexed(
            QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*\\[.*\\]\\+?="));
        BashCommandBuilder builder;
        bool assignmentsAllowed = true;
        for (;;) {
            skipBlanks();
            if (atEnd())
                break;
            if (startsRedirection()) {
                BashRedirection redirection;
                QList<SimpleCommand> nested;
                if (!parseRedirection(redirection, nested))
                    return false;
                builder.addRedirection(redirection);
                builder.addNested(nested);
                continue;
            }
            if (peek() == QLatin1Char('('))
                return unsupported(PermissionsTr::tr("function definitions or arrays"));
            if (isWordBreak(peek()))
                break;
            Word word;
            if (!parseWord(word))
                return false;
            builder.addNested(word.nested);
            if (assignmentsAllowed) {
                const QRegularExpressionMatch match = assignment.match(word.source);
                if (match.hasMatch()) {
                    if (peek() == QLatin1Char('('))
                        return unsupported(PermissionsTr::tr("array assignments"));
                    const QString name = match.captured(1);
                    const QString op = match.captured(2);
                    builder.addAssignment(name,
                                          op,
                                          word.value.mid(name.size() + op.size()),
                                          word.source,
                                          word.expands);
                    continue;
                }
                if (indexed.match(word.source).hasMatch())
                    return unsupported(PermissionsTr::tr("array assignments"));
            }
            assignmentsAllowed = false;
            builder.addWord(word.value, word.source, word.expands);
        }
        if (builder.isEmpty())
            return syntaxError(PermissionsTr::tr("expected a command"));
        builder.finish(*m_out);
        return true;
    }

    bool parseWord(Word &word)
    {
        const qsizetype start = m_pos;
        while (!atEnd() && !isWordBreak(peek())) {
            const QChar c = peek();
            if (c == QLatin1Char('\\')) {
                if (peek(1) == QLatin1Char('\n')) {
                    m_pos += 2;
                } else if (m_pos + 1 >= m_text.size()) {
                    word.value += c;
                    word.skeleton += QLatin1Char('_');
                    ++m_pos;
                } else {
                    word.value += peek(1);
                    word.skeleton += QLatin1String("__");
                    word.quoted = true;
                    m_pos += 2;
                }
            } else if (c == QLatin1Char('\'')) {
                const qsizetype close = m_text.indexOf(QLatin1Char('\''), m_pos + 1);
                if (close < 0)
                    return syntaxError(PermissionsTr::tr("unterminated '"));
                word.value += m_text.mid(m_pos + 1, close - m_pos - 1);
                word.skeleton += QLatin1Char('_');
                word.quoted = true;
                m_pos = close + 1;
            } else if (c == QLatin1Char('"')) {
                ++m_pos;
                word.skeleton += QLatin1Char('_');
                word.quoted = true;
                if (!parseDoubleQuoted(word))
                    return false;
            } else if (c == QLatin1Char('$')) {
                if (!parseDollar(word, false))
                    return false;
            } else if (c == QLatin1Char('`')) {
                word.skeleton += QLatin1Char('_');
                if (!parseBackquote(word, false))
                    return false;
            } else {
                word.value += c;
                word.skeleton += c;
                ++m_pos;
            }
        }
        word.source = m_text.mid(start, m_pos - start);
        word.expands = word.expands || BashCommandBuilder::hasPattern(word.skeleton);
        return true;
    }

    bool parseDoubleQuoted(Word &word)
    {
        static const QString escapable = QStringLiteral("$`\"\\");
        for (;;) {
            if (atEnd())
                return syntaxError(PermissionsTr::tr("unterminated \""));
            const QChar c = peek();
            if (c == QLatin1Char('"')) {
                ++m_pos;
                return true;
            }
            if (c == QLatin1Char('\\')) {
                const QChar next = peek(1);
                if (next == QLatin1Char('\n')) {
                    m_pos += 2;
                    continue;
                }
                if (escapable.contains(next) && !next.isNull()) {
                    word.value += next;
                    m_pos += 2;
                    continue;
                }
                word.value += c;
                ++m_pos;
            } else if (c == QLatin1Char('$')) {
                if (!parseDollar(word, true))
                    return false;
            } else if (c == QLatin1Char('`')) {
                if (!parseBackquote(word, true))
                    return false;
            } else {
                word.value += c;
                ++m_pos;
            }
        }
    }

    bool parseDollar(Word &word, bool inDoubleQuotes)
    {
        const QChar next = peek(1);
        static const QString specials = QStringLiteral("@*#?$!-");
        if (next == QLatin1Char('(')) {
            if (peek(2) == QLatin1Char('('))
                return parseArithmetic(word);
            m_pos += 2;
            QList<SimpleCommand> inner;
            QList<SimpleCommand> *const outer = std::exchange(m_out, &inner);
            const bool ok = parseList(ListEnd::Paren, true);
            m_out = outer;
            word.nested.append(inner);
            return ok && expanded(word);
        }
        if (next == QLatin1Char('{'))
            return parseBracedParameter(word);
        if (next == QLatin1Char('\'') && !inDoubleQuotes) {
            qsizetype at = m_pos + 2;
            while (at < m_text.size() && m_text.at(at) != QLatin1Char('\''))
                at += m_text.at(at) == QLatin1Char('\\') ? 2 : 1;
            if (at >= m_text.size())
                return syntaxError(PermissionsTr::tr("unterminated $'"));
            m_pos = at + 1;
            word.quoted = true;
            return expanded(word);
        }
        if (next == QLatin1Char('"') && !inDoubleQuotes) {
            ++m_pos; // $"..." is a translated "...": the caller reads the quotes
            return expanded(word);
        }
        if (next.isLetter() || next == QLatin1Char('_')) {
            m_pos += 2;
            while (!atEnd() && (peek().isLetterOrNumber() || peek() == QLatin1Char('_')))
                ++m_pos;
            return expanded(word);
        }
        if (next.isDigit() || (!next.isNull() && specials.contains(next))) {
            m_pos += 2;
            return expanded(word);
        }
        word.value += QLatin1Char('$');
        word.skeleton += QLatin1Char('$');
        ++m_pos;
        return true;
    }

    bool expanded(Word &word)
    {
        word.expands = true;
        word.skeleton += QLatin1Char('_');
        return true;
    }

    bool parseBracedParameter(Word &word)
    {
        int depth = 0;
        for (qsizetype at = m_pos + 1; at < m_text.size(); ++at) {
            const QChar c = m_text.at(at);
            if (c == QLatin1Char('\\')) {
                ++at;
            } else if (c == QLatin1Char('`')
                       || (c == QLatin1Char('$') && at + 1 < m_text.size()
                           && m_text.at(at + 1) == QLatin1Char('('))) {
                return unsupported(PermissionsTr::tr("command substitution inside ${ }"));
            } else if (c == QLatin1Char('{')) {
                ++depth;
            } else if (c == QLatin1Char('}') && --depth == 0) {
                m_pos = at + 1;
                return expanded(word);
            }
        }
        return syntaxError(PermissionsTr::tr("unterminated ${"));
    }

    bool parseArithmetic(Word &word)
    {
        int depth = 0;
        for (qsizetype at = m_pos + 1; at < m_text.size(); ++at) {
            const QChar c = m_text.at(at);
            if (c == QLatin1Char('`')
                || (c == QLatin1Char('$') && at + 1 < m_text.size()
                    && m_text.at(at + 1) == QLatin1Char('('))) {
                return unsupported(PermissionsTr::tr("command substitution inside $(( ))"));
            }
            if (c == QLatin1Char('('))
                ++depth;
            else if (c == QLatin1Char(')') && --depth == 0) {
                m_pos = at + 1;
                return expanded(word);
            }
        }
        return syntaxError(PermissionsTr::tr("unterminated $(("));
    }

    bool parseBackquote(Word &word, bool inDoubleQuotes)
    {
        QString content;
        qsizetype at = m_pos + 1;
        for (; at < m_text.size(); ++at) {
            const QChar c = m_text.at(at);
            if (c == QLatin1Char('`'))
                break;
            if (c == QLatin1Char('\\') && at + 1 < m_text.size()) {
                const QChar next = m_text.at(++at);
                const bool removes = next == QLatin1Char('\\') || next == QLatin1Char('`')
                                     || next == QLatin1Char('$')
                                     || (inDoubleQuotes && next == QLatin1Char('"'));
                if (!removes)
                    content += c;
                content += next;
                continue;
            }
            content += c;
        }
        if (at >= m_text.size())
            return syntaxError(PermissionsTr::tr("unterminated `"));
        m_pos = at + 1;
        Parser inner(content, m_depth + 1);
        QList<SimpleCommand> commands;
        if (!inner.parseAll(commands)) {
            if (m_problem.isEmpty())
                m_problem = inner.problem();
            return false;
        }
        word.nested.append(commands);
        word.expands = true;
        if (!inDoubleQuotes)
            word.skeleton += QLatin1Char('_');
        return true;
    }

    const QString m_text;
    qsizetype m_pos = 0;
    QList<SimpleCommand> *m_out = nullptr;
    QList<PendingHeredoc> m_heredocs;
    QString m_problem;
    int m_depth = 0;
};

} // namespace

BashParseResult BuiltinBashParser::parse(const QString &command)
{
    BashParseResult result;
    Parser parser(command);
    result.understood = parser.parseAll(result.commands);
    result.problem = parser.problem();
    return result;
}

} // namespace AgentCore
