#pragma once

#include <ai/jsonreader.h>

#include <QByteArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>

namespace AgentCore {

/// One JSON-RPC 2.0 message as a peer sends it (an MCP server, a language server), read from
/// one message's text, however it was framed (jsonrpcframing.h). A value type. Anything that is
/// not a well-formed message is Invalid with a problem a person can read; the connection
/// reports it and goes on.
struct JsonRpcMessage
{
    enum class Kind { Invalid, Request, Notification, Response };

    /// Objects and arrays within each other: the model layer's cap (QJsonDocument's).
    static constexpr int maxNesting = JsonReader::maxNesting;

    Kind kind = Kind::Invalid;
    /// Requests and responses: a string or an integer. Invalid: the id of a message nested
    /// deeper than maxNesting, read without parsing it (jsonRpcMessageId), so the request it
    /// answers fails at once instead of waiting for its timeout; undefined otherwise.
    QJsonValue id;
    QString method; ///< requests and notifications
    QJsonObject params;
    QJsonValue result; ///< responses without error
    QJsonObject error; ///< responses with error: {code, message, data}
    QString problem;   ///< Invalid: why

    bool isError() const { return kind == Kind::Response && !error.isEmpty(); }
    /// "Method not found (-32601)" for an error response.
    QString errorText() const;

    static JsonRpcMessage parse(const QByteArray &text);
};

/// The nesting depth of the JSON text \a json, counted without parsing; stops counting once
/// above \a limit (then returns limit + 1). Strings are skipped with their escapes.
int jsonNestingDepth(const QByteArray &json, int limit);

/// The "id" member of the top-level object of the JSON text \a json (an integer or a string),
/// found by skipping strings and nested values, without parsing: for a message that cannot be
/// parsed. Undefined when there is none or it is of another type.
QJsonValue jsonRpcMessageId(const QByteArray &json);

/// Messages as compact JSON text, unframed: a transport frames them (JsonRpcLineReader::frame
/// for MCP's stdio, JsonRpcHeaderReader::frame for the language servers' base protocol).
namespace JsonRpc {
QByteArray request(qint64 id, const QString &method, const QJsonObject &params);
QByteArray notification(const QString &method, const QJsonObject &params = {});
QByteArray result(const QJsonValue &id, const QJsonValue &result);
QByteArray error(const QJsonValue &id, int code, const QString &message);

/// JSON-RPC's error codes a client sends.
enum ErrorCode { InvalidRequest = -32600, MethodNotFound = -32601 };
} // namespace JsonRpc

} // namespace AgentCore
