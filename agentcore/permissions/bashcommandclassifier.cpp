#include "bashcommandclassifier.h"
#include "translation.h"

#include "bashgitcommand.h"
#include "bashpathresolver.h"
#include "bashreadonlycommands.h"
#include "bashsedscript.h"
#include "bashwrappers.h"
#include "pathcapability.h"

#include <tools/gitdirectories.h>

#include <QCoreApplication>
#include <QFileInfo>
#include <QHash>
#include <QRegularExpression>

#include <algorithm>

namespace AgentCore {

namespace {

struct Operand
{
    QString text;
    bool expands = false;
};

constexpr int maximumNesting = 8;

bool isOptionWord(const QStringList &words, const QList<bool> &expands, qsizetype i)
{
    return !expands.value(i) && words.at(i).size() > 1 && words.at(i).startsWith(QLatin1Char('-'));
}

QList<Operand> operands(const QStringList &words,
                        const QList<bool> &expands,
                        const QStringList &optionsWithValue = {})
{
    QList<Operand> result;
    bool optionsEnded = false;
    for (qsizetype i = 1; i < words.size(); ++i) {
        if (!optionsEnded && words.at(i) == QLatin1String("--") && !expands.value(i)) {
            optionsEnded = true;
        } else if (!optionsEnded && isOptionWord(words, expands, i)) {
            if (optionsWithValue.contains(words.at(i)))
                ++i;
        } else {
            result.append({words.at(i), expands.value(i)});
        }
    }
    return result;
}

// `-t dir`, `-tdir`, `--target-directory=dir`, `--target-directory dir`.
QList<Operand> optionValues(const QStringList &words,
                            const QList<bool> &expands,
                            const QString &shortName,
                            const QString &longName)
{
    QList<Operand> result;
    for (qsizetype i = 1; i < words.size(); ++i) {
        const QString &word = words.at(i);
        if (word == QLatin1String("--"))
            break;
        if ((word == shortName || word == longName) && i + 1 < words.size()) {
            ++i;
            result.append({words.at(i), expands.value(i)});
        } else if (word.startsWith(longName + QLatin1Char('='))) {
            result.append({word.mid(longName.size() + 1), expands.value(i)});
        } else if (!shortName.isEmpty() && word.startsWith(shortName)
                   && word.size() > shortName.size() && !word.startsWith(QLatin1String("--"))) {
            result.append({word.mid(shortName.size()), expands.value(i)});
        }
    }
    return result;
}

QString subcommandOf(const QStringList &words)
{
    for (qsizetype i = 1; i < words.size(); ++i) {
        if (!words.at(i).startsWith(QLatin1Char('-')))
            return words.at(i);
    }
    return {};
}

// Programs that reach the network whatever their arguments.
const QStringList &networkPrograms()
{
    static const QStringList programs{QStringLiteral("curl"),     QStringLiteral("wget"),
                                      QStringLiteral("ssh"),      QStringLiteral("scp"),
                                      QStringLiteral("sftp"),     QStringLiteral("nc"),
                                      QStringLiteral("ncat"),     QStringLiteral("netcat"),
                                      QStringLiteral("telnet"),   QStringLiteral("ftp"),
                                      QStringLiteral("socat"),    QStringLiteral("aria2c"),
                                      QStringLiteral("ping"),     QStringLiteral("dig"),
                                      QStringLiteral("nslookup"), QStringLiteral("gh"),
                                      QStringLiteral("glab"),     QStringLiteral("hub"),
                                      QStringLiteral("kubectl"),  QStringLiteral("aws"),
                                      QStringLiteral("gcloud"),   QStringLiteral("az"),
                                      QStringLiteral("apt"),      QStringLiteral("apt-get"),
                                      QStringLiteral("aptitude"), QStringLiteral("dnf"),
                                      QStringLiteral("yum"),      QStringLiteral("pacman"),
                                      QStringLiteral("snap"),     QStringLiteral("npx"),
                                      QStringLiteral("pnpx"),     QStringLiteral("bunx")};
    return programs;
}

// Package managers and the subcommands of theirs that fetch or publish.
const QHash<QString, QStringList> &networkSubcommands()
{
    static const QStringList javascript{QStringLiteral("install"),
                                        QStringLiteral("i"),
                                        QStringLiteral("ci"),
                                        QStringLiteral("add"),
                                        QStringLiteral("publish"),
                                        QStringLiteral("update"),
                                        QStringLiteral("upgrade"),
                                        QStringLiteral("up"),
                                        QStringLiteral("dlx"),
                                        QStringLiteral("create"),
                                        QStringLiteral("login"),
                                        QStringLiteral("view"),
                                        QStringLiteral("info"),
                                        QStringLiteral("outdated"),
                                        QStringLiteral("audit")};
    static const QHash<QString, QStringList> managers{
        {QStringLiteral("npm"), javascript},
        {QStringLiteral("pnpm"), javascript},
        {QStringLiteral("yarn"), javascript},
        {QStringLiteral("bun"), javascript},
        {QStringLiteral("pip"), {QStringLiteral("install"), QStringLiteral("download")}},
        {QStringLiteral("pip3"), {QStringLiteral("install"), QStringLiteral("download")}},
        {QStringLiteral("pipx"), {QStringLiteral("install"), QStringLiteral("run")}},
        {QStringLiteral("uv"),
         {QStringLiteral("add"),
          QStringLiteral("sync"),
          QStringLiteral("lock"),
          QStringLiteral("pip"),
          QStringLiteral("tool")}},
        {QStringLiteral("poetry"),
         {QStringLiteral("install"),
          QStringLiteral("add"),
          QStringLiteral("update"),
          QStringLiteral("lock"),
          QStringLiteral("publish")}},
        {QStringLiteral("cargo"),
         {QStringLiteral("install"),
          QStringLiteral("publish"),
          QStringLiteral("fetch"),
          QStringLiteral("update"),
          QStringLiteral("search"),
          QStringLiteral("login"),
          QStringLiteral("add")}},
        {QStringLiteral("go"), {QStringLiteral("get"), QStringLiteral("install")}},
        {QStringLiteral("gem"),
         {QStringLiteral("install"),
          QStringLiteral("push"),
          QStringLiteral("fetch"),
          QStringLiteral("update")}},
        {QStringLiteral("bundle"), {QStringLiteral("install"), QStringLiteral("update")}},
        {QStringLiteral("composer"),
         {QStringLiteral("install"), QStringLiteral("require"), QStringLiteral("update")}},
        {QStringLiteral("brew"),
         {QStringLiteral("install"),
          QStringLiteral("update"),
          QStringLiteral("upgrade"),
          QStringLiteral("tap"),
          QStringLiteral("fetch")}},
        {QStringLiteral("docker"),
         {QStringLiteral("pull"),
          QStringLiteral("push"),
          QStringLiteral("login"),
          QStringLiteral("search")}},
        {QStringLiteral("podman"),
         {QStringLiteral("pull"),
          QStringLiteral("push"),
          QStringLiteral("login"),
          QStringLiteral("search")}},
    };
    return managers;
}

bool usesNetwork(const QString &program, const QStringList &words)
{
    if (networkPrograms().contains(program))
        return true;
    if (program == QLatin1String("rsync")) {
        return std::any_of(words.cbegin() + 1, words.cend(), [](const QString &word) {
            return !word.startsWith(QLatin1Char('-')) && word.contains(QLatin1Char(':'));
        });
    }
    const QString subcommand = subcommandOf(words);
    if (program == QLatin1String("yarn") && subcommand.isEmpty())
        return true; // plain `yarn` installs
    if (program == QLatin1String("go") && subcommand == QLatin1String("mod"))
        return words.contains(QStringLiteral("download"));
    if (program.startsWith(QLatin1String("python")) && words.value(1) == QLatin1String("-m")
        && words.value(2).startsWith(QLatin1String("pip")))
        return words.value(3) == QLatin1String("install")
               || words.value(3) == QLatin1String("download");
    const QHash<QString, QStringList> &managers = networkSubcommands();
    const auto manager = managers.constFind(program);
    return manager != managers.constEnd() && manager->contains(subcommand);
}

// Whether \a word (`--expr=x`, `--in-place`) names \a option: getopt takes any prefix of a long
// option that no other one shares; an ambiguous one makes sed fail, so nothing runs then.
bool isLongOption(const QString &word, QLatin1String option)
{
    const QString name = word.section(QLatin1Char('='), 0, 0);
    return name.size() > 2 && option.startsWith(name);
}

// The files `sed -i` and `perl -i` edit in place, as they would write them: the operands, but
// for the script, unless -e/-f/--expression/--file (sed) or -e/-E (perl) gave it. In a cluster
// (`-ni`, `-pi.bak`, `-ie`) everything after the `i` is the backup suffix. GNU sed takes options
// anywhere before `--`; perl none after its first operand. Empty without -i.
QList<Operand> inPlaceFiles(const QString &program,
                            const QStringList &words,
                            const QList<bool> &expands)
{
    const bool perl = program == QLatin1String("perl");
    // Short options whose value is the rest of the word, or else the next word.
    const QString valueOptions = perl ? QStringLiteral("eEI") : QStringLiteral("efl");
    const QString scriptOptions = perl ? QStringLiteral("eE") : QStringLiteral("ef");
    // perl's options that take the rest of the word, if any, and no next word.
    const QString perlRestOptions = QStringLiteral("FxdDVMmC");
    bool inPlace = false;
    bool scriptGiven = false;
    bool optionsEnded = false;
    QList<Operand> files;
    for (qsizetype i = 1; i < words.size(); ++i) {
        const QString &word = words.at(i);
        const bool expanded = expands.value(i);
        if (optionsEnded || expanded || word.size() < 2 || !word.startsWith(QLatin1Char('-'))) {
            files.append({word, expanded});
            optionsEnded = optionsEnded || perl;
        } else if (word == QLatin1String("--")) {
            optionsEnded = true;
        } else if (word.startsWith(QLatin1String("--"))) {
            if (perl)
                continue; // perl has none but `--`
            if (isLongOption(word, QLatin1String("--in-place"))) {
                inPlace = true;
            } else if (isLongOption(word, QLatin1String("--expression"))
                       || isLongOption(word, QLatin1String("--file"))) {
                scriptGiven = true;
                if (!word.contains(QLatin1Char('=')))
                    ++i; // the value is the next word
            } else if (isLongOption(word, QLatin1String("--line-length"))
                       && !word.contains(QLatin1Char('='))) {
                ++i;
            }
        } else {
            for (qsizetype c = 1; c < word.size(); ++c) {
                const QChar letter = word.at(c);
                if (letter == QLatin1Char('i')) {
                    inPlace = true;
                    break; // the rest is the backup suffix
                }
                if (valueOptions.contains(letter)) {
                    scriptGiven = scriptGiven || scriptOptions.contains(letter);
                    if (c == word.size() - 1)
                        ++i; // the value is the next word
                    break;
                }
                if (perl && perlRestOptions.contains(letter))
                    break;
                if (perl && (letter == QLatin1Char('l') || letter == QLatin1Char('0'))) {
                    // -l and -0 take the octal digits that follow (-0x the hex ones): -l0pi
                    const bool hex = letter == QLatin1Char('0') && c + 1 < word.size()
                                     && word.at(c + 1).toLower() == QLatin1Char('x');
                    const QLatin1String digits = hex ? QLatin1String("0123456789abcdefABCDEF")
                                                     : QLatin1String("01234567");
                    if (hex)
                        ++c;
                    while (c + 1 < word.size() && digits.contains(word.at(c + 1)))
                        ++c;
                }
            }
        }
    }
    if (!inPlace)
        return {};
    if (!scriptGiven && !files.isEmpty()) {
        const Operand script = files.takeFirst();
        // `sed -i $ARGS`: with no file left, an expansion may hold the files as well
        if (files.isEmpty() && script.expands)
            files.append(script);
    }
    return files;
}

// Where cp, mv, tee, touch, dd, sed -i... write (or rm deletes).
QList<Operand> writeTargets(const QString &program,
                            const QStringList &words,
                            const QList<bool> &expands)
{
    static const QStringList copiers{QStringLiteral("cp"),
                                     QStringLiteral("mv"),
                                     QStringLiteral("ln"),
                                     QStringLiteral("install")};
    if (copiers.contains(program)) {
        const QList<Operand> directory = optionValues(words,
                                                      expands,
                                                      QStringLiteral("-t"),
                                                      QStringLiteral("--target-directory"));
        if (!directory.isEmpty())
            return directory;
        const QList<Operand> all = operands(words,
                                            expands,
                                            {QStringLiteral("-S"),
                                             QStringLiteral("-m"),
                                             QStringLiteral("-o"),
                                             QStringLiteral("-g"),
                                             QStringLiteral("--suffix"),
                                             QStringLiteral("--mode"),
                                             QStringLiteral("--owner"),
                                             QStringLiteral("--group")});
        if (program == QLatin1String("install")
            && (words.contains(QStringLiteral("-d"))
                || words.contains(QStringLiteral("--directory"))))
            return all;
        return all.size() >= 2 ? QList<Operand>{all.last()} : QList<Operand>{};
    }
    static const QHash<QString, QStringList> fileOperands{
        {QStringLiteral("tee"), {}},
        {QStringLiteral("touch"),
         {QStringLiteral("-d"),
          QStringLiteral("-r"),
          QStringLiteral("-t"),
          QStringLiteral("--date"),
          QStringLiteral("--reference")}},
        {QStringLiteral("mkdir"), {QStringLiteral("-m"), QStringLiteral("--mode")}},
        {QStringLiteral("truncate"),
         {QStringLiteral("-s"),
          QStringLiteral("-r"),
          QStringLiteral("--size"),
          QStringLiteral("--reference")}},
        {QStringLiteral("rm"), {}},
        {QStringLiteral("rmdir"), {}},
        {QStringLiteral("unlink"), {}},
        {QStringLiteral("shred"),
         {QStringLiteral("-n"),
          QStringLiteral("-s"),
          QStringLiteral("--iterations"),
          QStringLiteral("--size")}},
    };
    const auto files = fileOperands.constFind(program);
    if (files != fileOperands.constEnd())
        return operands(words, expands, *files);
    if (program == QLatin1String("dd")) {
        QList<Operand> result;
        for (qsizetype i = 1; i < words.size(); ++i) {
            if (words.at(i).startsWith(QLatin1String("of=")))
                result.append({words.at(i).mid(3), expands.value(i)});
        }
        return result;
    }
    if (program == QLatin1String("sed") || program == QLatin1String("perl"))
        return inPlaceFiles(program, words, expands);
    if (program == QLatin1String("sort") || program == QLatin1String("time"))
        return optionValues(words, expands, QStringLiteral("-o"), QStringLiteral("--output"));
    if (program == QLatin1String("scp") || program == QLatin1String("rsync")) {
        const QList<Operand> all = operands(words, expands);
        if (all.size() >= 2 && !all.last().text.contains(QLatin1Char(':')))
            return {all.last()};
    }
    return {};
}

QString elided(const QString &text)
{
    constexpr qsizetype limit = 120;
    return text.size() <= limit ? text : text.first(limit - 1) + QChar(0x2026);
}

class Classification
{
public:
    Classification(BashAnalysis &analysis, const QString &root, const QStringList &readableRoots)
        : m_analysis(analysis)
        , m_readableRoots(readableRoots)
        , m_paths(root)
        , m_git(GitDirectories::of(m_paths.root()))
    {}

    void run()
    {
        bool readOnly = !m_analysis.commands.isEmpty();
        bool workOrReads = true;
        bool work = false;
        for (qsizetype i = 0; i < m_analysis.commands.size(); ++i) {
            m_index = int(i);
            const SimpleCommand &command = m_analysis.commands.at(i);
            for (const BashRedirection &redirection : command.redirections) {
                if (redirection.writesFile)
                    checkWrite({redirection.target, redirection.targetExpands});
            }
            inspect(command.words, command.wordExpands, 0);
            const bool otherGit = runsOtherGit(command.words, command.wordExpands);
            m_analysis.commands[i].readOnly = isReadOnly(command) && !readsOutside(command)
                                              && !otherGit;
            if (!m_analysis.commands.at(i).readOnly) // `echo GIT_CONFIG_COUNT=1` sets nothing
                inspectGitEnvironment(command);
            readOnly = readOnly && m_analysis.commands.at(i).readOnly;
            const bool gitWork = !otherGit && isGitWork(command);
            work = work || gitWork;
            workOrReads = workOrReads && (gitWork || m_analysis.commands.at(i).readOnly);
            if (!gitWork && !m_analysis.commands.at(i).readOnly)
                inspectGitFolderUse(command);
            followDirectoryChange(command);
        }
        m_analysis.readOnly = readOnly && m_analysis.understood;
        m_analysis.gitWork = m_analysis.understood && work && workOrReads;
        if (!m_analysis.understood
            && (namesGitFolder(m_analysis.command)
                || mentionsGitConfiguration(m_analysis.command))) {
            noteGitConfiguration(
                PermissionsTr::tr("the command names the repository's .git folder or git's "
                                  "configuration, and AgentDesk cannot follow what it does "
                                  "there"));
        }
    }

private:
    // git's own work (add, commit, checkout...) on the repository's git folder, on its own:
    // no assignment (GIT_DIR=...), no file written by a redirection.
    static bool isGitWork(const SimpleCommand &command)
    {
        if (!command.assignments.isEmpty() || command.words.isEmpty()
            || command.wordExpands.value(0) || command.words.first() != QLatin1String("git"))
            return false;
        for (const BashRedirection &redirection : command.redirections) {
            if (redirection.writesFile)
                return false;
        }
        return BashGitCommand::parse(command.words, command.wordExpands).isRepositoryWork();
    }

    // Whether a git this command runs (itself or through timeout, xargs, env...) uses a git
    // folder other than the repository's: its configuration would run, so it is no read.
    bool runsOtherGit(QStringList words, QList<bool> expands) const
    {
        for (int depth = 0; depth <= maximumNesting && !words.isEmpty(); ++depth) {
            if (!expands.value(0)
                && BashWrappers::programName(words.first()) == QLatin1String("git")
                && usesOtherGitDirectory(BashGitCommand::parse(words, expands)))
                return true;
            std::optional<WrappedCommand> inner = BashWrappers::unwrap(words, expands);
            if (!inner)
                break;
            words = std::move(inner->words);
            expands = std::move(inner->expands);
        }
        return false;
    }

    // git finds its folder from --git-dir, or from where it runs (cd, -C) upwards: the first
    // folder that holds a `.git` or is itself a git folder (HEAD, objects, refs), as a bare
    // repository the repository tracks (`tracked/evil.git`) is.
    bool usesOtherGitDirectory(const BashGitCommand &git) const
    {
        const QStringList bases = m_paths.workingDirectories();
        if (bases.isEmpty() || git.directoryExpands)
            return true;
        for (const QString &base : bases) {
            QString directory = base;
            for (const QString &step : git.directories) {
                directory = step.isEmpty() ? directory : m_paths.resolve(directory, step);
                if (directory.isEmpty())
                    return true;
            }
            if (git.gitDirectory) {
                const QString named = git.gitDirectory->isEmpty()
                                          ? QString()
                                          : m_paths.resolve(directory, *git.gitDirectory);
                if (named.isEmpty() || named != m_git.gitDirectory)
                    return true;
                continue;
            }
            if (discoversOtherGitDirectory(directory))
                return true;
        }
        return false;
    }

    bool discoversOtherGitDirectory(const QString &directory) const
    {
        const QString &root = m_paths.root();
        if (directory != root && !directory.startsWith(root + QLatin1Char('/')))
            return true; // another repository, or none
        const QString ownGit = root + QStringLiteral("/.git");
        for (QString folder = directory; folder.size() > root.size();
             folder = QFileInfo(folder).path()) {
            if (folder == ownGit || folder == m_git.gitDirectory)
                return false;
            if (QFileInfo(folder + QStringLiteral("/.git")).isFile()) {
                // A submodule's git folder lies in the repository's own (.git/modules/NAME),
                // as protected as the rest of it.
                const QString submodule = GitDirectories::of(folder).gitDirectory;
                return submodule.isEmpty() || !isInGitFolder(submodule);
            }
            if (QFileInfo::exists(folder + QStringLiteral("/.git"))
                || QFileInfo::exists(folder + QStringLiteral("/HEAD"))
                || (QFileInfo(folder + QStringLiteral("/objects")).isDir()
                    && QFileInfo(folder + QStringLiteral("/refs")).isDir()))
                return true;
        }
        return false;
    }

    // GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor ..., as an assignment, through env or
    // export: the same as git -c.
    void inspectGitEnvironment(const SimpleCommand &command)
    {
        static const QRegularExpression variable(
            QStringLiteral("^(GIT_CONFIG\\w*|GIT_EXEC_PATH|GIT_TEMPLATE_DIR)="));
        for (const QStringList &words : {command.assignments, command.words}) {
            for (const QString &word : words) {
                if (variable.match(word).hasMatch()) {
                    noteGitConfiguration(
                        PermissionsTr::tr("%1 sets git's configuration for the command: %2")
                            .arg(word.section(QLatin1Char('='), 0, 0), commandText()));
                    return;
                }
            }
        }
    }

    // A command other than git's own work that names .git or runs inside it may write hooks
    // or configuration in ways the analysis cannot see (python3 -c, a script): it asks. The
    // sandbox keeps .git read-only for it whatever it spells.
    void inspectGitFolderUse(const SimpleCommand &command)
    {
        bool names = namesGitFolder(command.text);
        for (const BashRedirection &redirection : command.redirections)
            names = names || namesGitFolder(redirection.target);
        const QStringList directories = m_paths.workingDirectories();
        const bool inside = std::any_of(directories.cbegin(),
                                        directories.cend(),
                                        [this](const QString &directory) {
                                            return isInGitFolder(directory);
                                        });
        // `python3 -c "os.system('git config ...')"`: git inside a program's text. git itself
        // is judged by its words (`git push origin git-config` is no configuration).
        const bool runsGit = !command.words.isEmpty()
                             && BashWrappers::programName(command.words.first())
                                    != QLatin1String("git")
                             && mentionsGitConfiguration(command.text);
        if (runsGit) {
            noteGitConfiguration(
                PermissionsTr::tr("%1 may set git's configuration in a way AgentDesk cannot follow")
                    .arg(commandText()));
        }
        if (names || inside) {
            noteGitConfiguration(
                PermissionsTr::tr(
                    "%1 the repository's .git folder, where git's configuration and hooks "
                    "live: %2")
                    .arg(inside ? PermissionsTr::tr("runs in") : PermissionsTr::tr("names"),
                         commandText()));
        }
    }

    // `git config`, `git -c`, an ext:: URL or GIT_CONFIG_* in text the analysis cannot follow.
    static bool mentionsGitConfiguration(const QString &text)
    {
        static const QRegularExpression configuration(QStringLiteral(
            "\\bgit\\W{1,3}(config|-c|--config-env|--exec-path)\\b|ext::|fd::|GIT_CONFIG"));
        return configuration.match(text).hasMatch();
    }

    bool namesGitFolder(const QString &text) const
    {
        // `.git` as a path component: not .gitignore, .github, .git-blame-ignore-revs, x.git.
        static const QRegularExpression dotGit(QStringLiteral("(^|[^\\w.-])\\.git($|[^\\w.-])"));
        if (dotGit.match(text).hasMatch())
            return true;
        for (const QString &folder : m_git.paths()) {
            if (text.contains(folder))
                return true;
        }
        return false;
    }

    bool isInGitFolder(const QString &directory) const
    {
        QStringList folders = m_git.paths();
        folders.append(m_paths.root() + QStringLiteral("/.git"));
        return std::any_of(folders.cbegin(), folders.cend(), [&directory](const QString &folder) {
            return directory == folder || directory.startsWith(folder + QLatin1Char('/'));
        });
    }

    void noteGitConfiguration(const QString &reason)
    {
        if (m_analysis.gitConfigurationChange.isEmpty())
            m_analysis.gitConfigurationChange = reason;
    }

    static bool isReadOnly(const SimpleCommand &command)
    {
        for (const BashRedirection &redirection : command.redirections) {
            if (redirection.writesFile)
                return false;
        }
        if (!command.assignments.isEmpty()) // PATH=..., GIT_PAGER=..., LD_PRELOAD=...
            return false;
        return command.words.isEmpty()
               || BashReadOnlyCommands::isReadOnly(command.words, command.wordExpands);
    }

    // Reads outside the repository ask, as they do for the Read tool: `cat ~/.ssh/id_rsa`,
    // `cat < ../secret`, `cd /tmp && ls`, `cat "$f"`.
    bool readsOutside(const SimpleCommand &command) const
    {
        for (const BashRedirection &redirection : command.redirections) {
            const QString op = redirection.op.mid(redirection.op.indexOf(QLatin1Char('<')));
            if ((op == QLatin1String("<") || op == QLatin1String("<>"))
                && !inside({redirection.target, redirection.targetExpands}))
                return true;
        }
        if (command.words.isEmpty())
            return false;
        if (optionReadsOutside(command.words, command.wordExpands))
            return true;
        const QString &program = command.words.first();
        if (program == QLatin1String("popd"))
            return true;
        if (program == QLatin1String("cd") || program == QLatin1String("pushd")) {
            const QList<Operand> targets = operands(command.words, command.wordExpands);
            return targets.isEmpty() || !inside(targets.first()); // plain `cd` goes home
        }
        static const QStringList noFileOperands{
            QStringLiteral("echo"),     QStringLiteral("printf"),   QStringLiteral("pwd"),
            QStringLiteral("true"),     QStringLiteral("false"),    QStringLiteral(":"),
            QStringLiteral("seq"),      QStringLiteral("sleep"),    QStringLiteral("date"),
            QStringLiteral("whoami"),   QStringLiteral("id"),       QStringLiteral("groups"),
            QStringLiteral("uname"),    QStringLiteral("arch"),     QStringLiteral("nproc"),
            QStringLiteral("printenv"), QStringLiteral("type"),     QStringLiteral("which"),
            QStringLiteral("command"),  QStringLiteral("locale"),   QStringLiteral("tty"),
            QStringLiteral("uptime"),   QStringLiteral("free"),     QStringLiteral("hostname"),
            QStringLiteral("env"),      QStringLiteral("basename"), QStringLiteral("dirname"),
            QStringLiteral("ps"),       QStringLiteral("pgrep"),    QStringLiteral("dirs"),
            QStringLiteral("tr")};
        if (noFileOperands.contains(program))
            return false;
        // `xargs cat`: the files come from the input, wherever they are.
        const std::optional<WrappedCommand> inner = BashWrappers::unwrap(command.words,
                                                                         command.wordExpands);
        if (inner && inner->argumentsFromInput
            && !noFileOperands.contains(BashWrappers::programName(inner->words.first())))
            return true;
        // The first operand of grep or sed is a pattern or a script, unless an option gave it.
        bool skipFirstOperand = false;
        const bool patternsFromFile = program.endsWith(QLatin1String("grep"))
                                      || program == QLatin1String("rg")
                                      || program == QLatin1String("jq");
        if (program == QLatin1String("sed"))
            skipFirstOperand = !givenByOption(command,
                                              QStringLiteral("ef"),
                                              {"--expression", "--file"});
        else if (patternsFromFile)
            skipFirstOperand = !givenByOption(command, QStringLiteral("ef"), {"--regexp", "--file"});
        for (qsizetype i = 1; i < command.words.size(); ++i) {
            const QString &word = command.words.at(i);
            const bool expands = command.wordExpands.value(i);
            if (!expands && word == QLatin1String("--")) {
                continue;
            }
            if (skipFirstOperand && (expands || !word.startsWith(QLatin1Char('-')))) {
                skipFirstOperand = false;
                continue;
            }
            if (!expands && word.size() > 1 && word.startsWith(QLatin1Char('-'))) {
                // An option the table does not know may take a file this way too.
                const qsizetype equals = word.indexOf(QLatin1Char('='));
                if (equals > 0 && !inside({word.mid(equals + 1), false}))
                    return true; // --file=/etc/x, --git-dir=/elsewhere
                // `-fFILE` and other attached values: optionReadsOutside()
                continue;
            }
            if (!inside({word, expands}))
                return true;
        }
        return false;
    }

    // Files named by options, wherever the command's operands are: `date -f F`, `grep -fF`,
    // `du -XF`, the `r F` of a sed script; also those of the program a wrapper runs.
    bool optionReadsOutside(QStringList words, QList<bool> expands) const
    {
        for (int depth = 0; depth <= maximumNesting && !words.isEmpty(); ++depth) {
            for (const BashOptionPath &path : BashReadOnlyCommands::optionPaths(words, expands)) {
                if (!inside({path.text, path.expands}))
                    return true;
            }
            if (!expands.value(0)
                && BashWrappers::programName(words.first()) == QLatin1String("sed")) {
                QStringList files;
                BashSedScript::isReadOnlyInvocation(words.mid(1), expands.mid(1), &files);
                for (const QString &file : std::as_const(files)) {
                    if (!inside({file, false}))
                        return true;
                }
            }
            std::optional<WrappedCommand> inner = BashWrappers::unwrap(words, expands);
            if (!inner)
                break;
            words = std::move(inner->words);
            expands = std::move(inner->expands);
        }
        return false;
    }

    static bool givenByOption(const SimpleCommand &command,
                              const QString &letters,
                              const QList<const char *> &longOptions)
    {
        for (qsizetype i = 1; i < command.words.size(); ++i) {
            const QString &word = command.words.at(i);
            if (command.wordExpands.value(i) || !word.startsWith(QLatin1Char('-')))
                continue;
            for (const char *option : longOptions) {
                if (word.startsWith(QLatin1String(option)))
                    return true;
            }
            if (!word.startsWith(QLatin1String("--"))
                && std::any_of(letters.cbegin(), letters.cend(), [&word](QChar letter) {
                       return word.indexOf(letter, 1) > 0;
                   }))
                return true;
        }
        return false;
    }

    bool inside(const Operand &path) const
    {
        const BashPathResolver::Location location = m_paths.locate(path.text, path.expands);
        if (location == BashPathResolver::Location::Inside
            || location == BashPathResolver::Location::InsideGitDirectory)
            return true;
        // A file of the session's own readable scratch (the full-output logs), from wherever
        // the shell may be by then; links followed, so none leads out of it.
        if (location != BashPathResolver::Location::Outside || path.expands
            || m_readableRoots.isEmpty())
            return false;
        const QStringList directories = m_paths.workingDirectories();
        if (directories.isEmpty())
            return false;
        return std::all_of(directories.cbegin(),
                           directories.cend(),
                           [this, &path](const QString &directory) {
                               const QString resolved = m_paths.resolve(directory, path.text);
                               return !resolved.isEmpty()
                                      && PathCapability::isInside(resolved, m_readableRoots);
                           });
    }

    void followDirectoryChange(const SimpleCommand &command)
    {
        if (command.words.isEmpty() || command.wordExpands.value(0))
            return;
        const QString &program = command.words.first();
        if (program == QLatin1String("cd") || program == QLatin1String("pushd")
            || program == QLatin1String("popd"))
            m_paths.changeDirectory(program, command.words.mid(1), command.wordExpands.mid(1));
    }

    QString commandText() const { return elided(m_analysis.commands.at(m_index).text); }

    void note(BashRisk risk, const QString &explanation)
    {
        for (const BashRiskNote &existing : std::as_const(m_analysis.risks)) {
            if (existing.risk == risk && existing.commandIndex == m_index)
                return;
        }
        m_analysis.risks.append({risk, m_index, explanation});
    }

    void notUnderstood(const QString &reason)
    {
        if (m_analysis.understood)
            m_analysis.problem = PermissionsTr::tr("%1, which AgentDesk cannot check.").arg(reason);
        m_analysis.understood = false;
    }

    void checkWrite(const Operand &target)
    {
        switch (m_paths.locate(target.text, target.expands)) {
        case BashPathResolver::Location::Inside:
            return;
        case BashPathResolver::Location::InsideGitDirectory:
            note(BashRisk::WritesOutsideRepository,
                 PermissionsTr::tr("writes into the repository's .git directory: %1 (%2)")
                     .arg(target.text, commandText()));
            return;
        case BashPathResolver::Location::Outside:
            note(BashRisk::WritesOutsideRepository,
                 PermissionsTr::tr("writes outside the repository: %1 (%2)")
                     .arg(target.text, commandText()));
            return;
        case BashPathResolver::Location::Unknown:
            note(BashRisk::WritesOutsideRepository,
                 PermissionsTr::tr("may write outside the repository: %1 (%2)")
                     .arg(target.text, commandText()));
            return;
        }
    }

    void inspect(const QStringList &words, const QList<bool> &expands, int depth)
    {
        if (words.isEmpty() || depth > maximumNesting)
            return;
        if (expands.value(0)) {
            notUnderstood(PermissionsTr::tr("The program %1 is only known when the command runs")
                              .arg(words.first()));
            return;
        }
        const QString program = BashWrappers::programName(words.first());
        const QString shellCode = BashWrappers::runsShellCode(words);
        if (!shellCode.isEmpty())
            notUnderstood(shellCode);
        inspectDeletes(program, words, expands);
        if (usesNetwork(program, words))
            note(BashRisk::Network, PermissionsTr::tr("uses the network: %1").arg(commandText()));
        inspectPrivileges(program, words, expands);
        if (program == QLatin1String("git")) {
            const QString change = BashGitCommand::parse(words, expands).configurationChange();
            if (!change.isEmpty())
                noteGitConfiguration(PermissionsTr::tr("%1: %2").arg(change, commandText()));
        }
        inspectUnknownReads(words, expands);
        for (const Operand &target : writeTargets(program, words, expands))
            checkWrite(target);
        for (const WrappedCommand &action : BashWrappers::findActions(words, expands))
            inspect(action.words, action.expands, depth + 1);
        if (const std::optional<WrappedCommand> inner = BashWrappers::unwrap(words, expands))
            inspect(inner->words, inner->expands, depth + 1);
    }

    void inspectDeletes(const QString &program, const QStringList &words, const QList<bool> &expands)
    {
        static const QStringList removers{QStringLiteral("rm"),
                                          QStringLiteral("rmdir"),
                                          QStringLiteral("unlink"),
                                          QStringLiteral("shred"),
                                          QStringLiteral("srm")};
        if (removers.contains(program)
            || (program == QLatin1String("find") && words.contains(QStringLiteral("-delete")))) {
            note(BashRisk::Deletes, PermissionsTr::tr("deletes files: %1").arg(commandText()));
        } else if (program == QLatin1String("git")) {
            const BashGitCommand git = BashGitCommand::parse(words, expands);
            if (git.deletes())
                note(BashRisk::Deletes,
                     PermissionsTr::tr("deletes files or discards changes: %1").arg(commandText()));
            if (git.usesNetwork())
                note(BashRisk::Network,
                     PermissionsTr::tr("uses the network: %1").arg(commandText()));
        }
    }

    void inspectUnknownReads(const QStringList &words, const QList<bool> &expands)
    {
        switch (BashReadOnlyCommands::unknownReads(words, expands)) {
        case BashUnknownReads::None:
            return;
        case BashUnknownReads::FollowsSymlinks:
            // Proving that no link below points out of the repository is not worth a walk.
            note(BashRisk::ReadsUnknownPaths,
                 PermissionsTr::tr(
                     "follows symbolic links, which may lead out of the repository: %1")
                     .arg(commandText()));
            return;
        case BashUnknownReads::NamesFromFile:
            note(BashRisk::ReadsUnknownPaths,
                 PermissionsTr::tr("reads the files named in a file, wherever they are: %1")
                     .arg(commandText()));
            return;
        }
    }

    void inspectPrivileges(const QString &program,
                           const QStringList &words,
                           const QList<bool> &expands)
    {
        static const QStringList elevators{QStringLiteral("sudo"),
                                           QStringLiteral("su"),
                                           QStringLiteral("doas"),
                                           QStringLiteral("pkexec"),
                                           QStringLiteral("run0")};
        if (elevators.contains(program)) {
            note(BashRisk::Privileged,
                 PermissionsTr::tr("runs with elevated privileges: %1").arg(commandText()));
            return;
        }
        static const QStringList owners{QStringLiteral("chmod"),
                                        QStringLiteral("chown"),
                                        QStringLiteral("chgrp")};
        if (!owners.contains(program))
            return;
        QList<Operand> targets = operands(words, expands);
        const bool byReference = std::any_of(words.cbegin(), words.cend(), [](const QString &word) {
            return word.startsWith(QLatin1String("--reference"));
        });
        // `chmod -w file`: a mode that looks like an option, so operands() skipped it
        const bool symbolicMode = program == QLatin1String("chmod")
                                  && std::any_of(words.cbegin() + 1,
                                                 words.cend(),
                                                 [](const QString &word) {
                                                     static const QRegularExpression mode(
                                                         QStringLiteral("^-[ugoa]*[rwxXst]+$"));
                                                     return mode.match(word).hasMatch();
                                                 });
        if (!byReference && !symbolicMode && !targets.isEmpty())
            targets.removeFirst(); // the mode or the owner
        for (const Operand &target : std::as_const(targets)) {
            if (m_paths.locate(target.text, target.expands) != BashPathResolver::Location::Inside) {
                note(BashRisk::Privileged,
                     PermissionsTr::tr(
                         "changes ownership or permissions outside the repository: %1")
                         .arg(commandText()));
                return;
            }
        }
    }

    BashAnalysis &m_analysis;
    const QStringList m_readableRoots;
    BashPathResolver m_paths;
    GitDirectories m_git;
    int m_index = 0;
};

} // namespace

BashCommandClassifier::BashCommandClassifier(const QString &repositoryRoot,
                                             const QStringList &readableRoots)
    : m_root(repositoryRoot)
    , m_readableRoots(readableRoots)
{}

void BashCommandClassifier::classify(BashAnalysis &analysis) const
{
    Classification(analysis, m_root, m_readableRoots).run();
}

} // namespace AgentCore
