#pragma once

// Shared by the tests of the Bash sandbox (bwrap) that run it for real.

#include <QByteArray>
#include <QString>
#include <QTemporaryDir>

namespace AgentCore {
struct ToolResult;
}

namespace TestSupport {

/// A temporary folder outside /tmp, for a home or files the sandbox must (not) show: the
/// sandbox's /tmp is private and empty, so a file there proves nothing. It lies next to the
/// test binary, which the sandbox shows read-only. Removed with the object.
class OutsideDir
{
public:
    OutsideDir();

    /// The folder, its links resolved (as the sandbox's arguments name it).
    QString path() const;
    QString file(const QString &relative) const;
    /// Writes \a bytes to \a relative, making the folders on the way.
    bool write(const QString &relative, const QByteArray &bytes) const;
    /// The bytes of \a relative, or "<missing>".
    QByteArray read(const QString &relative) const;

private:
    QTemporaryDir m_dir;
};

/// Whether BashTool ran the command of \a result in the sandbox (its details say so).
bool sandboxed(const AgentCore::ToolResult &result);

} // namespace TestSupport
