#include "mcptool.h"
#include "translation.h"

#include "mcpclient.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>

#include <optional>

namespace AgentCore {

namespace {

QString sanitised(const QString &name)
{
    QString clean = name;
    for (QChar &c : clean) {
        const bool allowed = (c >= QLatin1Char('a') && c <= QLatin1Char('z'))
                             || (c >= QLatin1Char('A') && c <= QLatin1Char('Z'))
                             || (c >= QLatin1Char('0') && c <= QLatin1Char('9'))
                             || c == QLatin1Char('_') || c == QLatin1Char('-');
        if (!allowed)
            c = QLatin1Char('_');
    }
    return clean;
}

QString sizeText(qsizetype bytes)
{
    return bytes < 1024 ? McpTr::tr("%1 bytes").arg(bytes)
                        : McpTr::tr("%1 KiB").arg(double(bytes) / 1024, 0, 'f', 1);
}

// The approximate size of base64 data once decoded.
qsizetype decodedSize(const QString &base64)
{
    return base64.size() * 3 / 4;
}

// What the bytes are, by their signature: a server's word for it is not enough, a provider
// refuses a request whose picture is not what it says, and would refuse every later one.
QString pictureType(const QByteArray &bytes)
{
    if (bytes.startsWith("\x89PNG\r\n\x1a\n"))
        return QStringLiteral("image/png");
    if (bytes.startsWith("\xff\xd8\xff"))
        return QStringLiteral("image/jpeg");
    if (bytes.startsWith("GIF87a") || bytes.startsWith("GIF89a"))
        return QStringLiteral("image/gif");
    if (bytes.size() >= 12 && bytes.startsWith("RIFF") && bytes.mid(8, 4) == "WEBP")
        return QStringLiteral("image/webp");
    return {};
}

// A picture the providers take (ContentBlock::isImageType), of at most maxImageBase64, whose
// data is base64 of such a picture indeed; otherwise why not, for the text.
std::optional<ContentBlock> imageOf(const QString &mimeType, const QString &base64, QString *why)
{
    if (!ContentBlock::isImageType(mimeType)) {
        *why = McpTr::tr("not a kind of picture the models read");
        return std::nullopt;
    }
    if (base64.size() > ContentBlock::maxImageBase64) {
        *why = McpTr::tr("larger than the %1 MB the providers take")
                   .arg(ContentBlock::maxImageBase64 / (1024 * 1024));
        return std::nullopt;
    }
    const QByteArray data = base64.toLatin1();
    const auto decoded = QByteArray::fromBase64Encoding(data,
                                                        QByteArray::AbortOnBase64DecodingErrors);
    const QString type = decoded ? pictureType(*decoded) : QString();
    if (type.isEmpty()) {
        *why = McpTr::tr("its data is no PNG, JPEG, GIF or WebP picture");
        return std::nullopt;
    }
    return ContentBlock::makeImage(type, data);
}

// A block of a tool's result as text, or (an image or an embedded picture, while fewer than
// maxImages came) as a picture appended to \a images, with an empty text.
QString describeBlock(const QJsonObject &block, QList<ContentBlock> *images)
{
    const QString type = block.value(QLatin1String("type")).toString();
    const QString mime = block.value(QLatin1String("mimeType")).toString();
    if (type == QLatin1String("text"))
        return block.value(QLatin1String("text")).toString();
    if (type == QLatin1String("image") || type == QLatin1String("audio")) {
        const QString data = block.value(QLatin1String("data")).toString();
        QString why;
        if (type == QLatin1String("audio")) {
            why = McpTr::tr("the model takes no sound");
        } else if (images->size() >= McpTool::maxImages) {
            why = McpTr::tr("more than %1 pictures in one result").arg(McpTool::maxImages);
        } else if (const auto image = imageOf(mime, data, &why)) {
            images->append(*image);
            return {};
        }
        return McpTr::tr("[%1 %2, %3: not passed on to the model: %4]")
            .arg(type, mime, sizeText(decodedSize(data)), why);
    }
    if (type == QLatin1String("resource_link")) {
        return McpTr::tr("[resource link: %1 %2]")
            .arg(block.value(QLatin1String("uri")).toString(),
                 block.value(QLatin1String("name")).toString());
    }
    if (type == QLatin1String("resource")) {
        const QJsonObject resource = block.value(QLatin1String("resource")).toObject();
        const QString uri = resource.value(QLatin1String("uri")).toString();
        if (resource.contains(QLatin1String("text")))
            return McpTr::tr("[resource %1]\n%2")
                .arg(uri, resource.value(QLatin1String("text")).toString());
        QString why;
        if (images->size() < McpTool::maxImages) {
            if (const auto image = imageOf(resource.value(QLatin1String("mimeType")).toString(),
                                           resource.value(QLatin1String("blob")).toString(),
                                           &why)) {
                images->append(*image);
                return McpTr::tr("[resource %1: the picture below]").arg(uri);
            }
        }
        return McpTr::tr("[resource %1, %2 %3: binary, not passed on to the model]")
            .arg(uri,
                 resource.value(QLatin1String("mimeType")).toString(),
                 sizeText(decodedSize(resource.value(QLatin1String("blob")).toString())));
    }
    return McpTr::tr("[content of type \"%1\" left out]").arg(type);
}

} // namespace

McpTool::McpTool(std::shared_ptr<McpClient> client, QString serverName, McpToolInfo info)
    : m_client(std::move(client))
    , m_serverName(std::move(serverName))
    , m_info(std::move(info))
    , m_name(toolName(m_serverName, m_info.name))
{}

QString McpTool::toolName(const QString &server, const QString &tool)
{
    const QString full = QStringLiteral("mcp__%1__%2").arg(sanitised(server), sanitised(tool));
    if (full.size() <= maxToolNameLength)
        return full;
    const QString hash = QString::fromLatin1(
        QCryptographicHash::hash(QStringLiteral("%1\n%2").arg(server, tool).toUtf8(),
                                 QCryptographicHash::Sha1)
            .toHex()
            .left(8));
    return full.left(maxToolNameLength - hash.size() - 1) + QLatin1Char('_') + hash;
}

ToolDefinition McpTool::definition() const
{
    QString description = m_info.description;
    if (description.isEmpty())
        description = m_info.title;
    return {m_name, description, m_info.inputSchema};
}

ToolResult McpTool::execute(const ToolCallContext &context)
{
    const ToolUpdateCallback onUpdate = context.onUpdate;
    const auto onProgress = [onUpdate](const McpProgress &progress) {
        if (!onUpdate)
            return;
        QString text = progress.total > 0
                           ? McpTr::tr("progress %1/%2").arg(progress.progress).arg(progress.total)
                           : McpTr::tr("progress %1").arg(progress.progress);
        if (!progress.message.isEmpty())
            text += QStringLiteral(": ") + progress.message;
        onUpdate(ToolResult::makeText(text));
    };
    return resultOf(m_client->callTool(m_info.name, context.arguments, context.abort, onProgress),
                    m_serverName);
}

ToolResult McpTool::resultOf(const McpCallResult &result, const QString &serverName)
{
    if (!result.ok)
        return ToolResult::makeError(
            McpTr::tr("MCP server \"%1\": %2").arg(serverName, result.error));
    QStringList parts;
    QList<ContentBlock> images;
    const QJsonValue content = result.result.value(QLatin1String("content"));
    for (const QJsonValue &block : content.toArray()) {
        if (const QString part = describeBlock(block.toObject(), &images); !part.isEmpty())
            parts.append(part);
    }
    // Structured content alone (no text blocks for older clients) is still the answer.
    if (parts.isEmpty() && result.result.value(QLatin1String("structuredContent")).isObject()) {
        parts.append(QString::fromUtf8(
            QJsonDocument(result.result.value(QLatin1String("structuredContent")).toObject())
                .toJson(QJsonDocument::Compact)));
    }
    QString text = parts.join(QLatin1Char('\n'));
    if (text.size() > maxResultChars) {
        const qsizetype total = text.size();
        text.truncate(maxResultChars);
        text += QLatin1Char('\n')
                + McpTr::tr("[the result was cut at %1 of its %2 characters]")
                      .arg(maxResultChars)
                      .arg(total);
    }
    const bool isError = result.result.value(QLatin1String("isError")).toBool();
    if (text.isEmpty() && images.isEmpty())
        text = isError ? McpTr::tr("The tool failed without saying why.")
                       : McpTr::tr("(no output)");
    ToolResult tool;
    tool.isError = isError;
    if (!text.isEmpty())
        tool.content.append(ContentBlock::makeText(text));
    tool.content += images;
    return tool;
}

} // namespace AgentCore
