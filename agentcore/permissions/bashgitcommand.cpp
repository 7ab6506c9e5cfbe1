#include "bashgitcommand.h"
#include "translation.h"

#include <QCoreApplication>

#include <algorithm>

namespace AgentCore {

namespace {

bool isOption(const QString &word)
{
    return word.size() > 1 && word.startsWith(QLatin1Char('-'));
}

bool startsWithAny(const QString &word, const QStringList &prefixes)
{
    for (const QString &prefix : prefixes) {
        if (word.startsWith(prefix))
            return true;
    }
    return false;
}

// An expanded word whose text may begin with '-' once expanded.
bool mayBeOption(const QString &source)
{
    static const QString literal = QStringLiteral("_./~+,:=@%");
    return source.isEmpty() || !(source.at(0).isLetterOrNumber() || literal.contains(source.at(0)));
}

} // namespace

BashGitCommand BashGitCommand::parse(const QStringList &words, const QList<bool> &expands)
{
    static const QStringList withValue{QStringLiteral("-C"),
                                       QStringLiteral("-c"),
                                       QStringLiteral("--git-dir"),
                                       QStringLiteral("--work-tree"),
                                       QStringLiteral("--namespace"),
                                       QStringLiteral("--super-prefix"),
                                       QStringLiteral("--config-env")};
    static const QStringList flags{QStringLiteral("--no-pager"),
                                   QStringLiteral("-P"),
                                   QStringLiteral("-p"),
                                   QStringLiteral("--paginate"),
                                   QStringLiteral("--bare"),
                                   QStringLiteral("--no-replace-objects"),
                                   QStringLiteral("--literal-pathspecs"),
                                   QStringLiteral("--glob-pathspecs"),
                                   QStringLiteral("--noglob-pathspecs"),
                                   QStringLiteral("--icase-pathspecs"),
                                   QStringLiteral("--no-optional-locks"),
                                   QStringLiteral("--version"),
                                   QStringLiteral("-v"),
                                   QStringLiteral("--help"),
                                   QStringLiteral("-h")};
    BashGitCommand git;
    qsizetype i = 1;
    for (; i < words.size(); ++i) {
        const QString &word = words.at(i);
        if (expands.value(i)) {
            git.clear = false;
            return git;
        }
        if (!isOption(word))
            break;
        const QString name = word.section(QLatin1Char('='), 0, 0);
        if (name == QLatin1String("-c") || name == QLatin1String("--config-env")
            || name == QLatin1String("--exec-path")) {
            git.overridesConfig = true;
        }
        if (withValue.contains(word) || withValue.contains(name)) {
            const bool attached = word.contains(QLatin1Char('='));
            const QString value = attached ? word.section(QLatin1Char('='), 1) : words.value(i + 1);
            const bool valueExpands = !attached && expands.value(i + 1);
            if (name != QLatin1String("-c") && name != QLatin1String("--config-env"))
                git.directoryExpands = git.directoryExpands || valueExpands;
            if (name == QLatin1String("-C")) {
                git.directories.append(value);
            } else if (name == QLatin1String("--git-dir")) {
                git.gitDirectory = value;
            } else if (name == QLatin1String("--work-tree")) {
                git.workTree = value;
            }
        }
        if (withValue.contains(word))
            ++i;
        else if (!flags.contains(word) && !withValue.contains(name)
                 && name != QLatin1String("--exec-path"))
            git.clear = false;
    }
    if (i < words.size()) {
        git.subcommand = words.at(i);
        git.args = words.mid(i + 1);
        git.expands = expands.mid(i + 1);
    }
    return git;
}

bool BashGitCommand::isReadOnly() const
{
    if (!clear || overridesConfig)
        return false;
    if (subcommand.isEmpty())
        return true;
    for (qsizetype i = 0; i < args.size(); ++i) {
        if (expands.value(i) && mayBeOption(args.at(i)))
            return false;
        if (args.at(i) == QLatin1String("--output")
            || args.at(i).startsWith(QLatin1String("--output=")))
            return false;
    }
    static const QStringList
        inspectors{QStringLiteral("status"),       QStringLiteral("diff"),
                   QStringLiteral("log"),          QStringLiteral("show"),
                   QStringLiteral("shortlog"),     QStringLiteral("describe"),
                   QStringLiteral("rev-parse"),    QStringLiteral("rev-list"),
                   QStringLiteral("ls-files"),     QStringLiteral("ls-tree"),
                   QStringLiteral("cat-file"),     QStringLiteral("blame"),
                   QStringLiteral("annotate"),     QStringLiteral("merge-base"),
                   QStringLiteral("name-rev"),     QStringLiteral("show-ref"),
                   QStringLiteral("for-each-ref"), QStringLiteral("count-objects"),
                   QStringLiteral("diff-tree"),    QStringLiteral("diff-files"),
                   QStringLiteral("diff-index"),   QStringLiteral("whatchanged"),
                   QStringLiteral("var"),          QStringLiteral("check-ignore"),
                   QStringLiteral("check-attr"),   QStringLiteral("version"),
                   QStringLiteral("show-branch"),  QStringLiteral("cherry"),
                   QStringLiteral("range-diff")};
    if (inspectors.contains(subcommand))
        return true;
    const QString first = args.value(0);
    if (subcommand == QLatin1String("grep")) // -O opens the matches in a program
        return !std::any_of(args.cbegin(), args.cend(), [](const QString &arg) {
            return arg.startsWith(QLatin1String("-O"))
                   || arg.startsWith(QLatin1String("--open-files-in-pager"));
        });
    // `git branch` and `git tag` list refs with the same filters and formatting.
    static const QStringList listingPrefixes{QStringLiteral("--color"),
                                             QStringLiteral("--no-color"),
                                             QStringLiteral("--column"),
                                             QStringLiteral("--no-column"),
                                             QStringLiteral("--sort="),
                                             QStringLiteral("--format="),
                                             QStringLiteral("--contains="),
                                             QStringLiteral("--no-contains="),
                                             QStringLiteral("--merged="),
                                             QStringLiteral("--no-merged="),
                                             QStringLiteral("--points-at=")};
    static const QStringList listingWithValue{QStringLiteral("--contains"),
                                              QStringLiteral("--no-contains"),
                                              QStringLiteral("--merged"),
                                              QStringLiteral("--no-merged"),
                                              QStringLiteral("--points-at"),
                                              QStringLiteral("--sort"),
                                              QStringLiteral("--format")};
    if (subcommand == QLatin1String("branch")) {
        return listsOnly({QStringLiteral("-a"),
                          QStringLiteral("--all"),
                          QStringLiteral("-r"),
                          QStringLiteral("--remotes"),
                          QStringLiteral("-v"),
                          QStringLiteral("-vv"),
                          QStringLiteral("--verbose"),
                          QStringLiteral("--show-current"),
                          QStringLiteral("-i"),
                          QStringLiteral("--ignore-case"),
                          QStringLiteral("--omit-empty")},
                         listingPrefixes
                             + QStringList{QStringLiteral("--abbrev"),
                                           QStringLiteral("--no-abbrev")},
                         listingWithValue);
    }
    if (subcommand == QLatin1String("tag")) {
        return listsOnly({QStringLiteral("-i"), QStringLiteral("--ignore-case")},
                         listingPrefixes + QStringList{QStringLiteral("-n")},
                         listingWithValue);
    }
    if (subcommand == QLatin1String("remote")) {
        if (first == QLatin1String("get-url"))
            return true;
        return std::all_of(args.cbegin(), args.cend(), [](const QString &arg) {
            return arg == QLatin1String("-v") || arg == QLatin1String("--verbose");
        });
    }
    if (subcommand == QLatin1String("stash"))
        return first == QLatin1String("list") || first == QLatin1String("show");
    if (subcommand == QLatin1String("worktree"))
        return first == QLatin1String("list");
    if (subcommand == QLatin1String("submodule"))
        return args.isEmpty() || first == QLatin1String("status");
    if (subcommand == QLatin1String("reflog"))
        return args.isEmpty() || first == QLatin1String("show")
               || (isOption(first) && !hasArg(QStringLiteral("expire"))
                   && !hasArg(QStringLiteral("delete")));
    if (subcommand == QLatin1String("config"))
        return readsConfig();
    return false;
}

// `git branch` and `git tag` list with these flags; a name without --list creates one.
bool BashGitCommand::listsOnly(const QStringList &flags,
                               const QStringList &flagPrefixes,
                               const QStringList &flagsWithValue) const
{
    bool list = false;
    bool names = false;
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString &arg = args.at(i);
        if (arg == QLatin1String("--")) {
            names = names || i + 1 < args.size();
            break;
        }
        if (!isOption(arg)) {
            names = true;
        } else if (arg == QLatin1String("-l") || arg == QLatin1String("--list")) {
            list = true;
        } else if (flagsWithValue.contains(arg)) {
            ++i;
        } else if (!flags.contains(arg) && !startsWithAny(arg, flagPrefixes)) {
            return false;
        }
    }
    return list || !names;
}

bool BashGitCommand::readsConfig() const
{
    static const QStringList harmless{QStringLiteral("--global"),
                                      QStringLiteral("--local"),
                                      QStringLiteral("--system"),
                                      QStringLiteral("--worktree"),
                                      QStringLiteral("--show-origin"),
                                      QStringLiteral("--show-scope"),
                                      QStringLiteral("-z"),
                                      QStringLiteral("--null"),
                                      QStringLiteral("--name-only"),
                                      QStringLiteral("--includes"),
                                      QStringLiteral("--no-includes"),
                                      QStringLiteral("--bool"),
                                      QStringLiteral("--int"),
                                      QStringLiteral("--bool-or-int"),
                                      QStringLiteral("--path"),
                                      QStringLiteral("--expiry-date"),
                                      QStringLiteral("--all"),
                                      QStringLiteral("--regexp")};
    static const QStringList readers{QStringLiteral("--get"),
                                     QStringLiteral("--get-all"),
                                     QStringLiteral("--get-regexp"),
                                     QStringLiteral("--get-urlmatch"),
                                     QStringLiteral("--get-color"),
                                     QStringLiteral("--get-colorbool"),
                                     QStringLiteral("-l"),
                                     QStringLiteral("--list")};
    // Options that take the next word as their value: which file to read is no change.
    static const QStringList withValue{QStringLiteral("-f"),
                                       QStringLiteral("--file"),
                                       QStringLiteral("--blob"),
                                       QStringLiteral("--type"),
                                       QStringLiteral("--default")};
    static const QStringList withValueForms{QStringLiteral("--file="),
                                            QStringLiteral("--blob="),
                                            QStringLiteral("--type="),
                                            QStringLiteral("--default=")};
    const QString first = args.value(0);
    const bool newSyntax = first == QLatin1String("get") || first == QLatin1String("list");
    bool reads = newSyntax;
    int names = 0;
    for (qsizetype i = newSyntax ? 1 : 0; i < args.size(); ++i) {
        const QString &arg = args.at(i);
        if (!isOption(arg)) {
            ++names;
            continue;
        }
        if (readers.contains(arg) && !newSyntax)
            reads = true;
        else if (withValue.contains(arg))
            ++i;
        else if (!harmless.contains(arg) && !startsWithAny(arg, withValueForms))
            return false;
    }
    // The old syntax without an action: `git config NAME` reads the value, `git config NAME
    // VALUE` sets it.
    return reads || (!newSyntax && names == 1);
}

QString BashGitCommand::configurationChange() const
{
    if (overridesConfig)
        return PermissionsTr::tr("git -c, --config-env or --exec-path sets git's configuration");
    if (subcommand == QLatin1String("config") && !readsConfig())
        return PermissionsTr::tr("git config changes git's configuration");
    for (const QString &arg : args) {
        // ext:: runs a command as the remote; fd:: talks to descriptors the shell set up.
        if (arg.startsWith(QLatin1String("ext::"), Qt::CaseInsensitive)
            || arg.startsWith(QLatin1String("fd::"), Qt::CaseInsensitive))
            return PermissionsTr::tr("an ext:: or fd:: URL makes git run a command");
    }
    if (subcommand == QLatin1String("init") || subcommand == QLatin1String("clone")) {
        for (const QString &arg : args) {
            if (arg.startsWith(QLatin1String("--template"))
                || arg.startsWith(QLatin1String("--separate-git-dir")))
                return PermissionsTr::tr("git %1 %2 places hooks or moves the git folder")
                    .arg(subcommand, arg.section(QLatin1Char('='), 0, 0));
        }
    }
    return {};
}

bool BashGitCommand::isRepositoryWork() const
{
    if (!clear || overridesConfig || gitDirectory || workTree || directoryExpands)
        return false;
    if (!configurationChange().isEmpty())
        return false;
    static const QStringList work{QStringLiteral("add"),         QStringLiteral("commit"),
                                  QStringLiteral("checkout"),    QStringLiteral("switch"),
                                  QStringLiteral("branch"),      QStringLiteral("merge"),
                                  QStringLiteral("rebase"),      QStringLiteral("stash"),
                                  QStringLiteral("tag"),         QStringLiteral("reset"),
                                  QStringLiteral("restore"),     QStringLiteral("rm"),
                                  QStringLiteral("mv"),          QStringLiteral("cherry-pick"),
                                  QStringLiteral("revert"),      QStringLiteral("pull"),
                                  QStringLiteral("fetch"),       QStringLiteral("push"),
                                  QStringLiteral("worktree"),    QStringLiteral("remote"),
                                  QStringLiteral("submodule"),   QStringLiteral("notes"),
                                  QStringLiteral("am"),          QStringLiteral("apply"),
                                  QStringLiteral("clean"),       QStringLiteral("gc"),
                                  QStringLiteral("bisect"),      QStringLiteral("update-index"),
                                  QStringLiteral("update-ref"),  QStringLiteral("read-tree"),
                                  QStringLiteral("write-tree"),  QStringLiteral("commit-tree"),
                                  QStringLiteral("hash-object"), QStringLiteral("symbolic-ref")};
    if (!work.contains(subcommand))
        return false;
    // No option of these makes git run a program the command names: an expansion is a message
    // or a path (`git commit -m "$(cat msg)"`, `git add "$f"`) whatever it holds.
    static const QStringList expansionsHarmless{QStringLiteral("add"),
                                                QStringLiteral("commit"),
                                                QStringLiteral("checkout"),
                                                QStringLiteral("switch"),
                                                QStringLiteral("branch"),
                                                QStringLiteral("tag"),
                                                QStringLiteral("reset"),
                                                QStringLiteral("restore"),
                                                QStringLiteral("rm"),
                                                QStringLiteral("mv"),
                                                QStringLiteral("stash"),
                                                QStringLiteral("cherry-pick"),
                                                QStringLiteral("revert"),
                                                QStringLiteral("notes"),
                                                QStringLiteral("clean")};
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString &arg = args.at(i);
        if (expands.value(i) && mayBeOption(arg) && !expansionsHarmless.contains(subcommand))
            return false; // `git rebase $OPTS` may hold --exec
        // Programs the command line names would run with .git writable: rebase --exec (-x),
        // the transports' --upload-pack, --receive-pack (push --exec).
        static const QStringList runners{QStringLiteral("--exec"),
                                         QStringLiteral("--upload-pack"),
                                         QStringLiteral("--receive-pack")};
        if (!expands.value(i) && runners.contains(arg.section(QLatin1Char('='), 0, 0)))
            return false;
        if (subcommand == QLatin1String("rebase") && isOption(arg)
            && !arg.startsWith(QLatin1String("--")) && arg.contains(QLatin1Char('x')))
            return false;
    }
    const QString first = args.value(0);
    if (subcommand == QLatin1String("submodule"))
        return first != QLatin1String("foreach");
    if (subcommand == QLatin1String("bisect"))
        return first != QLatin1String("run");
    return true;
}

bool BashGitCommand::usesNetwork() const
{
    static const QStringList remote{QStringLiteral("push"),
                                    QStringLiteral("pull"),
                                    QStringLiteral("fetch"),
                                    QStringLiteral("clone"),
                                    QStringLiteral("ls-remote"),
                                    QStringLiteral("send-email"),
                                    QStringLiteral("request-pull")};
    if (remote.contains(subcommand))
        return true;
    const QString first = args.value(0);
    if (subcommand == QLatin1String("remote"))
        return first == QLatin1String("update") || first == QLatin1String("show")
               || first == QLatin1String("prune");
    if (subcommand == QLatin1String("submodule"))
        return first == QLatin1String("update") || first == QLatin1String("sync")
               || first == QLatin1String("add");
    return false;
}

bool BashGitCommand::deletes() const
{
    const QString first = args.value(0);
    if (subcommand == QLatin1String("clean") || subcommand == QLatin1String("rm"))
        return true;
    if (subcommand == QLatin1String("reset"))
        return hasArg(QStringLiteral("--hard")) || hasArg(QStringLiteral("--merge"))
               || hasArg(QStringLiteral("--keep"));
    if (subcommand == QLatin1String("branch") || subcommand == QLatin1String("tag")) {
        return std::any_of(args.cbegin(), args.cend(), [](const QString &arg) {
            return arg == QLatin1String("--delete")
                   || (arg.startsWith(QLatin1Char('-')) && !arg.startsWith(QLatin1String("--"))
                       && (arg.contains(QLatin1Char('d')) || arg.contains(QLatin1Char('D'))));
        });
    }
    if (subcommand == QLatin1String("stash"))
        return first == QLatin1String("drop") || first == QLatin1String("clear");
    if (subcommand == QLatin1String("worktree"))
        return first == QLatin1String("remove") || first == QLatin1String("prune");
    if (subcommand == QLatin1String("restore")) // discards uncommitted changes
        return !hasArg(QStringLiteral("--staged")) && !hasArg(QStringLiteral("-S"));
    if (subcommand == QLatin1String("checkout") || subcommand == QLatin1String("switch"))
        return hasArg(QStringLiteral("--")) || hasArg(QStringLiteral("-f"))
               || hasArg(QStringLiteral("--force")) || hasArg(QStringLiteral("."))
               || hasArg(QStringLiteral("--discard-changes"));
    return false;
}

} // namespace AgentCore
