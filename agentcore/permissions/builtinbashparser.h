#pragma once

#include "bashparseresult.h"

namespace AgentCore {

/// Parses the common subset of Bash without external help: quotes, escapes, line
/// continuations, comments, `;` `&` newline `&&` `||` `|` `|&` `!` `time`, `( )`, `{ }`,
/// `$( )`, backquotes, parameter expansions, `$(( ))`, redirections with here-documents, and
/// assignment prefixes. Anything else (if/for/while/case, functions, `[[ ]]`, arrays, process
/// substitution) gives a result that is not understood. Stateless; thread-safe; never runs a
/// program.
class BuiltinBashParser final
{
public:
    static BashParseResult parse(const QString &command);
};

} // namespace AgentCore
