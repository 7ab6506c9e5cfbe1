#pragma once

#include <QCoreApplication>

namespace AgentCore {

/// The translation context of the lsp layer's strings (one per layer, so translations/*.ts
/// lists the layer's strings together).
struct LspTr
{
    Q_DECLARE_TR_FUNCTIONS(AgentCore::Lsp)
};

} // namespace AgentCore
