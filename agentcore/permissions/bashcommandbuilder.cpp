#include "bashcommandbuilder.h"

namespace AgentCore {

namespace {

bool isBareWordChar(QChar c)
{
    static const QString punctuation = QStringLiteral("_@%+=:,./-~^");
    return c.isLetterOrNumber() || punctuation.contains(c);
}

// Writes to these never create or change a file in the tree.
bool isSpecialFile(const QString &target)
{
    static const QStringList devices{QStringLiteral("/dev/null"),
                                     QStringLiteral("/dev/stdout"),
                                     QStringLiteral("/dev/stderr"),
                                     QStringLiteral("/dev/tty")};
    if (devices.contains(target))
        return true;
    static const QString fd = QStringLiteral("/dev/fd/");
    if (!target.startsWith(fd) || target.size() == fd.size())
        return false;
    for (qsizetype i = fd.size(); i < target.size(); ++i) {
        if (!target.at(i).isDigit())
            return false;
    }
    return true;
}

bool isFdNumber(const QString &target)
{
    if (target == QLatin1String("-"))
        return true; // `>&-` closes
    if (target.isEmpty())
        return false;
    for (const QChar c : target) {
        if (!c.isDigit())
            return false;
    }
    return true;
}

QString operatorWithoutFd(const QString &op)
{
    qsizetype i = 0;
    while (i < op.size() && op.at(i).isDigit())
        ++i;
    return op.mid(i);
}

} // namespace

void BashCommandBuilder::addAssignment(const QString &name,
                                       const QString &op,
                                       const QString &value,
                                       const QString &source,
                                       bool expands)
{
    m_command.assignments.append(expands ? source : name + op + value);
    m_text.append(expands ? source : name + op + quoteWord(value));
    m_command.hasExpansion = m_command.hasExpansion || expands;
}

void BashCommandBuilder::addWord(const QString &value, const QString &source, bool expands)
{
    m_command.words.append(expands ? source : value);
    m_command.wordExpands.append(expands);
    m_text.append(expands ? source : quoteWord(value));
    m_command.hasExpansion = m_command.hasExpansion || expands;
}

void BashCommandBuilder::addRedirection(const BashRedirection &redirection)
{
    m_command.redirections.append(redirection);
    m_command.hasExpansion = m_command.hasExpansion || redirection.targetExpands;
}

void BashCommandBuilder::addNested(const QList<SimpleCommand> &commands)
{
    m_nested.append(commands);
}

bool BashCommandBuilder::isEmpty() const
{
    return m_command.words.isEmpty() && m_command.assignments.isEmpty()
           && m_command.redirections.isEmpty();
}

void BashCommandBuilder::finish(QList<SimpleCommand> &out)
{
    m_command.text = m_text.join(QLatin1Char(' '));
    out.append(m_command);
    out.append(m_nested);
    *this = {};
}

BashRedirection BashCommandBuilder::redirection(const QString &op,
                                                const QString &target,
                                                bool expands)
{
    BashRedirection result;
    result.op = op;
    result.target = target;
    result.targetExpands = expands;
    const QString bare = operatorWithoutFd(op);
    static const QStringList fileWriters{QStringLiteral(">"),
                                         QStringLiteral(">>"),
                                         QStringLiteral(">|"),
                                         QStringLiteral("&>"),
                                         QStringLiteral("&>>"),
                                         QStringLiteral("<>")};
    if (fileWriters.contains(bare))
        result.writesFile = expands || !isSpecialFile(target);
    else if (bare == QLatin1String(">&")) // `>& file` is `&> file`; `>&2` duplicates
        result.writesFile = expands || (!isFdNumber(target) && !isSpecialFile(target));
    return result;
}

void BashCommandBuilder::attach(QList<SimpleCommand> &commands,
                                qsizetype first,
                                qsizetype last,
                                const BashRedirection &redirection)
{
    for (qsizetype i = first; i < last; ++i) {
        commands[i].redirections.append(redirection);
        commands[i].hasExpansion = commands[i].hasExpansion || redirection.targetExpands;
    }
}

QString BashCommandBuilder::quoteWord(const QString &word)
{
    bool bare = !word.isEmpty();
    for (const QChar c : word)
        bare = bare && isBareWordChar(c);
    if (bare)
        return word;
    QString quoted = word;
    quoted.replace(QLatin1Char('\''), QLatin1String("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

bool BashCommandBuilder::hasPattern(QStringView skeleton)
{
    for (qsizetype i = 0; i < skeleton.size(); ++i) {
        const QChar c = skeleton.at(i);
        if (c == QLatin1Char('*') || c == QLatin1Char('?'))
            return true;
        if (c == QLatin1Char('[') && skeleton.indexOf(QLatin1Char(']'), i + 1) > i)
            return true;
        if (c == QLatin1Char('{')) {
            const qsizetype close = skeleton.indexOf(QLatin1Char('}'), i + 1);
            if (close < 0)
                continue;
            const QStringView inside = skeleton.sliced(i + 1, close - i - 1);
            if (inside.contains(QLatin1Char(',')) || inside.contains(QLatin1String("..")))
                return true;
        }
    }
    return false;
}

} // namespace AgentCore
