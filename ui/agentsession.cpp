#include "agentsession.h"

#include <ai/switchablemodelclient.h>
#include <coding/sessionstatefile.h>
#include <context/compaction.h>
#include <context/contextview.h>
#include <context/rewind.h>
#include <loop/agent.h>
#include <permissions/alwaysallow.h>
#include <permissions/permissionbroker.h>
#include <permissions/permissionsessionstate.h>
#include <permissions/projecttrust.h>
#include <session/sessionstore.h>
#include <tools/sandboxnotice.h>

#include <QApplication>
#include <QFileInfo>
#include <QJsonObject>
#include <QPointer>
#include <QUuid>

#include <utility>

namespace Ui {

using AgentCore::AgentEvent;

namespace {
const QLatin1String modelKey("model");
const QLatin1String titleKey("title");
const QLatin1String draftKey("draft");
const QLatin1String contextEditsKey("contextEdits");
// How long the draft waits after a keystroke before it is written.
constexpr int draftDelayMs = 1000;
} // namespace

AgentSession::AgentSession(AgentCore::CodingAgentOptions options,
                           ModelChoice model,
                           SessionFile file,
                           QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_model(std::move(model))
    , m_file(std::move(file))
    , m_promptCacheKey(m_file.path.isEmpty() ? QUuid::createUuid().toString(QUuid::WithoutBraces)
                                             : AgentCore::SessionStore::idOf(m_file.path))
    , m_switch(std::make_shared<AgentCore::SwitchableModelClient>())
    , m_broker(new AgentCore::PermissionBroker(this))
{
    applyModel();
    m_draftTimer = new QTimer(this);
    m_draftTimer->setSingleShot(true);
    m_draftTimer->setInterval(draftDelayMs);
    connect(m_draftTimer, &QTimer::timeout, this, &AgentSession::writeDraft);
    if (!m_file.worktreeProblem.isEmpty()) {
        // Its worktree is gone or moved: it must not run, and not in the main checkout instead.
        m_readOnlyReason = m_file.worktreeProblem;
    } else if (m_file.resumed && !m_file.path.isEmpty()) {
        // The session's lock, taken now: the window must know before anything is typed
        // whether it may add to the session.
        QString error;
        bool busy = false;
        m_resumption = AgentCore::SessionResumption::takeOver(m_file.path,
                                                              &error,
                                                              &busy,
                                                              &*m_file.resumed);
        if (m_resumption)
            m_file.resumed = std::move(m_resumption->contents);
        else if (busy)
            m_readOnlyReason = error;
        else
            m_warnings.append(error);
    }
    if (m_file.resumed) {
        m_title = m_file.resumed->state.value(titleKey).toString();
        m_draft = m_file.resumed->state.value(draftKey).toString();
        // The results in the file carry what the effect hook was given live.
        for (const AgentCore::Message &message : std::as_const(m_file.resumed->messages)) {
            if (!message.isToolResult() || message.isError)
                continue;
            if (const auto change = AgentCore::FileChange::fromDetails(message.details))
                noteChange(*change);
        }
        m_conversation = m_file.resumed->messages;
        remeasure();
    }
    // The broker is a QObject of this thread, shared with the tool threads through a
    // non-owning pointer: the session outlives the Agent (a child, deleted first) and so the
    // tool calls that might ask.
    m_options.asker = std::shared_ptr<AgentCore::PermissionAsker>(m_broker,
                                                                  [](AgentCore::PermissionAsker *) {
                                                                  });
    // Called on a tool thread; the Agent (and its tool threads) ends before the session.
    m_options.onAuditError = [this](const QString &message) {
        QMetaObject::invokeMethod(this, [this, message] { emit warning(message); });
    };
    m_options.onSandboxUnavailable = [this](const QString &message) {
        QMetaObject::invokeMethod(this, [this, message] { emit sandboxUnavailable(message); });
    };
    // The same: the loop's afterEffect hook, the one place that sees every write, whatever
    // the tool is called.
    m_options.onFileChanged = [this](const AgentCore::FileChange &change) {
        QMetaObject::invokeMethod(this, [this, change] { noteChange(change); });
    };
    // The destructor joins this thread, so `this` is alive when it posts; a call still
    // queued when the session is destroyed is dropped with it.
    m_assembly = std::thread([this, options = m_options] {
        AgentCore::CodingAgent parts = AgentCore::CodingAgent::assemble(options);
        // Said before the first command runs, not after: the probe is here, off the UI thread.
        const AgentCore::SandboxPolicy sandbox = parts.workspace->sandboxPolicy();
        if (sandbox.mode != AgentCore::SandboxMode::Off) {
            const AgentCore::SandboxDecision decision = sandbox.decide();
            if (!decision.sandboxed())
                parts.workspace->noteSandboxUnavailable(
                    AgentCore::SandboxNotice::text(decision, sandbox.bwrapPath));
        }
        QMetaObject::invokeMethod(
            this,
            [this, parts = std::move(parts)]() mutable { assembled(std::move(parts)); },
            Qt::QueuedConnection);
    });
}

AgentSession::~AgentSession()
{
    if (m_assembly.joinable())
        m_assembly.join();
    if (m_draftTimer->isActive())
        writeDraft();
    // The recorder writes the last state (a queue edited after the last turn) from the agent.
    delete m_recorder;
    m_recorder = nullptr;
    delete m_agent; // joins the worker while the broker still answers (with a deny)
    m_agent = nullptr;
}

void AgentSession::assembled(AgentCore::CodingAgent parts)
{
    if (m_assembly.joinable())
        m_assembly.join();
    m_policy = parts.policy;
    m_workspace = parts.workspace;
    setSandbox(m_options.sandbox.mode, m_options.sandbox.allowNetwork); // changed meanwhile?
    setNetworkRules(m_options.networkRules);
    m_warnings = parts.warnings + m_warnings; // the session file's come after
    m_untrustedGrants = parts.untrustedGrants;
    // One client for the whole session, so the model can change between requests. The
    // command line's provider is what it calls when nothing else was chosen.
    parts.config.loop.model = m_switch;
    // Summaries run on a thread of their own, on whatever model the session uses then.
    parts.context->setModelFactory([model = m_switch] { return model->snapshot(); });
    m_context = parts.context;
    // The manager calls these on its own threads, and may outlive the session (the loop's hooks
    // share it): each goes to the UI thread and finds the session there if it is still alive.
    const QPointer<AgentSession> self(this);
    AgentCore::ContextManager::Events events;
    events.started = [self](bool waiting) {
        QMetaObject::invokeMethod(qApp, [self, waiting] {
            if (self)
                emit self->compactionStarted(waiting);
        });
    };
    events.finished = [self](const AgentCore::Message &compaction, bool manual) {
        if (!manual)
            return; // the loop appended it: it arrives as a message event
        QMetaObject::invokeMethod(qApp, [self, compaction] {
            if (self)
                self->appendCompaction(compaction);
        });
    };
    events.failed = [self](const QString &problem) {
        QMetaObject::invokeMethod(qApp, [self, problem] {
            if (self)
                emit self->compactionFailed(problem);
        });
    };
    m_context->setEvents(events);
    if (m_file.resumed) {
        m_context->setEdits(AgentCore::ContextEdits::fromJson(
            m_file.resumed->state.value(contextEditsKey).toObject()));
    }
    if (m_file.resumed)
        parts.config.history = m_file.resumed->messages;
    m_checkpoints = parts.checkpoints;
    if (m_checkpoints) {
        m_checkpoints->setSessionId(m_promptCacheKey); // the session file's id
        if (m_file.resumed)
            AgentCore::SessionStateFile::restoreCheckpoints(m_file.resumed->state, *m_checkpoints);
        // From a worker or tool thread: the state lists each checkpoint; a failure is said.
        AgentCore::CheckpointRecorder::Events checkpointEvents;
        checkpointEvents.recorded = [self](const AgentCore::Checkpoint &) {
            QMetaObject::invokeMethod(qApp, [self] {
                if (self && self->m_recorder)
                    self->m_recorder->refreshState();
            });
        };
        checkpointEvents.failed = [self](const QString &problem) {
            QMetaObject::invokeMethod(qApp, [self, problem] {
                if (self)
                    emit self->warning(problem);
            });
        };
        checkpointEvents.repaired = checkpointEvents.failed; // said the same way

        m_checkpoints->setEvents(checkpointEvents);
    }

    m_instructions = parts.instructions;
    QList<AgentCore::ToolDefinition> tools;
    for (const AgentCore::AgentToolPtr &tool : std::as_const(parts.config.tools))
        tools.append(tool->definition());
    m_meter.setPreamble(parts.config.systemPrompt, tools);
    m_agent = new AgentCore::Agent(std::move(parts.config), this);
    if (m_file.resumed) {
        // Read-only, the queues stay with the window that has the session: run here too, they
        // would run twice, and nothing of it would be kept.
        QJsonObject state = m_file.resumed->state;
        if (isReadOnly()) {
            for (const char *key : {"steering", "leftoverSteering", "followUps"})
                state.remove(QLatin1String(key));
        }
        // Read-only, nothing runs here: the rules are the other window's to ask about.
        const QList<AgentCore::PermissionRule> unconfirmed
            = AgentCore::SessionStateFile::restore(state, *m_agent, *m_policy, &m_warnings);
        if (!isReadOnly())
            *m_unconfirmedRules = unconfirmed;
        m_warnings += m_file.resumed->warnings;
        m_options.permissionMode = m_policy->mode();
    }
    if (!m_file.path.isEmpty() && !isReadOnly()) {
        // Before the session's own handler, so a message is on disk when recorded() says so.
        // The resumed session's repair is written before anything else: the file then tells
        // the interrupted run's end.
        m_recorder = AgentCore::SessionStateFile::record(m_agent,
                                                         m_policy,
                                                         m_file.path,
                                                         m_file.header,
                                                         m_file.resumed ? m_file.resumed->state
                                                                        : QJsonObject(),
                                                         std::exchange(m_resumption, std::nullopt),
                                                         this,
                                                         m_checkpoints,
                                                         m_unconfirmedRules);
        if (const QJsonValue value = modelStateValue(); !value.isUndefined())
            m_recorder->setStateValue(modelKey, value);
        m_recorder->setStateValue(draftKey, m_draft);
        if (m_file.worktree) // a resumed session finds its worktree again
            m_recorder->setStateValue(AgentCore::SessionWorktree::stateKey,
                                      m_file.worktree->toJson());
        if (!m_title.isEmpty())
            m_recorder->setStateValue(titleKey, m_title);
        connect(m_recorder, &AgentCore::SessionRecorder::failed, this, &AgentSession::warning);
    }
    connect(m_agent, &AgentCore::Agent::eventEmitted, this, &AgentSession::onEvent);
    connect(m_agent, &AgentCore::Agent::idleChanged, this, [this](bool idle) {
        setState(idle ? State::Idle : State::Running);
    });
    setState(State::Idle);
    for (const QString &message : std::as_const(m_warnings))
        emit warning(message);
    emit permissionModeChanged(m_policy->mode());
    emit ready();
    emit contextChanged(); // the system prompt and the tools are known now
    if (!m_untrustedGrants.isEmpty())
        emit projectTrustNeeded(m_untrustedGrants);
    if (!m_unconfirmedRules->isEmpty())
        emit sessionRulesNeedConfirmation(unconfirmedSessionRules());

    const auto waiting = std::exchange(m_waiting, {});
    for (const auto &[action, text] : waiting)
        perform(action, text);
}

void AgentSession::send(const QString &text)
{
    perform(Action::Send, text);
}

void AgentSession::steer(const QString &text)
{
    perform(Action::Steer, text);
}

void AgentSession::followUp(const QString &text)
{
    perform(Action::FollowUp, text);
}

void AgentSession::perform(Action action, const QString &text)
{
    if (isReadOnly())
        return; // the window shows why; its Send is disabled
    if (!m_agent) {
        m_waiting.append({action, text});
        return;
    }
    if (m_sentFirst.isEmpty() && !text.trimmed().isEmpty())
        m_sentFirst = text;
    switch (action) {
    case Action::Send:
        if (m_agent->prompt(text) == AgentCore::Agent::PromptResult::Busy)
            m_agent->steer(text);
        break;
    case Action::Steer:
        // Steering an idle agent would leave the text waiting for a run nobody starts.
        if (m_agent->isIdle())
            m_agent->prompt(text);
        else
            m_agent->steer(text);
        break;
    case Action::FollowUp:
        if (m_agent->isIdle())
            m_agent->prompt(text);
        else
            m_agent->followUp(text);
        break;
    }
}

void AgentSession::stop()
{
    if (m_context)
        m_context->abort(); // a summary being written stops with the agent
    if (!m_agent) {
        m_waiting.clear();
        return;
    }
    if (m_state != State::Running)
        return;
    setState(State::Stopping);
    m_agent->abort();
}

AgentCore::PermissionMode AgentSession::permissionMode() const
{
    if (m_policy)
        return m_policy->mode();
    return m_options.permissionMode.value_or(AgentCore::PermissionMode::Default);
}

void AgentSession::setPermissionMode(AgentCore::PermissionMode mode)
{
    if (mode == permissionMode())
        return;
    if (m_policy)
        m_policy->setMode(mode);
    m_options.permissionMode = mode;
    if (m_recorder)
        m_recorder->refreshState();
    emit permissionModeChanged(mode);
}

void AgentSession::trustProjectSettings()
{
    if (!m_policy || m_untrustedGrants.isEmpty())
        return;
    QString error;
    if (!m_options.projectTrustPath.isEmpty()
        && !AgentCore::ProjectTrust::remember(m_options.projectTrustPath,
                                              m_options.repositoryRoot,
                                              m_untrustedGrants,
                                              &error))
        emit warning(error);
    // Exactly what the user saw: a grant the files gained since then stays out.
    const AgentCore::ProjectTrust trust = AgentCore::ProjectTrust::of(
        AgentCore::ProjectTrust::load(m_options.projectTrustPath, m_options.repositoryRoot).grants()
        + m_untrustedGrants);
    QStringList warnings;
    m_policy->loadSettings(m_options.userSettingsPath, &warnings, trust);
    if (m_options.permissionMode)
        m_policy->setMode(*m_options.permissionMode);
    m_untrustedGrants = m_policy->untrustedGrants();
    for (const QString &message : std::as_const(warnings))
        emit warning(message);
    emit permissionModeChanged(m_policy->mode());
}

QStringList AgentSession::unconfirmedSessionRules() const
{
    QStringList rules;
    for (const AgentCore::PermissionRule &rule : std::as_const(*m_unconfirmedRules))
        rules.append(AgentCore::sessionRuleText(rule));
    return rules;
}

void AgentSession::keepSessionRules()
{
    if (!m_policy || m_unconfirmedRules->isEmpty())
        return;
    AgentCore::grantSessionRules(std::exchange(*m_unconfirmedRules, {}), *m_policy);
    if (m_recorder)
        m_recorder->refreshState();
}

void AgentSession::dropSessionRules()
{
    if (m_unconfirmedRules->isEmpty())
        return;
    m_unconfirmedRules->clear();
    if (m_recorder)
        m_recorder->refreshState();
}

bool AgentSession::alwaysAllow(const AgentCore::PermissionRule &rule, QString *error)
{
    if (!m_policy) {
        *error = tr("The agent is still starting.");
        return false;
    }
    // A small settings file, as the trust store above: written here, not on the worker.
    return AgentCore::alwaysAllow(*m_policy, rule, {}, m_options.projectTrustPath, error);
}

void AgentSession::setModel(ModelChoice model)
{
    m_model = std::move(model);
    applyModel();
    if (const QJsonValue value = modelStateValue(); m_recorder && !value.isUndefined())
        m_recorder->setStateValue(modelKey, value);
    emit modelChanged(m_model);
}

void AgentSession::applyModel()
{
    if (!m_model.problem.isEmpty())
        m_switch->setUnavailable(m_model.problem);
    else if (m_model.pending)
        m_switch->setPending();
    else if (m_model.client)
        m_switch->setClient(m_model.client);
    else {
        AgentCore::ProviderConfig provider = m_model.provider.value_or(m_options.provider);
        provider.promptCacheKey = m_promptCacheKey;
        m_switch->setProvider(provider);
    }
}

QJsonValue AgentSession::modelStateValue() const
{
    if (m_model.selection)
        return m_model.selection->toJson();
    if (m_model.isDemo)
        return QJsonObject{{QLatin1String("demo"), true}};
    return QJsonValue(QJsonValue::Undefined); // the command line's: not the session's choice
}

QList<AgentCore::Message> AgentSession::history() const
{
    return m_file.resumed ? m_file.resumed->messages : QList<AgentCore::Message>();
}

QJsonObject AgentSession::resumedState() const
{
    return m_file.resumed ? m_file.resumed->state : QJsonObject();
}

void AgentSession::setDraft(const QString &text)
{
    if (text == m_draft)
        return;
    m_draft = text;
    if (text.isEmpty())
        writeDraft();
    else
        m_draftTimer->start();
}

void AgentSession::writeDraft()
{
    m_draftTimer->stop();
    if (m_recorder)
        m_recorder->setStateValue(draftKey, m_draft);
}

void AgentSession::setTitle(const QString &title)
{
    m_title = title.simplified();
    if (m_recorder)
        m_recorder->setStateValue(titleKey, m_title);
    emit recorded();
}

bool AgentSession::compactNow(const QString &instructions)
{
    if (!m_agent || !m_context || isReadOnly())
        return false;
    if (m_state != State::Idle) {
        emit compactionFailed(tr("The agent is working: compact once it has finished."));
        return false;
    }
    AgentCore::Context conversation;
    conversation.messages = m_agent->messages();
    return m_context->compactNow(conversation, instructions);
}

// A summary "compact now" asked for: appended while idle, after the messages it was made from
// (append-only, so they are still there unless the conversation was replaced).
void AgentSession::appendCompaction(const AgentCore::Message &compaction)
{
    const std::optional<AgentCore::Compaction> read = AgentCore::Compaction::of(compaction);
    QList<AgentCore::Message> messages = m_agent ? m_agent->messages()
                                                 : QList<AgentCore::Message>{};
    if (!m_agent || m_state != State::Idle || !read || read->coveredCount > messages.size()) {
        emit compactionFailed(tr("The summary was not applied: the conversation changed while it "
                                 "was written. Compact again."));
        return;
    }
    messages.append(compaction);
    if (!m_agent->setMessages(messages)) {
        emit compactionFailed(tr("The summary was not applied: the agent started working. "
                                 "Compact again once it has finished."));
        return;
    }
    if (m_recorder)
        m_recorder->record({compaction});
    m_conversation = messages;
    remeasure();
    emit contextChanged();
    AgentEvent event;
    event.type = AgentEvent::Type::MessageEnd;
    event.message = compaction;
    emit eventEmitted(event); // the conversation shows it as it shows the loop's
    emit compacted();
    emit recorded();
}

QString AgentSession::rewindRefusal() const
{
    if (isReadOnly())
        return m_readOnlyReason;
    if (!m_agent)
        return tr("The agent is still starting: rewind once it is ready.");
    if (m_state != State::Idle || !m_agent->isIdle())
        return tr("The agent is working: stop it or wait until it has finished, then rewind.");
    return {};
}

bool AgentSession::rewind(const AgentCore::Rewind &rewind, QString *error)
{
    QString problem = rewindRefusal();
    if (problem.isEmpty() && (rewind.toIndex < 0 || rewind.toIndex > m_agent->messages().size()))
        problem = tr("That point is no longer in the conversation.");
    // A summary still being written was made of what may now be rewound.
    if (problem.isEmpty() && m_context && rewind.rewindsConversation())
        m_context->abort();
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

bool AgentSession::appendMarker(const AgentCore::Message &marker)
{
    QList<AgentCore::Message> messages = m_agent->messages();
    messages.append(marker);
    if (!m_agent->setMessages(messages))
        return false;
    if (m_recorder)
        m_recorder->record({marker});
    m_conversation = messages;
    remeasure();
    emit contextChanged();
    AgentEvent event;
    event.type = AgentEvent::Type::MessageEnd;
    event.message = marker;
    emit eventEmitted(event); // the conversation shows it as it shows the loop's
    emit recorded();
    return true;
}

void AgentSession::remeasure()
{
    const AgentCore::ContextEdits edits = contextEdits();
    const AgentCore::ContextView view = AgentCore::mapContextView(m_conversation, edits);
    // The replies before a compaction or a rewind, or before a dropped output, answered
    // requests that held what is no longer sent: only a reply after it reports what the next
    // request holds.
    const qsizetype compaction = AgentCore::latestViewChangeIndex(m_conversation);
    bool replyAfter = false;
    for (qsizetype i = compaction + 1; i < m_conversation.size() && compaction >= 0; ++i)
        replyAfter = replyAfter || m_conversation.at(i).isAssistant();
    m_meter.setMessages(view.messages, (compaction >= 0 && !replyAfter) || !edits.isEmpty());
    m_meterSources = view.sources;
}

AgentCore::ContextEdits AgentSession::contextEdits() const
{
    if (m_context)
        return m_context->edits();
    return AgentCore::ContextEdits::fromJson(resumedState().value(contextEditsKey).toObject());
}

bool AgentSession::setContextEdits(const AgentCore::ContextEdits &edits)
{
    if (!m_context || isReadOnly())
        return false;
    m_context->setEdits(edits);
    if (m_recorder)
        m_recorder->setStateValue(contextEditsKey, edits.toJson());
    remeasure();
    emit contextChanged();
    return true;
}

ContextEdits AgentSession::shownContextEdits() const
{
    const AgentCore::ContextEdits edits = contextEdits();
    ContextEdits shown;
    shown.droppedToolOutputs = edits.droppedToolOutputs;
    for (qsizetype i = 0; i < m_meterSources.size(); ++i) {
        if (edits.pinnedMessages.contains(m_meterSources.at(i)))
            shown.pinnedMessages.insert(i);
    }
    return shown;
}

bool AgentSession::dropToolOutput(const QString &toolCallId)
{
    AgentCore::ContextEdits edits = contextEdits();
    edits.droppedToolOutputs.insert(toolCallId);
    return setContextEdits(edits);
}

bool AgentSession::pinMessage(qsizetype meterIndex, bool pinned)
{
    const qsizetype message = m_meterSources.value(meterIndex, -1);
    if (message < 0)
        return false;
    AgentCore::ContextEdits edits = contextEdits();
    if (pinned)
        edits.pinnedMessages.insert(message);
    else
        edits.pinnedMessages.remove(message);
    return setContextEdits(edits);
}

QString AgentSession::firstTask() const
{
    for (const AgentCore::Message &message : m_conversation) {
        if (message.isUser() && !message.text().trimmed().isEmpty())
            return message.text();
    }
    return m_sentFirst;
}

QList<ChangedFile> AgentSession::changedFiles() const
{
    return m_changed;
}

void AgentSession::onEvent(const AgentEvent &event)
{
    // Counted before the window hears of the event, so what it asks the meter is current.
    bool counted = true;
    if (event.type == AgentEvent::Type::MessageEnd) {
        m_conversation.append(event.message);
        if (AgentCore::isCompactionMessage(event.message)
            || AgentCore::isRewindMessage(event.message)) {
            remeasure();
        } else {
            m_meter.append(event.message);
            m_meterSources.append(m_conversation.size() - 1);
        }
    } else if ((event.type == AgentEvent::Type::AgentStart
                || event.type == AgentEvent::Type::TurnStart)
               && event.tools != m_meter.context().tools) {
        // The MCP servers' tools, taken at the run's start (or changed since): the context
        // carries them too. Usually the same shared list, compared at once.
        m_meter.setPreamble(m_meter.context().systemPrompt, event.tools);
    } else if (event.type == AgentEvent::Type::AgentEnd) {
        m_conversation = m_agent->messages(); // the conversation as the Agent keeps it
        remeasure();
        // What a summary lists as still to do.
        if (m_context)
            m_context->setFollowUpSource([queue = m_agent->followUpQueue()] { return queue; });
    } else {
        counted = false;
    }
    emit eventEmitted(event);
    if (counted)
        emit contextChanged();
    const bool listChanges = (event.type == AgentEvent::Type::MessageEnd
                              && event.message.role == AgentCore::Message::Role::User)
                             || event.type == AgentEvent::Type::AgentEnd;
    if (m_recorder && listChanges)
        emit recorded();
}

void AgentSession::noteChange(const AgentCore::FileChange &change)
{
    auto it = m_changedIndex.constFind(change.path);
    if (it == m_changedIndex.cend()) {
        ChangedFile file;
        file.path = change.path;
        file.displayPath = change.displayPath;
        file.created = change.created;
        it = m_changedIndex.insert(change.path, int(m_changed.size()));
        m_changed.append(file);
    }
    ChangedFile &file = m_changed[*it];
    file.additions += change.additions;
    file.deletions += change.deletions;
    ++file.changes;
    emit changedFilesChanged();
}

void AgentSession::setState(State state)
{
    // agent_end of an aborted run reports idle; a run that had ended by itself never
    // passes through Stopping.
    if (state == m_state)
        return;
    m_state = state;
    emit stateChanged(state);
}

void AgentSession::setSandbox(AgentCore::SandboxMode mode, bool allowNetwork)
{
    m_options.sandbox.mode = mode;
    m_options.sandbox.allowNetwork = allowNetwork;
    if (!m_workspace)
        return; // assembled with m_options
    AgentCore::SandboxPolicy policy = m_workspace->sandboxPolicy();
    policy.mode = mode;
    policy.allowNetwork = allowNetwork;
    m_workspace->setSandboxPolicy(policy);
}

void AgentSession::setNetworkRules(const QList<AgentCore::PermissionRule> &rules)
{
    m_options.networkRules = rules;
    if (m_policy)
        m_policy->setNetworkRules(AgentCore::CodingAgentOptions::networkRulesSource(), rules);
}

} // namespace Ui
