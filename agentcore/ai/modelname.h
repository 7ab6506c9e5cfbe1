#pragma once

#include <QByteArray>
#include <QString>

#include <string_view>

namespace AgentCore {

/// How the built-in model tables (prices, context windows) recognise a model id. Pure;
/// thread-safe.

/// Local servers (Ollama, llama.cpp, vLLM, LM Studio) serve whatever the user pulled: no
/// table applies to them.
bool isLocalProvider(const QString &provider);

/// The id as the tables spell it: lower case, no router prefix, dots as dashes.
/// "openai/gpt-4.1-mini" -> "gpt-4-1-mini"; "us.anthropic.claude-sonnet-4-5-20250929-v1:0"
/// (Bedrock) -> "claude-sonnet-4-5-20250929-v1:0".
QByteArray normalizedModelId(const QString &model);

/// A family matches its own id and ids that continue with a separator: dated snapshots
/// ("-2025..."), Ollama tags (":latest"), OpenRouter variants (":thinking"), Vertex ("@2025...").
bool matchesModelFamily(std::string_view normalizedId, std::string_view family);

} // namespace AgentCore
