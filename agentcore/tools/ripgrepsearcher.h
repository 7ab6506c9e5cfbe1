#pragma once

#include "grepquery.h"

#include <QStringList>

namespace AgentCore {

/// Runs a GrepQuery with ripgrep (`rg`), with the flags that make it walk exactly as
/// FileWalker does (--hidden, .git skipped, only .gitignore files and .git/info/exclude, no
/// global or .ignore files), and parses its NUL-separated output. Stateless; thread-safe.
class RipgrepSearcher final
{
public:
    /// The rg on PATH, or empty.
    static QString findExecutable();
    static QStringList arguments(const GrepQuery &query);
    /// Blocking; kills rg when query.abort fires.
    static GrepOutcome run(const QString &executable, const GrepQuery &query);
};

} // namespace AgentCore
