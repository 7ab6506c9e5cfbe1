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

// How a read-only program takes options that matter for reading: file arguments (checked like
// operands, wherever they are attached), and options that make it read paths nobody can see.
struct OptionSpec
{
    QString fileLetters;  // short options whose argument is a path
    QString valueLetters; // short options whose argument is something else: end of a cluster
    QStringList fileLong; // long options whose argument is a path
    QString followLetters;
    QStringList followLong;
    // Options that make it read the names of the files to read from a file (its argument, when
    // it takes one, is among the file options too).
    QString listLetters;
    QStringList listLong;
};

const QHash<QString, OptionSpec> &optionSpecs()
{
    const auto s = [](const char *text) { return QString::fromLatin1(text); };
    const auto l = [](std::initializer_list<const char *> names) {
        QStringList result;
        for (const char *name : names)
            result.append(QString::fromLatin1(name));
        return result;
    };
    const OptionSpec grep{s("f"),
                          s("eABCmdD"),
                          l({"--file", "--exclude-from"}),
                          s("R"),
                          l({"--dereference-recursive"}),
                          {},
                          {}};
    const OptionSpec fd{{},
                        s("edtEjxXScCo"),
                        l({"--ignore-file", "--search-path", "--base-directory"}),
                        s("L"),
                        l({"--follow"}),
                        {},
                        {}};
    const OptionSpec checksum{{}, {}, {}, {}, {}, s("c"), l({"--check"})};
    const OptionSpec b2sum{{}, s("l"), {}, {}, {}, s("c"), l({"--check"})};
    static const QHash<QString, OptionSpec> specs{
        {s("grep"), grep},
        {s("egrep"), grep},
        {s("fgrep"), grep},
        {s("rg"),
         {s("f"), s("eABCEgjmMrtTd"), l({"--file", "--ignore-file"}), s("L"), l({"--follow"}), {}, {}}},
        {s("fd"), fd},
        {s("fdfind"), fd},
        {s("ls"), {{}, s("IwT"), {}, s("L"), l({"--dereference"}), {}, {}}},
        {s("du"),
         {s("X"),
          s("Bdt"),
          l({"--exclude-from", "--files0-from"}),
          s("L"),
          l({"--dereference"}),
          {},
          l({"--files0-from"})}},
        {s("tree"), {{}, s("LPIHTo"), l({"--infofile", "--gitfile"}), s("l"), {}, {}, {}}},
        {s("wc"), {{}, {}, l({"--files0-from"}), {}, {}, {}, l({"--files0-from"})}},
        {s("sort"),
         {s("T"),
          s("kSto"),
          l({"--temporary-directory", "--random-source", "--files0-from"}),
          {},
          {},
          {},
          l({"--files0-from"})}},
        {s("file"),
         {s("mf"), s("FPe"), l({"--magic-file", "--files-from"}), {}, {}, s("f"), l({"--files-from"})}},
        {s("date"), {s("fr"), s("d"), l({"--file", "--reference"}), {}, {}, {}, {}}},
        {s("pgrep"), {s("F"), s("dgGPstuU"), l({"--pidfile"}), {}, {}, {}, {}}},
        {s("jq"), {s("fL"), {}, l({"--from-file", "--library-path"}), {}, {}, {}, {}}},
        {s("hexdump"), {s("f"), s("ens"), l({"--format-file"}), {}, {}, {}, {}}},
        {s("diff"),
         {s("X"), s("CUWIFxLSD"), l({"--exclude-from", "--from-file", "--to-file"}), {}, {}, {}, {}}},
        {s("xargs"), {s("a"), s("dEILnPs"), l({"--arg-file"}), {}, {}, {}, {}}},
        // git's subcommands attach values the same way: `git grep -fFILE`, `git diff -OFILE`,
        // `git blame -SFILE` (a pickaxe `git log -Sword` is located too: harmless).
        {s("git"), {s("fOS"), {}, {}, {}, {}, {}, {}}},
        {s("md5sum"), checksum},
        {s("sha1sum"), checksum},
        {s("sha224sum"), checksum},
        {s("sha256sum"), checksum},
        {s("sha384sum"), checksum},
        {s("sha512sum"), checksum},
        {s("b2sum"), b2sum},
        {s("cksum"), {{}, s("al"), {}, {}, {}, s("c"), l({"--check"})}},
    };
    return specs;
}

// getopt_long takes any unambiguous abbreviation: `--ref F` is `--reference F`.
bool namesLongOption(const QString &word, const QStringList &names)
{
    const QString name = word.left(word.indexOf(QLatin1Char('=')));
    return name.size() > 2
           && std::any_of(names.cbegin(), names.cend(), [&name](const QString &option) {
                  return option.startsWith(name);
              });
}

struct OptionScan
{
    QList<BashOptionPath> paths;
    BashUnknownReads unknown = BashUnknownReads::None;
};

OptionScan scanOptions(const QStringList &words, const QList<bool> &expands)
{
    OptionScan scan;
    if (words.isEmpty() || expands.value(0))
        return scan;
    const QString program = BashWrappers::programName(words.first());
    if (program == QLatin1String("find")) {
        // -H follows the start points only, but they are located before the walk: not worth it.
        static const QStringList follow{QStringLiteral("-L"),
                                        QStringLiteral("-H"),
                                        QStringLiteral("-follow")};
        for (qsizetype i = 1; i < words.size(); ++i) {
            if (expands.value(i))
                continue;
            if (follow.contains(words.at(i)))
                scan.unknown = BashUnknownReads::FollowsSymlinks;
            else if (words.at(i) == QLatin1String("-files0-from"))
                scan.unknown = BashUnknownReads::NamesFromFile;
        }
        return scan;
    }
    if (program == QLatin1String("strings")) { // binutils read options from @FILE
        for (qsizetype i = 1; i < words.size(); ++i) {
            if (words.at(i).startsWith(QLatin1Char('@')))
                scan.paths.append({words.at(i).mid(1), expands.value(i)});
        }
        return scan;
    }
    const auto spec = optionSpecs().constFind(program);
    if (spec == optionSpecs().constEnd())
        return scan;
    const auto mark = [&scan](BashUnknownReads unknown) {
        if (scan.unknown == BashUnknownReads::None)
            scan.unknown = unknown;
    };
    bool recursive = false;
    bool noDereference = false;
    for (qsizetype i = 1; i < words.size(); ++i) {
        const QString &word = words.at(i);
        // An expansion is no option we can see; as an operand, the caller finds it Unknown.
        if (expands.value(i) || word.size() < 2 || !word.startsWith(QLatin1Char('-')))
            continue;
        if (word == QLatin1String("--"))
            break;
        if (word.startsWith(QLatin1String("--"))) {
            if (namesLongOption(word, spec->followLong))
                mark(BashUnknownReads::FollowsSymlinks);
            if (namesLongOption(word, spec->listLong))
                mark(BashUnknownReads::NamesFromFile);
            if (namesLongOption(word, spec->fileLong)) {
                const qsizetype equals = word.indexOf(QLatin1Char('='));
                if (equals > 0)
                    scan.paths.append({word.mid(equals + 1), false});
                else if (i + 1 < words.size()) {
                    ++i;
                    scan.paths.append({words.at(i), expands.value(i)});
                }
            }
            recursive = recursive || namesLongOption(word, {QStringLiteral("--recursive")});
            noDereference = noDereference
                            || namesLongOption(word, {QStringLiteral("--no-dereference")});
            continue;
        }
        for (qsizetype at = 1; at < word.size(); ++at) {
            const QChar letter = word.at(at);
            if (spec->followLetters.contains(letter))
                mark(BashUnknownReads::FollowsSymlinks);
            if (letter == QLatin1Char('r'))
                recursive = true;
            if (spec->listLetters.contains(letter))
                mark(BashUnknownReads::NamesFromFile);
            if (spec->fileLetters.contains(letter)) {
                if (at + 1 < word.size())
                    scan.paths.append({word.mid(at + 1), false});
                else if (i + 1 < words.size()) {
                    ++i;
                    scan.paths.append({words.at(i), expands.value(i)});
                }
                break;
            }
            if (spec->valueLetters.contains(letter)) {
                if (at + 1 == word.size())
                    ++i; // the value is the next word
                break;
            }
        }
    }
    // GNU diff follows the symbolic links it meets in the trees it compares.
    if (program == QLatin1String("diff") && recursive && !noDereference)
        mark(BashUnknownReads::FollowsSymlinks);
    return scan;
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

QList<BashOptionPath> BashReadOnlyCommands::optionPaths(const QStringList &words,
                                                        const QList<bool> &expands)
{
    return scanOptions(words, expands).paths;
}

BashUnknownReads BashReadOnlyCommands::unknownReads(const QStringList &words,
                                                    const QList<bool> &expands)
{
    return scanOptions(words, expands).unknown;
}

bool BashReadOnlyCommands::isReadOnly(const QStringList &words, const QList<bool> &expands)
{
    if (words.isEmpty() || expands.value(0) || words.first().contains(QLatin1Char('/')))
        return false;
    if (unknownReads(words, expands) != BashUnknownReads::None)
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
