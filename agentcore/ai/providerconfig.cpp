#include "providerconfig.h"
#include "translation.h"

#include <QCoreApplication>
#include <QLocale>

namespace AgentCore {

namespace {

// Tails shorter than this could match ordinary text; longer keys keep this many hidden.
constexpr qsizetype SecretTailLength = 16;
constexpr qsizetype MinimumSecretLengthForTail = 24;
} // namespace

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

QString apiKeyVariable(WireApi api)
{
    switch (api) {
    case WireApi::AnthropicMessages:
        return QStringLiteral("ANTHROPIC_API_KEY");
    case WireApi::OpenAiChat:
    case WireApi::OpenAiResponses:
        return QStringLiteral("OPENAI_API_KEY");
    }
    return {};
}

QStringList apiKeyVariables()
{
    QStringList names;
    for (const WireApi api :
         {WireApi::OpenAiChat, WireApi::AnthropicMessages, WireApi::OpenAiResponses}) {
        if (const QString name = apiKeyVariable(api); !names.contains(name))
            names.append(name);
    }
    return names;
}

QString streamLimitMessage(StreamLimit limit, qsizetype bytes)
{
    const QString size = QLocale::c().formattedDataSize(bytes,
                                                        bytes % (1024 * 1024) == 0 ? 0 : 1,
                                                        QLocale::DataSizeTraditionalFormat);
    switch (limit) {
    case StreamLimit::Line:
        return AiTr::tr("The response was stopped: a line of its event stream exceeded the limit "
                        "of %1 per line.")
            .arg(size);
    case StreamLimit::Event:
        return AiTr::tr("The response was stopped: an event of its event stream exceeded the "
                        "limit of %1 per event.")
            .arg(size);
    case StreamLimit::ToolArguments:
        return AiTr::tr("The response was stopped: the arguments of a tool call exceeded the limit "
                        "of %1 per tool call.")
            .arg(size);
    }
    return {};
}

QString redactSecret(QString text, const QString &secret)
{
    static const QString replacement = QStringLiteral("[API key]");
    if (secret.size() < 4)
        return text;
    text.replace(secret, replacement);
    if (secret.size() >= MinimumSecretLengthForTail)
        text.replace(secret.right(SecretTailLength), replacement);
    return text;
}

ServerProfile serverProfileOf(const ProviderConfig &config)
{
    // ServerProfileChoice's order, with the provider's name where the settings would have the
    // /v1/models answer: stronger than a local port, weaker than a vendor's host.
    using Source = ServerProfileChoice::Source;
    const ServerProfileChoice choice = ServerProfileChoice::choose(config.baseUrl,
                                                                   config.serverProfile);
    if (choice.source == Source::User || choice.source == Source::BaseUrl)
        return ServerProfile::of(choice.id);
    if (const std::optional<ServerProfile::Id> named = ServerProfile::fromName(config.provider))
        return ServerProfile::of(*named);
    return ServerProfile::of(choice.id); // the local port's, or the generic one
}

} // namespace AgentCore
