#include "systemprompt.h"

#include "repository.h"

#include <process/gitprocess.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSet>
#include <QSysInfo>

#include <algorithm>
#include <optional>

namespace AgentCore {

namespace {

// The prompt is written for the model, not the user, so it is not translated: a translated
// prompt would change how the model behaves. It goes into every request, so every sentence
// must earn its bytes: what a tool's own description says is not repeated here.
QString introduction(const QList<ToolKind> &tools)
{
    const auto has = [&tools](ToolKind kind) { return tools.contains(kind); };
    const auto names = [](const QStringList &list) -> QString {
        if (list.size() < 2)
            return list.join(QString());
        return list.mid(0, list.size() - 1).join(QStringLiteral(", ")) + QStringLiteral(" and ")
               + list.last();
    };
    QString text = QStringLiteral(
        "You are AgentDesk, a coding agent. You work in the user's repository through the "
        "tools you are given, to do the task the user asks for. The user sees every tool call, "
        "reviews edits before they are applied and may deny a call.\n\n# How to work\n");
    QStringList search;
    for (ToolKind kind : {ToolKind::Grep, ToolKind::Glob, ToolKind::Ls}) {
        if (has(kind))
            search.append(toolKindName(kind));
    }
    text += QStringLiteral("- Understand before you change: find the relevant code%1 and read the "
                           "files you will change. Request several reads or searches in one "
                           "message: read-only tools run in parallel.\n")
                .arg(search.isEmpty() ? QString() : QStringLiteral(" with ") + names(search));
    if (has(ToolKind::Edit) || has(ToolKind::Write)) {
        text += QStringLiteral("- Read a file before you change it: edits are accepted only for "
                               "files read in this session and unchanged since.\n");
    }
    if (has(ToolKind::Edit) && has(ToolKind::Write))
        text += QStringLiteral("- Prefer Edit to Write, which is for new files and rewrites.\n");
    text += QStringLiteral("- Follow the project's conventions (style, libraries, build and test "
                           "commands) and keep changes to what the task needs.\n");
    if (has(ToolKind::Bash)) {
        // The shell commands the model would otherwise reach for, next to the tool that
        // replaces each: those tools are reviewed, cheaper and exact.
        static const QList<std::pair<ToolKind, const char *>> instead{{ToolKind::Read, "cat"},
                                                                      {ToolKind::Edit, "sed"},
                                                                      {ToolKind::Write, "echo >"},
                                                                      {ToolKind::Grep, "grep"},
                                                                      {ToolKind::Glob, "find"},
                                                                      {ToolKind::Ls, "ls"}};
        QStringList tools, commands;
        for (const auto &[kind, command] : instead) {
            if (has(kind)) {
                tools.append(toolKindName(kind));
                commands.append(QString::fromLatin1(command));
            }
        }
        text += QStringLiteral("- Use Bash for builds, tests, git and other command-line tools");
        if (!tools.isEmpty()) {
            text += QStringLiteral(", and %1 rather than %2")
                        .arg(names(tools), commands.join(QStringLiteral(", ")));
        }
        text += QStringLiteral(". After a change, run the relevant tests or build and fix what "
                               "you broke.\n");
    }
    text += QStringLiteral(
        "- Do not commit, push or delete work unless the user asks.\n"
        "\n# Being truthful\n"
        "- Never invent file contents, APIs, command output or test results: read or run it "
        "first, or say you have not.\n"
        "- If a tool call fails, read the error and adapt; do not repeat it unchanged. If the "
        "user denied a call, do not work around it: do something else or ask.\n"
        "- When the task is ambiguous, a step is risky or destructive, or you are stuck, ask "
        "the user rather than guess.\n"
        "\n# Answering\n"
        "- Be concise and direct: say what changed, what you verified and what is left; no "
        "preamble.\n"
        "- Refer to code as path:line. Use Markdown for code and lists.\n");
    return text;
}

QString instructionsSection(const QList<InstructionFile> &files)
{
    if (files.isEmpty())
        return {};
    QString section = QStringLiteral(
        "\n# Project instructions\n"
        "The instruction files of this project and its parent directories follow, the "
        "farthest first. Follow them; where they disagree, the nearer file wins. They "
        "override the defaults above but not the user's explicit requests.\n");
    for (const InstructionFile &file : files) {
        section += QStringLiteral("\n## %1\n\n").arg(file.path);
        section += file.text;
        if (!file.text.endsWith(u'\n'))
            section += u'\n';
        if (file.truncated)
            section += QStringLiteral("[... the rest of %1 was left out: it is too long]\n")
                           .arg(file.path);
    }
    return section;
}

QString gitSection(const PromptEnvironment &environment)
{
    if (!environment.isGit)
        return QStringLiteral("- Git: not a git repository\n");
    QString section;
    if (!environment.gitHead.isEmpty())
        section += QStringLiteral("- Git branch: %1\n").arg(environment.gitHead);
    if (environment.gitStatus.isEmpty())
        return section + QStringLiteral("- Git status: clean\n");
    section += QStringLiteral("- Git status (git status --short, at the start of the session):\n");
    const qsizetype shown = std::min<qsizetype>(environment.gitStatus.size(), maxGitStatusLines);
    for (qsizetype i = 0; i < shown; ++i)
        section += QStringLiteral("    ") + environment.gitStatus.at(i) + u'\n';
    if (environment.gitStatus.size() > shown) {
        section += QStringLiteral("    ... and %1 more\n").arg(environment.gitStatus.size() - shown);
    }
    return section;
}

QString environmentSection(const PromptEnvironment &environment)
{
    QString section = QStringLiteral("\n# Environment\n");
    if (!environment.operatingSystem.isEmpty())
        section += QStringLiteral("- Operating system: %1\n").arg(environment.operatingSystem);
    if (environment.today.isValid())
        section += QStringLiteral("- Today's date: %1\n")
                       .arg(environment.today.toString(Qt::ISODate));
    section += QStringLiteral("- Repository root: %1 (relative paths are relative to it)\n")
                   .arg(environment.repositoryRoot);
    return section + gitSection(environment);
}

// Up to maxInstructionFileBytes, cut at the last line end before the cap so that no line (and
// no UTF-8 sequence) is cut in the middle.
std::optional<InstructionFile> readInstructionFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    QByteArray bytes = file.read(maxInstructionFileBytes + 1);
    InstructionFile instructions;
    instructions.path = path;
    if (bytes.size() > maxInstructionFileBytes) {
        instructions.truncated = true;
        bytes.truncate(maxInstructionFileBytes);
        const qsizetype lineEnd = bytes.lastIndexOf('\n');
        if (lineEnd > 0)
            bytes.truncate(lineEnd + 1);
    }
    instructions.text = QString::fromUtf8(bytes);
    return instructions;
}

QStringList directoriesUpTo(const QString &directory, const QString &top)
{
    const QString stop = top.isEmpty() ? QString()
                                       : QDir::cleanPath(QFileInfo(top).absoluteFilePath());
    QStringList directories;
    QDir dir(QFileInfo(directory).absoluteFilePath());
    while (true) {
        directories.prepend(dir.absolutePath());
        if (dir.absolutePath() == stop || dir.isRoot() || !dir.cdUp())
            break;
    }
    return directories;
}

// Through GitProcess: a repository's configuration runs nothing here (this runs at every
// start and window open, before any question), and git never sees AgentDesk's keys.
QStringList gitStatusLines(const QString &root)
{
    const GitProcess::Result status = GitProcess::run({QStringLiteral("status"),
                                                       QStringLiteral("--short")},
                                                      root,
                                                      5000);
    if (!status.ok())
        return {};
    return QString::fromUtf8(status.out).split(u'\n', Qt::SkipEmptyParts);
}

} // namespace

QString instructionsPromptSection(const QList<InstructionFile> &files)
{
    return instructionsSection(files);
}

QString formatSystemPrompt(const PromptEnvironment &environment)
{
    return introduction(environment.tools) + instructionsSection(environment.instructions)
           + environment.skills + environmentSection(environment);
}

QList<InstructionFile> findInstructionFiles(const QString &directory, const QString &top)
{
    static const QStringList names{QStringLiteral("AGENTS.md"), QStringLiteral("CLAUDE.md")};
    QList<InstructionFile> files;
    QSet<QString> seenPaths;
    QSet<QString> seenTexts;
    for (const QString &dir : directoriesUpTo(directory, top)) {
        for (const QString &name : names) {
            const QFileInfo info(QDir(dir), name);
            if (!info.isFile() || seenPaths.contains(info.canonicalFilePath()))
                continue;
            seenPaths.insert(info.canonicalFilePath());
            std::optional<InstructionFile> file = readInstructionFile(info.absoluteFilePath());
            if (!file || file->text.trimmed().isEmpty() || seenTexts.contains(file->text))
                continue;
            seenTexts.insert(file->text);
            files.append(*file);
        }
    }
    // Over the total, the nearest files matter most: leave out the farthest.
    qsizetype total = 0;
    for (qsizetype i = files.size() - 1; i >= 0; --i) {
        total += files.at(i).text.toUtf8().size();
        if (total > maxInstructionBytes) {
            files.remove(0, i + 1);
            break;
        }
    }
    return files;
}

PromptEnvironment gatherPromptEnvironment(const QString &repositoryRoot)
{
    PromptEnvironment environment;
    environment.operatingSystem = QSysInfo::prettyProductName();
    environment.today = QDate::currentDate();
    environment.repositoryRoot = repositoryRoot;
    if (const std::optional<Repository> repository = Repository::open(repositoryRoot)) {
        environment.isGit = repository->isGit();
        environment.gitHead = repository->headDescription();
    }
    if (environment.isGit)
        environment.gitStatus = gitStatusLines(repositoryRoot);
    environment.instructions = findInstructionFiles(repositoryRoot);
    return environment;
}

QString buildSystemPrompt(const QString &repositoryRoot)
{
    return formatSystemPrompt(gatherPromptEnvironment(repositoryRoot));
}

} // namespace AgentCore
