#pragma once

#include "bashparseresult.h"

#include <optional>

namespace AgentCore {

/// Parses a command with shfmt (`shfmt -ln bash --to-json`, mvdan.cc/sh) and walks its syntax
/// tree. Operators are read from the source at the positions shfmt reports, not from its
/// token numbers, which change between shfmt releases. Stateless; thread-safe.
class ShfmtParser final
{
public:
    /// Runs \a shfmt, blocking up to \a timeoutMs. A syntax error is a result that is not
    /// understood; nullopt when shfmt could not run, timed out, or printed something unusable
    /// (the caller then falls back to BuiltinBashParser).
    static std::optional<BashParseResult> parse(const QString &shfmt,
                                                const QString &command,
                                                int timeoutMs = 3000);
    /// Walks shfmt's JSON for \a source, the UTF-8 bytes shfmt read; nullopt when \a json is
    /// not a shfmt syntax tree.
    static std::optional<BashParseResult> fromJson(const QByteArray &json, const QByteArray &source);
};

} // namespace AgentCore
