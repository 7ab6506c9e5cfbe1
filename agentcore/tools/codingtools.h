#pragma once

#include "backgroundshells.h"
#include "toolworkspace.h"

#include <loop/agenttypes.h>

#include <QList>

#include <memory>

namespace AgentCore {

/// The coding agent's tool set over one workspace: Read, Glob, Grep, LS, Edit, Write, Bash.
struct CodingTools
{
    static QList<AgentToolPtr> create(const std::shared_ptr<ToolWorkspace> &workspace);
    /// The same, Bash's run_in_background starting commands in \a shells, with BashOutput and
    /// KillShell over them.
    static QList<AgentToolPtr> create(const std::shared_ptr<ToolWorkspace> &workspace,
                                      const std::shared_ptr<BackgroundShells> &shells);
};

} // namespace AgentCore
