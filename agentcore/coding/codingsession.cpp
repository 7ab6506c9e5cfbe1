#include "codingsession.h"

#include "sessionstatefile.h"
#include "subagentrelay.h"

#include <checkpoint/checkpointstore.h>
#include <context/compaction.h>
#include <hooks/hookseams.h>
#include <loop/agent.h>
#include <loop/toolcallids.h>
#include <permissions/alwaysallow.h>
#include <permissions/permissionsessionstate.h>
#include <permissions/permissionsettings.h>
#include <permissions/projecttrust.h>
#include <session/sessionrecorder.h>
#include <session/sessionstore.h>
#include <tools/filechange.h>
#include <tools/sandboxcaches.h>
#include <tools/sandboxnotice.h>

#include <QCoreApplication>
#include <QDir>
#include <QFutureWatcher>
#include <QMutex>
#include <QPointer>
#include <QSettings>
#include <QStandardPaths>
#include <QUuid>
#include <QtConcurrent/QtConcurrentRun>

#include <limits>
#include <utility>

namespace AgentCore {

/// What the agent's worker, tool and summary threads report, waiting for the session's thread.
/// A report is told after the agent events emitted before it was made (a hook that ran for a
/// call after the call's start: its card exists) and before those emitted after it. The loop's
/// events come in batches that a report's queued call can overtake or fall behind, so each
/// report remembers how many events were posted when it was made, and waits for them to be
/// delivered (deliverDue), by its queued call or around the next event. Shared with the
/// callbacks given to the assembly: they may outlive the session, and then what they post is
/// dropped.
class CodingSession::Inbox final : public std::enable_shared_from_this<Inbox>
{
public:
    explicit Inbox(CodingSession *session)
        : m_session(session)
    {}

    /// The session's thread, once the agent is made: what is posted from then on waits for
    /// the events posted before it.
    void setEventCounter(std::function<quint64()> postedEvents)
    {
        const QMutexLocker locker(&m_mutex);
        m_postedEvents = std::move(postedEvents);
    }

    /// Any thread.
    void post(std::function<void(CodingSession &)> report)
    {
        {
            const QMutexLocker locker(&m_mutex);
            const quint64 after = m_postedEvents ? m_postedEvents() : 0;
            m_reports.append({after, std::move(report)});
        }
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [inbox = shared_from_this()] { inbox->deliverDue(); },
            Qt::QueuedConnection);
    }

    /// The session's thread: in order, the reports made after at most \a deliveredEvents
    /// events; the others wait. Default: as many as the agent delivered.
    void deliverDue(std::optional<quint64> deliveredEvents = std::nullopt)
    {
        if (!m_session)
            return;
        const quint64 delivered = deliveredEvents      ? *deliveredEvents
                                  : m_session->m_agent ? m_session->m_agent->deliveredEventCount()
                                                       : std::numeric_limits<quint64>::max();
        // One at a time: a report's signal may spin an event loop that delivers the next.
        while (m_session) {
            std::function<void(CodingSession &)> report;
            {
                const QMutexLocker locker(&m_mutex);
                if (m_reports.isEmpty() || m_reports.first().after > delivered)
                    return;
                report = m_reports.takeFirst().run;
            }
            report(*m_session);
        }
    }

    /// The session's thread: everything posted, whatever events it waits for (a checkpoint
    /// that belongs before agent_end, hooks that ran while the agent was idle).
    void deliver() { deliverDue(std::numeric_limits<quint64>::max()); }

private:
    struct Report
    {
        quint64 after = 0; // the events posted when it was made
        std::function<void(CodingSession &)> run;
    };

    QPointer<CodingSession> m_session; // read on the session's thread only
    QMutex m_mutex;
    std::function<quint64()> m_postedEvents; // under m_mutex
    QList<Report> m_reports;                 // under m_mutex
};

CodingSessionFile CodingSessionFile::takeOver(const QString &path, SessionLog::Contents contents)
{
    CodingSessionFile file;
    file.path = path;
    QString error;
    bool busy = false;
    file.resumption = SessionResumption::takeOver(path, &error, &busy, &contents);
    // A copy (Qt's lists are shared, so it costs little): the recorder adopting the
    // resumption keeps its branches (SessionLog::Contents::tree).
    if (file.resumption)
        file.resumed = file.resumption->contents;
    else
        file.resumed = std::move(contents);
    if (!file.resumption && busy)
        file.readOnlyReason = error;
    else if (!file.resumption)
        file.resumed->warnings.append(error);
    return file;
}

CodingAgentOptions CodingSession::defaultOptions()
{
    CodingAgentOptions options;
    options.permissions.userSettingsPath = PermissionSettings::userSettingsPath();
    options.permissions.projectTrustPath = ProjectTrust::defaultStorePath();
    const QString appLocalData = QStandardPaths::writableLocation(
        QStandardPaths::AppLocalDataLocation);
    // AgentDesk's own files outside the repository: the app's settings, sessions, audit logs.
    options.permissions.protectedPaths = {QSettings().fileName(),
                                          QStandardPaths::writableLocation(
                                              QStandardPaths::AppDataLocation),
                                          appLocalData};
    options.permissions.auditLogPath = AuditLog::newDefaultPath();
    options.sandbox.hiddenPaths = SandboxPolicy::defaultHiddenPaths(QDir::homePath());
    // The key file of the window's file key store lives there, beside the app's settings.
    options.sandbox.hiddenPaths.append(
        QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation));
    // npm, pip and cargo write their caches: privately, so they work and nothing leaks out.
    options.sandbox.privatePaths = SandboxCaches::defaultPaths(QDir::homePath());
    // Also unattended: a journal an interrupted apply left is finished before anything runs.
    options.shellWrites.folder = appLocalData + QStringLiteral("/shell-writes");
    options.checkpoints.storeRoot = CheckpointStore::defaultStoreRoot();
    options.checkpoints.prune = true;
    options.userCommandsFolder = CustomCommands::userFolder();
    options.userSkillsFolder = Skills::userFolder();
    options.subagents.userFolder = SubagentTypes::userFolder();
    return options;
}

CodingSession::CodingSession(CodingAgentOptions options,
                             CodingSessionFile file,
                             bool interactive,
                             QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_file(std::move(file))
    , m_interactive(interactive)
    , m_id(m_file.path.isEmpty() ? QUuid::createUuid().toString(QUuid::WithoutBraces)
                                 : SessionStore::idOf(m_file.path))
    , m_inbox(std::make_shared<Inbox>(this))
    , m_subagents(std::make_unique<SubagentRelay>(
          [this](const SubagentEvent &event) { onSubagentEvent(event); }))
{
    qRegisterMetaType<AgentCore::SubagentEvent>();
    if (m_file.resumed)
        m_state = SessionState::fromJson(m_file.resumed->state);
    // The resumed file's stubs are indexed already; a new file's results are as it is written.
    if (m_file.resumed && m_file.resumed->pages)
        m_pages = m_file.resumed->pages;
    else if (!m_file.path.isEmpty())
        m_pages = std::make_shared<SessionPages>(m_file.path);
    m_options.pages = m_pages;
    // A session's requests share OpenAI's cache routing (its id, so a resumed session keeps it).
    m_options.provider.promptCacheKey = m_id;
    m_options.hooks.sessionId = m_id;
    m_options.hooks.transcriptPath = m_file.path;

    // The reports come from tool and worker threads: each goes through the inbox and is
    // emitted as the signal of the same name.
    const std::weak_ptr<Inbox> inbox = m_inbox;
    const auto post = [inbox](std::function<void(CodingSession &)> report) {
        if (const std::shared_ptr<Inbox> alive = inbox.lock())
            alive->post(std::move(report));
    };
    CodingAgentReports &reports = m_options.reports;
    reports.auditLogFailed = [post](const QString &message) {
        post([message](CodingSession &session) { emit session.auditLogFailed(message); });
    };
    reports.unattendedDenied = [post](const QString &message) {
        post([message](CodingSession &session) { emit session.unattendedDenied(message); });
    };
    reports.fileChanged = [post](const FileChange &change) {
        post([change](CodingSession &session) { emit session.fileChanged(change); });
    };
    reports.sandboxUnavailable = [post](const QString &message) {
        post([message](CodingSession &session) { emit session.sandboxUnavailable(message); });
    };
    reports.shellWritesUnavailable = [post](const QString &message) {
        post([message](CodingSession &session) { emit session.shellWritesUnavailable(message); });
    };
    reports.checkpoints.recorded = [post](const Checkpoint &checkpoint) {
        post([checkpoint](CodingSession &session) {
            // The state lists each checkpoint: at once where a person may close the window
            // mid-turn; a run without one writes them at its end (onEvent), so while a turn
            // waits for the model its file changes only with the conversation (another run
            // refused its lock sees it unchanged).
            if (session.m_interactive && session.m_recorder)
                session.m_recorder->refreshState();
            emit session.checkpointRecorded(checkpoint);
        });
    };
    reports.subagentEvent = [post](const SubagentEvent &event) {
        post([event](CodingSession &session) { session.m_subagents->child(event); });
    };
    reports.toolsLoaded = [post](const QStringList &loaded) {
        post([loaded](CodingSession &session) {
            session.m_state.loadedTools = loaded;
            session.writeState(SessionState::loadedToolsKey);
        });
    };
    reports.hookRan = [post](const HookRun &run) {
        post([run](CodingSession &session) { emit session.hookRan(run); });
    };
    reports.checkpoints.failed = [post](const QString &problem) {
        post([problem](CodingSession &session) { emit session.checkpointFailed(problem); });
    };
    reports.checkpoints.repaired = [post](const QString &message) {
        post([message](CodingSession &session) { emit session.checkpointRepaired(message); });
    };
}

CodingSession::~CodingSession()
{
    m_assembly.waitForFinished();
    m_expansionAbort.abort(); // a `!` line waiting for an answer gives up
    m_expansion.waitForFinished();
    m_rewindFiles.waitForFinished(); // files half restored must not be left to a dead session
    // The manager may outlive the session (the loop's hooks share it): it must not report.
    if (m_parts.context)
        m_parts.context->setEvents({});
    if (m_parts.checkpoints) {
        m_parts.checkpoints->setEvents({});
        m_parts.checkpoints->waitForIdle();
    }
    // The recorder writes the last state (a queue edited after the last turn) from the agent.
    m_recorder.reset();
    m_agent.reset(); // joins the worker while the asker still answers (with a deny)
    // The session's background commands end with it (a dev server the model started is not
    // left running after the window's session is closed or a headless run ends).
    if (m_parts.shells)
        m_parts.shells->stopAll();
    if (m_parts.hooks && m_parts.hooks->has(HookEventName::SessionEnd)) {
        // Nobody waits for it: on the global pool, which the application waits for at its end.
        m_hookAbort.abort();
        (void) QtConcurrent::run([hooks = m_parts.hooks] {
            hooks->run(HookEventName::SessionEnd,
                       {},
                       {{QStringLiteral("reason"), QStringLiteral("other")}});
        });
    }
}

void CodingSession::setModelClient(std::shared_ptr<ModelClient> model,
                                   std::function<std::shared_ptr<ModelClient>()> summaries)
{
    m_model = std::move(model);
    m_summaries = std::move(summaries);
}

void CodingSession::open()
{
    if (m_opened)
        return;
    m_opened = true;
    m_assembly = QtConcurrent::run([options = m_options] {
        auto parts = std::make_shared<CodingAgent>(CodingAgent::assemble(options));
        // Said before the first command runs, not after: the probe is here, off this thread.
        const SandboxPolicy sandbox = parts->workspace->sandboxPolicy();
        if (sandbox.mode != SandboxMode::Off) {
            const SandboxDecision decision = sandbox.decide();
            if (!decision.sandboxed())
                parts->workspace->noteSandboxUnavailable(
                    SandboxNotice::text(decision, sandbox.bwrapPath));
        }
        return parts;
    });
    // Handed back through a watcher, which always reports from this thread's event loop: Qt
    // 6.4's QFuture::then(context, ...) calls the continuation at once when the future has
    // already finished (the assembly won the race on a loaded machine), so ready() came from
    // inside open(), before a front end that opens the session in its constructor had
    // connected to it. The watcher is a child: a session gone first drops the result.
    auto *watcher = new QFutureWatcher<std::shared_ptr<CodingAgent>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher] {
        watcher->deleteLater();
        assembled(std::move(*watcher->result()));
    });
    watcher->setFuture(m_assembly);
}

void CodingSession::assembled(CodingAgent parts)
{
    m_parts = std::move(parts);
    if (m_model) {
        m_parts.config.loop.model = m_model;
        // Summaries run on a thread of their own, on whatever model the session uses then.
        if (m_parts.context) {
            m_parts.context->setModelFactory(m_summaries ? m_summaries
                                                         : [model = m_model] { return model; });
        }
        // Children run on tool threads, as summaries do on theirs.
        if (m_parts.subagents) {
            m_parts.subagents->setModelFactory(m_summaries ? m_summaries
                                                           : [model = m_model] { return model; });
        }
    }
    if (m_parts.context) {
        const std::weak_ptr<Inbox> inbox = m_inbox;
        const auto post = [inbox](std::function<void(CodingSession &)> report) {
            if (const std::shared_ptr<Inbox> alive = inbox.lock())
                alive->post(std::move(report));
        };
        ContextManager::Events events;
        events.started = [post](bool waiting) {
            post([waiting](CodingSession &session) { emit session.compactionStarted(waiting); });
        };
        if (m_parts.hooks) {
            // The automatic one starts inside the request pipeline, on the loop's thread, its
            // summary already under way: the hooks are not waited for there and cannot block
            // it (the request must go on); their outcome is reported like any hook's
            // (hookRan). Asked each time: project hooks trusted later run too.
            events.automaticStarted = [hooks = m_parts.hooks] {
                if (!hooks->has(HookEventName::PreCompact))
                    return;
                (void) QtConcurrent::run([hooks] {
                    hooks->run(HookEventName::PreCompact,
                               QStringLiteral("auto"),
                               {{QStringLiteral("trigger"), QStringLiteral("auto")},
                                {QStringLiteral("custom_instructions"), QString()}});
                });
            };
        }
        events.finished = [post](const Message &compaction, bool manual) {
            if (!manual)
                return; // the loop appended it: it arrives as a message event
            post([compaction](CodingSession &session) { session.appendCompaction(compaction); });
        };
        events.failed = [post](const QString &problem) {
            post([problem](CodingSession &session) { emit session.compactionFailed(problem); });
        };
        m_parts.context->setEvents(events);
        if (m_file.resumed)
            m_parts.context->setEdits(m_state.contextEdits);
    }
    if (m_parts.checkpoints) {
        m_parts.checkpoints->setSessionId(m_id);
        m_parts.checkpoints->setCheckpoints(m_state.checkpoints);
    }
    if (m_file.resumed)
        m_parts.config.history = m_file.resumed->messages;
    // A run's results, once in the session file, stay there: the history keeps their stubs.
    if (m_pages && !isReadOnly()) {
        const auto pageOut = [pages = m_pages](const QList<Message> &conversation) {
            return pages->pagedOut(conversation);
        };
        m_parts.config.pageOut = pageOut;      // the agent's history, as each run ends
        m_parts.config.loop.pageOut = pageOut; // the run's own, as each turn starts
    }
    if (m_parts.deferral)
        m_parts.deferral->restore(m_state.loadedTools);
    m_systemPrompt = m_parts.config.systemPrompt;
    for (const AgentToolPtr &tool : std::as_const(m_parts.config.tools)) {
        m_toolDefinitions.append(tool->definition());
        if (tool->kind() == ToolKind::Bash)
            m_bash = tool;
    }
    m_middlewares = m_parts.config.loop.middlewares;
    // What changed while the agent was assembled.
    setSandbox(m_options.sandbox.mode, m_options.sandbox.allowNetwork);
    m_parts.policy->setNetworkRules(PermissionOptions::networkRulesSource(),
                                    m_options.permissions.networkRules);
    m_agent = std::make_unique<Agent>(std::move(m_parts.config));
    m_inbox->setEventCounter(m_agent->postedEventCount());

    QStringList warnings;
    if (m_file.resumed) {
        resume();
        warnings = m_file.resumed->warnings;
    }
    if (!m_file.path.isEmpty() && !isReadOnly())
        startRecording();
    connect(m_agent.get(), &Agent::eventEmitted, this, &CodingSession::onEvent);

    for (const QString &message : std::as_const(m_parts.warnings))
        emit warning(message);
    if (!m_parts.untrustedGrants.isEmpty())
        emit projectTrustNeeded(m_parts.untrustedGrants);
    if (!m_unconfirmed->isEmpty())
        emit sessionRulesNeedConfirmation(*m_unconfirmed);
    for (const QString &message : std::as_const(warnings))
        emit warning(message);
    emit ready();
    runSessionStartHooks();
    performWaiting();
}

// SessionStart hooks run before the first prompt is sent: their additionalContext goes with it.
void CodingSession::runSessionStartHooks()
{
    if (!m_parts.hooks || isReadOnly() || !m_parts.hooks->has(HookEventName::SessionStart))
        return;
    m_hooksRunning = true;
    const QString source = m_file.resumed ? QStringLiteral("resume") : QStringLiteral("startup");
    auto *watcher = new QFutureWatcher<HookOutcome>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher] {
        watcher->deleteLater();
        const HookOutcome outcome = watcher->result();
        m_inbox->deliver(); // the runs are told first
        m_hooksRunning = false;
        if (m_hookAbort.isAborted())
            m_hookAbort = AbortToken();
        m_sessionContext += outcome.additionalContext;
        for (const QString &message : outcome.userMessages)
            emit warning(message);
        performWaiting();
    });
    watcher->setFuture(QtConcurrent::run([hooks = m_parts.hooks, source, abort = m_hookAbort] {
        return hooks->run(HookEventName::SessionStart,
                          source,
                          {{QStringLiteral("source"), source}},
                          abort);
    }));
}

// UserPromptSubmit hooks see the prompt before the agent does (off this thread): exit 2 or a
// block refuses it, their additionalContext goes with it. What is sent meanwhile waits.
void CodingSession::runPromptHooks(Action action,
                                   const QString &text,
                                   const QList<ContentBlock> &pictures)
{
    m_hooksRunning = true;
    auto *watcher = new QFutureWatcher<HookOutcome>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, action, text, pictures] {
        watcher->deleteLater();
        const HookOutcome outcome = watcher->result();
        m_inbox->deliver(); // the runs are told first
        m_hooksRunning = false;
        for (const QString &message : outcome.userMessages)
            emit warning(message);
        if (m_hookAbort.isAborted()) {
            // stop() meanwhile: the prompt goes with what waited.
            m_hookAbort = AbortToken();
            return;
        }
        if (outcome.blocked || outcome.stop) {
            QString reason = outcome.blocked ? outcome.blockReason : outcome.stopReason;
            if (reason.isEmpty())
                reason = tr("a UserPromptSubmit hook refused the prompt");
            emit promptRefused(text, reason);
        } else {
            QString prompt = text;
            const QStringList context = std::exchange(m_sessionContext, {})
                                        + outcome.additionalContext;
            if (!context.isEmpty())
                prompt += QStringLiteral("\n\n")
                          + hookContextText(HookEventName::UserPromptSubmit, context);
            performNow(action, prompt, pictures);
        }
        performWaiting();
    });
    watcher->setFuture(QtConcurrent::run([hooks = m_parts.hooks, text, abort = m_hookAbort] {
        return hooks->run(HookEventName::UserPromptSubmit,
                          {},
                          {{QStringLiteral("prompt"), text}},
                          abort);
    }));
}

void CodingSession::performWaiting()
{
    const auto waiting = std::exchange(m_waiting, {});
    const auto pictures = std::exchange(m_waitingPictures, {});
    for (qsizetype i = 0; i < waiting.size(); ++i)
        perform(waiting.at(i).first, waiting.at(i).second, pictures.value(i));
}

void CodingSession::resume()
{
    // Read-only, the queues stay with the window that has the session: run here too, they
    // would run twice, and nothing of it would be kept.
    QJsonObject state = m_file.resumed->state;
    if (isReadOnly()) {
        for (const char *key : {"steering", "leftoverSteering", "followUps"})
            state.remove(QLatin1String(key));
    }
    const PermissionMode mode = m_parts.policy->mode();
    QStringList warnings;
    const QList<PermissionRule> unconfirmed = SessionStateFile::restore(state,
                                                                        *m_agent,
                                                                        *m_parts.policy,
                                                                        &warnings);
    m_file.resumed->warnings = warnings + m_file.resumed->warnings;
    // Nothing runs read-only: the rules are the other window's to ask about. The allow rules
    // wait for the user in any case: a session file is data anyone or any tool may have
    // written.
    if (!isReadOnly())
        *m_unconfirmed = unconfirmed;
    if (m_interactive) {
        // The file's bypass waits for the person (bypassUnconfirmed); the mode before it
        // applies meanwhile.
        if (m_parts.policy->mode() == PermissionMode::Bypass && mode != PermissionMode::Bypass
            && !isReadOnly()) {
            m_parts.policy->setMode(mode);
            m_bypassUnconfirmed = true;
        }
        m_options.permissions.mode = m_parts.policy->mode(); // the session's, kept over a reload
    }
    if (!m_interactive) {
        // Nobody is there: the mode is the command line's and settings', and the window's
        // follow-up queue waits for the window, paused, never run unattended.
        m_parts.policy->setMode(mode);
        if (!m_agent->followUpQueue().isEmpty())
            m_agent->setFollowUpsPaused(true);
    }
}

void CodingSession::startRecording()
{
    // Before the front end's handler, so a message is on disk when the front end hears of it.
    // The resumed session's repair is written before anything else: the file then tells the
    // interrupted run's end.
    m_recorder.reset(SessionStateFile::record(m_agent.get(),
                                              m_parts.policy,
                                              m_file.path,
                                              m_file.header,
                                              m_file.resumed ? m_file.resumed->state : QJsonObject(),
                                              std::exchange(m_file.resumption, std::nullopt),
                                              nullptr,
                                              m_parts.checkpoints,
                                              m_unconfirmed,
                                              m_pages));
    const QJsonObject values = m_state.recorderValues();
    for (auto it = values.begin(); it != values.end(); ++it)
        m_recorder->setStateValue(it.key(), it.value());
    connect(m_recorder.get(), &SessionRecorder::failed, this, &CodingSession::warning);
}

void CodingSession::send(const QString &text, const QList<ContentBlock> &pictures)
{
    perform(Action::Send, text, pictures);
}

void CodingSession::steer(const QString &text, const QList<ContentBlock> &pictures)
{
    perform(Action::Steer, text, pictures);
}

void CodingSession::followUp(const QString &text, const QList<ContentBlock> &pictures)
{
    perform(Action::FollowUp, text, pictures);
}

void CodingSession::perform(Action action, const QString &text, const QList<ContentBlock> &pictures)
{
    if (isReadOnly())
        return;
    if (!m_agent || m_rewinding || m_expanding || m_hooksRunning) {
        m_waiting.append({action, text});
        m_waitingPictures.resize(m_waiting.size() - 1);
        m_waitingPictures.append(pictures);
        return;
    }
    if (expandCommand(action, text, pictures))
        return;
    submit(action, text, pictures);
}

void CodingSession::submit(Action action, const QString &text, const QList<ContentBlock> &pictures)
{
    // A custom command is expanded first: the hooks see the prompt that goes to the model.
    if (m_parts.hooks && m_parts.hooks->has(HookEventName::UserPromptSubmit)) {
        runPromptHooks(action, text, pictures);
        return;
    }
    if (!m_sessionContext.isEmpty()) {
        performNow(action,
                   text + QStringLiteral("\n\n")
                       + hookContextText(HookEventName::SessionStart,
                                         std::exchange(m_sessionContext, {})),
                   pictures);
        return;
    }
    performNow(action, text, pictures);
}

bool CodingSession::expandCommand(Action action,
                                  const QString &text,
                                  const QList<ContentBlock> &pictures)
{
    const std::optional<CustomCommandInvocation> invocation = CustomCommandInvocation::parse(text);
    const CustomCommand *found = invocation ? m_parts.commands.find(invocation->name) : nullptr;
    if (!found)
        return false; // any other text that starts with '/' goes as it is
    CommandExpansionTools tools;
    tools.workspace = m_parts.workspace;
    tools.policy = m_parts.policy;
    m_expansionAbort = AbortToken();
    const AbortToken abort = m_expansionAbort;
    if (m_bash) {
        tools.runShellLine =
            [bash = m_bash, middlewares = m_middlewares, abort](const QString &command) {
                return runShellLine(bash, middlewares, command, abort);
            };
    }
    m_expanding = true;
    m_expansion = QtConcurrent::run([command = *found, invocation = *invocation, tools, abort] {
        return expandCustomCommand(command, invocation, tools, abort);
    });
    // A watcher, not then(): see open(). A child: a session gone first drops the result.
    auto *watcher = new QFutureWatcher<CommandExpansion>(this);
    connect(watcher,
            &QFutureWatcherBase::finished,
            this,
            [this, watcher, action, abort, pictures, name = found->name] {
                watcher->deleteLater();
                const CommandExpansion expansion = watcher->result();
                m_expanding = false;
                // Stopped: nothing goes (what waited went with the stop; what came after it
                // goes now), and the front end hears that nothing went.
                if (abort.isAborted() || !expansion.ok()) {
                    emit commandFailed(
                        tr("/%1 was not sent: %2")
                            .arg(name, abort.isAborted() ? tr("stopped") : expansion.error));
                } else {
                    emit commandExpanded(name, expansion);
                    submit(action, expansion.text, pictures);
                }
                performWaiting();
            });
    watcher->setFuture(m_expansion);
    return true;
}

void CodingSession::performNow(Action action,
                               const QString &text,
                               const QList<ContentBlock> &pictures)
{
    // The pictures before the text: Anthropic finds images best placed before the question.
    Message message = Message::makeUser(text);
    message.content = pictures + message.content;
    switch (action) {
    case Action::Send:
        if (m_agent->prompt(QList<Message>{message}) == Agent::PromptResult::Busy)
            m_agent->steer(message);
        break;
    case Action::Steer:
        if (m_agent->isIdle())
            m_agent->prompt(QList<Message>{message});
        else
            m_agent->steer(message);
        break;
    case Action::FollowUp:
        if (m_agent->isIdle())
            m_agent->prompt(QList<Message>{message});
        else
            m_agent->followUp(message);
        break;
    }
}

void CodingSession::stop()
{
    if (m_parts.context)
        m_parts.context->abort(); // a summary being written stops with the agent
    m_waiting.clear(); // what waits for ready() or for a rewind's files goes with the stop
    m_waitingPictures.clear();
    m_expansionAbort.abort(); // a command being expanded is not sent
    if (m_hooksRunning)
        m_hookAbort.abort(); // the prompt a hook is looking at goes too
    if (m_agent && !m_agent->isIdle())
        m_agent->abort();
}

void CodingSession::stopSubagent(const QStringList &path)
{
    if (m_parts.subagents)
        m_parts.subagents->stop(path);
}

void CodingSession::onSubagentEvent(const SubagentEvent &event)
{
    // Each child's transcript is kept under its path, its prompt first.
    if (m_recorder && event.event.type == AgentEvent::Type::MessageEnd)
        m_recorder->recordSubagent(event.key(), event.event.message);
    emit subagentEvent(event);
}

void CodingSession::onEvent(const AgentEvent &event)
{
    // What the other threads reported before this event was emitted is told first, and what
    // they reported after it, once it was told (the end of this function).
    const quint64 delivered = m_agent->deliveredEventCount();
    m_inbox->deliverDue(delivered);
    if (event.type == AgentEvent::Type::AgentEnd) {
        if (!m_interactive && m_parts.checkpoints) {
            // A snapshot still running belongs before the end.
            m_parts.checkpoints->waitForIdle();
            m_inbox->deliver();
        }
        // The state lists the checkpoints: the last ones now.
        if (m_recorder)
            m_recorder->refreshState();
        // What a summary lists as still to do.
        if (m_parts.context)
            m_parts.context->setFollowUpSource([queue = m_agent->followUpQueue()] { return queue; });
    }
    m_subagents->beforeParent(event);
    emit eventEmitted(event);
    m_subagents->afterParent(event);
    // A Bash command's reviewed writes changed files too: not through an effect hook (they
    // are applied after the command, by the review), but the result names them.
    if (event.type == AgentEvent::Type::ToolExecutionEnd) {
        const QList<FileChange> written = FileChange::ofShellWrites(event.result.details,
                                                                    m_options.repositoryRoot);
        for (const FileChange &change : written)
            emit fileChanged(change);
    }
    if (event.type == AgentEvent::Type::MessageEnd && Compaction::of(event.message))
        emit compacted(event.message, false);
    m_inbox->deliverDue(delivered + 1);
}

bool CodingSession::compactNow(const QString &instructions)
{
    if (!m_agent || !m_parts.context || isReadOnly())
        return false;
    if (!m_agent->isIdle()) {
        emit compactionFailed(tr("The agent is working: compact once it has finished."));
        return false;
    }
    if (m_rewinding) {
        emit compactionFailed(tr("A rewind is restoring the files: compact once it has "
                                 "finished."));
        return false;
    }
    if (m_hooksRunning) {
        emit compactionFailed(tr("A hook is running: compact once it has finished."));
        return false;
    }
    if (m_parts.hooks && m_parts.hooks->has(HookEventName::PreCompact)) {
        runPreCompactHooks(instructions);
        return true;
    }
    Context conversation;
    conversation.messages = m_agent->messages();
    return m_parts.context->compactNow(conversation, instructions);
}

// PreCompact hooks before a "compact now" (off this thread): exit 2, a block or `continue:
// false` keeps the conversation as it is, the reason told as the compaction's failure.
void CodingSession::runPreCompactHooks(const QString &instructions)
{
    m_hooksRunning = true;
    auto *watcher = new QFutureWatcher<HookOutcome>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, instructions] {
        watcher->deleteLater();
        const HookOutcome outcome = watcher->result();
        m_inbox->deliver(); // the runs are told first
        m_hooksRunning = false;
        for (const QString &message : outcome.userMessages)
            emit warning(message);
        if (m_hookAbort.isAborted()) {
            m_hookAbort = AbortToken();
            emit compactionFailed(tr("The compaction was stopped; the conversation is "
                                     "unchanged."));
        } else if (outcome.blocked || outcome.stop) {
            QString reason = outcome.blocked ? outcome.blockReason : outcome.stopReason;
            if (reason.isEmpty())
                reason = tr("a PreCompact hook refused the compaction");
            emit compactionFailed(reason);
        } else if (!m_agent->isIdle()) {
            emit compactionFailed(tr("The agent is working: compact once it has finished."));
        } else {
            Context conversation;
            conversation.messages = m_agent->messages();
            m_parts.context->compactNow(conversation, instructions);
        }
        performWaiting();
    });
    watcher->setFuture(QtConcurrent::run([hooks = m_parts.hooks, instructions, abort = m_hookAbort] {
        return hooks->run(HookEventName::PreCompact,
                          QStringLiteral("manual"),
                          {{QStringLiteral("trigger"), QStringLiteral("manual")},
                           {QStringLiteral("custom_instructions"), instructions}},
                          abort);
    }));
}

// A summary "compact now" asked for: appended while idle, after the messages it was made from
// (append-only, so they are still there unless the conversation was replaced).
void CodingSession::appendCompaction(const Message &compaction)
{
    const std::optional<Compaction> read = Compaction::of(compaction);
    if (!m_agent || !m_agent->isIdle() || !read || read->coveredCount > m_agent->messages().size()) {
        emit compactionFailed(tr("The summary was not applied: the conversation changed while it "
                                 "was written. Compact again."));
        return;
    }
    if (!appendMarker(compaction)) {
        emit compactionFailed(tr("The summary was not applied: the agent started working. "
                                 "Compact again once it has finished."));
        return;
    }
    emit compacted(compaction, true);
}

QString CodingSession::rewindRefusal() const
{
    if (isReadOnly())
        return m_file.readOnlyReason;
    if (!m_agent)
        return tr("The agent is still starting: rewind once it is ready.");
    if (!m_agent->isIdle())
        return tr("The agent is working: stop it or wait until it has finished, then rewind.");
    if (m_rewinding)
        return tr("A rewind is restoring the files: wait until it has finished.");
    return {};
}

void CodingSession::rewindWithFiles(Rewind rewind, RestoreFiles restoreFiles, RewindDone done)
{
    if (const QString refusal = rewindRefusal(); !refusal.isEmpty()) {
        done(false, rewind, refusal);
        return;
    }
    m_rewinding = true;
    m_rewindFiles = QtConcurrent::run([rewind, restoreFiles = std::move(restoreFiles)]() mutable {
        const RewindFilesResult files = restoreFiles(rewind);
        return std::pair{rewind, files};
    });
    // A watcher, not then(): see open(). A child: a session gone first records nothing.
    auto *watcher = new QFutureWatcher<std::pair<Rewind, RewindFilesResult>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, done] {
        watcher->deleteLater();
        const auto [restored, files] = watcher->result();
        m_rewinding = false;
        QString problem = files.problem;
        bool recorded = false;
        if (files.restored) {
            QString error;
            recorded = this->rewind(restored, &error);
            if (!recorded)
                problem = problem.isEmpty() ? error : problem + u'\n' + error;
        }
        done(recorded, restored, problem);
        performWaiting(); // on the rewound conversation
    });
    watcher->setFuture(m_rewindFiles);
}

bool CodingSession::rewind(const Rewind &rewind, QString *error)
{
    QString problem = rewindRefusal();
    if (problem.isEmpty() && (rewind.toIndex < 0 || rewind.toIndex > m_agent->messages().size()))
        problem = tr("That point is no longer in the conversation.");
    // A summary still being written was made of what may now be rewound.
    if (problem.isEmpty() && m_parts.context && rewind.rewindsConversation())
        m_parts.context->abort();
    if (problem.isEmpty() && !appendMarker(rewind.toMessage()))
        problem = tr("The agent started working: rewind once it has finished.");
    if (!problem.isEmpty()) {
        if (error)
            *error = problem;
        return false;
    }
    emit rewound(rewind);
    return true;
}

QString CodingSession::branchRefusal() const
{
    if (isReadOnly())
        return m_file.readOnlyReason;
    if (!m_agent)
        return tr("The agent is still starting: switch branches once it is ready.");
    if (!m_agent->isIdle() || m_expanding || m_hooksRunning)
        return tr("The agent is working: stop it or wait until it has finished, then switch "
                  "branches.");
    if (m_rewinding)
        return tr("A rewind is restoring the files: wait until it has finished.");
    if (!m_recorder || !m_recorder->activeLeaf())
        return tr("This conversation is not recorded in a session file, so it keeps no "
                  "branches.");
    return {};
}

SessionTree CodingSession::branches() const
{
    return m_recorder ? m_recorder->tree() : SessionTree();
}

QStringList CodingSession::activeBranch() const
{
    const std::optional<QString> leaf = m_recorder ? m_recorder->activeLeaf() : std::nullopt;
    if (!leaf)
        return {};
    const QStringList path = m_recorder->tree().pathTo(*leaf);
    // Only when it is the agent's history (a message that could not be written is not in it).
    return m_agent && path.size() == m_agent->messages().size() ? path : QStringList();
}

bool CodingSession::switchBranch(const QString &leaf, QString *error)
{
    QString problem = branchRefusal();
    if (problem.isEmpty() && !leaf.isEmpty() && !m_recorder->tree().contains(leaf))
        problem = tr("That branch is not in this session.");
    // The history becomes the branch's, so the loop sees it as a resumed session would; its
    // stubs are known by the ids it gives them.
    QList<Message> branch;
    if (problem.isEmpty())
        branch = ToolCallIds::madeUnique(m_recorder->tree().messagesTo(leaf));
    if (problem.isEmpty() && m_pages && m_agent->isIdle())
        m_pages->indexBranch(m_recorder->tree().pathTo(leaf), branch);
    if (problem.isEmpty() && !m_agent->setMessages(branch))
        problem = tr("The agent started working: switch branches once it has finished.");
    if (problem.isEmpty() && !m_recorder->switchBranch(leaf))
        problem = tr("The switch could not be written to the session file.");
    if (!problem.isEmpty()) {
        if (error)
            *error = problem;
        return false;
    }
    // A summary being written was made of the branch left behind.
    if (m_parts.context)
        m_parts.context->abort();
    emit branchSwitched();
    return true;
}

bool CodingSession::forkAt(qsizetype index, QString *error)
{
    QString problem = branchRefusal();
    const QStringList path = activeBranch();
    if (problem.isEmpty() && path.isEmpty() && !m_agent->messages().isEmpty())
        problem = tr("The session file does not hold this conversation's branches (a message "
                     "could not be written).");
    else if (problem.isEmpty() && (index < -1 || index >= path.size()))
        problem = tr("That point is no longer in the conversation.");
    if (!problem.isEmpty()) {
        if (error)
            *error = problem;
        return false;
    }
    return switchBranch(index < 0 ? QString() : path.at(index), error);
}

bool CodingSession::editAndResend(qsizetype index,
                                  const QString &text,
                                  const QList<ContentBlock> &pictures,
                                  QString *error)
{
    if (m_agent
        && (index < 0 || index >= m_agent->messages().size()
            || !m_agent->messages().at(index).isUser())) {
        if (error)
            *error = tr("Only a message you wrote can be edited and sent again.");
        return false;
    }
    if (!forkAt(index - 1, error))
        return false;
    send(text, pictures);
    return true;
}

bool CodingSession::appendMarker(const Message &marker)
{
    if (!m_agent)
        return false;
    QList<Message> messages = m_agent->messages();
    messages.append(marker);
    if (!m_agent->setMessages(messages))
        return false;
    if (m_recorder)
        m_recorder->record({marker});
    AgentEvent event;
    event.type = AgentEvent::Type::MessageEnd;
    event.message = marker;
    emit eventEmitted(event); // shown as the loop's messages are
    return true;
}

void CodingSession::writeState(QLatin1StringView key)
{
    if (!m_recorder)
        return;
    // An emptied value replaces the one on disk (a sent draft must not come back).
    const QJsonValue value = m_state.recorderValues().value(key);
    if (!value.isUndefined())
        m_recorder->setStateValue(key, value);
    else if (key == SessionState::titleKey || key == SessionState::draftKey)
        m_recorder->setStateValue(key, QString());
    else if (key == SessionState::contextEditsKey)
        m_recorder->setStateValue(key, ContextEdits().toJson());
}

void CodingSession::setTitle(const QString &title)
{
    m_state.title = title.simplified();
    writeState(SessionState::titleKey);
}

void CodingSession::setDraft(const QString &draft)
{
    m_state.draft = draft;
    writeState(SessionState::draftKey);
}

void CodingSession::setModelState(const QJsonValue &model)
{
    m_state.model = model;
    writeState(SessionState::modelKey);
}

void CodingSession::setWorktree(const std::optional<SessionWorktree> &worktree)
{
    m_state.worktree = worktree;
    writeState(SessionWorktree::stateKey);
}

bool CodingSession::setContextEdits(const ContextEdits &edits)
{
    if (!m_parts.context || isReadOnly())
        return false;
    m_state.contextEdits = edits;
    m_parts.context->setEdits(edits);
    writeState(SessionState::contextEditsKey);
    return true;
}

PermissionMode CodingSession::permissionMode() const
{
    if (m_parts.policy)
        return m_parts.policy->mode();
    return m_options.permissions.mode.value_or(PermissionMode::Default);
}

void CodingSession::setPermissionMode(PermissionMode mode)
{
    m_bypassUnconfirmed = false;
    if (m_parts.policy)
        m_parts.policy->setMode(mode);
    m_options.permissions.mode = mode;
    if (m_recorder)
        m_recorder->refreshState();
}

void CodingSession::setSandbox(SandboxMode mode, bool allowNetwork)
{
    m_options.sandbox.mode = mode;
    m_options.sandbox.allowNetwork = allowNetwork;
    if (!m_parts.workspace)
        return; // assembled with m_options
    SandboxPolicy policy = m_parts.workspace->sandboxPolicy();
    policy.mode = mode;
    policy.allowNetwork = allowNetwork;
    m_parts.workspace->setSandboxPolicy(policy);
}

void CodingSession::setNetworkRules(const QList<PermissionRule> &rules)
{
    m_options.permissions.networkRules = rules;
    if (m_parts.policy)
        m_parts.policy->setNetworkRules(PermissionOptions::networkRulesSource(), rules);
}

QStringList CodingSession::trustProjectSettings()
{
    if (!m_parts.policy || m_parts.untrustedGrants.isEmpty())
        return m_parts.untrustedGrants;
    QString error;
    const PermissionOptions &permissions = m_options.permissions;
    if (!permissions.projectTrustPath.isEmpty()
        && !ProjectTrust::remember(permissions.projectTrustPath,
                                   m_options.repositoryRoot,
                                   m_parts.untrustedGrants,
                                   &error))
        emit warning(error);
    // Exactly what the user saw: a grant the files gained since then stays out.
    const ProjectTrust trust = ProjectTrust::of(
        ProjectTrust::load(permissions.projectTrustPath, m_options.repositoryRoot).grants()
        + m_parts.untrustedGrants);
    QStringList warnings;
    m_parts.policy->loadSettings(permissions.userSettingsPath, &warnings, trust);
    if (permissions.mode)
        m_parts.policy->setMode(*permissions.mode);
    m_parts.untrustedGrants = m_parts.policy->untrustedGrants();
    if (m_parts.hooks) {
        m_parts.hooks->trust(trust.grants());
        m_parts.untrustedGrants += m_parts.hooks->untrustedGrants();
    }
    for (const QString &message : std::as_const(warnings))
        emit warning(message);
    return m_parts.untrustedGrants;
}

bool CodingSession::alwaysAllow(const PermissionRule &rule, QString *error)
{
    if (!m_parts.policy) {
        *error = tr("The agent is still starting.");
        return false;
    }
    // A small settings file, as the trust store: written here, not on the worker.
    return AgentCore::alwaysAllow(*m_parts.policy,
                                  rule,
                                  {},
                                  m_options.permissions.projectTrustPath,
                                  error);
}

void CodingSession::keepSessionRules()
{
    if (!m_parts.policy || m_unconfirmed->isEmpty())
        return;
    grantSessionRules(std::exchange(*m_unconfirmed, {}), *m_parts.policy);
    if (m_recorder)
        m_recorder->refreshState();
}

void CodingSession::dropSessionRules()
{
    if (m_unconfirmed->isEmpty())
        return;
    m_unconfirmed->clear();
    if (m_recorder)
        m_recorder->refreshState();
}

} // namespace AgentCore

#include "moc_codingsession.cpp"
