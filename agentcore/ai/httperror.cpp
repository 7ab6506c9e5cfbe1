#include "httperror.h"
#include "translation.h"

#include <QCoreApplication>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <algorithm>

namespace AgentCore {

namespace {

// The context the texts had when they lived in requestbuilder.cpp: their translations stay valid.

constexpr qsizetype maxSnippetLength = 500;

struct ErrorFields
{
    QString message;
    QString type;
    QString code;
};

QString stringField(const QJsonObject &object, QLatin1StringView key)
{
    const QJsonValue value = object.value(key);
    return value.isString() ? value.toString() : QString();
}

ErrorFields errorFieldsFromJson(const QJsonValue &root, int depth = 0);

// OpenRouter wraps the upstream provider's error body, as a string, in metadata.raw; its own
// message is then only "Provider returned error".
QString openRouterRawMessage(const QJsonObject &error, int depth)
{
    const QJsonValue raw
        = error.value(QLatin1StringView("metadata")).toObject().value(QLatin1StringView("raw"));
    if (!raw.isString() || depth > 1)
        return {};
    const QByteArray bytes = raw.toString().toUtf8();
    const QJsonDocument document = QJsonDocument::fromJson(bytes);
    if (document.isNull())
        return raw.toString().simplified();
    const QJsonValue root = document.isArray() ? document.array().at(0)
                                               : QJsonValue(document.object());
    return errorFieldsFromJson(root, depth + 1).message;
}

// Provider shapes: {"error":{"message","type","code"}} (OpenAI and most compatible servers),
// {"type":"error","error":{"type","message"}} (Anthropic), {"error":"text"} (Ollama),
// {"object":"error","message","type"} (vLLM, Mistral), {"detail":"text"} (FastAPI servers),
// and [{"error":{...}}] (Google's compatibility endpoint).
ErrorFields errorFieldsFromJson(const QJsonValue &root, int depth)
{
    const QJsonObject top = root.toObject();
    const QJsonValue errorValue = top.value(QLatin1StringView("error"));
    ErrorFields fields;
    if (errorValue.isString()) {
        fields.message = errorValue.toString();
        return fields;
    }
    const QJsonObject error = errorValue.isObject() ? errorValue.toObject() : top;
    fields.message = stringField(error, QLatin1StringView("message"));
    if (fields.message.isEmpty())
        fields.message = stringField(error, QLatin1StringView("detail"));
    if (error != top || stringField(top, QLatin1StringView("type")) != QLatin1StringView("error"))
        fields.type = stringField(error, QLatin1StringView("type"));
    fields.code = stringField(error, QLatin1StringView("code")); // numeric codes repeat the status
    if (fields.type.isEmpty())
        fields.type = stringField(error, QLatin1StringView("status")); // Google
    const QString upstream = openRouterRawMessage(error, depth);
    if (!upstream.isEmpty() && upstream != fields.message)
        fields.message = fields.message.isEmpty() ? upstream
                                                  : QString(fields.message + u": " + upstream);
    return fields;
}

QString truncated(QString text)
{
    if (text.size() <= maxSnippetLength)
        return text;
    text.truncate(maxSnippetLength);
    if (text.back().isHighSurrogate())
        text.chop(1);
    return text + QChar(0x2026);
}

// An HTML error page (proxies, load balancers) is reduced to its title, or its visible text.
QString textFromHtml(const QString &html)
{
    static const QRegularExpression title(QStringLiteral("<title[^>]*>(.*?)</title>"),
                                          QRegularExpression::CaseInsensitiveOption
                                              | QRegularExpression::DotMatchesEverythingOption);
    static const QRegularExpression hidden(QStringLiteral("<(script|style)[^>]*>.*?</\\1>"),
                                           QRegularExpression::CaseInsensitiveOption
                                               | QRegularExpression::DotMatchesEverythingOption);
    static const QRegularExpression tag(QStringLiteral("<[^>]*>"));
    const QRegularExpressionMatch match = title.match(html);
    QString text = match.hasMatch() ? match.captured(1) : QString(html).remove(hidden).remove(tag);
    text.replace(QLatin1StringView("&nbsp;"), QLatin1StringView(" "))
        .replace(QLatin1StringView("&lt;"), QLatin1StringView("<"))
        .replace(QLatin1StringView("&gt;"), QLatin1StringView(">"))
        .replace(QLatin1StringView("&quot;"), QLatin1StringView("\""))
        .replace(QLatin1StringView("&#39;"), QLatin1StringView("'"))
        .replace(QLatin1StringView("&amp;"), QLatin1StringView("&"));
    return text.simplified();
}

QString textSnippet(const QByteArray &body)
{
    const QString text = QString::fromUtf8(body).trimmed();
    const bool html = text.startsWith(u'<')
                      && (text.contains(QLatin1StringView("<html"), Qt::CaseInsensitive)
                          || text.contains(QLatin1StringView("<!doctype"), Qt::CaseInsensitive)
                          || text.contains(QLatin1StringView("<title"), Qt::CaseInsensitive));
    return truncated(html ? textFromHtml(text) : text.simplified());
}

QString providerDisplayName(const ProviderConfig &config)
{
    static const QHash<QString, QString> names{
        {QStringLiteral("anthropic"), QStringLiteral("Anthropic")},
        {QStringLiteral("openai"), QStringLiteral("OpenAI")},
        {QStringLiteral("azure"), QStringLiteral("Azure OpenAI")},
        {QStringLiteral("openrouter"), QStringLiteral("OpenRouter")},
        {QStringLiteral("deepseek"), QStringLiteral("DeepSeek")},
        {QStringLiteral("ollama"), QStringLiteral("Ollama")},
        {QStringLiteral("llamacpp"), QStringLiteral("llama.cpp")},
        {QStringLiteral("llama.cpp"), QStringLiteral("llama.cpp")},
        {QStringLiteral("llama-cpp"), QStringLiteral("llama.cpp")},
        {QStringLiteral("vllm"), QStringLiteral("vLLM")},
        {QStringLiteral("mistral"), QStringLiteral("Mistral")},
        {QStringLiteral("qwen"), QStringLiteral("Qwen")},
        {QStringLiteral("xai"), QStringLiteral("xAI")},
        {QStringLiteral("groq"), QStringLiteral("Groq")},
        {QStringLiteral("google"), QStringLiteral("Google")},
        {QStringLiteral("gemini"), QStringLiteral("Google")},
        {QStringLiteral("lmstudio"), QStringLiteral("LM Studio")},
    };
    const QString name = names.value(config.provider.toLower());
    if (!name.isEmpty())
        return name;
    if (!config.provider.isEmpty())
        return config.provider;
    if (!config.baseUrl.host().isEmpty())
        return config.baseUrl.host();
    return config.api == WireApi::AnthropicMessages ? QStringLiteral("Anthropic")
                                                    : QStringLiteral("OpenAI");
}

QString statusText(int status)
{
    switch (status) {
    case 400:
        return AiTr::tr("Bad Request");
    case 401:
        return AiTr::tr("Unauthorized");
    case 402:
        return AiTr::tr("Payment Required");
    case 403:
        return AiTr::tr("Forbidden");
    case 404:
        return AiTr::tr("Not Found");
    case 408:
        return AiTr::tr("Request Timeout");
    case 413:
        return AiTr::tr("Request Too Large");
    case 429:
        return AiTr::tr("Too Many Requests");
    case 500:
        return AiTr::tr("Internal Server Error");
    case 502:
        return AiTr::tr("Bad Gateway");
    case 503:
        return AiTr::tr("Service Unavailable");
    case 504:
        return AiTr::tr("Gateway Timeout");
    case 529:
        return AiTr::tr("Overloaded");
    default:
        return AiTr::tr("no details");
    }
}

// vLLM words an output cap that cannot fit at all like an overflow ("'max_tokens' ... is too
// large: 40000. This model's maximum context length is 32768 tokens ..."). Shortening the history
// cannot help there, so it is not reported as one.
bool isOutputCapTooLarge(const QString &lower)
{
    static const QRegularExpression cap(QStringLiteral("is too large: ?(\\d+)"));
    static const QRegularExpression context(QStringLiteral("maximum context length is (\\d+)"));
    const QRegularExpressionMatch capMatch = cap.match(lower);
    const QRegularExpressionMatch contextMatch = context.match(lower);
    return capMatch.hasMatch() && contextMatch.hasMatch()
           && capMatch.captured(1).toLongLong() >= contextMatch.captured(1).toLongLong();
}

// Phrases only ever used for an input that does not fit the context window:
// Anthropic "prompt is too long: N tokens > M maximum", "input length and `max_tokens` exceed
// context limit: A + B > C"; OpenAI, DeepSeek, vLLM, OpenRouter "... maximum context length is
// N tokens"; Mistral "... too large for model with N maximum context length"; OpenAI Responses
// "Your input exceeds the context window of this model"; llama.cpp "request (N tokens) exceeds
// the available context size (M tokens)"; vLLM "The decoder prompt (length N) is longer than the
// maximum model length of M"; Ollama "the input length exceeds the context length"; xAI
// "maximum prompt length is N"; Google "The input token count (N) exceeds the maximum number of
// tokens allowed"; Groq "Please reduce the length of the messages or completion".
bool saysContextOverflow(const ErrorFields &fields, const QString &snippet)
{
    static const QLatin1StringView codes[] = {
        QLatin1StringView("context_length_exceeded"),
        QLatin1StringView("exceed_context_size_error"),
    };
    static const QLatin1StringView phrases[] = {
        QLatin1StringView("prompt is too long"),
        QLatin1StringView("exceed context limit"),
        QLatin1StringView("maximum context length"),
        QLatin1StringView("exceeds the context window"),
        QLatin1StringView("exceeds the available context size"),
        QLatin1StringView("maximum model length"),
        QLatin1StringView("exceeds the context length"),
        QLatin1StringView("maximum prompt length"),
        QLatin1StringView("input token count"),
        QLatin1StringView("reduce the length of the messages"),
        QLatin1StringView("context_length_exceeded"),
    };
    for (QLatin1StringView code : codes) {
        if (fields.code == code || fields.type == code)
            return true;
    }
    const QString lower = (fields.message + u' ' + snippet).toLower();
    if (lower.contains(QLatin1StringView("encoder prompt")) || isOutputCapTooLarge(lower))
        return false;
    return std::any_of(std::begin(phrases), std::end(phrases), [&lower](QLatin1StringView p) {
        return lower.contains(p);
    });
}

// As the official OpenAI and Anthropic SDKs: 408 (timeout), 409 (lock conflict), 429 (rate
// limit) and server errors are worth another try; so is 425 (too early). 501 and 505 say the
// server will never accept the request. 529 is Anthropic's "overloaded".
bool isRetryableStatus(int status)
{
    switch (status) {
    case 408:
    case 409:
    case 425:
    case 429:
        return true;
    case 501:
    case 505:
        return false;
    default:
        return status >= 500 && status <= 599;
    }
}

// What an error body says: the error fields of a JSON body, or else (not for an empty JSON
// object or array) a snippet of its text; detail is the one line a person reads.
struct BodyReading
{
    ErrorFields fields;
    QString snippet;
    QString detail;
};

BodyReading readBody(const QByteArray &body)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(body, &parseError);
    BodyReading reading;
    if (parseError.error == QJsonParseError::NoError) {
        reading.fields = errorFieldsFromJson(document.isArray() ? document.array().at(0)
                                                                : QJsonValue(document.object()));
    }
    const bool emptyJson = parseError.error == QJsonParseError::NoError
                           && (document.isArray() ? document.array().isEmpty()
                                                  : document.object().isEmpty());
    if (reading.fields.message.isEmpty() && !emptyJson)
        reading.snippet = textSnippet(body);
    reading.detail = reading.fields.message.isEmpty()
                         ? reading.snippet
                         : truncated(reading.fields.message.simplified());
    return reading;
}

} // namespace

QString readableErrorBody(const QByteArray &body)
{
    return readBody(body).detail;
}

bool isContextOverflowError(const QString &message, const QString &code)
{
    ErrorFields fields;
    fields.message = message;
    fields.code = code;
    return saysContextOverflow(fields, {});
}

HttpError describeHttpError(const ProviderConfig &config, int httpStatus, const QByteArray &body)
{
    const BodyReading reading = readBody(body);
    const ErrorFields &fields = reading.fields;
    const QString &snippet = reading.snippet;
    QString detail = reading.detail;
    if (detail.isEmpty())
        detail = statusText(httpStatus);

    const QString kind = fields.code.isEmpty() ? fields.type : fields.code;

    HttpError error;
    error.message = kind.isEmpty()
                        ? AiTr::tr("%1 API error %2: %3")
                              .arg(providerDisplayName(config), QString::number(httpStatus), detail)
                        : AiTr::tr("%1 API error %2 (%3): %4")
                              .arg(providerDisplayName(config),
                                   QString::number(httpStatus),
                                   kind,
                                   detail);
    // Some providers echo the key they rejected.
    if (config.apiKey.size() >= 8)
        error.message.replace(config.apiKey, QLatin1StringView("***"));
    // A 429 is a rate limit even when it talks about tokens ("Request too large ... tokens per min").
    error.contextOverflow = httpStatus >= 400 && httpStatus != 429
                            && saysContextOverflow(fields, snippet);
    // OpenAI answers 429 for an exhausted quota too: waiting does not refill it.
    const bool quotaExhausted = fields.code == QLatin1StringView("insufficient_quota")
                                || fields.type == QLatin1StringView("insufficient_quota");
    error.retryable = !error.contextOverflow && !quotaExhausted && isRetryableStatus(httpStatus);
    return error;
}

} // namespace AgentCore
