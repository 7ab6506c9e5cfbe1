#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <memory>

namespace AgentCore {

/// One redirection of a simple command (`> out.txt`, `2>&1`, `< in`, `>> log`).
struct BashRedirection
{
    QString op;                 ///< ">", ">>", "<", "2>", "&>", ">&", "<<", "<<<", ...
    QString target;             ///< the word after it (file, fd number, here-doc delimiter)
    bool writesFile = false;    ///< output to a file (not a duplicated fd, not /dev/null)
    bool targetExpands = false; ///< the target depends on an expansion (target is its source)
};

/// What makes a command worth a second look in the review.
enum class BashRisk {
    WritesOutsideRepository, ///< redirection, cp/mv/tee/sed -i/... target outside the repository
                             ///< (or inside its .git directory)
    Network,                 ///< curl, wget, ssh, scp, git push/pull/fetch/clone, npm install...
    Deletes,                 ///< rm, rmdir, git clean, git reset --hard, find -delete, ...
    Privileged,              ///< sudo, su, doas, chmod/chown outside the repository
    /// grep -R, rg -L, find -L, du --files0-from...: reads paths the command does not name,
    /// which may be outside the repository
    ReadsUnknownPaths,
};

struct BashRiskNote
{
    BashRisk risk = BashRisk::Deletes;
    int commandIndex = -1; ///< into BashAnalysis::commands
    QString explanation;   ///< for the review: "deletes files: rm -rf build"
};

/// One simple command: the words of one program invocation, wherever it stands (in a
/// pipeline, after `&&`, inside `( )`, `$( )` or backquotes).
struct SimpleCommand
{
    QStringList words; ///< after quote removal; a word with an expansion keeps its source text
    /// Normalised source: assignment prefixes and words joined by one space, no redirections.
    /// A word without expansion is written bare when that is unambiguous, else single-quoted
    /// (`git commit -m 'fix bug'`); a word with an expansion as written (`ls "$HOME"`). Parsing
    /// a rule's specifier with BashAnalyzer gives the same normal form.
    QString text;
    QList<BashRedirection> redirections;
    QStringList assignments;   ///< `FOO=bar` prefixes
    bool hasExpansion = false; ///< a word depends on $var, $(...), `...` or an unquoted glob
    /// On the read-only list, no writing redirection, no assignment, reads nothing outside
    /// the repository: passes in default mode on its own, also inside a compound command.
    bool readOnly = false;
    QList<bool> wordExpands; ///< parallel to words: that word has an expansion
};

/// The static analysis of one Bash tool command. A plain value.
struct BashAnalysis
{
    QString command;               ///< as given
    bool understood = false;       ///< false: parse error or constructs we do not follow (asks)
    QString problem;               ///< why not understood, for the review and the model
    QString parser;                ///< "shfmt" or "builtin"
    QList<SimpleCommand> commands; ///< in source order, nested ones after their parent
    QList<BashRiskNote> risks;
    /// Every command is on the read-only list (ls, cat, head, git status/diff/log/show, rg,
    /// grep, find without -exec/-delete, wc, ...) and no redirection writes a file. Reading
    /// outside the repository is not read-only either (operands, option arguments like
    /// `date -f F`, `<` and `cd` targets that resolve outside it or are only known at run time;
    /// options that follow symbolic links or read file names from a file), as reads outside
    /// ask for Read. git run on a git folder other than the repository's (--git-dir, -C or
    /// cd into a folder the agent wrote or the repository tracks) is not read-only either: it
    /// would run that folder's configuration.
    bool readOnly = false;
    /// Why the command may change git's configuration or hooks: `git config` that writes,
    /// -c / --config-env / GIT_CONFIG_* on git's command line, an ext:: URL, or a command other
    /// than git's own work that names .git/ or runs in it (`python3 -c 'open(".git/config")'`).
    /// Empty when it does not. Asks in every mode, like AgentDesk's own settings
    /// (PermissionPolicy).
    QString gitConfigurationChange;
    /// Understood, and every command is either read-only or ordinary git work on the
    /// repository's own git folder (BashGitCommand::isRepositoryWork), at least one of them:
    /// the sandbox leaves the git folders writable for it, and read-only for everything else
    /// (BashOptions::gitWritable).
    bool gitWork = false;
};

QString bashRiskName(BashRisk risk); ///< "writes outside the repository", "network", ...

/// Splits a Bash command into its simple commands with shfmt's parser (`shfmt --to-json`,
/// Debian package shfmt) when it is on PATH, with a built-in parser of the common subset
/// otherwise (quotes, escapes, `;` `&&` `||` `|` `&`, `( )`, `{ }`, `$( )`, backquotes,
/// redirections, here-documents, assignments); anything else (if/for/while/case, functions,
/// here-docs the built-in parser cannot follow) is "not understood", which makes the command
/// ask. Classification: BashCommandClassifier. Thread-safe; analyze() blocks up to 3 s for
/// shfmt (then falls back to the built-in parser); never runs the command. shfmt's parse of
/// the last few commands is kept (it depends on the text alone; the classification, which
/// looks at the file system, is made anew each time): one tool call is analysed by the
/// permission check and again by the checkpoints, and shfmt costs a process start each time.
/// Copies share that memory.
class BashAnalyzer final
{
public:
    /// \a repositoryRoot: canonical; relative targets are resolved against it.
    /// \a shfmtPath: empty finds `shfmt` on PATH; "-" never uses shfmt (tests).
    explicit BashAnalyzer(const QString &repositoryRoot, const QString &shfmtPath = {});

    /// Folders outside the repository that commands may read as if they were inside it
    /// (canonical): the session's own scratch, such as the folder of the full-output logs
    /// (ToolLogDirectory), which the sandbox shows read-only. Set before the first analyze().
    void setReadableRoots(const QStringList &roots) { m_readableRoots = roots; }

    BashAnalysis analyze(const QString &command) const;
    bool usesShfmt() const { return !m_shfmt.isEmpty(); }

    /// The shfmt on PATH, or empty.
    static QString findShfmt();

private:
    struct ParseMemory;

    QString m_root;
    QStringList m_readableRoots;
    QString m_shfmt;
    std::shared_ptr<ParseMemory> m_memory;
};

} // namespace AgentCore
