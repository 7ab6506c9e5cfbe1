#pragma once

#include "commandline.h"

#include <session/sessionlog.h>
#include <session/sessionresumption.h>

#include <optional>

namespace App {

/// The session agentdesk --print goes on with (--continue, --resume ID or PATH): the
/// repository's most recent free one or the one named, taken over for the whole run (its
/// lock held), or only read without persistence. Problems go to stderr.
class HeadlessSessionChoice final
{
public:
    explicit HeadlessSessionChoice(const PrintOptions &options)
        : m_choice(options.session)
        , m_resumeId(options.resumeId)
        , m_forkMessage(options.forkMessage)
        , m_persist(options.persistSession)
    {}

    /// The session's contents; nullopt with the reason on stderr when there is none to go on
    /// with. With persistence, path() and takeResumption() then name the file taken over.
    std::optional<AgentCore::SessionLog::Contents> open(const QString &repositoryRoot);
    /// A new session forked from \a original (--fork): its path, or empty with the reason on
    /// stderr. Without persistence nothing is written: the original is only read and cut.
    QString fork(const QString &original);
    QString path() const { return m_sessionPath; }
    /// The session's file, taken over or only read.
    QString chosenPath() const { return m_chosenPath; }
    std::optional<AgentCore::SessionResumption> takeResumption()
    {
        return std::exchange(m_resumption, std::nullopt);
    }

private:
    SessionChoice m_choice;
    QString m_resumeId;
    QString m_forkMessage;
    bool m_persist;
    QString m_sessionPath;
    QString m_chosenPath;
    std::optional<AgentCore::SessionResumption> m_resumption;
};

/// After a crash or kill -9, the next run points at the session AgentDesk ended in the middle of
/// (AgentCore::SessionStore::newestInterrupted), as the window's bar does: one line on stderr
/// with its id, task and how to go on with it. \a running: the session this run uses (not
/// pointed at); may be empty.
void pointAtInterruptedSession(const QString &repositoryRoot, const QString &running);

} // namespace App
