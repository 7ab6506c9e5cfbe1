#pragma once

#include <loop/toolkind.h>

#include <QDate>
#include <QList>
#include <QString>
#include <QStringList>

namespace AgentCore {

/// One project instructions file (AGENTS.md or CLAUDE.md) as it goes into the prompt.
struct InstructionFile
{
    QString path;           ///< absolute, as the prompt labels it
    QString text;           ///< the file's text, cut at maxInstructionFileBytes
    bool truncated = false; ///< the file was longer than what text holds
    friend bool operator==(const InstructionFile &, const InstructionFile &) = default;
};

/// The facts the system prompt states about the machine and the repository. A plain value:
/// gathering it (files, git) is separate from formatting it, so the prompt text is testable.
struct PromptEnvironment
{
    QString operatingSystem; ///< "Debian GNU/Linux 13 (trixie)"
    QDate today;
    QString repositoryRoot;
    bool isGit = false;
    QString gitHead;                     ///< "main", "detached at 9fceb02"; empty when unknown
    QStringList gitStatus;               ///< the lines of `git status --short`, all of them
    QList<InstructionFile> instructions; ///< farthest directory first, nearest last
    /// The skills' names and descriptions (Skills::promptSection()), after the instructions.
    QString skills;
    /// The built-in tools the model is offered: the prompt names only these.
    QList<ToolKind> tools{ToolKind::Read,
                          ToolKind::Glob,
                          ToolKind::Grep,
                          ToolKind::Ls,
                          ToolKind::Edit,
                          ToolKind::Write,
                          ToolKind::Bash};
};

/// Instruction files are read up to this many bytes each (cut at a line end)...
inline constexpr qsizetype maxInstructionFileBytes = 24 * 1024;
/// ...and up to this many in all: the farthest files are left out first.
inline constexpr qsizetype maxInstructionBytes = 48 * 1024;
/// The prompt shows this many lines of `git status --short`, then how many more there are.
inline constexpr int maxGitStatusLines = 30;

/// The coding agent's system prompt for \a environment: who it is and how it works with the
/// tools, the project's instruction files (each labelled with its path) and the environment.
/// Pure; thread-safe.
QString formatSystemPrompt(const PromptEnvironment &environment);

/// The "Project instructions" part of the prompt for \a files (empty for none): what a
/// subagent's prompt carries of its parent's. Pure.
QString instructionsPromptSection(const QList<InstructionFile> &files);

/// AGENTS.md and CLAUDE.md of \a directory and each parent up to \a top (included; empty: the
/// file system root), farthest first, capped by maxInstructionFileBytes and
/// maxInstructionBytes. A file reached twice (a symlink, a copy with the same text) is taken
/// once. Unreadable files are skipped. Reads files only; thread-safe.
QList<InstructionFile> findInstructionFiles(const QString &directory, const QString &top = {});

/// Gathers the environment of \a repositoryRoot: OS name, today's date, the git branch, the
/// output of `git status --short` (waits up to a few seconds for git; nothing when git is
/// missing or slow) and the instruction files. Blocking; any thread; never writes anything.
PromptEnvironment gatherPromptEnvironment(const QString &repositoryRoot);

/// formatSystemPrompt(gatherPromptEnvironment(repositoryRoot)). CodingAgent::assemble calls it
/// once per session, and the result goes into every request unchanged: the date is the day the
/// session started and the git status its state then. Nothing in the prompt reads the clock
/// again or is random, so consecutive requests keep the byte-identical prefix the providers'
/// prompt caches need.
QString buildSystemPrompt(const QString &repositoryRoot);

} // namespace AgentCore
