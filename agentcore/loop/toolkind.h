#pragma once

#include <QString>
#include <QStringView>

namespace AgentCore {

/// What a tool is, for the layers that treat the built-in tools specially (permissions, the
/// window): they test the kind, never a name. A tool says its own (AgentTool::kind()); code that
/// has only a name (a session file, a permission rule, an event) asks toolKind(name).
enum class ToolKind {
    Other, ///< any tool that is not one of the built-in ones (an extension's, a test's)
    Bash,
    Read,
    Write,
    Edit,
    Glob,
    Grep,
    Ls,
    BashOutput, ///< reads a background command's output (Bash run_in_background)
    KillShell,  ///< stops a background command
};

/// The name the built-in tool of \a kind has for the model ("Bash", "LS", ...); empty for Other.
QString toolKindName(ToolKind kind);
/// The kind of the built-in tool called \a name; Other for any other name.
ToolKind toolKind(QStringView name);
/// Edit and Write: change one file's text (reviewed as a diff, covered by Edit rules).
inline bool changesFile(ToolKind kind)
{
    return kind == ToolKind::Edit || kind == ToolKind::Write;
}
/// BashOutput and KillShell: they come and go with Bash (a session without Bash has no
/// background commands to read or stop).
inline bool followsBash(ToolKind kind)
{
    return kind == ToolKind::BashOutput || kind == ToolKind::KillShell;
}
/// Glob, Grep and LS: read under a directory (covered by Read rules).
inline bool searchesFiles(ToolKind kind)
{
    return kind == ToolKind::Glob || kind == ToolKind::Grep || kind == ToolKind::Ls;
}

} // namespace AgentCore
