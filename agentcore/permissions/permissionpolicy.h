#pragma once

#include "bashanalysis.h"
#include "permissionmode.h"
#include "permissionrule.h"
#include "projecttrust.h"

#include <ai/types.h>

#include <QJsonObject>
#include <QMutex>
#include <QStringList>

#include <optional>

namespace AgentCore {

/// The verdict for one tool call, with the reason shown to the user (and, for a deny, the model).
struct PermissionDecision
{
    PermissionBehavior behavior = PermissionBehavior::Ask;
    QString reason; ///< "allowed by Bash(git status) in ~/.config/agentdesk/settings.json",
                    ///< "read-only command", "Edit asks in default mode", ...
    std::optional<PermissionRule> rule; ///< the rule that decided, if one did
    /// The call may change AgentDesk's own configuration or git's (its hooks and
    /// configuration, BashAnalysis::gitConfigurationChange): it asks in every mode, and an
    /// approval is good for this call only (no rule is remembered, PermissionReview offers none).
    bool changesConfiguration = false;
};

/// What the policy needs to know about a call beyond its name and arguments.
struct PermissionSubject
{
    QString toolName;
    QJsonObject arguments;
    bool sideEffects = false; ///< AgentTool::hasSideEffects
    /// Paths the call touches, resolved (canonical, absolute), each with whether it is inside
    /// a writable root (the repository or an additional directory) and not under .git/.
    struct Path
    {
        QString absolute;
        QString relative; ///< to the repository root; empty when outside
        bool write = false;
        bool insideWritableRoot = false;
    };
    QList<Path> paths;
    std::optional<BashAnalysis> bash; ///< for Bash
};

/// Decides allow / ask / deny for tool calls from the mode and the rules (settings files,
/// command line, session), in this order:
/// 1. The path capability, whatever the mode (bypass included) and the rules: writes outside
///    the writable roots and into .git/ are denied: Edit/Write by their path, Bash when its
///    analysis finds such a target (`sed -i ../x`, `> ../x`, `cp a ../x`; with additional
///    directories, which the analysis does not know, it asks instead, except in bypass).
///    A Bash command that was not understood cannot be checked: it asks, except in bypass,
///    where it runs (until the sandbox issue makes the capability hold for every command).
/// 2. Deny rules (bypass included); then plan mode denies every side effect except a Bash
///    command the analysis finds read-only (understood, on the read-only list, no writing
///    redirection, nothing outside), which goes on as in default mode.
/// 3. AgentDesk's own configuration (`.agentdesk/` and `.mcp.json` in each writable root,
///    setProtectedPaths): a write there, or a Bash command that is not read-only and names
///    one, asks in every mode, bypass included; allow rules cannot pre-approve it. The same
///    for a Bash command that may change git's configuration or hooks
///    (BashAnalysis::gitConfigurationChange: `git config`, -c, an ext:: URL, .git/ named).
/// 4. Ask rules; then allow rules; then the mode's default.
/// A compound Bash command is allowed by rules only when every simple command is; a read-only
/// command without writing redirections passes in default mode; a command that was not
/// understood asks (or is denied by a Bash deny rule on any of its parts). Reads outside the
/// repository ask (bypass reads them), except in the readable roots (addReadableRoot).
/// Thread-safe: parallel tool calls decide while the UI changes the mode or adds rules.
class PermissionPolicy final
{
    Q_DISABLE_COPY_MOVE(PermissionPolicy)
public:
    PermissionPolicy(const QString &repositoryRoot, PermissionMode mode);

    /// The user's and the project's settings files (missing ones are fine). Problems are
    /// appended to \a warnings; a file that cannot be read is skipped, never rewritten.
    /// Loading again replaces the rules of those files (session rules stay). A defaultMode
    /// there becomes the mode (local over project over user; set the command line's choice
    /// after loading; a reload changes the mode only when that defaultMode changed), except
    /// bypass from the shared project file, which anyone who can commit to the repository
    /// could have written: ignored with a warning.
    /// The project files' grants (allow rules, additionalDirectories, defaultMode acceptEdits
    /// or bypass) apply only when \a trust trusts them or the user's own file grants the same;
    /// the others are skipped and listed by untrustedGrants(). Their deny and ask rules always
    /// apply. Called when a session starts, and again only after the user accepted grants:
    /// a settings file a tool changed during a run is never re-read silently.
    void loadSettings(const QString &userSettingsPath,
                      QStringList *warnings,
                      const ProjectTrust &trust);
    /// The project files' grants the last loadSettings did not apply (ProjectTrust's spelling).
    QStringList untrustedGrants() const;
    /// The defaultMode the settings files chose, if any (after the rule above).
    std::optional<PermissionMode> settingsDefaultMode() const;

    QString repositoryRoot() const { return m_root; }
    QStringList writableRoots() const; ///< the repository and additional directories
    /// A directory writable like the repository (command line `--add-dir`); canonicalised.
    void addWritableRoot(const QString &directory);
    /// A directory outside the repository whose files are read without asking, never
    /// written: the session's own scratch (the full-output logs of Bash, ToolLogDirectory, which
    /// AgentDesk itself wrote and the sandbox shows read-only). Canonicalised.
    void addReadableRoot(const QString &directory);
    QStringList readableRoots() const;

    PermissionMode mode() const;
    void setMode(PermissionMode mode);

    void addRule(const PermissionRule &rule); ///< session or command-line rule (source set)
    QList<PermissionRule> rules() const;

    /// The rules that give Bash commands the network in the sandbox (NetworkRules): those of
    /// the settings files (loadSettings; a project file's need trust, like its allow rules)
    /// and those set here, which replace the earlier ones of the same \a source (the app's
    /// settings). Only the user sets them: no review answer adds one.
    void setNetworkRules(const QString &source, const QList<PermissionRule> &rules);
    QList<PermissionRule> networkRules() const;
    /// The rule that grants \a subject (a Bash call) the network, or nullopt.
    std::optional<PermissionRule> networkGrant(const PermissionSubject &subject) const;

    /// Folders and files of AgentDesk's own beyond the project's (the user's config folder,
    /// the app's settings file, the sessions' folder): writes there always ask (see above).
    /// The repository is the exception when it lies below one of them (a session's worktree
    /// in the data folder): the session works there as in any checkout, while the rest of
    /// that folder (other worktrees, sessions) stays protected.
    void setProtectedPaths(const QStringList &paths);
    QStringList protectedPaths() const;

    PermissionDecision decide(const PermissionSubject &subject) const;

    /// For AgentLoopConfig::prepareContext: in plan mode removes Edit, Write (every tool with
    /// side effects named in \a sideEffectTools, except Bash, whose read-only commands run)
    /// from the request's tools, and tells the model so in the system prompt.
    Context prepareContext(Context context, const QStringList &sideEffectTools) const;

private:
    /// Why \a subject may change AgentDesk's configuration, or empty.
    static QString configurationChange(const PermissionSubject &subject,
                                       const QStringList &roots,
                                       const QStringList &protectedPaths);

    QString m_root;
    mutable QMutex m_mutex;
    PermissionMode m_mode;
    QList<PermissionRule> m_rules;
    QList<PermissionRule> m_networkRules;
    QStringList m_additionalDirectories;
    QStringList m_readableRoots;
    QStringList m_protectedPaths;
    QStringList m_untrustedGrants;
    std::optional<PermissionMode> m_settingsMode;
};

} // namespace AgentCore
