#pragma once

#include <loop/extension.h>

#include <QByteArray>
#include <QDateTime>
#include <QMutex>

#include <functional>

namespace AgentCore {

/// The built-in audit extension: appends every tool call as one line of JSON to a file kept
/// next to the session:
///   {"time": "2025-01-31T12:00:00.123Z", "toolCallId": s, "tool": s, "arguments": {...},
///    "decision": "allow" | "ask: ..." | "deny: ..." | null, "durationMs": n,
///    "isError": b, "resultBytes": n}
/// decision is ToolCallContext::permissionDecision (null when no permission layer ran);
/// resultBytes is the UTF-8 size of the result's text for the model.
/// Thread-safe: parallel calls append whole lines, never interleaved. The file (and its
/// folder) is created on the first call. A write that fails is reported once through the
/// error handler (later failures are silent; a later success re-arms it); it never fails the
/// tool call and never throws.
class AuditLog final : public Extension
{
public:
    /// Called on the tool's thread with a message for the user.
    using ErrorHandler = std::function<void(const QString &message)>;

    explicit AuditLog(const QString &path, ErrorHandler onError = {});

    /// A new file for one run or session of this process, in the application's data folder:
    /// audit/<date>-<time>-<pid>.jsonl, with -<n> for the n-th path this process asked for
    /// (n > 1): never the same twice in a process. Not created yet. Thread-safe.
    static QString newDefaultPath();

    QString path() const { return m_path; }
    QString name() const override;
    void after(const ToolCallContext &context, const ToolResult &result, qint64 durationMs) override;

    /// The line after() appends for one call (without the line end), at \a time.
    static QByteArray formatLine(const ToolCallContext &context,
                                 const ToolResult &result,
                                 qint64 durationMs,
                                 const QDateTime &time);

private:
    bool append(const QByteArray &line, QString *error);

    const QString m_path;
    const ErrorHandler m_onError;
    QMutex m_mutex;
    bool m_failing = false;
};

} // namespace AgentCore
