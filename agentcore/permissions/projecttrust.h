#pragma once

#include "permissionmode.h"
#include "permissionrule.h"

#include <QString>
#include <QStringList>

namespace AgentCore {

/// Which grants of a repository's own settings files (.agentdesk/settings.json, committed, and
/// settings.local.json) the user accepted. Those files can be written by anyone who commits to
/// the repository, or by a tool: what they grant beyond the user's own settings applies only
/// once the user saw it (as VS Code's workspace trust). A grant is one line a person can read:
/// "defaultMode: acceptEdits", "allow: Bash(npm test:*)", "additionalDirectories: /srv/x",
/// "network: Bash(npm install:*)".
/// Deny and ask rules, and the modes default and plan, only restrict: they need no trust.
///
/// Accepted grants are kept per repository in a JSON file of the user's config folder
/// (`{"/path/to/repo": ["allow: Bash", ...]}`), outside every repository, where tools cannot
/// write (PermissionPolicy protects it). A plain value; the static functions read and write
/// that file and are safe to call from any thread for different files.
class ProjectTrust final
{
public:
    ProjectTrust() = default; ///< trusts nothing

    /// Trusts every grant (agentdesk --trust-project-settings, tests).
    static ProjectTrust everything();
    /// Trusts exactly \a grants.
    static ProjectTrust of(const QStringList &grants);
    /// The grants the user accepted for \a repositoryRoot, as remembered in \a storePath
    /// (missing or unreadable file: none; empty path: none).
    static ProjectTrust load(const QString &storePath, const QString &repositoryRoot);
    /// Adds \a grants to those accepted for \a repositoryRoot, atomically. False with \a error
    /// when the file cannot be written (or is not AgentDesk's JSON: it is not overwritten).
    static bool remember(const QString &storePath,
                         const QString &repositoryRoot,
                         const QStringList &grants,
                         QString *error = nullptr);
    static QString defaultStorePath(); ///< <config>/agentdesk/trusted-projects.json

    bool trusts(const QString &grant) const;
    bool trustsEverything() const { return m_everything; }
    QStringList grants() const { return m_grants; }

    static QString modeGrant(PermissionMode mode);           ///< "defaultMode: bypass"
    static QString ruleGrant(const PermissionRule &rule);    ///< "allow: Bash(git push)"
    static QString directoryGrant(const QString &directory); ///< "additionalDirectories: /x"
    /// "network: Bash(npm install:*)": the command gets the network in the sandbox.
    static QString networkGrant(const PermissionRule &rule);
    /// Whether a project file asking for \a mode needs trust: acceptEdits and bypass do.
    static bool modeNeedsTrust(PermissionMode mode);

private:
    bool m_everything = false;
    QStringList m_grants;
};

} // namespace AgentCore
