#include "permissionpolicy.h"
#include "translation.h"

#include "networkrules.h"
#include "pathcapability.h"
#include "permissionsettings.h"
#include "projecttrust.h"

#include <loop/toolkind.h>
#include <tools/toolworkspace.h>

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QMutexLocker>
#include <QRegularExpression>

#include <algorithm>

namespace AgentCore {

namespace {

QString describe(const PermissionRule &rule)
{
    return rule.source.isEmpty() ? rule.toString()
                                 : PermissionsTr::tr("%1 in %2").arg(rule.toString(), rule.source);
}

bool isBash(const PermissionSubject &subject)
{
    return toolKind(subject.toolName) == ToolKind::Bash;
}

// The words of each part of a command the analysis did not understand, split crudely at
// every operator: only deny and ask rules use them, where splitting too much is harmless.
QList<QStringList> roughCommands(const QString &command)
{
    static const QRegularExpression separators(QStringLiteral("\\$\\(|[;&|(){}`\\n]"));
    static const QStringList keywords{QStringLiteral("if"),
                                      QStringLiteral("then"),
                                      QStringLiteral("else"),
                                      QStringLiteral("elif"),
                                      QStringLiteral("do"),
                                      QStringLiteral("while"),
                                      QStringLiteral("until"),
                                      QStringLiteral("!")};
    QList<QStringList> commands;
    for (const QString &part : command.split(separators, Qt::SkipEmptyParts)) {
        QString plain = part;
        plain.remove(QLatin1Char('\'')).remove(QLatin1Char('"')).remove(QLatin1Char('\\'));
        QStringList words = plain.split(QRegularExpression(QStringLiteral("\\s+")),
                                        Qt::SkipEmptyParts);
        while (!words.isEmpty() && keywords.contains(words.first()))
            words.removeFirst();
        while (!words.isEmpty() && words.first().contains(QLatin1Char('=')))
            words.removeFirst();
        if (!words.isEmpty())
            commands.append(words);
    }
    return commands;
}

// Every part of the call a deny or ask rule could be about.
QList<QStringList> commandsForRestrictions(const BashAnalysis &analysis)
{
    QList<QStringList> commands;
    for (const SimpleCommand &command : analysis.commands)
        commands.append(command.words);
    if (!analysis.understood)
        commands.append(roughCommands(analysis.command));
    return commands;
}

// Deny and ask rules: one matching part is enough.
bool restricts(const PermissionRule &rule, const PermissionSubject &subject)
{
    if (!rule.appliesTo(subject.toolName))
        return false;
    if (rule.specifier.isEmpty())
        return true;
    if (isBash(subject)) {
        if (!subject.bash)
            return false;
        const bool lenient = rule.behavior == PermissionBehavior::Deny;
        for (const QStringList &words : commandsForRestrictions(*subject.bash)) {
            if (rule.matchesCommand(words, lenient))
                return true;
        }
        return false;
    }
    for (const PermissionSubject::Path &path : subject.paths) {
        if (rule.matchesPath(path.relative, path.absolute))
            return true;
    }
    return false;
}

std::optional<PermissionRule> firstRestriction(const QList<PermissionRule> &rules,
                                               PermissionBehavior behavior,
                                               const PermissionSubject &subject)
{
    for (const PermissionRule &rule : rules) {
        if (rule.behavior == behavior && restricts(rule, subject))
            return rule;
    }
    return std::nullopt;
}

// Allow rules: every part of the call must be covered, each by some rule.
std::optional<PermissionRule> allowingRule(const QList<PermissionRule> &rules,
                                           const PermissionSubject &subject)
{
    // Not even `Bash` covers a write outside: the person looks at it (decide() denies it
    // before, unless additional directories make the analysis unsure).
    if (isBash(subject) && subject.bash) {
        for (const BashRiskNote &note : subject.bash->risks) {
            if (note.risk == BashRisk::WritesOutsideRepository)
                return std::nullopt;
        }
    }
    QList<PermissionRule> allows;
    for (const PermissionRule &rule : rules) {
        if (rule.behavior == PermissionBehavior::Allow && rule.appliesTo(subject.toolName)) {
            if (rule.specifier.isEmpty())
                return rule;
            allows.append(rule);
        }
    }
    if (allows.isEmpty())
        return std::nullopt;

    // Every item needs an allow rule, except those \a exempt says pass on their own.
    const auto coverAll = [&allows](qsizetype count, const auto &covers, const auto &exempt) {
        std::optional<PermissionRule> first;
        for (qsizetype i = 0; i < count; ++i) {
            if (exempt(i))
                continue;
            const auto it = std::find_if(allows.cbegin(), allows.cend(), [&](const auto &rule) {
                return covers(rule, i);
            });
            if (it == allows.cend())
                return std::optional<PermissionRule>();
            if (!first)
                first = *it;
        }
        return first;
    };

    if (isBash(subject)) {
        const std::optional<BashAnalysis> &bash = subject.bash;
        if (!bash || !bash->understood || bash->commands.isEmpty())
            return std::nullopt;
        // `git status && npm test` with Bash(npm test:*): git status passes on its own.
        return coverAll(
            bash->commands.size(),
            [&](const PermissionRule &rule, qsizetype i) {
                const SimpleCommand &command = bash->commands.at(i);
                // `A=1 npm test` may change what npm runs (NODE_OPTIONS, LD_PRELOAD), and
                // `npm test > src/a.c` writes a file nobody reviewed: the rule covers neither.
                const bool writes = std::any_of(command.redirections.cbegin(),
                                                command.redirections.cend(),
                                                [](const BashRedirection &redirection) {
                                                    return redirection.writesFile;
                                                });
                return command.assignments.isEmpty() && !writes
                       && rule.matchesCommand(command.words);
            },
            [&](qsizetype i) { return bash->commands.at(i).readOnly; });
    }
    if (subject.paths.isEmpty())
        return std::nullopt;
    return coverAll(
        subject.paths.size(),
        [&](const PermissionRule &rule, qsizetype i) {
            const PermissionSubject::Path &path = subject.paths.at(i);
            return rule.matchesPath(path.relative, path.absolute);
        },
        [](qsizetype) { return false; });
}

bool isFileEditTool(const QString &name)
{
    return changesFile(toolKind(name));
}

PermissionDecision decision(PermissionBehavior behavior,
                            const QString &reason,
                            const std::optional<PermissionRule> &rule = std::nullopt)
{
    return {behavior, reason, rule};
}

bool isAtOrBelow(const QString &path, const QString &base)
{
    return path.compare(base, Qt::CaseInsensitive) == 0
           || path.startsWith(base + QLatin1Char('/'), Qt::CaseInsensitive);
}

// AgentDesk's own configuration in a writable root: .agentdesk/ (both settings files) and
// .mcp.json. Compared without case: on macOS and Windows .AgentDesk is the same folder.
bool isProjectConfiguration(const QString &absolute, const QStringList &roots)
{
    for (const QString &root : roots) {
        if (isAtOrBelow(absolute, root + QStringLiteral("/.agentdesk"))
            || absolute.compare(root + QStringLiteral("/.mcp.json"), Qt::CaseInsensitive) == 0)
            return true;
    }
    return false;
}

// The spellings a command may use for \a path: as is, and from the home folder (`~/`,
// `$HOME/`, `${HOME}/`).
QStringList spellings(const QString &path)
{
    QStringList result{path};
    const QString home = QDir::homePath();
    if (!home.isEmpty() && home != QLatin1String("/") && isAtOrBelow(path, home)) {
        const QString rest = path.mid(home.size());
        result << QStringLiteral("~") + rest << QStringLiteral("$HOME") + rest
               << QStringLiteral("${HOME}") + rest;
    }
    return result;
}

// A folder of AgentDesk's own that holds the repository (\a root) below it: the window puts
// a session's worktree in the data folder. The session works there like in any checkout.
bool holdsTheRepository(const QString &base, const QString &root)
{
    return root.compare(base, Qt::CaseInsensitive) != 0 && isAtOrBelow(root, base);
}

// AgentDesk's own file: at or below a protected path, except inside the repository when the
// repository lies in that protected folder (a session's worktree is its working folder, not
// AgentDesk's files; the sessions, the settings and the other worktrees around it stay
// protected, and so does a protected path inside the repository).
bool isOwnFile(const QString &absolute, const QString &root, const QStringList &protectedPaths)
{
    return std::any_of(protectedPaths.cbegin(),
                       protectedPaths.cend(),
                       [&absolute, &root](const QString &base) {
                           return isAtOrBelow(absolute, base)
                                  && !(holdsTheRepository(base, root)
                                       && isAtOrBelow(absolute, root));
                       });
}

// \a command with each mention of the folder \a path taken out: where the name goes on
// (`/x/repo-2` for `/x/repo`) it names another folder and stays. A character no path holds
// stands in, so the text around it cannot join into another path.
QString withoutPath(const QString &command, const QString &path)
{
    static const QString nameEnds = QStringLiteral("/ \t\n'\";&|()<>`");
    QString result;
    qsizetype from = 0;
    for (qsizetype at = command.indexOf(path, 0, Qt::CaseInsensitive); at >= 0;
         at = command.indexOf(path, at + 1, Qt::CaseInsensitive)) {
        const qsizetype end = at + path.size();
        if (at < from || (end < command.size() && !nameEnds.contains(command.at(end))))
            continue;
        result += QStringView(command).mid(from, at - from);
        result += QChar(1);
        from = end;
    }
    return result + QStringView(command).mid(from);
}

// A Bash command that may change AgentDesk's configuration: one that is not read-only and
// names a protected path anywhere (also one that was not understood). Crude on purpose: a
// false alarm costs one question, a miss lets the agent widen its own permissions. In a
// repository inside a protected folder (a session's worktree), naming the repository itself
// is not naming that folder; a ".." anywhere might climb out of it, so then it is.
bool bashMayChangeConfiguration(const BashAnalysis &analysis,
                                const QString &root,
                                const QStringList &protectedPaths)
{
    if (analysis.understood && analysis.readOnly)
        return false;
    QString command = analysis.command;
    if (command.contains(QLatin1String(".agentdesk"), Qt::CaseInsensitive)
        || command.contains(QLatin1String(".mcp.json"), Qt::CaseInsensitive))
        return true;
    const bool inProtectedFolder = std::any_of(protectedPaths.cbegin(),
                                               protectedPaths.cend(),
                                               [&root](const QString &base) {
                                                   return holdsTheRepository(base, root);
                                               });
    if (inProtectedFolder && !command.contains(QLatin1String(".."))) {
        // Longest spelling first, so `${HOME}/...` goes before a shorter overlap.
        QStringList rootSpellings = spellings(root);
        std::sort(rootSpellings.begin(),
                  rootSpellings.end(),
                  [](const QString &a, const QString &b) { return a.size() > b.size(); });
        for (const QString &spelling : std::as_const(rootSpellings))
            command = withoutPath(command, spelling);
    }
    for (const QString &path : protectedPaths) {
        for (const QString &spelling : spellings(path)) {
            if (command.contains(spelling, Qt::CaseInsensitive))
                return true;
        }
    }
    return false;
}

} // namespace

PermissionPolicy::PermissionPolicy(const QString &repositoryRoot, PermissionMode mode)
    : m_root(ToolWorkspace::canonicalPath(repositoryRoot))
    , m_mode(mode)
{}

void PermissionPolicy::loadSettings(const QString &userSettingsPath,
                                    QStringList *warnings,
                                    const ProjectTrust &trust)
{
    const QString sharedPath = PermissionSettings::projectSettingsPath(m_root);
    const QStringList paths{userSettingsPath,
                            sharedPath,
                            PermissionSettings::projectLocalSettingsPath(m_root)};
    QList<PermissionRule> rules;
    QList<PermissionRule> networkRules;
    QStringList directories;
    std::optional<PermissionMode> mode;
    QStringList untrusted;
    // What the user's own file grants needs no trust when a project file asks for it again.
    QStringList userGrants;
    for (const QString &path : paths) {
        if (path.isEmpty())
            continue;
        QString error;
        const std::optional<PermissionSettings> settings = PermissionSettings::load(path, &error);
        if (!settings) {
            if (warnings)
                warnings->append(
                    PermissionsTr::tr("%1 Its permission rules were not loaded.").arg(error));
            continue;
        }
        if (warnings)
            warnings->append(settings->warnings);
        const bool user = path == userSettingsPath;
        const auto granted = [&](const QString &grant) {
            if (user) {
                userGrants.append(grant);
                return true;
            }
            if (trust.trusts(grant) || userGrants.contains(grant))
                return true;
            if (!untrusted.contains(grant))
                untrusted.append(grant);
            return false;
        };
        for (const PermissionRule &rule : settings->rules) {
            if (rule.behavior != PermissionBehavior::Allow || granted(ProjectTrust::ruleGrant(rule)))
                rules.append(rule);
        }
        // The network is a grant like an allow rule: a project file's needs trust.
        for (const PermissionRule &rule : settings->networkRules) {
            if (granted(ProjectTrust::networkGrant(rule)))
                networkRules.append(rule);
        }
        for (const QString &directory : settings->additionalDirectories) {
            if (granted(ProjectTrust::directoryGrant(directory)))
                directories.append(directory);
        }
        if (settings->defaultMode == PermissionMode::Bypass && path == sharedPath) {
            if (warnings) {
                warnings->append(
                    PermissionsTr::tr("%1 asks for bypass mode; a shared project file cannot "
                                      "turn permission checks off (use settings.local.json or "
                                      "the command line). Ignored.")
                        .arg(path));
            }
        } else if (settings->defaultMode) {
            if (!ProjectTrust::modeNeedsTrust(*settings->defaultMode)
                || granted(ProjectTrust::modeGrant(*settings->defaultMode)))
                mode = settings->defaultMode;
        }
    }

    QMutexLocker locker(&m_mutex);
    m_rules.removeIf([&paths](const PermissionRule &rule) { return paths.contains(rule.source); });
    m_rules.append(rules);
    m_networkRules.removeIf(
        [&paths](const PermissionRule &rule) { return paths.contains(rule.source); });
    m_networkRules.append(networkRules);
    for (const QString &directory : std::as_const(directories)) {
        if (!m_additionalDirectories.contains(directory) && directory != m_root)
            m_additionalDirectories.append(directory);
    }
    // Loading unchanged files again keeps the mode the user has chosen since.
    if (mode && mode != m_settingsMode)
        m_mode = *mode;
    m_settingsMode = mode;
    m_untrustedGrants = untrusted;
}

QStringList PermissionPolicy::untrustedGrants() const
{
    QMutexLocker locker(&m_mutex);
    return m_untrustedGrants;
}

std::optional<PermissionMode> PermissionPolicy::settingsDefaultMode() const
{
    QMutexLocker locker(&m_mutex);
    return m_settingsMode;
}

QStringList PermissionPolicy::writableRoots() const
{
    QMutexLocker locker(&m_mutex);
    return QStringList{m_root} + m_additionalDirectories;
}

void PermissionPolicy::addWritableRoot(const QString &directory)
{
    const QString path = ToolWorkspace::canonicalPath(directory);
    QMutexLocker locker(&m_mutex);
    if (path != m_root && !m_additionalDirectories.contains(path))
        m_additionalDirectories.append(path);
}

void PermissionPolicy::addReadableRoot(const QString &directory)
{
    const QString path = ToolWorkspace::canonicalPath(directory);
    QMutexLocker locker(&m_mutex);
    if (!path.isEmpty() && !m_readableRoots.contains(path))
        m_readableRoots.append(path);
}

QStringList PermissionPolicy::readableRoots() const
{
    QMutexLocker locker(&m_mutex);
    return m_readableRoots;
}

PermissionMode PermissionPolicy::mode() const
{
    QMutexLocker locker(&m_mutex);
    return m_mode;
}

void PermissionPolicy::setMode(PermissionMode mode)
{
    QMutexLocker locker(&m_mutex);
    m_mode = mode;
}

void PermissionPolicy::addRule(const PermissionRule &rule)
{
    QMutexLocker locker(&m_mutex);
    if (!m_rules.contains(rule))
        m_rules.append(rule);
}

QList<PermissionRule> PermissionPolicy::rules() const
{
    QMutexLocker locker(&m_mutex);
    return m_rules;
}

void PermissionPolicy::setNetworkRules(const QString &source, const QList<PermissionRule> &rules)
{
    QMutexLocker locker(&m_mutex);
    m_networkRules.removeIf([&source](const PermissionRule &rule) { return rule.source == source; });
    QList<PermissionRule> added;
    for (PermissionRule rule : rules) {
        rule.behavior = PermissionBehavior::Allow;
        rule.source = source;
        if (!added.contains(rule))
            added.append(rule);
    }
    m_networkRules.append(added);
}

QList<PermissionRule> PermissionPolicy::networkRules() const
{
    QMutexLocker locker(&m_mutex);
    return m_networkRules;
}

std::optional<PermissionRule> PermissionPolicy::networkGrant(const PermissionSubject &subject) const
{
    if (!isBash(subject))
        return std::nullopt;
    return NetworkRules::granting(networkRules(), subject.bash);
}

PermissionDecision PermissionPolicy::decide(const PermissionSubject &subject) const
{
    QList<PermissionRule> rules;
    PermissionMode mode;
    QStringList roots;
    QStringList readableRoots;
    QStringList protectedPaths;
    {
        QMutexLocker locker(&m_mutex);
        rules = m_rules;
        mode = m_mode;
        roots = QStringList{m_root} + m_additionalDirectories;
        readableRoots = m_readableRoots;
        protectedPaths = m_protectedPaths;
    }
    const QString &tool = subject.toolName;

    // The path capability holds whatever the mode and the rules say.
    for (const PermissionSubject::Path &path : subject.paths) {
        if (!path.write || path.insideWritableRoot)
            continue;
        if (PathCapability::isInside(path.absolute, roots)) {
            return decision(PermissionBehavior::Deny,
                            PermissionsTr::tr(
                                "%1 is inside a .git folder; git's own files are never "
                                "changed by tools.")
                                .arg(path.relative.isEmpty() ? path.absolute : path.relative));
        }
        return decision(PermissionBehavior::Deny,
                        PermissionsTr::tr(
                            "%1 is outside the repository (%2); only files inside it (and "
                            "its additional directories) can be changed.")
                            .arg(path.absolute, m_root));
    }

    // The same for Bash, as far as the analysis sees: no rule (not even `Bash`) and no mode
    // (not even bypass) lets a command write outside. Its analysis only knows the repository,
    // so with additional directories the person looks at the target instead (except in
    // bypass, where nobody looks).
    if (isBash(subject) && subject.bash && subject.bash->understood) {
        for (const BashRiskNote &note : subject.bash->risks) {
            if (note.risk != BashRisk::WritesOutsideRepository)
                continue;
            if (roots.size() > 1 && mode != PermissionMode::Bypass)
                break;
            return decision(PermissionBehavior::Deny,
                            PermissionsTr::tr(
                                "the command %1; commands may only change files inside the "
                                "repository (%2), in every permission mode. Write inside it, "
                                "with literal paths.")
                                .arg(note.explanation, m_root));
        }
    }

    if (const auto rule = firstRestriction(rules, PermissionBehavior::Deny, subject))
        return decision(PermissionBehavior::Deny,
                        PermissionsTr::tr("denied by %1").arg(describe(*rule)),
                        rule);

    // Plan mode reads: a command runs only when its analysis shows it reads (the one that
    // passes unasked in default mode); it goes on through the rules like there.
    if (mode == PermissionMode::Plan && isBash(subject)) {
        if (!subject.bash || !subject.bash->understood) {
            const QString problem = subject.bash ? subject.bash->problem : QString();
            return decision(PermissionBehavior::Deny,
                            PermissionsTr::tr(
                                "Plan mode: only read-only commands run; this command could "
                                "not be analysed%1. Use plain read-only commands (ls, cat, "
                                "grep, git status/diff/log) or the Read, Grep and Glob tools.")
                                .arg(problem.isEmpty() ? QString()
                                                       : QStringLiteral(" (%1)").arg(problem)));
        }
        if (!subject.bash->readOnly) {
            return decision(PermissionBehavior::Deny,
                            PermissionsTr::tr(
                                "Plan mode: only read-only commands run; this one may change "
                                "something, write a file or read outside the repository. "
                                "Present your plan; the user leaves plan mode to let you "
                                "carry it out."));
        }
    } else if (mode == PermissionMode::Plan && subject.sideEffects) {
        return decision(PermissionBehavior::Deny,
                        PermissionsTr::tr(
                            "Plan mode is on: %1 is not available, nothing may be changed "
                            "yet. Read and search what you need, then present your plan; "
                            "the user leaves plan mode to let you carry it out.")
                            .arg(tool));
    }

    // AgentDesk's own configuration: a tool that could change it would widen its own
    // permissions. Always the person's call, once: no mode and no allow rule pre-approves it.
    if (const QString reason = configurationChange(subject, roots, protectedPaths);
        !reason.isEmpty()) {
        PermissionDecision asks = decision(PermissionBehavior::Ask, reason);
        asks.changesConfiguration = true;
        return asks;
    }

    if (const auto rule = firstRestriction(rules, PermissionBehavior::Ask, subject))
        return decision(PermissionBehavior::Ask,
                        PermissionsTr::tr("asks by %1").arg(describe(*rule)),
                        rule);

    if (const auto rule = allowingRule(rules, subject))
        return decision(PermissionBehavior::Allow,
                        PermissionsTr::tr("allowed by %1").arg(describe(*rule)),
                        rule);

    if (mode == PermissionMode::Bypass)
        return decision(PermissionBehavior::Allow, PermissionsTr::tr("bypass mode"));

    for (const PermissionSubject::Path &path : subject.paths) {
        if (!path.write && !PathCapability::isInside(path.absolute, roots)
            && !PathCapability::isInside(path.absolute, readableRoots)) {
            return decision(PermissionBehavior::Ask,
                            PermissionsTr::tr("reads %1, outside the repository").arg(path.absolute));
        }
    }

    if (isBash(subject)) {
        if (!subject.bash || !subject.bash->understood) {
            const QString problem = subject.bash ? subject.bash->problem : QString();
            return decision(PermissionBehavior::Ask,
                            problem.isEmpty()
                                ? PermissionsTr::tr("the command could not be analysed")
                                : PermissionsTr::tr("the command could not be analysed: %1")
                                      .arg(problem));
        }
        if (subject.bash->readOnly)
            return decision(PermissionBehavior::Allow, PermissionsTr::tr("read-only command"));
        return decision(PermissionBehavior::Ask,
                        PermissionsTr::tr("Bash asks in “%1” mode").arg(permissionModeTitle(mode)));
    }
    if (!subject.sideEffects)
        return decision(PermissionBehavior::Allow, PermissionsTr::tr("reads are allowed"));
    if (mode == PermissionMode::AcceptEdits && isFileEditTool(tool))
        return decision(PermissionBehavior::Allow,
                        PermissionsTr::tr("allowed in “%1” mode").arg(permissionModeTitle(mode)));
    return decision(PermissionBehavior::Ask,
                    PermissionsTr::tr("%1 asks in “%2” mode").arg(tool, permissionModeTitle(mode)));
}

void PermissionPolicy::setProtectedPaths(const QStringList &paths)
{
    QStringList canonical;
    for (const QString &path : paths) {
        if (!path.isEmpty())
            canonical.append(ToolWorkspace::canonicalPath(path));
    }
    QMutexLocker locker(&m_mutex);
    m_protectedPaths = canonical;
}

QStringList PermissionPolicy::protectedPaths() const
{
    QMutexLocker locker(&m_mutex);
    return m_protectedPaths;
}

QString PermissionPolicy::configurationChange(const PermissionSubject &subject,
                                              const QStringList &roots,
                                              const QStringList &protectedPaths)
{
    for (const PermissionSubject::Path &path : subject.paths) {
        if (!path.write)
            continue;
        const bool isProtected = isProjectConfiguration(path.absolute, roots)
                                 || isOwnFile(path.absolute, roots.constFirst(), protectedPaths);
        if (isProtected) {
            return PermissionsTr::tr(
                       "%1 changes AgentDesk's own settings, which always needs the user's "
                       "approval")
                .arg(path.relative.isEmpty() ? path.absolute : path.relative);
        }
    }
    if (isBash(subject) && subject.bash
        && bashMayChangeConfiguration(*subject.bash, roots.constFirst(), protectedPaths))
        return PermissionsTr::tr(
            "the command may change AgentDesk's own settings, which always needs the "
            "user's approval");
    // git's configuration and hooks run programs whenever git runs, outside the sandbox too
    // (the user's next commit): as much the person's call as AgentDesk's own settings.
    if (isBash(subject) && subject.bash && !subject.bash->gitConfigurationChange.isEmpty())
        return PermissionsTr::tr(
                   "the command may change git's configuration or hooks (%1), which always "
                   "needs the user's approval")
            .arg(subject.bash->gitConfigurationChange);
    return {};
}

Context PermissionPolicy::prepareContext(Context context, const QStringList &sideEffectTools) const
{
    if (mode() != PermissionMode::Plan)
        return context;
    // Bash stays: decide() lets its read-only commands run (git log, grep, ls).
    const qsizetype before = context.tools.size();
    context.tools.removeIf([&sideEffectTools](const ToolDefinition &tool) {
        return sideEffectTools.contains(tool.name) && toolKind(tool.name) != ToolKind::Bash;
    });
    const bool keepsBash = std::any_of(context.tools.cbegin(),
                                       context.tools.cend(),
                                       [](const ToolDefinition &tool) {
                                           return toolKind(tool.name) == ToolKind::Bash;
                                       });
    if (context.tools.size() != before || keepsBash) {
        // Without a word the model would wonder where its tools went, or write the edits as
        // text, or try commands that change things and be refused one by one.
        context.systemPrompt
            += QStringLiteral("\n\n")
               + (keepsBash
                      ? PermissionsTr::tr(
                          "Plan mode is on: you can read and search, but not edit or "
                          "write files. Bash runs only read-only commands (ls, cat, "
                          "grep, find, git status/diff/log, ...) without writing "
                          "redirections or paths outside the repository; any other "
                          "command is refused. Work out a plan and present it; the "
                          "user will switch plan mode off to let you carry it out.")
                      : PermissionsTr::tr("Plan mode is on: you can read and search, but not edit "
                                          "files or run commands. Work out a plan and present it; "
                                          "the user will switch plan mode off to let you carry it "
                                          "out."));
    }
    return context;
}

} // namespace AgentCore
