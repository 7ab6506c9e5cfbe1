#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <optional>

namespace AgentCore {

/// What a server's resources and prompts are made of, checked as they come from a server
/// (hostile input: wrong types, missing fields, huge texts). Value types; the parsing functions
/// return nullopt with a problem a person can read, or cut what is too long with a note.

/// Limits shared by the catalog's types.
struct McpCatalogLimits
{
    static constexpr qsizetype maxNameLength = 256; ///< names, titles, roles, mime types
    static constexpr qsizetype maxUriLength = 4096;
    static constexpr qsizetype maxDescriptionLength = 4000; ///< longer ones are cut
    static constexpr int maxPromptArguments = 64;
    static constexpr int maxPromptMessages = 100;
    static constexpr int maxContents = 100; ///< contents of one resources/read
    /// The text of one resource or one prompt message; what is longer is cut with a note.
    static constexpr qsizetype defaultMaxTextChars = 256 * 1024;
    /// Binary data (a blob, an image) decoded; larger data is dropped with a note.
    static constexpr qsizetype defaultMaxBinaryBytes = 4 * 1024 * 1024;
};

/// One entry of resources/list.
struct McpResourceInfo
{
    QString uri;
    QString name;
    QString title;
    QString description;
    QString mimeType;
    qint64 size = -1; ///< bytes, when the server says

    static std::optional<McpResourceInfo> fromJson(const QJsonObject &json, QString *problem);
};

/// One entry of resources/templates/list (an RFC 6570 URI template).
struct McpResourceTemplateInfo
{
    QString uriTemplate;
    QString name;
    QString title;
    QString description;
    QString mimeType;

    static std::optional<McpResourceTemplateInfo> fromJson(const QJsonObject &json,
                                                           QString *problem);
};

/// One content block (of a prompt's message; the same shape as a tool result's): text, an
/// image or audio (base64 data, decoded), an embedded resource (text or blob) or a link to one.
struct McpContent
{
    enum class Type { Text, Image, Audio, Resource, ResourceLink };

    Type type = Type::Text;
    QString text;            ///< Text; Resource with text
    QString mimeType;        ///< Image, Audio, Resource
    QString uri;             ///< Resource, ResourceLink
    QString name;            ///< ResourceLink
    QByteArray data;         ///< Image, Audio, Resource with a blob: decoded; empty when dropped
    qsizetype dataBytes = 0; ///< the decoded size, also when dropped
    QString note;            ///< what was cut or dropped, for the person and the model

    bool isBinary() const { return type == Type::Image || type == Type::Audio || !data.isEmpty(); }
    /// As text for a model that takes text only: the text, or a note naming the binary part.
    QString asText() const;

    static std::optional<McpContent> fromJson(
        const QJsonObject &json,
        QString *problem,
        qsizetype maxTextChars = McpCatalogLimits::defaultMaxTextChars,
        qsizetype maxBinaryBytes = McpCatalogLimits::defaultMaxBinaryBytes);
};

/// One entry of a resources/read answer's contents: text or a blob.
struct McpResourceContents
{
    QString uri;
    QString mimeType;
    bool isText = true;
    QString text;       ///< isText: the text, cut at the cap
    QByteArray blob;    ///< not isText: decoded; empty when it was over the cap
    qsizetype size = 0; ///< characters of the text or bytes of the blob, before any cap
    QString note;       ///< what was cut or dropped

    /// As text to attach to a message: the text (with the note), or a note for a blob.
    QString asText() const;

    static std::optional<McpResourceContents> fromJson(const QJsonObject &json,
                                                       QString *problem,
                                                       qsizetype maxTextChars,
                                                       qsizetype maxBinaryBytes);
};

/// One argument a prompt takes.
struct McpPromptArgument
{
    QString name;
    QString description;
    bool required = false;
};

/// One entry of prompts/list.
struct McpPromptInfo
{
    QString name;
    QString title;
    QString description;
    QList<McpPromptArgument> arguments;

    /// Empty when \a values fill the prompt's required arguments and name only its arguments;
    /// else what is wrong ("the prompt \"x\" needs the argument \"city\"").
    QString checkArguments(const QMap<QString, QString> &values) const;

    static std::optional<McpPromptInfo> fromJson(const QJsonObject &json, QString *problem);
};

/// One message of a prompts/get answer.
struct McpPromptMessage
{
    QString role; ///< "user" or "assistant"
    McpContent content;
};

/// What prompts/get returned, checked.
struct McpPromptResult
{
    QString description;
    QList<McpPromptMessage> messages;

    /// The messages as one text for a model that takes text: each message's content, an
    /// assistant's marked as such.
    QString asText() const;

    static std::optional<McpPromptResult> fromJson(const QJsonObject &result, QString *problem);
};

/// What a listing (every page of resources/list, prompts/list, ...) came back with: the entries
/// that passed the checks, the problems with those left out, or the error of the request.
template<typename T>
struct McpListed
{
    QList<T> items;
    QStringList problems; ///< entries left out, pages beyond the cap
    QString error;        ///< the listing failed (the server's error, a timeout, a stop)
    bool aborted = false;
    bool ok() const { return error.isEmpty(); }
};

/// What resources/read came back with.
struct McpReadResult
{
    QList<McpResourceContents> contents;
    QString error;
    bool aborted = false;
    bool ok() const { return error.isEmpty(); }
    /// Every content as text to attach (McpResourceContents::asText), blobs named.
    QString asText() const;
};

/// What prompts/get came back with.
struct McpGetPromptResult
{
    McpPromptResult prompt;
    QString error;
    bool aborted = false;
    bool ok() const { return error.isEmpty(); }
};

} // namespace AgentCore
