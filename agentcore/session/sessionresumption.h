#pragma once

#include "sessionlog.h"

#include <QList>
#include <QString>

#include <memory>
#include <optional>

namespace AgentCore {

/// A session taken up again by the one process that will add to it: the window resuming it
/// from the sessions list, or a headless run continuing it (--continue, --resume). Both go
/// through takeOver(), so a session is continued the same way wherever it was written.
struct SessionResumption
{
    /// Open and locked (SessionLog::open): a SessionRecorder adopts it.
    std::unique_ptr<SessionLog> log;
    /// The file as read under the lock; its messages end with \a repair.
    SessionLog::Contents contents;
    /// What closes a run that a crash cut off (SessionRecorder::interruption): part of the
    /// history, not yet in the file; SessionRecorder::adopt() writes it before anything else.
    QList<Message> repair;

    /// Takes the lock of the session \a path and reads it again under the lock (a process that
    /// held it until now may have added to it). nullopt and \a error when the file cannot be
    /// read or is not a session, or when another window or process holds it: then \a busy
    /// (when given) is true and \a error names that process. The file is left as it is in
    /// every failure.
    /// \a readBefore: the file as the caller read it a moment ago (SessionLog::load), used
    /// when the file did not grow since, instead of reading it twice more. Read here, the file
    /// is read with SessionLog::Paging::Paged; else as \a readBefore was. The log indexes
    /// what it appends into contents.pages (when there are any).
    static std::optional<SessionResumption> takeOver(
        const QString &path,
        QString *error,
        bool *busy = nullptr,
        const SessionLog::Contents *readBefore = nullptr);
};

} // namespace AgentCore
