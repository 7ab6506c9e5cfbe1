#pragma once

#include <QCoreApplication>

namespace AgentCore {

/// The translation context of the loop layer's strings outside a QObject class (a QObject's tr()
/// has its class's): one per layer, so translations/*.ts lists the layer's strings together.
struct LoopTr
{
    Q_DECLARE_TR_FUNCTIONS(AgentCore::Loop)
};

} // namespace AgentCore
