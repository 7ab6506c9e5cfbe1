#pragma once

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

    static constexpr int maxNesting = 100; ///< objects and arrays within each other

    Kind kind = Kind::Invalid;
    QJsonValue id;  ///< requests and responses: a string or an integer
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

/// A message as one line, newline included.
QByteArray mcpRequestLine(qint64 id, const QString &method, const QJsonObject &params);
QByteArray mcpNotificationLine(const QString &method, const QJsonObject &params = {});
QByteArray mcpResultLine(const QJsonValue &id, const QJsonObject &result);
QByteArray mcpErrorLine(const QJsonValue &id, int code, const QString &message);

/// JSON-RPC's error codes the client sends.
enum McpErrorCode { McpMethodNotFound = -32601, McpInvalidRequest = -32600 };

} // namespace AgentCore
