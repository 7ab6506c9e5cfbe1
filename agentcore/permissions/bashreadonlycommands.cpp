#include "bashreadonlycommands.h"

#include "bashgitcommand.h"
#include "bashsedscript.h"
#include "bashwrappers.h"

#include <QHash>

#include <algorithm>
#include <functional>

namespace AgentCore {

namespace {

struct Arguments
{
    QStringList words; // after the program
    QList<bool> expands;

    bool isOption(qsizetype i) const
    {
        return words.at(i).size() > 1 && words.at(i).startsWith(QLatin1Char('-'));
    }

    // Once expanded, the word may begin with '-'.
    bool mayBeOption(qsizetype i) const
    {
        if (!expands.value(i))
            return isOption(i);
        static const QString literal = QStringLiteral("_./~+,:=@%");
        const QString &source = words.at(i);
        return source.isEmpty()
               || !(source.at(0).isLetterOrNumber() || literal.contains(source.at(0)));
    }

    bool expandedOption() const
    {
        for (qsizetype i = 0; i < words.size(); ++i) {
            if (expands.value(i) && mayBeOption(i))
                return true;
        }
        return false;
    }

    bool has(const std::function<bool(const QString &)> &predicate) const
    {
        return std::any_of(words.cbegin(), words.cend(), predicate);
    }

    // A single-dash cluster (-no) that contains one of \a letters.
    bool hasShortOption(const QString &letters) const
    {
        return has([&letters](const QString &word) {
            if (word.size() < 2 || !word.startsWith(QLatin1Char('-'))
                || word.startsWith(QLatin1String("--")))
                return false;
            return std::any_of(letters.cbegin(), letters.cend(), [&word](QChar letter) {
                return word.indexOf(letter, 1) > 0;
            });
        });
    }

    bool hasLongOption(const QString &prefix) const
    {
        return has([&prefix](const QString &word) { return word.startsWith(prefix); });
    }

    qsizetype operandCount(const QStringList &optionsWithValue) const
    {
        qsizetype count = 0;
        for (qsizetype i = 0; i < words.size(); ++i) {
            if (words.at(i) == QLatin1String("--"))
                return count + words.size() - i - 1;
            if (!isOption(i))
                ++count;
            else if (optionsWithValue.contains(words.at(i)))
                ++i;
        }
        return count;
    }
};

using Check = std::function<bool(const Arguments &)>;

bool dateReadOnly(const Arguments &args)
{
    if (args.expandedOption() || args.hasLongOption(QStringLiteral("--set"))
        || args.hasShortOption(QStringLiteral("s")))
        return false;
    static const QStringList withValue{QStringLiteral("-d"),
                                       QStringLiteral("--date"),
                                       QStringLiteral("-f"),
                                       QStringLiteral("--file"),
                                       QStringLiteral("-r"),
                                       QStringLiteral("--reference")};
    for (qsizetype i = 0; i < args.words.size(); ++i) {
        if (withValue.contains(args.words.at(i)))
            ++i;
        else if (!args.isOption(i) && !args.words.at(i).startsWith(QLatin1Char('+')))
            return false; // `date MMDDhhmm` sets the clock
    }
    return true;
}

bool findReadOnly(const Arguments &args)
{
    static const QStringList actions{QStringLiteral("-exec"),
                                     QStringLiteral("-execdir"),
                                     QStringLiteral("-ok"),
                                     QStringLiteral("-okdir"),
                                     QStringLiteral("-delete"),
                                     QStringLiteral("-fprint"),
                                     QStringLiteral("-fprint0"),
                                     QStringLiteral("-fprintf"),
                                     QStringLiteral("-fls")};
    return !args.expandedOption()
           && !args.has([](const QString &word) { return actions.contains(word); });
}

const QHash<QString, Check> &checks()
{
    static const QHash<QString, Check> table{
        {QStringLiteral("printf"),
         [](const Arguments &args) {
             return args.words.isEmpty()
                    || (args.words.first() != QLatin1String("-v") && !args.mayBeOption(0));
         }},
        {QStringLiteral("test"),
         [](const Arguments &args) {
             // -v 'a[$(cmd)]' evaluates the subscript
             return !args.expandedOption() && !args.words.contains(QStringLiteral("-v"))
                    && !args.words.contains(QStringLiteral("-R"));
         }},
        {QStringLiteral("date"), dateReadOnly},
        {QStringLiteral("sort"),
         [](const Arguments &args) {
             return !args.expandedOption() && !args.hasShortOption(QStringLiteral("o"))
                    && !args.hasLongOption(QStringLiteral("--output"))
                    && !args.hasLongOption(QStringLiteral("--compress-program"));
         }},
        {QStringLiteral("uniq"),
         [](const Arguments &args) { // a second operand is an output file
             return !args.expandedOption()
                    && args.operandCount(
                           {QStringLiteral("-f"), QStringLiteral("-s"), QStringLiteral("-w")})
                           <= 1;
         }},
        {QStringLiteral("tree"),
         [](const Arguments &args) {
             return !args.expandedOption() && !args.hasShortOption(QStringLiteral("oR"))
                    && !args.hasLongOption(QStringLiteral("--output"));
         }},
        {QStringLiteral("file"),
         [](const Arguments &args) {
             return !args.expandedOption() && !args.hasShortOption(QStringLiteral("C"))
                    && !args.hasLongOption(QStringLiteral("--compile"));
         }},
        {QStringLiteral("find"), findReadOnly},
        {QStringLiteral("fd"),
         [](const Arguments &args) {
             return !args.expandedOption() && !args.hasShortOption(QStringLiteral("xX"))
                    && !args.hasLongOption(QStringLiteral("--exec"));
         }},
        {QStringLiteral("rg"),
         [](const Arguments &args) {
             return !args.expandedOption() && !args.hasLongOption(QStringLiteral("--pre"))
                    && !args.hasLongOption(QStringLiteral("--hostname-bin")); // both run programs
         }},
        {QStringLiteral("sed"),
         [](const Arguments &args) {
             return BashSedScript::isReadOnlyInvocation(args.words, args.expands);
         }},
        {QStringLiteral("env"), [](const Arguments &args) { return args.words.isEmpty(); }},
        {QStringLiteral("hostname"), [](const Arguments &args) { return args.words.isEmpty(); }},
        {QStringLiteral("command"),
         [](const Arguments &args) {
             return !args.words.isEmpty()
                    && (args.words.first() == QLatin1String("-v")
                        || args.words.first() == QLatin1String("-V"));
         }},
    };
    return table;
}

// Wrappers that change nothing themselves: read-only when what they run is.
bool wrapperReadOnly(const QStringList &words, const QList<bool> &expands)
{
    static const QStringList transparent{QStringLiteral("timeout"),
                                         QStringLiteral("nice"),
                                         QStringLiteral("stdbuf"),
                                         QStringLiteral("xargs")};
    if (!transparent.contains(words.first()))
        return false;
    for (qsizetype i = 1; i < words.size(); ++i) {
        if (expands.value(i))
            return false; // the options of the wrapper itself may hide anything
        if (!words.at(i).startsWith(QLatin1Char('-')))
            break;
    }
    const std::optional<WrappedCommand> inner = BashWrappers::unwrap(words, expands);
    if (!inner || inner->words.isEmpty())
        return false;
    if (inner->argumentsFromInput && !BashReadOnlyCommands::ignoresArguments(inner->words.first()))
        return false;
    return BashReadOnlyCommands::isReadOnly(inner->words, inner->expands);
}

} // namespace

bool BashReadOnlyCommands::ignoresArguments(const QString &program)
{
    static const QStringList programs{
        QStringLiteral("cat"),       QStringLiteral("head"),      QStringLiteral("tail"),
        QStringLiteral("wc"),        QStringLiteral("pwd"),       QStringLiteral("echo"),
        QStringLiteral("true"),      QStringLiteral("false"),     QStringLiteral(":"),
        QStringLiteral("ls"),        QStringLiteral("grep"),      QStringLiteral("egrep"),
        QStringLiteral("fgrep"),     QStringLiteral("cut"),       QStringLiteral("tr"),
        QStringLiteral("nl"),        QStringLiteral("column"),    QStringLiteral("rev"),
        QStringLiteral("tac"),       QStringLiteral("paste"),     QStringLiteral("fold"),
        QStringLiteral("expand"),    QStringLiteral("unexpand"),  QStringLiteral("strings"),
        QStringLiteral("md5sum"),    QStringLiteral("sha1sum"),   QStringLiteral("sha224sum"),
        QStringLiteral("sha256sum"), QStringLiteral("sha384sum"), QStringLiteral("sha512sum"),
        QStringLiteral("b2sum"),     QStringLiteral("cksum"),     QStringLiteral("base64"),
        QStringLiteral("base32"),    QStringLiteral("stat"),      QStringLiteral("du"),
        QStringLiteral("df"),        QStringLiteral("realpath"),  QStringLiteral("readlink"),
        QStringLiteral("basename"),  QStringLiteral("dirname"),   QStringLiteral("which"),
        QStringLiteral("whoami"),    QStringLiteral("id"),        QStringLiteral("groups"),
        QStringLiteral("uname"),     QStringLiteral("arch"),      QStringLiteral("nproc"),
        QStringLiteral("printenv"),  QStringLiteral("diff"),      QStringLiteral("cmp"),
        QStringLiteral("comm"),      QStringLiteral("seq"),       QStringLiteral("od"),
        QStringLiteral("hexdump"),   QStringLiteral("jq"),        QStringLiteral("type"),
        QStringLiteral("cd"),        QStringLiteral("pushd"),     QStringLiteral("popd"),
        QStringLiteral("dirs"),      QStringLiteral("sleep"),     QStringLiteral("ps"),
        QStringLiteral("pgrep"),     QStringLiteral("locale"),    QStringLiteral("tty"),
        QStringLiteral("uptime"),    QStringLiteral("free"),      QStringLiteral("look")};
    return programs.contains(program);
}

bool BashReadOnlyCommands::isReadOnly(const QStringList &words, const QList<bool> &expands)
{
    if (words.isEmpty() || expands.value(0) || words.first().contains(QLatin1Char('/')))
        return false;
    const QString &program = words.first();
    if (ignoresArguments(program))
        return true;
    const Arguments args{words.mid(1), expands.mid(1)};
    if (program == QLatin1String("git"))
        return BashGitCommand::parse(words, expands).isReadOnly();
    if (program == QLatin1String("["))
        return args.words.endsWith(QStringLiteral("]"))
               && checks().value(QStringLiteral("test"))(args);
    if (program == QLatin1String("fdfind"))
        return checks().value(QStringLiteral("fd"))(args);
    const Check check = checks().value(program);
    if (check)
        return check(args);
    return wrapperReadOnly(words, expands);
}

} // namespace AgentCore
