#pragma once

#include "bashanalysis.h"

namespace AgentCore {

/// What a parser found in one command, before classification. A plain value.
struct BashParseResult
{
    QList<SimpleCommand> commands; ///< in source order, nested ones after their parent
    bool understood = true;
    QString problem; ///< why not understood
};

} // namespace AgentCore
