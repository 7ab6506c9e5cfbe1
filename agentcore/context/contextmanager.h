#pragma once

#include "compaction.h"
#include "compactionplan.h"
#include "contextedits.h"
#include "runningestimate.h"
#include "tokenestimate.h"

#include <loop/agentloop.h>
#include <loop/messagepages.h>

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>

namespace AgentCore {

/// How a session's context is kept within the model's window.
struct ContextSettings
{
    /// The model's context window; 0 when unknown (a local model nobody told us about): then
    /// nothing is compacted automatically before a request, only on the provider's overflow
    /// and when the user asks.
    qint64 windowTokens = 0;
    /// Kept free for the reply; 0: a quarter of the window, at most 16,000 tokens.
    qint64 outputReserveTokens = 0;
    bool autoCompact = true; ///< false: only "compact now"; an overflow ends the run
    /// A summary starts in the background once a request passes this share of the usable
    /// window (the window less the output reserve).
    double backgroundThreshold = 0.7;
    /// The most recent turns kept verbatim, in tokens; 0: a fifth of the window.
    qint64 keepRecentTokens = 0;

    qint64 outputReserve() const;
    qint64 usableTokens() const; ///< window less the output reserve; 0 when the window is unknown
    qint64 keepRecent() const;
};

/// Keeps one session's context from running out: decides when to compact, runs the summary
/// request on a thread of its own, and hands the loop the compaction at a turn boundary
/// (through the seams of AgentLoopConfig that installInto() sets). One per session; shared
/// by the loop's hooks and its owner (std::shared_ptr). Every public function is thread-safe.
///
/// Automatic: before each request (beforeRequest) it counts the request (the last reply's
/// reported tokens and the calibrated estimate since, context/tokenestimate.h). Past
/// backgroundThreshold it starts a summary of the part planCompaction() cuts off while the
/// agent keeps working; a summary that is ready is appended before the next request, if the
/// part it summarised is still the conversation's (append-only, so unless the conversation
/// was replaced) and it makes the request smaller. Only a request that would not fit the
/// usable window waits for a summary (abortably; Events::started says so). A provider's
/// context overflow compacts the same way and the loop sends the turn again once.
///
/// The summary request goes through a ModelClient the factory makes on the summary thread
/// (an HttpModelClient creates its network access on the thread that first calls it, and the
/// loop's worker is busy): one client per summary, destroyed on that thread. A summary that
/// fails, is aborted, comes back empty or would not make the request smaller changes nothing
/// and is reported (Events::failed); the session goes on uncompacted, and the next attempt
/// waits until the conversation has grown.
class ContextManager final
{
public:
    using ModelFactory = std::function<std::shared_ptr<ModelClient>()>;

    /// What a window or a headless stream shows. Called on the summary thread or the loop's
    /// thread (never the caller's of a public function, except compactNow's failure): marshal
    /// to your own thread. Never called after the destructor returned.
    struct Events
    {
        /// A summary request started: \a waiting true when the loop waits for it (the request
        /// would not fit the window, or the provider said it did not), false in the background
        /// or for compactNow.
        std::function<void(bool waiting)> started;
        /// An automatic summary request started (called just before started): for what
        /// runs then without holding the loop up (PreCompact hooks, "auto").
        std::function<void()> automaticStarted;
        /// A compaction is done: appended by the loop (\a manual false; it also arrives as a
        /// message event), or, from compactNow, for the caller to append (\a manual true).
        std::function<void(const Message &compaction, bool manual)> finished;
        /// A summary failed, was stopped, came back empty or would not have made the request
        /// smaller; \a problem says which, for people. History is unchanged.
        std::function<void(const QString &problem)> failed;
    };

    ContextManager(const ContextSettings &settings, ModelFactory makeModel);
    ~ContextManager(); ///< stops a summary in flight and joins its thread

    /// Sets contextView, beforeRequest and onContextOverflow of \a loop to this manager's: a
    /// RequestPipeline of its two stages (ContextViewStage, CompactionStage, contextstages.h),
    /// for a loop that needs nothing else. The hooks keep the manager alive.
    static void installInto(const std::shared_ptr<ContextManager> &manager, AgentLoopConfig &loop);

    void setEvents(const Events &events);
    ContextSettings settings() const;
    void setSettings(const ContextSettings &settings);
    void setModelFactory(ModelFactory makeModel);
    /// The follow-up queue, for the summary to list (e.g. Agent::followUpQueue, thread-safe).
    void setFollowUpSource(std::function<QList<Message>()> source);
    /// Where the stubs of the conversation (Message::isPaged) are read back whole: a summary
    /// is written from the whole outputs, read on the summary's thread. Null: none is.
    void setPages(std::shared_ptr<const MessagePages> pages);
    ContextEdits edits() const;
    /// Drops and pins; the next request sees them. The session keeps them (ContextEdits::toJson).
    void setEdits(const ContextEdits &edits);

    /// What a request carries for \a conversation: contextView() with the current edits.
    QList<Message> view(const QList<Message> &conversation) const;
    /// How full a request for \a conversation is (system prompt and tools included).
    ContextTokens countTokens(const Context &conversation) const;
    /// What "compact now" would summarise and keep; nullopt when nothing can be.
    std::optional<CompactionPlan> preview(const QList<Message> &conversation) const;
    /// Starts a summary of \a conversation now (with the user's \a instructions), whether or
    /// not automatic compaction is on. Its message comes through Events::finished (manual):
    /// append it to the conversation the plan was made from (Agent::setMessages while idle).
    /// false (and Events::failed) when a summary is already running or nothing can be compacted.
    bool compactNow(const Context &conversation, const QString &instructions = {});
    /// Stops the summary in flight, if any, at once (its failure is reported).
    void abort();
    bool isCompacting() const;

    // The loop's hooks (AgentLoopConfig), public for tests.
    QList<Message> beforeRequest(const Context &conversation, const AbortToken &abort);
    std::optional<Message> onContextOverflow(const Message &overflow,
                                             const Context &conversation,
                                             const AbortToken &abort);

private:
    struct Job;
    using Lock = std::unique_lock<std::mutex>;

    std::shared_ptr<Job> startJob(Lock &lock,
                                  const Context &conversation,
                                  const CompactionPlan &plan,
                                  const QString &instructions,
                                  bool manual,
                                  bool waiting);
    /// Waits until the job is done or \a abort fires (then stops the job).
    bool waitFor(Lock &lock, const std::shared_ptr<Job> &job, const AbortToken &abort);
    /// The finished automatic job's compaction if it still applies to \a conversation; the
    /// job is gone afterwards; failures are reported through \a problem.
    std::optional<Message> takeResult(Lock &lock,
                                      const std::shared_ptr<Job> &job,
                                      const Context &conversation,
                                      QString *problem);
    void reportFailure(const QString &problem) const;

    mutable std::mutex m_mutex;
    std::condition_variable m_jobDone;
    ContextSettings m_settings;
    ModelFactory m_makeModel;
    Events m_events;
    std::function<QList<Message>()> m_followUps;
    std::shared_ptr<const MessagePages> m_pages;
    ContextEdits m_edits;
    TokenCalibration m_calibration;
    RunningEstimate m_estimate;
    qint64 m_lastEstimate = 0;      // the estimate of the request before the latest reply
    qint64 m_calibratedReply = -1;  // the raw index of the reply last used to calibrate
    qsizetype m_retryAfterSize = 0; // a failed summary: not again before the conversation grew
    std::shared_ptr<Job> m_job;
};

} // namespace AgentCore
