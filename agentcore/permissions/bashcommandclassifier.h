#pragma once

#include "bashanalysis.h"

namespace AgentCore {

/// Decides what the simple commands of a parsed BashAnalysis do: whether all of them only read
/// (BashReadOnlyCommands), and which risks the review should point at: deletions, network use,
/// privileges, and writes whose targets resolve outside the repository root. Commands run
/// through sudo, env, xargs, timeout, find -exec... are looked at too. Marks the analysis not
/// understood for shell code hidden in strings (eval, sh -c, `| bash`) and computed program
/// names. Stateless apart from the root; thread-safe; reads the file system to resolve paths.
class BashCommandClassifier final
{
public:
    /// \a readableRoots: folders outside the repository whose files a command may read as
    /// if they were inside (BashAnalyzer::setReadableRoots).
    explicit BashCommandClassifier(const QString &repositoryRoot,
                                   const QStringList &readableRoots = {});

    /// Fills \a analysis.readOnly and .risks from .commands; may clear .understood.
    void classify(BashAnalysis &analysis) const;

private:
    QString m_root;
    QStringList m_readableRoots;
};

} // namespace AgentCore
