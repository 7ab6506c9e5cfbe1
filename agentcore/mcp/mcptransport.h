#pragma once

#include <jsonrpc/jsonrpcframing.h>

#include <QObject>
#include <QString>

namespace AgentCore {

/// How an McpClient's JSON-RPC messages reach one server and its messages come back: a child
/// process's pipes (McpStdioTransport) or HTTP (McpHttpTransport). The protocol (ids,
/// initialize, tools, cancellation, timeouts) stays in the client; a transport only moves
/// messages and says what went wrong on the way.
/// Lives on the client's thread, made by it for one connection; after stop() it emits nothing.
class McpTransport : public QObject
{
    Q_OBJECT

public:
    using QObject::QObject;

    /// Connects (starts the process); messages sent before it is up are kept until it is.
    virtual void open() = 0;
    /// Sends one message (unframed: stdio adds its newline, HTTP posts it as the body).
    /// \a requestId is the id of a request, -1 for notifications and responses: a failure on
    /// the way comes back as requestFailed().
    virtual void send(const QByteArray &message, qint64 requestId) = 0;
    /// Ends the connection and blocks until it is gone, \a gracefully (the specification's
    /// order of closing) or at once (a server given up on).
    virtual void stop(bool gracefully) = 0;

    /// The protocol revision negotiated by initialize; the connection is now a session.
    virtual void sessionStarted(const QString &protocolVersion) { Q_UNUSED(protocolVersion) }
    /// The request \a requestId is \a answered, or given up (cancelled, timed out): a given up
    /// request's stream is no longer needed; an answered one's ends by itself.
    virtual void requestDone(qint64 requestId, bool answered)
    {
        Q_UNUSED(requestId)
        Q_UNUSED(answered)
    }
    /// The session ended on the server's side: the next initialize starts a new one.
    virtual void resetSession() {}

    /// For messages: the command line or the URL.
    virtual QString describe() const = 0;

signals:
    /// A message from the server (or an overlong one, dropped but for its ends).
    void received(const AgentCore::JsonRpcFrame &line);
    /// The request \a requestId failed on the way (an HTTP error, an answer over the cap).
    void requestFailed(qint64 requestId, const QString &error);
    /// The server no longer knows the session (HTTP 404): initialize again, then resend.
    void sessionExpired(qint64 requestId);
    /// The connection is gone for good (the process ended): every request fails.
    void gone(const QString &reason);
    /// What the server wrote to its log (stderr) or what the transport has to say.
    void logged(const QByteArray &text);
};

} // namespace AgentCore
