#pragma once

#include "grepquery.h"

namespace AgentCore {

/// Runs a GrepQuery without ripgrep: FileWalker for the files, QRegularExpression (PCRE2) over
/// each file, on a few threads. Produces what RipgrepSearcher produces for the same tree:
/// files containing NUL bytes are skipped as binary, a UTF-8 byte order mark is dropped, a
/// match never spans lines. Stateless; thread-safe.
class BuiltinSearcher final
{
public:
    /// Blocking; returns early when query.abort fires. \a threads: 0 for one per core (max 8).
    static GrepOutcome run(const GrepQuery &query, int threads = 0);
};

} // namespace AgentCore
