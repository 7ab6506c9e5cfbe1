#pragma once

#include <QMetaType>
#include <QString>
#include <QStringView>

#include <optional>

namespace AgentCore {

/// How much the agent may do without asking (Claude Code's modes).
enum class PermissionMode {
    Default,     ///< reads allowed; Edit, Write and Bash ask (read-only commands pass)
    AcceptEdits, ///< Edit and Write inside the repository allowed; Bash asks
    /// Read-only: Edit and Write are removed from the model's tool list; Bash stays, but only
    /// commands its analysis finds read-only run (the others are denied).
    Plan,
    /// Skips the questions, not the limits: everything allowed except deny rules, changes to
    /// AgentDesk's own configuration (they still ask) and the path capability, which holds
    /// for Bash too as far as its analysis sees (`sed -i ../x` is denied); a command that was
    /// not understood runs unchecked (PermissionPolicy).
    Bypass,
};
/// In every mode: writes outside the writable roots or into .git/ are denied, and changes to
/// AgentDesk's own configuration ask (PermissionPolicy::decide).

/// "default", "acceptEdits", "plan", "bypass" (the command line and settings spelling).
QString permissionModeName(PermissionMode mode);
/// For people, translated: "Ask before changes", "Accept edits", "Plan (read-only)",
/// "Bypass permissions" (the status bar's switch, and the reasons a review gives).
QString permissionModeTitle(PermissionMode mode);
/// Parses permissionModeName's spelling (also "bypassPermissions", Claude Code's name).
std::optional<PermissionMode> parsePermissionMode(QStringView text);

} // namespace AgentCore

Q_DECLARE_METATYPE(AgentCore::PermissionMode)
