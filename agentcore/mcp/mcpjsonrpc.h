#pragma once

#include <ai/jsonreader.h>

#include <QByteArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>

namespace AgentCore {

/// One JSON-RPC 2.0 message as an MCP peer sends it, read from one line. A value type.
/// Anything that is not a well-formed message is Invalid with a problem a person can read;
/// the connection reports it and goes on.
struct McpMessage
{
    enum class Kind { Invalid, Request, Notification, Response };

    /// Objects and arrays within each other: the model layer's cap (QJsonDocument's).
    static constexpr int maxNesting = JsonReader::maxNesting;

    Kind kind = Kind::Invalid;
    /// Requests and responses: a string or an integer. Invalid: the id of a message nested
    /// deeper than maxNesting, read without parsing it (mcpMessageId), so the request it
    /// answers fails at once instead of waiting for its timeout; undefined otherwise.
    QJsonValue id;
    QString method; ///< requests and notifications
    QJsonObject params;
    QJsonValue result; ///< responses without error
    QJsonObject error; ///< responses with error: {code, message, data}
    QString problem;   ///< Invalid: why

    bool isError() const { return kind == Kind::Response && !error.isEmpty(); }
    /// "-32601 Method not found" for an error response.
    QString errorText() const;

    static McpMessage parse(const QByteArray &line);
};

/// The nesting depth of the JSON text \a json, counted without parsing; stops counting once
/// above \a limit (then returns limit + 1). Strings are skipped with their escapes.
int jsonNestingDepth(const QByteArray &json, int limit);

/// The "id" member of the top-level object of the JSON text \a json (an integer or a string),
/// found by skipping strings and nested values, without parsing: for a message that cannot be
/// parsed. Undefined when there is none or it is of another type.
QJsonValue mcpMessageId(const QByteArray &json);

/// A message as one line, newline included.
QByteArray mcpRequestLine(qint64 id, const QString &method, const QJsonObject &params);
QByteArray mcpNotificationLine(const QString &method, const QJsonObject &params = {});
QByteArray mcpResultLine(const QJsonValue &id, const QJsonObject &result);
QByteArray mcpErrorLine(const QJsonValue &id, int code, const QString &message);

/// JSON-RPC's error codes the client sends.
enum McpErrorCode { McpMethodNotFound = -32601, McpInvalidRequest = -32600 };

} // namespace AgentCore
