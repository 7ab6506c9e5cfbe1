#include "sessionresumption.h"

#include "sessionrecorder.h"

namespace AgentCore {

std::optional<SessionResumption> SessionResumption::takeOver(const QString &path,
                                                             QString *error,
                                                             bool *busy)
{
    if (busy)
        *busy = false;
    // Read before the lock is taken: open() ends a torn last line, after which the reading
    // under the lock could no longer tell that it was torn. A file that is not a session is
    // refused here, before its lock file is made.
    const std::optional<SessionLog::Contents> before = SessionLog::load(path, error);
    if (!before)
        return std::nullopt;
    SessionResumption resumption;
    resumption.log = SessionLog::open(path, {}, error, busy);
    if (!resumption.log)
        return std::nullopt;
    std::optional<SessionLog::Contents> contents = SessionLog::load(path, error);
    if (!contents)
        return std::nullopt;
    contents->warnings = before->warnings;
    resumption.repair = SessionRecorder::interruption(*contents);
    contents->messages += resumption.repair;
    resumption.contents = std::move(*contents);
    return resumption;
}

} // namespace AgentCore
