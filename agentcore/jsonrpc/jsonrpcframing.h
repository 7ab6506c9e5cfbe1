#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

namespace AgentCore {

/// One message's text as a framing reader cut it from a peer's output. A message longer than
/// the reader's cap is never held whole (a peer that writes without end cannot fill the
/// memory): it comes back once, marked overlong, with only its first and last bytes kept (where
/// its "id" is likely to be), so the request it answers can fail with a clear message.
struct JsonRpcFrame
{
    static constexpr qsizetype keptEdgeBytes = 256; ///< of an overlong message, each end

    QByteArray text; ///< the message (empty when overlong)
    bool overlong = false;
    qsizetype size = 0; ///< the message's length in bytes
    QByteArray head;    ///< overlong: its first keptEdgeBytes
    QByteArray tail;    ///< overlong: its last keptEdgeBytes
};

/// MCP's stdio framing: one message a line. Not thread-safe; one per peer.
class JsonRpcLineReader final
{
public:
    static constexpr qsizetype defaultMaxLineBytes = 8 * 1024 * 1024;

    explicit JsonRpcLineReader(qsizetype maxLineBytes = defaultMaxLineBytes);

    /// The complete lines in what was read so far, \a data appended; empty lines are skipped.
    QList<JsonRpcFrame> feed(const QByteArray &data);

    /// \a message framed to be sent: the message and a newline.
    static QByteArray frame(const QByteArray &message) { return message + '\n'; }

private:
    void appendOverlong(const char *data, qsizetype size);

    qsizetype m_maxLineBytes;
    QByteArray m_buffer;
    bool m_overlong = false;
    JsonRpcFrame m_dropped; ///< the overlong line being skipped
};

/// The Language Server Protocol's base protocol: each message after a header part of
/// "Name: value" lines ending with an empty line, of which Content-Length (the body's bytes) is
/// required. A header the reader cannot follow leaves no way to find the next message: the
/// reader then stops for good and says why (problem()). Not thread-safe; one per peer.
class JsonRpcHeaderReader final
{
public:
    static constexpr qsizetype defaultMaxBodyBytes = 16 * 1024 * 1024;
    static constexpr qsizetype maxHeaderBytes = 4096; ///< a header part longer is not LSP

    explicit JsonRpcHeaderReader(qsizetype maxBodyBytes = defaultMaxBodyBytes);

    /// The complete messages in what was read so far, \a data appended.
    QList<JsonRpcFrame> feed(const QByteArray &data);
    /// Why the reader stopped (empty while it reads on).
    QString problem() const { return m_problem; }

    /// \a message framed to be sent: its header and the message.
    static QByteArray frame(const QByteArray &message);

private:
    bool readHeader();

    qsizetype m_maxBodyBytes;
    QByteArray m_buffer;
    qsizetype m_bodyBytes = -1; ///< of the message being read; -1 while reading a header
    JsonRpcFrame m_dropped;     ///< an overlong body being skipped (its size counts down)
    qsizetype m_skipping = 0;   ///< bytes of that body still to skip
    QString m_problem;
};

} // namespace AgentCore
