#pragma once

#include <QString>
#include <QStringView>

#include <optional>

namespace AgentCore {

/// How much the agent may do without asking (Claude Code's modes).
enum class PermissionMode {
    Default,     ///< reads allowed; Edit, Write and Bash ask (read-only commands pass)
    AcceptEdits, ///< Edit and Write inside the repository allowed; Bash asks
    Plan,        ///< read-only: Edit, Write and Bash are removed from the model's tool list
    Bypass,      ///< everything allowed except deny rules and the path capability
};

/// "default", "acceptEdits", "plan", "bypass" (the command line and settings spelling).
QString permissionModeName(PermissionMode mode);
/// For people, translated: "Ask before changes", "Accept edits", "Plan (read-only)",
/// "Bypass permissions" (the status bar's switch, and the reasons a review gives).
QString permissionModeTitle(PermissionMode mode);
/// Parses permissionModeName's spelling (also "bypassPermissions", Claude Code's name).
std::optional<PermissionMode> parsePermissionMode(QStringView text);

} // namespace AgentCore
