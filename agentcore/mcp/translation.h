#pragma once

#include <QCoreApplication>

namespace AgentCore {

/// The translation context of the mcp layer's strings outside a QObject class (a QObject's tr()
/// has its class's): one per layer, so translations/*.ts lists the layer's strings together.
struct McpTr
{
    Q_DECLARE_TR_FUNCTIONS(AgentCore::Mcp)
};

} // namespace AgentCore
