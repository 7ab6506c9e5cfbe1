#include "mcpcatalog.h"
#include "translation.h"

#include <QCoreApplication>
#include <QJsonArray>

namespace AgentCore {

namespace {

using Limits = McpCatalogLimits;

QString sizeText(qsizetype bytes)
{
    if (bytes < 1024)
        return McpTr::tr("%1 bytes").arg(bytes);
    if (bytes < 1024 * 1024)
        return McpTr::tr("%1 KiB").arg(double(bytes) / 1024, 0, 'f', 1);
    return McpTr::tr("%1 MiB").arg(double(bytes) / (1024 * 1024), 0, 'f', 1);
}

bool hasControlCharacters(const QString &text)
{
    return std::any_of(text.begin(), text.end(), [](QChar c) {
        return c.category() == QChar::Other_Control;
    });
}

// A field that must be a non-empty string of at most \a maxLength characters without control
// characters (a name or URI shown to the person and put into requests).
std::optional<QString> identifier(const QJsonObject &json,
                                  const char *key,
                                  qsizetype maxLength,
                                  const QString &what,
                                  QString *problem)
{
    const QJsonValue value = json.value(QLatin1String(key));
    if (!value.isString() || value.toString().isEmpty()) {
        *problem = McpTr::tr("%1 without a \"%2\" string").arg(what, QLatin1String(key));
        return std::nullopt;
    }
    const QString text = value.toString();
    if (text.size() > maxLength) {
        *problem = McpTr::tr("%1 whose \"%2\" is longer than %3 characters")
                       .arg(what, QLatin1String(key))
                       .arg(maxLength);
        return std::nullopt;
    }
    if (hasControlCharacters(text)) {
        *problem = McpTr::tr("%1 whose \"%2\" holds control characters")
                       .arg(what, QLatin1String(key));
        return std::nullopt;
    }
    return text;
}

// An optional text field: wrong types are read as absent, long texts cut.
QString optionalText(const QJsonObject &json, const char *key, qsizetype maxLength)
{
    QString text = json.value(QLatin1String(key)).toString();
    if (text.size() > maxLength)
        text = text.left(maxLength) + QStringLiteral("…");
    return text;
}

QString cutText(const QString &text, qsizetype maxChars, QString *note)
{
    if (text.size() <= maxChars)
        return text;
    *note = McpTr::tr("[cut at %1 of its %2 characters]").arg(maxChars).arg(text.size());
    return text.left(maxChars);
}

// Decodes base64 \a encoded unless it is over \a maxBytes decoded. Sets \a bytes to the decoded
// size (estimated when it is not decoded) and \a note when dropped; false when it is no base64.
bool decodeBase64(
    const QString &encoded, qsizetype maxBytes, QByteArray *data, qsizetype *bytes, QString *note)
{
    const qsizetype padding = encoded.endsWith(QLatin1String("=="))
                                  ? 2
                                  : (encoded.endsWith(QLatin1Char('=')) ? 1 : 0);
    const qsizetype estimate = encoded.size() / 4 * 3 - padding;
    if (estimate > maxBytes) {
        *bytes = estimate;
        *note = McpTr::tr("[%1 of data over the %2 cap: left out]")
                    .arg(sizeText(estimate), sizeText(maxBytes));
        return true;
    }
    const auto decoded = QByteArray::fromBase64Encoding(encoded.toLatin1(),
                                                        QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded)
        return false;
    *data = decoded.decoded;
    *bytes = data->size();
    return true;
}

} // namespace

std::optional<McpResourceInfo> McpResourceInfo::fromJson(const QJsonObject &json, QString *problem)
{
    McpResourceInfo info;
    const auto uri = identifier(json, "uri", Limits::maxUriLength, McpTr::tr("a resource"), problem);
    if (!uri)
        return std::nullopt;
    info.uri = *uri;
    const auto name = identifier(json,
                                 "name",
                                 Limits::maxNameLength,
                                 McpTr::tr("resource %1").arg(info.uri),
                                 problem);
    if (!name)
        return std::nullopt;
    info.name = *name;
    info.title = optionalText(json, "title", Limits::maxNameLength);
    info.description = optionalText(json, "description", Limits::maxDescriptionLength);
    info.mimeType = optionalText(json, "mimeType", Limits::maxNameLength);
    const QJsonValue size = json.value(QLatin1String("size"));
    if (size.isDouble() && size.toDouble() >= 0)
        info.size = qint64(size.toDouble());
    return info;
}

std::optional<McpResourceTemplateInfo> McpResourceTemplateInfo::fromJson(const QJsonObject &json,
                                                                         QString *problem)
{
    McpResourceTemplateInfo info;
    const auto uriTemplate = identifier(json,
                                        "uriTemplate",
                                        Limits::maxUriLength,
                                        McpTr::tr("a resource template"),
                                        problem);
    if (!uriTemplate)
        return std::nullopt;
    info.uriTemplate = *uriTemplate;
    const auto name = identifier(json,
                                 "name",
                                 Limits::maxNameLength,
                                 McpTr::tr("resource template %1").arg(info.uriTemplate),
                                 problem);
    if (!name)
        return std::nullopt;
    info.name = *name;
    info.title = optionalText(json, "title", Limits::maxNameLength);
    info.description = optionalText(json, "description", Limits::maxDescriptionLength);
    info.mimeType = optionalText(json, "mimeType", Limits::maxNameLength);
    return info;
}

QString McpContent::asText() const
{
    QString result;
    switch (type) {
    case Type::Text:
        result = text;
        break;
    case Type::Image:
    case Type::Audio:
        result = McpTr::tr("[%1 %2, %3: not passed on to the model]")
                     .arg(type == Type::Image ? QStringLiteral("image") : QStringLiteral("audio"),
                          mimeType,
                          sizeText(dataBytes));
        break;
    case Type::Resource:
        if (dataBytes > 0 || !data.isEmpty())
            result = McpTr::tr("[resource %1, %2 %3: binary, not passed on to the model]")
                         .arg(uri, mimeType, sizeText(dataBytes));
        else
            result = McpTr::tr("[resource %1]\n%2").arg(uri, text);
        break;
    case Type::ResourceLink:
        result = McpTr::tr("[resource link: %1 %2]").arg(uri, name);
        break;
    }
    if (!note.isEmpty() && type != Type::Image && type != Type::Audio)
        result += QLatin1Char('\n') + note;
    return result;
}

std::optional<McpContent> McpContent::fromJson(const QJsonObject &json,
                                               QString *problem,
                                               qsizetype maxTextChars,
                                               qsizetype maxBinaryBytes)
{
    McpContent content;
    const QString type = json.value(QLatin1String("type")).toString();
    if (type == QLatin1String("text")) {
        const QJsonValue text = json.value(QLatin1String("text"));
        if (!text.isString()) {
            *problem = McpTr::tr("a text content without a \"text\" string");
            return std::nullopt;
        }
        content.text = cutText(text.toString(), maxTextChars, &content.note);
        return content;
    }
    if (type == QLatin1String("image") || type == QLatin1String("audio")) {
        content.type = type == QLatin1String("image") ? Type::Image : Type::Audio;
        content.mimeType = optionalText(json, "mimeType", Limits::maxNameLength);
        const QJsonValue data = json.value(QLatin1String("data"));
        if (!data.isString()
            || !decodeBase64(data.toString(),
                             maxBinaryBytes,
                             &content.data,
                             &content.dataBytes,
                             &content.note)) {
            *problem = McpTr::tr("an %1 content whose \"data\" is not base64").arg(type);
            return std::nullopt;
        }
        return content;
    }
    if (type == QLatin1String("resource_link")) {
        content.type = Type::ResourceLink;
        const auto uri = identifier(json,
                                    "uri",
                                    Limits::maxUriLength,
                                    McpTr::tr("a resource link"),
                                    problem);
        if (!uri)
            return std::nullopt;
        content.uri = *uri;
        content.name = optionalText(json, "name", Limits::maxNameLength);
        content.mimeType = optionalText(json, "mimeType", Limits::maxNameLength);
        return content;
    }
    if (type == QLatin1String("resource")) {
        content.type = Type::Resource;
        const QJsonValue resource = json.value(QLatin1String("resource"));
        if (!resource.isObject()) {
            *problem = McpTr::tr("an embedded resource without a \"resource\" object");
            return std::nullopt;
        }
        const auto contents = McpResourceContents::fromJson(resource.toObject(),
                                                            problem,
                                                            maxTextChars,
                                                            maxBinaryBytes);
        if (!contents)
            return std::nullopt;
        content.uri = contents->uri;
        content.mimeType = contents->mimeType;
        content.note = contents->note;
        if (contents->isText) {
            content.text = contents->text;
        } else {
            content.data = contents->blob;
            content.dataBytes = contents->size;
        }
        return content;
    }
    *problem = type.isEmpty() ? McpTr::tr("a content without a \"type\"")
                              : McpTr::tr("a content of unknown type \"%1\"")
                                    .arg(type.left(Limits::maxNameLength));
    return std::nullopt;
}

QString McpResourceContents::asText() const
{
    if (!isText) {
        return McpTr::tr("[resource %1, %2 %3: binary, not passed on to the model]")
            .arg(uri, mimeType, sizeText(size));
    }
    return note.isEmpty() ? text : text + QLatin1Char('\n') + note;
}

std::optional<McpResourceContents> McpResourceContents::fromJson(const QJsonObject &json,
                                                                 QString *problem,
                                                                 qsizetype maxTextChars,
                                                                 qsizetype maxBinaryBytes)
{
    McpResourceContents contents;
    const auto uri = identifier(json,
                                "uri",
                                Limits::maxUriLength,
                                McpTr::tr("a resource's contents"),
                                problem);
    if (!uri)
        return std::nullopt;
    contents.uri = *uri;
    contents.mimeType = optionalText(json, "mimeType", Limits::maxNameLength);
    const QJsonValue text = json.value(QLatin1String("text"));
    const QJsonValue blob = json.value(QLatin1String("blob"));
    if (text.isString() == blob.isString()) {
        *problem = McpTr::tr(
                       "the contents of %1 need exactly one of a \"text\" and a \"blob\" string")
                       .arg(contents.uri);
        return std::nullopt;
    }
    if (text.isString()) {
        contents.size = text.toString().size();
        contents.text = cutText(text.toString(), maxTextChars, &contents.note);
        return contents;
    }
    contents.isText = false;
    if (!decodeBase64(blob.toString(),
                      maxBinaryBytes,
                      &contents.blob,
                      &contents.size,
                      &contents.note)) {
        *problem = McpTr::tr("the blob of %1 is not base64").arg(contents.uri);
        return std::nullopt;
    }
    return contents;
}

QString McpReadResult::asText() const
{
    QStringList parts;
    for (const McpResourceContents &one : contents)
        parts.append(one.asText());
    return parts.join(QLatin1Char('\n'));
}

QString McpPromptInfo::checkArguments(const QMap<QString, QString> &values) const
{
    for (const McpPromptArgument &argument : arguments) {
        if (argument.required && values.value(argument.name).isEmpty())
            return McpTr::tr("the prompt \"%1\" needs the argument \"%2\"").arg(name, argument.name);
    }
    for (auto it = values.begin(); it != values.end(); ++it) {
        const bool known = std::any_of(arguments.begin(),
                                       arguments.end(),
                                       [&it](const McpPromptArgument &argument) {
                                           return argument.name == it.key();
                                       });
        if (!known) {
            QStringList names;
            for (const McpPromptArgument &argument : arguments)
                names.append(argument.name);
            return names.isEmpty()
                       ? McpTr::tr("the prompt \"%1\" takes no arguments").arg(name)
                       : McpTr::tr("the prompt \"%1\" has no argument \"%2\" (it takes %3)")
                             .arg(name, it.key(), names.join(QStringLiteral(", ")));
        }
    }
    return {};
}

std::optional<McpPromptInfo> McpPromptInfo::fromJson(const QJsonObject &json, QString *problem)
{
    McpPromptInfo info;
    const auto name = identifier(json, "name", Limits::maxNameLength, McpTr::tr("a prompt"), problem);
    if (!name)
        return std::nullopt;
    info.name = *name;
    info.title = optionalText(json, "title", Limits::maxNameLength);
    info.description = optionalText(json, "description", Limits::maxDescriptionLength);
    const QJsonValue arguments = json.value(QLatin1String("arguments"));
    if (!arguments.isUndefined() && !arguments.isNull() && !arguments.isArray()) {
        *problem = McpTr::tr("the prompt \"%1\" has an \"arguments\" that is not a list")
                       .arg(info.name);
        return std::nullopt;
    }
    const QJsonArray list = arguments.toArray();
    if (list.size() > Limits::maxPromptArguments) {
        *problem = McpTr::tr("the prompt \"%1\" has more than %2 arguments")
                       .arg(info.name)
                       .arg(Limits::maxPromptArguments);
        return std::nullopt;
    }
    for (const QJsonValue &value : list) {
        const auto argumentName
            = identifier(value.toObject(),
                         "name",
                         Limits::maxNameLength,
                         McpTr::tr("an argument of the prompt \"%1\"").arg(info.name),
                         problem);
        if (!argumentName)
            return std::nullopt;
        McpPromptArgument argument;
        argument.name = *argumentName;
        argument.description = optionalText(value.toObject(),
                                            "description",
                                            Limits::maxDescriptionLength);
        argument.required = value.toObject().value(QLatin1String("required")).toBool();
        info.arguments.append(argument);
    }
    return info;
}

QString McpPromptResult::asText() const
{
    QStringList parts;
    for (const McpPromptMessage &message : messages) {
        const QString text = message.content.asText();
        parts.append(message.role == QLatin1String("assistant")
                         ? McpTr::tr("[assistant]\n%1").arg(text)
                         : text);
    }
    return parts.join(QStringLiteral("\n\n"));
}

std::optional<McpPromptResult> McpPromptResult::fromJson(const QJsonObject &result, QString *problem)
{
    McpPromptResult prompt;
    prompt.description = optionalText(result, "description", Limits::maxDescriptionLength);
    const QJsonValue messages = result.value(QLatin1String("messages"));
    if (!messages.isArray()) {
        *problem = McpTr::tr("the answer has no \"messages\" list");
        return std::nullopt;
    }
    const QJsonArray list = messages.toArray();
    if (list.size() > Limits::maxPromptMessages) {
        *problem = McpTr::tr("the answer has more than %1 messages").arg(Limits::maxPromptMessages);
        return std::nullopt;
    }
    // One budget for the whole prompt: a hundred messages of the cap each are no prompt.
    qsizetype textLeft = Limits::defaultMaxTextChars;
    for (qsizetype i = 0; i < list.size(); ++i) {
        const QJsonObject json = list.at(i).toObject();
        McpPromptMessage message;
        message.role = json.value(QLatin1String("role")).toString();
        if (message.role != QLatin1String("user") && message.role != QLatin1String("assistant")) {
            *problem = McpTr::tr("message %1 has no role \"user\" or \"assistant\"").arg(i + 1);
            return std::nullopt;
        }
        QString contentProblem;
        const auto content = McpContent::fromJson(json.value(QLatin1String("content")).toObject(),
                                                  &contentProblem,
                                                  std::max<qsizetype>(textLeft, 0));
        if (!content) {
            *problem = McpTr::tr("message %1: %2").arg(i + 1).arg(contentProblem);
            return std::nullopt;
        }
        message.content = *content;
        textLeft -= message.content.text.size();
        prompt.messages.append(message);
    }
    return prompt;
}

} // namespace AgentCore
