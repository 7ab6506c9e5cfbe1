#include "sessionresumption.h"

#include "sessionrecorder.h"

#include <QFileInfo>

namespace AgentCore {

std::optional<SessionResumption> SessionResumption::takeOver(const QString &path,
                                                             QString *error,
                                                             bool *busy,
                                                             const SessionLog::Contents *readBefore)
{
    if (busy)
        *busy = false;
    // Read before the lock is taken: open() ends a torn last line, after which the reading
    // under the lock could no longer tell that it was torn. A file that is not a session is
    // refused here, before its lock file is made.
    std::optional<SessionLog::Contents> before;
    if (readBefore)
        before = *readBefore;
    else
        before = SessionLog::load(path, error, SessionLog::Paging::Paged);
    if (!before)
        return std::nullopt;
    SessionResumption resumption;
    resumption.log = SessionLog::open(path, {}, error, busy);
    if (!resumption.log)
        return std::nullopt;
    // Under the lock nobody else adds to the file: when it is as long as it was when read (one
    // newline longer if open() ended a torn line), nothing was added since, and the reading
    // stands: the window's resume read a long session three times on the UI thread, over
    // half of the time to show it. Session files only grow.
    const qint64 size = QFileInfo(path).size();
    std::optional<SessionLog::Contents> contents;
    if (size == before->bytes + (before->endsWithNewline ? 0 : 1)) {
        contents = std::move(before);
        contents->bytes = size;
        contents->endsWithNewline = true;
    } else {
        contents = SessionLog::load(path,
                                    error,
                                    before->pages ? SessionLog::Paging::Paged
                                                  : SessionLog::Paging::Whole);
        if (!contents)
            return std::nullopt;
        contents->warnings = before->warnings;
    }
    // What is appended next follows the active branch.
    resumption.log->setLeaf(contents->activeLeaf);
    // What is appended next is indexed with what was read (null: the caller read it whole).
    resumption.log->setPages(contents->pages);
    resumption.repair = SessionRecorder::interruption(*contents);
    contents->messages += resumption.repair;
    resumption.contents = std::move(*contents);
    return resumption;
}

} // namespace AgentCore
