#pragma once

#include "grepquery.h"
#include "toolworkspace.h"

#include <loop/agenttypes.h>

#include <memory>

namespace AgentCore {

/// Grep: regular-expression search over the repository's files (not ignored ones), with
/// ripgrep when it is on PATH and a built-in search otherwise; both produce the same text.
/// Modes: files with matches (default), content lines with numbers and context, counts.
/// Thread-safe; parallel.
class GrepTool final : public AgentTool
{
public:
    enum class Backend {
        Automatic, ///< ripgrep when found on PATH at construction, else built-in
        Ripgrep,
        BuiltIn,
    };
    static constexpr int maxOutputChars = 40000;
    static constexpr int maxLineLength = 500;

    explicit GrepTool(std::shared_ptr<ToolWorkspace> workspace,
                      Backend backend = Backend::Automatic);

    ToolDefinition definition() const override;
    ExecutionMode executionMode() const override { return ExecutionMode::Parallel; }
    ToolKind kind() const override { return ToolKind::Grep; }
    ToolResult execute(const ToolCallContext &context) override;

    /// "ripgrep" or "builtin": what execute() will use.
    QString backendName() const;
    /// The model-facing text of an outcome. \a prefix goes before every path.
    static QString format(const GrepOutcome &outcome,
                          GrepQuery::Mode mode,
                          const QString &prefix,
                          bool lineNumbers,
                          bool context,
                          int headLimit,
                          bool *truncated = nullptr);

private:
    std::shared_ptr<ToolWorkspace> m_workspace;
    QString m_ripgrep; ///< empty: built-in
};

} // namespace AgentCore
