#include "contextmanager.h"
#include "translation.h"

#include "contextstages.h"
#include "summaryprompt.h"

#include <QCoreApplication>

#include <algorithm>
#include <chrono>
#include <exception>
#include <thread>

namespace AgentCore {

namespace {

// A failed summary is tried again only once the conversation grew by this many messages, so a
// model that can not summarise is not asked before every request.
constexpr qsizetype retryAfterMessages = 4;

qsizetype lastReplyWithUsage(const QList<Message> &messages)
{
    for (qsizetype i = messages.size() - 1; i >= 0; --i) {
        if (messages.at(i).isAssistant() && reportedInputTokens(messages.at(i)) > 0)
            return i;
    }
    return -1;
}
} // namespace

qint64 ContextSettings::outputReserve() const
{
    if (outputReserveTokens > 0)
        return outputReserveTokens;
    return std::min<qint64>(windowTokens / 4, 16'000);
}

qint64 ContextSettings::usableTokens() const
{
    return windowTokens > 0 ? std::max<qint64>(windowTokens - outputReserve(), 0) : 0;
}

qint64 ContextSettings::keepRecent() const
{
    if (keepRecentTokens > 0)
        return keepRecentTokens;
    return windowTokens > 0 ? windowTokens / 5 : 8'000;
}

struct ContextManager::Job
{
    AbortToken abort;
    QList<Message> prefix; // the raw messages [0, coveredCount) the summary stands in for
    ContextEdits edits;    // the edits the plan was made with
    qsizetype conversationSize = 0;
    CompactionPlan plan;
    QString instructions;
    bool manual = false;
    bool done = false;
    std::optional<Compaction> result;
};

ContextManager::ContextManager(const ContextSettings &settings, ModelFactory makeModel)
    : m_settings(settings)
    , m_makeModel(std::move(makeModel))
{}

ContextManager::~ContextManager()
{
    Lock lock(m_mutex);
    if (const std::shared_ptr<Job> job = m_job; job && !job->done) {
        job->abort.abort();
        m_jobDone.wait(lock, [&job] { return job->done; });
    }
}

void ContextManager::installInto(const std::shared_ptr<ContextManager> &manager,
                                 AgentLoopConfig &loop)
{
    RequestPipeline()
        .add(std::make_shared<ContextViewStage>(manager))
        .add(std::make_shared<CompactionStage>(manager))
        .installInto(loop);
}

void ContextManager::setEvents(const Events &events)
{
    const std::lock_guard guard(m_mutex);
    m_events = events;
}

ContextSettings ContextManager::settings() const
{
    const std::lock_guard guard(m_mutex);
    return m_settings;
}

void ContextManager::setSettings(const ContextSettings &settings)
{
    const std::lock_guard guard(m_mutex);
    m_settings = settings;
}

void ContextManager::setModelFactory(ModelFactory makeModel)
{
    const std::lock_guard guard(m_mutex);
    m_makeModel = std::move(makeModel);
}

void ContextManager::setPages(std::shared_ptr<const MessagePages> pages)
{
    const std::lock_guard guard(m_mutex);
    m_pages = std::move(pages);
}

void ContextManager::setFollowUpSource(std::function<QList<Message>()> source)
{
    const std::lock_guard guard(m_mutex);
    m_followUps = std::move(source);
}

ContextEdits ContextManager::edits() const
{
    const std::lock_guard guard(m_mutex);
    return m_edits;
}

void ContextManager::setEdits(const ContextEdits &edits)
{
    const std::lock_guard guard(m_mutex);
    m_edits = edits;
}

QList<Message> ContextManager::view(const QList<Message> &conversation) const
{
    ContextEdits edits;
    {
        const std::lock_guard guard(m_mutex);
        edits = m_edits;
    }
    return contextView(conversation, edits);
}

ContextTokens ContextManager::countTokens(const Context &conversation) const
{
    const std::lock_guard guard(m_mutex);
    Context request = conversation;
    request.messages = contextView(conversation.messages, m_edits);
    if (lastReplyWithUsage(conversation.messages) > latestViewChangeIndex(conversation.messages))
        return countContextTokens(request, m_calibration);
    ContextTokens tokens;
    tokens.estimated = m_calibration.correct(estimateTokens(request));
    tokens.total = tokens.estimated;
    return tokens;
}

std::optional<CompactionPlan> ContextManager::preview(const QList<Message> &conversation) const
{
    const std::lock_guard guard(m_mutex);
    return planCompaction(conversation, m_edits, m_settings.keepRecent());
}

bool ContextManager::isCompacting() const
{
    const std::lock_guard guard(m_mutex);
    return m_job && !m_job->done;
}

void ContextManager::abort()
{
    const std::lock_guard guard(m_mutex);
    if (m_job && !m_job->done)
        m_job->abort.abort();
}

bool ContextManager::compactNow(const Context &conversation, const QString &instructions)
{
    Lock lock(m_mutex);
    if (m_job && m_job->done)
        m_job.reset(); // a background summary nobody took: this one replaces it
    QString problem;
    if (m_job) {
        problem = ContextTr::tr("A compaction is already running.");
    } else if (const std::optional<CompactionPlan> plan = planCompaction(conversation.messages,
                                                                         m_edits,
                                                                         m_settings.keepRecent())) {
        startJob(lock, conversation, *plan, instructions, true, false);
        return true;
    } else {
        problem = ContextTr::tr(
            "Nothing to compact yet: the conversation is only its latest turn.");
    }
    lock.unlock();
    reportFailure(problem);
    return false;
}

QList<Message> ContextManager::beforeRequest(const Context &conversation, const AbortToken &abort)
{
    Lock lock(m_mutex);
    const QList<Message> &messages = conversation.messages;
    const qsizetype reply = lastReplyWithUsage(messages);
    if (reply > m_calibratedReply) {
        if (m_lastEstimate > 0)
            m_calibration.observe(m_lastEstimate, reportedInputTokens(messages.at(reply)));
        m_calibratedReply = reply;
    }

    std::shared_ptr<Job> job = m_job;
    if (job && job->done && !job->manual) {
        QString problem;
        std::optional<Message> compaction = takeResult(lock, job, conversation, &problem);
        if (compaction) {
            m_lastEstimate = 0; // the next reply answers a request this estimate was not of
            const Events events = m_events;
            lock.unlock();
            if (events.finished)
                events.finished(*compaction, false);
            return {*compaction};
        }
        lock.unlock();
        reportFailure(problem);
        lock.lock();
    }

    Context request = conversation;
    request.messages = contextView(messages, m_edits);
    m_lastEstimate = m_estimate.estimate(request, messages, m_edits);
    const qint64 usable = m_settings.usableTokens();
    if (!m_settings.autoCompact || usable <= 0)
        return {};
    const qint64 tokens = reply > latestViewChangeIndex(messages)
                              ? countContextTokens(request, m_calibration).total
                              : m_calibration.correct(m_lastEstimate);
    const bool mustWait = tokens > usable;
    bool startedNow = false;
    if (!m_job && messages.size() >= m_retryAfterSize
        && (mustWait || double(tokens) >= m_settings.backgroundThreshold * double(usable))) {
        if (const std::optional<CompactionPlan> plan = planCompaction(messages,
                                                                      m_edits,
                                                                      m_settings.keepRecent())) {
            startJob(lock, conversation, *plan, {}, false, mustWait);
            startedNow = true;
        }
    }
    job = m_job;
    if (!mustWait || !job || job->manual)
        return {};

    const Events events = m_events;
    if (!startedNow) {
        lock.unlock();
        if (events.started)
            events.started(true);
        lock.lock();
    }
    if (!waitFor(lock, job, abort))
        return {};
    QString problem;
    std::optional<Message> compaction = takeResult(lock, job, conversation, &problem);
    lock.unlock();
    if (!compaction) {
        reportFailure(problem);
        return {};
    }
    m_lastEstimate = 0;
    if (events.finished)
        events.finished(*compaction, false);
    return {*compaction};
}

std::optional<Message> ContextManager::onContextOverflow(const Message &,
                                                         const Context &conversation,
                                                         const AbortToken &abort)
{
    Lock lock(m_mutex);
    if (!m_settings.autoCompact)
        return std::nullopt;
    if (m_job && m_job->done && !m_job->manual) {
        // Ready but not applied: made for a prefix that may no longer be the one to cut.
        QString problem;
        const std::shared_ptr<Job> ready = m_job;
        if (std::optional<Message> compaction = takeResult(lock, ready, conversation, &problem)) {
            const Events events = m_events;
            lock.unlock();
            if (events.finished)
                events.finished(*compaction, false);
            return compaction;
        }
    }
    bool startedNow = false;
    if (!m_job) {
        // The request did not fit: keep less than usual verbatim, at most a quarter of it.
        Context request = conversation;
        request.messages = contextView(conversation.messages, m_edits);
        const qint64 keep = std::min(m_settings.keepRecent(), estimateTokens(request) / 4);
        const std::optional<CompactionPlan> plan = planCompaction(conversation.messages,
                                                                  m_edits,
                                                                  keep);
        if (!plan) {
            lock.unlock();
            reportFailure(
                ContextTr::tr("The request did not fit the model's context window, and there "
                              "is nothing older to compact."));
            return std::nullopt;
        }
        startJob(lock, conversation, *plan, {}, false, true);
        startedNow = true;
    }
    const std::shared_ptr<Job> job = m_job;
    if (!job || job->manual)
        return std::nullopt;
    const Events events = m_events;
    if (!startedNow) {
        lock.unlock();
        if (events.started)
            events.started(true);
        lock.lock();
    }
    if (!waitFor(lock, job, abort))
        return std::nullopt;
    QString problem;
    std::optional<Message> compaction = takeResult(lock, job, conversation, &problem);
    lock.unlock();
    if (!compaction) {
        reportFailure(problem);
        return std::nullopt;
    }
    if (events.finished)
        events.finished(*compaction, false);
    return compaction;
}

std::shared_ptr<ContextManager::Job> ContextManager::startJob(Lock &lock,
                                                              const Context &conversation,
                                                              const CompactionPlan &plan,
                                                              const QString &instructions,
                                                              bool manual,
                                                              bool waiting)
{
    auto job = std::make_shared<Job>();
    job->prefix = conversation.messages.mid(0, plan.coveredCount);
    job->edits = m_edits;
    job->conversationSize = conversation.messages.size();
    job->plan = plan;
    job->instructions = instructions;
    job->manual = manual;
    m_job = job;

    const QList<Message> followUps = m_followUps ? m_followUps() : QList<Message>{};
    const ModelFactory makeModel = m_makeModel;
    const Events events = m_events;
    const std::shared_ptr<const MessagePages> pages = m_pages;
    const qint64 usableTokens = m_settings.usableTokens();
    const QList<Message> summarised = plan.summarised;
    // A thread of its own, not the global pool (docs/architecture.md, "Threads"): the request
    // may wait minutes on the network and must not hold one of the pool's few threads.
    // Detached: the destructor waits for done, the thread's last touch of this object.
    std::thread(
        [this, job, makeModel, events, pages, usableTokens, summarised, followUps, instructions] {
            Message reply;
            QString problem;
            std::shared_ptr<ModelClient> client;
            try {
                // Built here: the outputs kept in the session file are read back whole first
                // (off the thread that asked, which may be the window's), and the summary is
                // written from what the model saw.
                const Context request = summaryContext(MessagePages::whole(summarised, pages.get()),
                                                       instructions,
                                                       followUps,
                                                       usableTokens);
                if (makeModel)
                    client = makeModel();
                if (!client)
                    problem = ContextTr::tr("No model is available to write the summary.");
                else
                    reply = client->complete(request, job->abort, {});
            } catch (const std::exception &error) {
                problem = ContextTr::tr("The summary request failed: %1")
                              .arg(QString::fromUtf8(error.what()));
            } catch (...) {
                problem = ContextTr::tr("The summary request failed.");
            }
            client.reset(); // on the thread that made it (its network access lives here)
            if (!problem.isEmpty()) {
            } else if (job->abort.isAborted() || reply.stopReason == StopReason::Aborted) {
                problem = ContextTr::tr(
                    "The compaction was stopped; the conversation is unchanged.");
            } else if (reply.stopReason == StopReason::Error
                       || reply.stopReason == StopReason::ContextOverflow
                       || reply.stopReason == StopReason::Refusal) {
                problem = ContextTr::tr(
                              "The summary request failed (%1); the conversation is unchanged.")
                              .arg(reply.errorMessage.isEmpty() ? stopReasonName(reply.stopReason)
                                                                : reply.errorMessage);
            } else if (reply.text().trimmed().isEmpty()) {
                problem = ContextTr::tr(
                    "The model returned an empty summary; the conversation is unchanged.");
            }
            std::optional<Compaction> result;
            if (problem.isEmpty()) {
                Compaction compaction;
                compaction.summary = reply.text().trimmed();
                compaction.coveredCount = job->plan.coveredCount;
                compaction.instructions = job->instructions;
                compaction.api = reply.api;
                compaction.provider = reply.provider;
                compaction.model = reply.model;
                compaction.usage = reply.usage;
                compaction.usage += reply.discardedUsage;
                result = compaction;
            }
            if (!problem.isEmpty()) {
                if (events.failed)
                    events.failed(problem);
            } else if (job->manual && events.finished) {
                events.finished(result->toMessage(), true);
            }
            const std::lock_guard guard(m_mutex);
            job->result = result;
            job->done = true;
            if (m_job == job && (job->manual || !result)) {
                m_job.reset();
                if (!result && !job->manual)
                    m_retryAfterSize = job->conversationSize + retryAfterMessages;
            }
            // Under the lock: once the destructor sees done, this thread touches nothing of it.
            m_jobDone.notify_all();
        })
        .detach();

    lock.unlock();
    if (!manual && events.automaticStarted)
        events.automaticStarted();
    if (events.started)
        events.started(waiting);
    lock.lock();
    return job;
}

bool ContextManager::waitFor(Lock &lock, const std::shared_ptr<Job> &job, const AbortToken &abort)
{
    using namespace std::chrono_literals;
    while (!job->done) {
        if (abort.isAborted()) {
            job->abort.abort();
            m_jobDone.wait(lock, [&job] { return job->done; });
            return false;
        }
        // The run's token has no waiter to wake here: look at it every few milliseconds.
        m_jobDone.wait_for(lock, 5ms);
    }
    return job->result.has_value();
}

std::optional<Message> ContextManager::takeResult(Lock &,
                                                  const std::shared_ptr<Job> &job,
                                                  const Context &conversation,
                                                  QString *problem)
{
    if (m_job == job)
        m_job.reset();
    if (!job->result)
        return std::nullopt; // its failure was reported when it happened
    const QList<Message> &messages = conversation.messages;
    const bool prefixKept = messages.size() >= job->prefix.size()
                            && std::equal(job->prefix.cbegin(),
                                          job->prefix.cend(),
                                          messages.cbegin())
                            && job->edits == m_edits;
    if (!prefixKept) {
        *problem = ContextTr::tr(
            "The summary was not applied: the conversation it summarised changed "
            "while it was written.");
        return std::nullopt;
    }
    Message compaction = job->result->toMessage();
    Context before = conversation;
    before.messages = contextView(messages, m_edits);
    Context after = conversation;
    after.messages = contextView(messages + QList<Message>{compaction}, m_edits);
    if (estimateTokens(after) >= estimateTokens(before)) {
        m_retryAfterSize = messages.size() + retryAfterMessages;
        *problem = ContextTr::tr("The summary was not applied: it would not have made the context "
                                 "smaller.");
        return std::nullopt;
    }
    return compaction;
}

void ContextManager::reportFailure(const QString &problem) const
{
    if (problem.isEmpty())
        return;
    Events events;
    {
        const std::lock_guard guard(m_mutex);
        events = m_events;
    }
    if (events.failed)
        events.failed(problem);
}

} // namespace AgentCore
