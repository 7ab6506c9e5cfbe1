#pragma once

#include "toolworkspace.h"

#include <loop/agenttypes.h>

#include <QList>

#include <memory>

namespace AgentCore {

/// The coding agent's tool set over one workspace: Read, Glob, Grep, LS, Edit, Write, Bash.
struct CodingTools
{
    static QList<AgentToolPtr> create(const std::shared_ptr<ToolWorkspace> &workspace);
};

} // namespace AgentCore
