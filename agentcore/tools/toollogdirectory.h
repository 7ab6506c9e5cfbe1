#pragma once

#include <QString>
#include <QStringList>

namespace AgentCore {

/// The private folder of this process for the full output logs of Bash commands:
/// TEMP/agentdesk-tool-logs-PID-RANDOM, mode 0700 (other users can neither list nor guess the
/// files in it), created on first use and removed with its content at normal exit. Creating it
/// first removes the log folders that AgentDesk processes which no longer run left behind (a
/// crash or kill -9 skips the removal at exit).
/// Thread-safe. The one process-wide thing of the tools: the folder lives as long as the process.
class ToolLogDirectory final
{
public:
    /// The folder, created on the first call; empty when it cannot be created.
    static QString processDirectory();

    /// Removes the folders under \a tempPath named agentdesk-tool-logs-PID or
    /// agentdesk-tool-logs-PID-SUFFIX that this user owns and whose process PID is gone (or is
    /// this process, when the folder is not \a own). Returns the removed paths.
    static QStringList removeStale(const QString &tempPath, const QString &own = {});

    /// The start of every such folder's name.
    static QString namePrefix() { return QStringLiteral("agentdesk-tool-logs-"); }
};

} // namespace AgentCore
