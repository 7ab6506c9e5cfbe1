#pragma once

#include <QCoreApplication>

namespace AgentCore {

/// The translation context of the jsonrpc layer's strings (one per layer, so translations/*.ts
/// lists the layer's strings together).
struct JsonRpcTr
{
    Q_DECLARE_TR_FUNCTIONS(AgentCore::JsonRpc)
};

} // namespace AgentCore
