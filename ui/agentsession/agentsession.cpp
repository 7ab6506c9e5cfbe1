#include "agentsession.h"
#include "freedmemory.h"

#include "common/picturecodec.h"

#include <ai/switchablemodelclient.h>
#include <coding/codingsession.h>
#include <context/compaction.h>
#include <context/rewind.h>
#include <loop/agent.h>
#include <permissions/permissionbroker.h>
#include <permissions/permissionsessionstate.h>
#include <session/sessionpages.h>
#include <tools/filechange.h>

#include <utility>

namespace Ui {

using AgentCore::AgentEvent;
using AgentCore::CodingSession;

AgentSession::AgentSession(AgentCore::CodingAgentOptions options,
                           ModelChoice model,
                           SessionFile file,
                           QObject *parent)
    : QObject(parent)
    , m_model(std::move(model))
    , m_file(std::move(file))
    , m_broker(new AgentCore::PermissionBroker(this))
    , m_draft([this](const QString &text) { m_session->setDraft(text); })
{
    // A session's outputs come and go by the 100 KB: they must not stay with the process.
    returnLargeBlocksWhenFreed();
    AgentCore::CodingSessionFile sessionFile = std::exchange(m_file.recording, {});
    if (!m_file.worktreeProblem.isEmpty()) {
        // Its worktree is gone or moved: it must not run, and not in the main checkout instead.
        sessionFile.resumption.reset();
        sessionFile.readOnlyReason = m_file.worktreeProblem;
    }
    // The broker is a QObject of this thread, shared with the tool threads through a
    // non-owning pointer: the session outlives the Agent (m_session, destroyed first) and so
    // the tool calls that might ask.
    options.permissions.asker
        = std::shared_ptr<AgentCore::PermissionAsker>(m_broker, [](AgentCore::PermissionAsker *) {});
    // Read scales the pictures it reads with QtGui, which the core does not use.
    if (!options.tools.pictures)
        options.tools.pictures = PictureCodec::scaler();
    m_session = std::make_unique<CodingSession>(std::move(options),
                                                std::move(sessionFile),
                                                /*interactive=*/true);
    // One client for the whole session, so the model can change between requests; summaries
    // run on whatever model the session uses then.
    m_session->setModelClient(m_model.client(),
                              [model = m_model.client()] { return model->snapshot(); });
    setModel(m_model.choice());
    if (m_file.worktree) // a resumed session finds its worktree again
        m_session->setWorktree(m_file.worktree);
    m_draft.restore(m_session->state().draft);
    if (const auto &resumed = m_session->file().resumed) {
        takeHistory(resumed->messages);
        for (const QList<AgentCore::Message> &transcript : resumed->subagents) {
            for (const AgentCore::Message &message : transcript) {
                if (message.isAssistant())
                    m_subagentReplies.append(message);
            }
        }
    }

    CodingSession *session = m_session.get();
    connect(session, &CodingSession::ready, this, &AgentSession::onReady);
    connect(session, &CodingSession::eventEmitted, this, &AgentSession::onEvent);
    connect(session,
            &CodingSession::subagentEvent,
            this,
            [this](const AgentCore::SubagentEvent &event) {
                if (event.event.type == AgentEvent::Type::MessageEnd
                    && event.event.message.isAssistant())
                    m_subagentReplies.append(event.event.message);
                emit subagentEvent(event);
            });
    connect(session, &CodingSession::hookRan, this, [this](const AgentCore::HookRun &run) {
        emit hookRan(run);
        // A hook of no tool call that blocked or failed has no card to show it on.
        if (run.toolCallId.isEmpty() && (run.blocks() || run.failed()))
            emit warning(tr("Hook %1 (%2): %3")
                             .arg(AgentCore::hookEventNameText(run.hook.event),
                                  run.hook.command,
                                  run.outcomeText()));
    });
    connect(session,
            &CodingSession::promptRefused,
            this,
            [this](const QString &, const QString &reason) {
                emit warning(tr("A hook refused the message: %1").arg(reason));
            });
    connect(session, &CodingSession::warning, this, [this](const QString &message) {
        if (m_state == State::Preparing)
            m_warnings.append(message); // said with the others once ready
        else
            emit warning(message);
    });
    connect(session, &CodingSession::auditLogFailed, this, &AgentSession::warning);
    connect(session, &CodingSession::commandFailed, this, &AgentSession::commandFailed);
    connect(session, &CodingSession::checkpointFailed, this, &AgentSession::warning);
    connect(session, &CodingSession::checkpointRepaired, this, &AgentSession::warning);
    connect(session, &CodingSession::sandboxUnavailable, this, &AgentSession::sandboxUnavailable);
    connect(session, &CodingSession::fileChanged, this, [this](const AgentCore::FileChange &change) {
        m_changed.add(change);
        emit changedFilesChanged();
    });
    connect(session, &CodingSession::compactionStarted, this, &AgentSession::compactionStarted);
    connect(session, &CodingSession::compactionFailed, this, &AgentSession::compactionFailed);
    // Every compaction, "compact now"'s and the loop's (which also came as a message event):
    // what said a summary is being written must hear that it is done.
    connect(session, &CodingSession::compacted, this, [this] { emit compacted(); });
    connect(session, &CodingSession::rewound, this, &AgentSession::rewound);
    connect(session, &CodingSession::branchSwitched, this, [this] {
        takeHistory(m_session->agent()->messages());
        emit changedFilesChanged();
        emit contextChanged();
        emit branchSwitched();
        if (m_session->recorder())
            emit recorded();
    });
    m_session->open();
}

AgentSession::~AgentSession()
{
    m_draft.flush();
    // Waits for an assembly still going on; the recorder writes the last state; the agent
    // joins its worker while the broker still answers (with a deny).
    m_session.reset();
}

void AgentSession::onReady()
{
    setState(State::Idle);
    m_conversation.setPreamble(m_session->systemPrompt(), m_session->toolDefinitions());
    connect(agent(), &AgentCore::Agent::idleChanged, this, [this](bool idle) {
        setState(idle ? State::Idle : State::Running);
    });
    for (const QString &message : std::as_const(m_warnings))
        emit warning(message);
    emit permissionModeChanged(permissionMode());
    emit ready();
    emit contextChanged(); // the system prompt and the tools are known now
    if (!untrustedGrants().isEmpty())
        emit projectTrustNeeded(untrustedGrants());
    if (!m_session->unconfirmedRules().isEmpty())
        emit sessionRulesNeedConfirmation(unconfirmedSessionRules());
}

void AgentSession::send(const QString &text, const QList<AgentCore::ContentBlock> &pictures)
{
    if (m_sentFirst.isEmpty() && !text.trimmed().isEmpty() && !isReadOnly())
        m_sentFirst = text;
    m_session->send(text, pictures);
}

AgentCore::ProviderConfig AgentSession::currentProvider() const
{
    return m_model.provider(m_session->options().provider);
}

QString AgentSession::pictureRefusal() const
{
    return m_model.pictureRefusal(m_session->options().provider);
}

void AgentSession::stop()
{
    if (m_state == State::Running)
        setState(State::Stopping);
    m_session->stop();
}

void AgentSession::setPermissionMode(AgentCore::PermissionMode mode)
{
    if (mode == permissionMode())
        return;
    m_session->setPermissionMode(mode);
    emit permissionModeChanged(mode);
}

void AgentSession::trustProjectSettings()
{
    if (!m_session->isReady() || untrustedGrants().isEmpty())
        return;
    m_session->trustProjectSettings();
    emit permissionModeChanged(permissionMode());
}

QStringList AgentSession::unconfirmedSessionRules() const
{
    QStringList rules;
    for (const AgentCore::PermissionRule &rule : m_session->unconfirmedRules())
        rules.append(AgentCore::sessionRuleText(rule));
    return rules;
}

void AgentSession::setModel(ModelChoice model)
{
    m_model.choose(std::move(model), m_session->options().provider);
    if (const QJsonValue value = m_model.stateValue(); !value.isUndefined())
        m_session->setModelState(value);
    emit modelChanged(m_model.choice());
}

void AgentSession::setTitle(const QString &title)
{
    m_session->setTitle(title);
    emit recorded();
}

bool AgentSession::compactNow(const QString &instructions)
{
    if (m_session->isReady() && !isReadOnly() && m_state != State::Idle) {
        emit compactionFailed(tr("The agent is working: compact once it has finished."));
        return false;
    }
    return m_session->compactNow(instructions);
}

QString AgentSession::rewindRefusal() const
{
    const QString refusal = m_session->rewindRefusal();
    if (refusal.isEmpty() && m_state != State::Idle)
        return tr("The agent is working: stop it or wait until it has finished, then rewind.");
    return refusal;
}

bool AgentSession::rewind(const AgentCore::Rewind &rewind, QString *error)
{
    if (const QString refusal = rewindRefusal(); !refusal.isEmpty()) {
        if (error)
            *error = refusal;
        return false;
    }
    return m_session->rewind(rewind, error);
}

void AgentSession::rewindWithFiles(const AgentCore::Rewind &rewind,
                                   AgentCore::CodingSession::RestoreFiles restoreFiles,
                                   AgentCore::CodingSession::RewindDone done)
{
    if (const QString refusal = rewindRefusal(); !refusal.isEmpty()) {
        done(false, rewind, refusal);
        return;
    }
    m_session->rewindWithFiles(rewind, std::move(restoreFiles), std::move(done));
}

void AgentSession::takeHistory(const QList<AgentCore::Message> &messages)
{
    // The results in the file carry what the effect hook was given live.
    m_changed.clear();
    for (const AgentCore::Message &message : messages) {
        if (const auto rewound = AgentCore::Rewind::of(message))
            m_changed.forgetRestored(*rewound, messages, repositoryRoot());
        else
            m_changed.addRecorded(message, repositoryRoot());
    }
    m_conversation.reset(messages, contextEdits()); // long outputs are stubs already
}

bool AgentSession::editAndResend(qsizetype index,
                                 const QString &text,
                                 const QList<AgentCore::ContentBlock> &pictures,
                                 QString *error)
{
    if (m_sentFirst.isEmpty())
        m_sentFirst = text;
    return m_session->editAndResend(index, text, pictures, error);
}

ContextEdits AgentSession::shownContextEdits() const
{
    return m_conversation.shownEdits(contextEdits());
}

bool AgentSession::dropToolOutput(const QString &toolCallId)
{
    AgentCore::ContextEdits edits = contextEdits();
    edits.droppedToolOutputs.insert(toolCallId);
    if (!m_session->setContextEdits(edits))
        return false;
    m_conversation.remeasure(edits);
    emit contextChanged();
    return true;
}

bool AgentSession::pinMessage(qsizetype meterIndex, bool pinned)
{
    const qsizetype message = m_conversation.sourceOf(meterIndex);
    if (message < 0)
        return false;
    AgentCore::ContextEdits edits = contextEdits();
    if (pinned)
        edits.pinnedMessages.insert(message);
    else
        edits.pinnedMessages.remove(message);
    if (!m_session->setContextEdits(edits))
        return false;
    m_conversation.remeasure(edits);
    emit contextChanged();
    return true;
}

QString AgentSession::firstTask() const
{
    for (const AgentCore::Message &message : m_conversation.messages()) {
        if (message.isUser() && !message.text().trimmed().isEmpty())
            return message.text();
    }
    return m_sentFirst;
}

void AgentSession::onEvent(const AgentEvent &event)
{
    // Counted before the window hears of the event, so what it asks the meter is current.
    bool counted = true;
    bool marker = false;
    if (event.type == AgentEvent::Type::MessageEnd) {
        m_conversation.append(event.message, m_session->pages().get(), contextEdits());
        marker = AgentCore::isCompactionMessage(event.message)
                 || AgentCore::isRewindMessage(event.message);
        if (const auto rewound = AgentCore::Rewind::of(event.message))
            forgetRestored(*rewound);
    } else if ((event.type == AgentEvent::Type::AgentStart
                || event.type == AgentEvent::Type::TurnStart)
               && event.tools != contextMeter().context().tools) {
        // The MCP servers' tools, taken at the run's start (or changed since): the context
        // carries them too. Usually the same shared list, compared at once.
        m_conversation.setPreamble(contextMeter().context().systemPrompt, event.tools);
    } else if (event.type == AgentEvent::Type::AgentEnd) {
        m_conversation.reset(m_session->agent()->messages(),
                             contextEdits()); // as the Agent keeps it
    } else {
        counted = false;
    }
    emit eventEmitted(event);
    if (counted)
        emit contextChanged();
    const bool listChanges = (event.type == AgentEvent::Type::MessageEnd
                              && (event.message.role == AgentCore::Message::Role::User || marker))
                             || event.type == AgentEvent::Type::AgentEnd;
    if (m_session->recorder() && listChanges)
        emit recorded();
}

qsizetype AgentSession::firstChangeOf(const QString &path) const
{
    return ChangedFiles::firstChangeOf(m_conversation.messages(), path, repositoryRoot());
}

void AgentSession::forgetRestored(const AgentCore::Rewind &rewind)
{
    if (m_changed.forgetRestored(rewind, m_conversation.messages(), repositoryRoot()))
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

} // namespace Ui

#include "moc_agentsession.cpp"
