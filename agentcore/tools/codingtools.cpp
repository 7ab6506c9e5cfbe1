#include "codingtools.h"

#include "backgroundshelltools.h"
#include "bashtool.h"
#include "edittool.h"
#include "globtool.h"
#include "greptool.h"
#include "lstool.h"
#include "readtool.h"
#include "writetool.h"

namespace AgentCore {

QList<AgentToolPtr> CodingTools::create(const std::shared_ptr<ToolWorkspace> &workspace)
{
    return {std::make_shared<ReadTool>(workspace),
            std::make_shared<GlobTool>(workspace),
            std::make_shared<GrepTool>(workspace),
            std::make_shared<LsTool>(workspace),
            std::make_shared<EditTool>(workspace),
            std::make_shared<WriteTool>(workspace),
            std::make_shared<BashTool>(workspace)};
}

QList<AgentToolPtr> CodingTools::create(const std::shared_ptr<ToolWorkspace> &workspace,
                                        const std::shared_ptr<BackgroundShells> &shells)
{
    QList<AgentToolPtr> tools = create(workspace);
    tools.last() = std::make_shared<BashTool>(workspace, shells);
    tools.append(std::make_shared<BashOutputTool>(shells));
    tools.append(std::make_shared<KillShellTool>(shells));
    return tools;
}

} // namespace AgentCore
