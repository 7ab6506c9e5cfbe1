#pragma once

#include <loop/agenttypes.h>

#include <memory>

namespace AgentCore {

class LspHost;
class ToolWorkspace;

/// Definition and References: the language server's "go to definition" and "find references"
/// for a symbol as written on a line of a file of the repository, as file:line:column with the
/// line's text. Offered with the Diagnostics tool (a server was found); a server that does not
/// offer the request says so. Read-only, parallel; what the server answers is validated and
/// capped like any hostile input, and a location outside the repository is named, not read.
class LspNavigationTool final : public AgentTool
{
public:
    enum class Kind { Definition, References };

    static constexpr int waitMs = 10'000; ///< for the server's answer, its start included
    static constexpr qsizetype maxShown = 100;

    LspNavigationTool(Kind kind,
                      std::shared_ptr<LspHost> host,
                      std::shared_ptr<ToolWorkspace> workspace);

    static QString toolName(Kind kind);
    ToolDefinition definition() const override;
    ToolResult execute(const ToolCallContext &context) override;

private:
    const Kind m_kind;
    std::shared_ptr<LspHost> m_host;
    std::shared_ptr<ToolWorkspace> m_workspace;
};

} // namespace AgentCore
