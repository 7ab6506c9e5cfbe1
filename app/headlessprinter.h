#pragma once

#include "commandline.h"

#include <checkpoint/checkpoint.h>
#include <hooks/hookrunner.h>
#include <loop/agenttypes.h>
#include <loop/messagepages.h>
#include <loop/subagentevent.h>

#include <QJsonObject>

#include <functional>
#include <memory>

namespace App {

/// One line on stderr, "agentdesk: TEXT"; never interleaved with another line (stdout's or
/// stderr's) written from any thread.
void headlessStderr(const QString &text);
/// Bytes on stdout, flushed; never interleaved with another line.
void headlessStdout(const QByteArray &bytes);
/// The last assistant message of a run's \a messages; null when there is none.
const AgentCore::Message *lastAssistant(const QList<AgentCore::Message> &messages);

/// What agentdesk --print shows of a session: every event as a stream-json line
/// (docs/stream-json.md), or the answer on stdout and the activity on stderr (text); the
/// compactions and checkpoints; and the run's end. Told on the session's thread, in order.
class HeadlessPrinter final
{
public:
    /// \a startInfo: what agent_start carries beyond the event (repository, model, session, MCP
    /// servers), asked when it comes. \a exitCode: the run's exit code for its new messages.
    HeadlessPrinter(OutputFormat format,
                    int maxTurns,
                    std::function<QJsonObject()> startInfo,
                    std::function<int(const QList<AgentCore::Message> &)> exitCode);

    void event(const AgentCore::AgentEvent &event);
    /// Where the stubs of agent_end's new messages are read back (the session's pages): the
    /// stream-json output carries whole messages. Null: none is read back (a stub then says
    /// that it is one).
    void setPages(std::shared_ptr<const AgentCore::MessagePages> pages)
    {
        m_pages = std::move(pages);
    }
    /// A subagent's event: in stream-json the event's line with `parent_tool_use_id` (the Task
    /// call that started the subagent), `subagentPath` and `subagentType`; nothing in text (the
    /// Task call's own line marks it).
    void subagentEvent(const AgentCore::SubagentEvent &event);
    void compactionStarted(bool waiting);
    void compactionFailed(const QString &problem);
    /// A compaction the loop appended (after its message event).
    void compacted(const AgentCore::Message &message);
    void checkpointRecorded(const AgentCore::Checkpoint &checkpoint);
    void checkpointFailed(const QString &problem);
    /// A hook ran: a "hook" line (stream-json); in text, a hook that blocked or failed is said
    /// on stderr.
    void hookRan(const AgentCore::HookRun &run);
    /// Said after agent_end: why the run ended when it was not natural (\a signalNumber: the
    /// signal that interrupted it, 0 for none), where it was kept (\a sessionId, text only),
    /// and the answer (text, when \a code is success).
    void finish(const QList<AgentCore::Message> &newMessages,
                int signalNumber,
                int code,
                const QString &sessionId);
    bool isFinished() const { return m_finished; }

private:
    void textActivity(const AgentCore::AgentEvent &event);

    OutputFormat m_format;
    int m_maxTurns;
    std::function<QJsonObject()> m_startInfo;
    std::function<int(const QList<AgentCore::Message> &)> m_exitCode;
    bool m_finished = false;
    std::shared_ptr<const AgentCore::MessagePages> m_pages;
    AgentCore::Usage m_subagentUsage; // of the run going on, told with its agent_end
};

} // namespace App
