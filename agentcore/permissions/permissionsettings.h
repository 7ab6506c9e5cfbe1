#pragma once

#include "permissionmode.h"
#include "permissionrule.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace AgentCore {

/// The "permissions" object of a settings file (user: <config>/agentdesk/settings.json;
/// project: <repo>/.agentdesk/settings.json and settings.local.json):
/// `{"permissions": {"allow": ["Bash(git status)"], "ask": [...], "deny": [...],
///   "defaultMode": "acceptEdits", "additionalDirectories": ["../shared"],
///   "network": ["Bash(npm install:*)"], "sandboxReadable": ["~/.config/mytool"]}}`.
/// "network" lists the Bash commands that get the network in the sandbox (NetworkRules);
/// only Bash rules are taken there.
/// Other keys of the file are kept untouched when a rule is added.
struct PermissionSettings
{
    QList<PermissionRule> rules; ///< source set to the file path
    std::optional<PermissionMode> defaultMode;
    QStringList additionalDirectories;  ///< absolute; writable like the repository
    QList<PermissionRule> networkRules; ///< "network": Bash rules, behaviour Allow, source set
    /// "sandboxReadable": more paths the sandbox shows read-only in the hidden home (absolute,
    /// `~/` expanded; SandboxPolicy::readablePaths). Honoured in the user's
    /// own file only: a repository cannot show itself the user's files.
    QStringList sandboxReadable;
    QStringList warnings; ///< rules that did not parse, unknown modes: skipped

    /// A missing file is empty settings, not an error. An unreadable or invalid file returns
    /// nullopt with \a error; the caller reports it and never overwrites the file.
    static std::optional<PermissionSettings> load(const QString &path, QString *error = nullptr);
    /// Adds \a rule to its behaviour's list in \a path (created with its folder if missing),
    /// atomically; a rule already there is not added twice. False with \a error otherwise.
    static bool appendRule(const QString &path,
                           const PermissionRule &rule,
                           QString *error = nullptr);

    static QString userSettingsPath(); ///< <config>/agentdesk/settings.json
    static QString projectSettingsPath(const QString &repoRoot);      ///< .agentdesk/settings.json
    static QString projectLocalSettingsPath(const QString &repoRoot); ///< where "always" writes
};

} // namespace AgentCore
