#include "jsonrpcmessage.h"
#include "translation.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>

namespace AgentCore {

namespace {

QByteArray compact(const QJsonObject &message)
{
    return QJsonDocument(message).toJson(QJsonDocument::Compact);
}

bool isValidId(const QJsonValue &id)
{
    if (id.isString())
        return true;
    // Integers only: a JSON number with a fraction is no id anyone sends.
    return id.isDouble() && id.toDouble() == double(id.toInteger());
}

// The index after the string that starts at the quote \a quote; json.size() when unterminated.
qsizetype skipString(const QByteArray &json, qsizetype quote)
{
    for (qsizetype i = quote + 1; i < json.size(); ++i) {
        if (json.at(i) == '\\')
            ++i;
        else if (json.at(i) == '"')
            return i + 1;
    }
    return json.size();
}

qsizetype skipSpace(const QByteArray &json, qsizetype i)
{
    while (i < json.size()
           && (json.at(i) == ' ' || json.at(i) == '\t' || json.at(i) == '\n' || json.at(i) == '\r'))
        ++i;
    return i;
}

} // namespace

int jsonNestingDepth(const QByteArray &json, int limit)
{
    int depth = 0;
    int deepest = 0;
    bool inString = false;
    for (qsizetype i = 0; i < json.size(); ++i) {
        const char c = json.at(i);
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
            continue;
        }
        switch (c) {
        case '"':
            inString = true;
            break;
        case '{':
        case '[':
            if (++depth > deepest) {
                deepest = depth;
                if (deepest > limit)
                    return limit + 1;
            }
            break;
        case '}':
        case ']':
            --depth;
            break;
        default:
            break;
        }
    }
    return deepest;
}

QJsonValue jsonRpcMessageId(const QByteArray &json)
{
    int depth = 0;
    qsizetype i = 0;
    while (i < json.size()) {
        const char c = json.at(i);
        if (c == '"') {
            const qsizetype end = skipString(json, i);
            const qsizetype colon = skipSpace(json, end);
            const bool idKey = depth == 1 && colon < json.size() && json.at(colon) == ':'
                               && json.mid(i, end - i) == "\"id\"";
            if (!idKey) {
                i = end;
                continue;
            }
            // The value alone is small and flat: QJsonDocument reads it in an array.
            const qsizetype start = skipSpace(json, colon + 1);
            qsizetype stop = start;
            if (stop < json.size() && json.at(stop) == '"') {
                stop = skipString(json, stop);
            } else {
                while (stop < json.size() && json.at(stop) != ',' && json.at(stop) != '}'
                       && json.at(stop) != ']' && stop - start < 40)
                    ++stop;
            }
            const QJsonValue id
                = QJsonDocument::fromJson('[' + json.mid(start, stop - start) + ']').array().at(0);
            return isValidId(id) ? id : QJsonValue(QJsonValue::Undefined);
        }
        if (c == '{' || c == '[')
            ++depth;
        else if (c == '}' || c == ']')
            --depth;
        ++i;
    }
    return QJsonValue(QJsonValue::Undefined);
}

QString JsonRpcMessage::errorText() const
{
    const QString message = error.value(QLatin1String("message")).toString();
    const qint64 code = error.value(QLatin1String("code")).toInteger();
    return message.isEmpty() ? JsonRpcTr::tr("error %1").arg(code)
                             : QStringLiteral("%1 (%2)").arg(message).arg(code);
}

JsonRpcMessage JsonRpcMessage::parse(const QByteArray &text)
{
    JsonRpcMessage message;
    if (jsonNestingDepth(text, maxNesting) > maxNesting) {
        // Valid JSON perhaps, but deeper than any reader of AgentDesk goes (Qt's writers and
        // destructors recurse). Its id still says which request must not wait for it.
        message.problem = JsonRpcTr::tr("a message nested deeper than %1 levels").arg(maxNesting);
        message.id = jsonRpcMessageId(text);
        return message;
    }
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(text, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        message.problem = JsonRpcTr::tr("not JSON (%1 at offset %2)")
                              .arg(parseError.errorString())
                              .arg(parseError.offset);
        return message;
    }
    if (!document.isObject()) {
        // JSON-RPC batches were removed from MCP in 2025-06-18; LSP never had them.
        message.problem = JsonRpcTr::tr("not a JSON-RPC message object");
        return message;
    }
    const QJsonObject object = document.object();
    if (object.value(QLatin1String("jsonrpc")).toString() != QLatin1String("2.0")) {
        message.problem = JsonRpcTr::tr("not JSON-RPC 2.0 (no \"jsonrpc\": \"2.0\")");
        return message;
    }
    const QJsonValue method = object.value(QLatin1String("method"));
    const QJsonValue id = object.value(QLatin1String("id"));
    const QJsonValue params = object.value(QLatin1String("params"));
    if (!params.isUndefined() && !params.isObject()) {
        message.problem = JsonRpcTr::tr("\"params\" is not an object");
        return message;
    }
    if (method.isString()) {
        message.method = method.toString();
        message.params = params.toObject();
        if (id.isUndefined()) {
            message.kind = Kind::Notification;
        } else if (!isValidId(id)) {
            message.problem = JsonRpcTr::tr(
                "a request whose id is neither a string nor an integer");
        } else {
            message.kind = Kind::Request;
            message.id = id;
        }
        return message;
    }
    if (!method.isUndefined()) {
        message.problem = JsonRpcTr::tr("\"method\" is not a string");
        return message;
    }
    const QJsonValue result = object.value(QLatin1String("result"));
    const QJsonValue error = object.value(QLatin1String("error"));
    if (result.isUndefined() == error.isUndefined()) {
        message.problem = JsonRpcTr::tr("a response needs exactly one of \"result\" and \"error\"");
        return message;
    }
    if (!error.isUndefined() && !error.isObject()) {
        message.problem = JsonRpcTr::tr("\"error\" is not an object");
        return message;
    }
    // An error about a message the server could not read has a null id.
    if (!isValidId(id) && !(id.isNull() && error.isObject())) {
        message.problem = JsonRpcTr::tr("a response whose id is neither a string nor an integer");
        return message;
    }
    message.kind = Kind::Response;
    message.id = id;
    message.result = result;
    message.error = error.toObject();
    if (message.isError() && message.error.isEmpty())
        message.error.insert(QLatin1String("message"), JsonRpcTr::tr("empty error"));
    return message;
}

namespace JsonRpc {

QByteArray request(qint64 id, const QString &method, const QJsonObject &params)
{
    QJsonObject message{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                        {QStringLiteral("id"), id},
                        {QStringLiteral("method"), method}};
    if (!params.isEmpty())
        message.insert(QStringLiteral("params"), params);
    return compact(message);
}

QByteArray notification(const QString &method, const QJsonObject &params)
{
    QJsonObject message{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                        {QStringLiteral("method"), method}};
    if (!params.isEmpty())
        message.insert(QStringLiteral("params"), params);
    return compact(message);
}

QByteArray result(const QJsonValue &id, const QJsonValue &result)
{
    return compact({{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                    {QStringLiteral("id"), id},
                    {QStringLiteral("result"), result}});
}

QByteArray error(const QJsonValue &id, int code, const QString &message)
{
    return compact(
        {{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
         {QStringLiteral("id"), id},
         {QStringLiteral("error"),
          QJsonObject{{QStringLiteral("code"), code}, {QStringLiteral("message"), message}}}});
}

} // namespace JsonRpc

} // namespace AgentCore
