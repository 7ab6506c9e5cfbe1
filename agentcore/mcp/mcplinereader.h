#pragma once

#include <QByteArray>
#include <QList>

namespace AgentCore {

/// Splits a stdio MCP server's output into its messages: one JSON-RPC message a line. A line
/// longer than the cap is never held whole (a server that writes without newlines cannot fill
/// the memory): it comes back once, marked overlong, with only its first and last bytes kept
/// (where its "id" is likely to be), so the request it answers can fail with a clear message.
/// Not thread-safe; one per server.
class McpLineReader final
{
public:
    static constexpr qsizetype defaultMaxLineBytes = 8 * 1024 * 1024;
    static constexpr qsizetype keptEdgeBytes = 256; ///< of an overlong line, each end

    struct Line
    {
        QByteArray text; ///< the line without its newline (empty when overlong)
        bool overlong = false;
        qsizetype size = 0; ///< the line's length in bytes
        QByteArray head;    ///< overlong: its first keptEdgeBytes
        QByteArray tail;    ///< overlong: its last keptEdgeBytes
    };

    explicit McpLineReader(qsizetype maxLineBytes = defaultMaxLineBytes);

    /// The complete lines in what was read so far, \a data appended; empty lines are skipped.
    QList<Line> feed(const QByteArray &data);

private:
    void appendOverlong(const char *data, qsizetype size);

    qsizetype m_maxLineBytes;
    QByteArray m_buffer;
    bool m_overlong = false;
    Line m_dropped; ///< the overlong line being skipped
};

} // namespace AgentCore
