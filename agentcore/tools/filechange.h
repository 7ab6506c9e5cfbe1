#pragma once

#include <loop/agenttypes.h>

#include <QString>

#include <optional>

namespace AgentCore {

/// One change to one file, as the result of the call that made it describes it: the details
/// Edit and Write attach (UnifiedDiff::toDetails with the path, the display path and, for
/// Write, whether it created the file); any side-effecting tool that attaches the same is counted the same way. A value.
struct FileChange
{
    QString path;        ///< absolute
    QString displayPath; ///< relative to the repository when inside
    int additions = 0;
    int deletions = 0;
    bool created = false; ///< the call created the file
    /// The errors and warnings a language server found in the file after the change
    /// (details.other["problems"], the diagnostics middleware's); nullopt: it was not checked.
    std::optional<int> problems;

    /// The change \a result reports: a successful result whose details name a path and carry
    /// its diff. nullopt for any other result (a failure, a Read, a Bash command).
    static std::optional<FileChange> of(const ToolResult &result);
    /// The same from a recorded result's \a details (a resumed session's tool result message).
    static std::optional<FileChange> fromDetails(const ToolDetails &details);
    /// The files a Bash command's reviewed writes changed in the repository at
    /// \a repositoryRoot: each write the user accepted and that was applied
    /// (details.other["shellWrites"], ShellWritesReview), live or from a recorded result.
    /// A deleted file counts as changed (its lines removed). Empty for any other result.
    static QList<FileChange> ofShellWrites(const ToolDetails &details,
                                           const QString &repositoryRoot);
};

} // namespace AgentCore
