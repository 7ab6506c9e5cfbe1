#include "agentsession.h"
#include "freedmemory.h"

#include "common/picturecodec.h"

#include <ai/modelcatalog.h>

#include <ai/switchablemodelclient.h>
#include <coding/codingsession.h>
#include <context/compaction.h>
#include <context/contextview.h>
#include <context/rewind.h>
#include <loop/agent.h>
#include <permissions/permissionbroker.h>
#include <permissions/permissionsessionstate.h>
#include <session/sessionpages.h>

#include <algorithm>
#include <utility>

namespace Ui {

namespace {
// The files a recorded result changed: an Edit's or Write's, or a command's reviewed writes.
QList<AgentCore::FileChange> changesOf(const AgentCore::Message &message, const QString &root)
{
    if (!message.isToolResult())
        return {};
    QList<AgentCore::FileChange> changes = AgentCore::FileChange::ofShellWrites(message.details,
                                                                                root);
    if (const auto change = AgentCore::FileChange::fromDetails(message.details);
        change && !message.isError)
        changes.prepend(*change);
    return changes;
}
} // namespace

using AgentCore::AgentEvent;
using AgentCore::CodingSession;

namespace {
// How long the draft waits after a keystroke before it is written.
constexpr int draftDelayMs = 1000;
} // namespace

AgentSession::AgentSession(AgentCore::CodingAgentOptions options,
                           ModelChoice model,
                           SessionFile file,
                           QObject *parent)
    : QObject(parent)
    , m_model(std::move(model))
    , m_file(std::move(file))
    , m_switch(std::make_shared<AgentCore::SwitchableModelClient>())
    , m_broker(new AgentCore::PermissionBroker(this))
{
    // A session's outputs come and go by the 100 KB: they must not stay with the process.
    returnLargeBlocksWhenFreed();
    m_draftTimer = new QTimer(this);
    m_draftTimer->setSingleShot(true);
    m_draftTimer->setInterval(draftDelayMs);
    connect(m_draftTimer, &QTimer::timeout, this, &AgentSession::writeDraft);
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
    m_session->setModelClient(m_switch, [model = m_switch] { return model->snapshot(); });
    applyModel();
    if (const QJsonValue value = modelStateValue(); !value.isUndefined())
        m_session->setModelState(value);
    if (m_file.worktree) // a resumed session finds its worktree again
        m_session->setWorktree(m_file.worktree);
    m_draft = m_session->state().draft;
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
    connect(session, &CodingSession::fileChanged, this, &AgentSession::noteChange);
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
    if (m_draftTimer->isActive())
        writeDraft();
    // Waits for an assembly still going on; the recorder writes the last state; the agent
    // joins its worker while the broker still answers (with a deny).
    m_session.reset();
}

void AgentSession::onReady()
{
    setState(State::Idle);
    m_meter.setPreamble(m_session->systemPrompt(), m_session->toolDefinitions());
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
    return m_model.provider.value_or(m_session->options().provider);
}

QString AgentSession::pictureRefusal() const
{
    const AgentCore::ProviderConfig provider = currentProvider();
    if (m_model.client || AgentCore::takesPictures(provider))
        return {};
    //: Above the message box when it holds pictures the model cannot read
    return tr("%1. Remove the pictures, or choose a model that takes pictures.")
        .arg(AgentCore::noPicturesNote(provider));
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
    m_model = std::move(model);
    applyModel();
    if (const QJsonValue value = modelStateValue(); !value.isUndefined())
        m_session->setModelState(value);
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
        // The session's provider carries its prompt cache key (the session's id).
        const AgentCore::ProviderConfig &session = m_session->options().provider;
        AgentCore::ProviderConfig provider = m_model.provider.value_or(session);
        provider.promptCacheKey = session.promptCacheKey;
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
    const auto &resumed = m_session->file().resumed;
    return resumed ? resumed->messages : QList<AgentCore::Message>();
}

QHash<QString, QList<AgentCore::Message>> AgentSession::subagentHistory() const
{
    const auto &resumed = m_session->file().resumed;
    return resumed ? resumed->subagents : QHash<QString, QList<AgentCore::Message>>();
}

QJsonObject AgentSession::resumedState() const
{
    const auto &resumed = m_session->file().resumed;
    return resumed ? resumed->state : QJsonObject();
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
    m_session->setDraft(m_draft);
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
    m_conversation.clear();
    m_changed.clear();
    m_changedIndex.clear();
    // The results in the file carry what the effect hook was given live.
    // What a rewind restored is looked up in the conversation up to it.
    for (const AgentCore::Message &message : messages) {
        m_conversation.append(message);
        if (const auto rewound = AgentCore::Rewind::of(message)) {
            forgetRestored(*rewound);
            continue;
        }
        for (const AgentCore::FileChange &change : changesOf(message, repositoryRoot()))
            noteChange(change);
    }
    m_conversation = messages;
    m_unpaged.clear(); // the history as read: long outputs are stubs already
    remeasure();
}

void AgentSession::pageRecordedOutputs()
{
    const std::shared_ptr<const AgentCore::SessionPages> pages = m_session->pages();
    QList<qsizetype> waiting;
    for (const qsizetype index : std::as_const(m_unpaged)) {
        if (!pages || index >= m_conversation.size())
            continue;
        const AgentCore::Message &message = m_conversation.at(index);
        if (message.isPaged())
            continue;
        if (pages->contains(message.toolCallId))
            m_conversation[index] = pages->stubOf(message); // shares the Agent's preview
        else
            waiting.append(index); // its record is not written yet
    }
    m_unpaged = waiting;
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
    if (!m_session->setContextEdits(edits))
        return false;
    remeasure();
    emit contextChanged();
    return true;
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
    if (!m_session->setContextEdits(edits))
        return false;
    remeasure();
    emit contextChanged();
    return true;
}

QString AgentSession::firstTask() const
{
    for (const AgentCore::Message &message : m_conversation) {
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
        // A long run's outputs would pile up here whole (the Agent's history is paged at the
        // run's end): each goes to its stub once the session file holds it.
        pageRecordedOutputs();
        m_conversation.append(event.message);
        if (AgentCore::SessionPages::isPageable(event.message))
            m_unpaged.append(m_conversation.size() - 1);
        marker = AgentCore::isCompactionMessage(event.message)
                 || AgentCore::isRewindMessage(event.message);
        if (const auto rewound = AgentCore::Rewind::of(event.message))
            forgetRestored(*rewound);
        if (marker) {
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
        m_conversation = m_session->agent()->messages(); // as the Agent keeps it
        m_unpaged.clear();
        remeasure();
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
    for (qsizetype i = 0; i < m_conversation.size(); ++i) {
        const QList<AgentCore::FileChange> changes = changesOf(m_conversation.at(i),
                                                               repositoryRoot());
        if (std::any_of(changes.cbegin(), changes.cend(), [&path](const AgentCore::FileChange &c) {
                return c.path == path;
            }))
            return i;
    }
    return -1;
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

void AgentSession::forgetRestored(const AgentCore::Rewind &rewind)
{
    if (!rewind.restoresFiles() || rewind.restoredFiles.isEmpty())
        return;
    const QSet<QString> restored(rewind.restoredFiles.cbegin(), rewind.restoredFiles.cend());
    QList<ChangedFile> kept;
    for (const ChangedFile &file : std::as_const(m_changed)) {
        // Restored to a point after the agent's first change: still changed, only less.
        if (!(restored.contains(file.displayPath) && firstChangeOf(file.path) >= rewind.toIndex))
            kept.append(file);
    }
    if (kept.size() == m_changed.size())
        return;
    m_changed = kept;
    m_changedIndex.clear();
    for (qsizetype i = 0; i < m_changed.size(); ++i)
        m_changedIndex.insert(m_changed.at(i).path, int(i));
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
