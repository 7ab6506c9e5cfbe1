#include "providerconfig.h"

namespace AgentCore {

QString wireApiName(WireApi api)
{
    switch (api) {
    case WireApi::OpenAiChat:
        return QStringLiteral("openai-chat");
    case WireApi::AnthropicMessages:
        return QStringLiteral("anthropic-messages");
    case WireApi::OpenAiResponses:
        return QStringLiteral("openai-responses");
    }
    return {};
}

} // namespace AgentCore
