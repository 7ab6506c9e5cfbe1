#pragma once

#include "jsonrpcframing.h"

#include <QObject>
#include <QProcessEnvironment>
#include <QStringList>

class QProcess;

namespace AgentCore {

/// A JSON-RPC peer that is a child process speaking on its stdin and stdout: an MCP server
/// (one message a line) or a language server (Content-Length headers). The child runs in a
/// process group of its own, so a stop reaches what `npx` or a wrapper script starts, and
/// ChildGroupGuard ends it should AgentDesk die; its stderr goes to logged(), its last line
/// into the reason when it dies. Lives on its owner's thread; after stop() it emits nothing.
class JsonRpcProcess final : public QObject
{
    Q_OBJECT

public:
    enum class Framing { Lines, Headers };

    struct Command
    {
        QString program;
        QStringList arguments;
        QProcessEnvironment environment;
        QString workingDirectory; ///< empty: AgentDesk's own
    };

    /// \a name says who the peer is in every reason given ("the MCP server \"x\"").
    JsonRpcProcess(const Command &command,
                   Framing framing,
                   qsizetype maxMessageBytes,
                   const QString &name,
                   QObject *parent = nullptr);
    ~JsonRpcProcess() override;

    /// Starts the child; messages sent before it runs are kept until it does.
    void open();
    bool isOpen() const { return m_process != nullptr; }
    /// The child's process id (its group's too); 0 when it is not running.
    qint64 processId() const { return m_group; }
    /// Sends one message (unframed: the framing is added here).
    void send(const QByteArray &message);
    /// Ends the child and blocks until it is gone, \a gracefully (stdin closed, then SIGTERM,
    /// then SIGKILL, each after a short grace) or at once.
    void stop(bool gracefully);

signals:
    /// A message from the peer (or an overlong one, dropped but for its ends).
    void received(const AgentCore::JsonRpcFrame &frame);
    /// The child is gone for good (it ended, could not start, or wrote what is not the
    /// protocol): every request fails.
    void gone(const QString &reason);
    /// What the child wrote to stderr.
    void logged(const QByteArray &text);

private:
    void readStdout();
    void readStderr();
    void onGone(const QString &reason);
    /// The child's group is over (or being ended): the guard forgets it.
    void releaseGroup();

    const Command m_command;
    const Framing m_framing;
    const QString m_name;
    QProcess *m_process = nullptr;
    qint64 m_group = 0; ///< the child's process group, announced to ChildGroupGuard
    JsonRpcLineReader m_lines;
    JsonRpcHeaderReader m_headers;
    QByteArray m_lastStderrLine;
};

} // namespace AgentCore
