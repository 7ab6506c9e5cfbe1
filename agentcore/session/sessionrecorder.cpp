#include "sessionrecorder.h"
#include "sessionpages.h"
#include "translation.h"

#include <loop/agent.h>

#include <ai/messagejson.h>

#include <QCoreApplication>
#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QSet>

#include <climits>

namespace AgentCore {

namespace {

// The state keys the recorder owns; every other key belongs to the window.
const QLatin1String steeringKey("steering");
const QLatin1String leftoverKey("leftoverSteering");
const QLatin1String runningKey("runInProgress");
const QLatin1String followUpsKey("followUps");
const QLatin1String pausedKey("followUpsPaused");
// How often the answer being streamed is written: what a crash can cost of it.
constexpr int partialIntervalMs = 1000;
// How seldom a long-running call's output is written, at the least.
constexpr int maxToolOutputIntervalMs = 30'000;

} // namespace

SessionRecorder::SessionRecorder(Agent *agent,
                                 StateSource source,
                                 QString path,
                                 QJsonObject header,
                                 QJsonObject state,
                                 QObject *parent)
    : QObject(parent)
    , m_agent(agent)
    , m_source(std::move(source))
    , m_path(std::move(path))
    , m_header(std::move(header))
    , m_written(state)
{
    for (const QLatin1String key : {steeringKey, leftoverKey, runningKey, followUpsKey, pausedKey})
        state.remove(key);
    m_extra = state;
    m_partialTimer = new QTimer(this);
    m_partialTimer->setSingleShot(true);
    m_partialTimer->setInterval(partialIntervalMs);
    connect(m_partialTimer, &QTimer::timeout, this, &SessionRecorder::writePartial);
    m_toolOutputTimer = new QTimer(this);
    m_toolOutputTimer->setSingleShot(true);
    m_toolOutputTimer->setInterval(partialIntervalMs);
    connect(m_toolOutputTimer, &QTimer::timeout, this, [this] {
        writeToolOutputs();
        m_toolOutputTimer->setInterval(
            qMin(m_toolOutputTimer->interval() * 2, maxToolOutputIntervalMs));
    });
    connect(m_agent, &Agent::eventEmitted, this, &SessionRecorder::onEvent);
    connect(m_agent, &Agent::queuesChanged, this, &SessionRecorder::writeStateIfChanged);
}

SessionRecorder::~SessionRecorder()
{
    // A queue edited after the last turn, or a title given, must not wait for a next turn;
    // an answer still streaming (the window closes mid-run) keeps what arrived of it.
    writePartial();
    writeToolOutputs();
    writeStateIfChanged();
    sync();
}

QJsonObject SessionRecorder::state() const
{
    QJsonObject state = m_extra;
    QJsonArray steering;
    for (const Message &message : m_agent->steeringQueue())
        steering.append(messageToJson(message));
    state.insert(steeringKey, steering);
    QJsonArray leftover;
    for (const Message &message : m_agent->leftoverSteering())
        leftover.append(messageToJson(message));
    state.insert(leftoverKey, leftover);
    state.insert(runningKey, m_running);
    QJsonArray followUps;
    for (const Message &message : m_agent->followUpQueue())
        followUps.append(messageToJson(message));
    state.insert(followUpsKey, followUps);
    state.insert(pausedKey, m_agent->followUpsPaused());
    if (m_source) {
        const QJsonObject owned = m_source();
        for (auto it = owned.begin(); it != owned.end(); ++it)
            state.insert(it.key(), it.value());
    }
    return state;
}

void SessionRecorder::setStateValue(const QString &key, const QJsonValue &value)
{
    m_extra.insert(key, value);
    writeStateIfChanged();
}

void SessionRecorder::refreshState()
{
    writeStateIfChanged();
}

void SessionRecorder::setPages(std::shared_ptr<SessionPages> pages)
{
    m_pages = std::move(pages);
    if (m_log)
        m_log->setPages(m_pages);
}

void SessionRecorder::adopt(std::unique_ptr<SessionLog> log)
{
    m_log = std::move(log);
    if (m_pages)
        m_log->setPages(m_pages);
    writeStateIfChanged();
}

void SessionRecorder::adopt(SessionResumption resumption)
{
    m_tree = std::move(resumption.contents.tree);
    adopt(std::move(resumption.log));
    record(resumption.repair);
}

void SessionRecorder::record(const QList<Message> &messages)
{
    if (messages.isEmpty() || !ensureOpen())
        return;
    for (const Message &message : messages) {
        if (QString error; !appendToBranch(message, &error)) {
            fail(error);
            return;
        }
    }
    writeStateIfChanged();
    sync();
}

void SessionRecorder::recordSubagent(const QString &key, const Message &message)
{
    if (!ensureOpen())
        return;
    if (QString error; !m_log->appendSubagentMessage(key, message, &error))
        fail(error);
}

void SessionRecorder::onEvent(const AgentEvent &event)
{
    switch (event.type) {
    case AgentEvent::Type::AgentStart:
        m_running = true;
        writeStateIfChanged();
        break;
    case AgentEvent::Type::MessageStart:
    case AgentEvent::Type::MessageUpdate:
        notePartial(event);
        break;
    case AgentEvent::Type::MessageDiscard:
        m_partialTimer->stop();
        if (m_partialWritten && m_log) {
            if (QString error; !m_log->appendPartial(std::nullopt, &error))
                fail(error);
        }
        m_partial.reset();
        m_partialWritten = m_partialDirty = false;
        break;
    case AgentEvent::Type::MessageEnd:
        if (event.message.isAssistant()) {
            // The message record replaces the partial one.
            m_partialTimer->stop();
            m_partial.reset();
            m_partialWritten = m_partialDirty = false;
        }
        if (!ensureOpen())
            return;
        if (QString error; !appendToBranch(event.message, &error))
            fail(error);
        break;
    case AgentEvent::Type::ToolExecutionUpdate:
        noteToolOutput(event);
        break;
    case AgentEvent::Type::ToolExecutionEnd:
        m_toolOutputs.remove(event.toolCallId); // its result message follows
        if (m_toolOutputs.isEmpty()) {
            m_toolOutputTimer->stop();
            m_toolOutputTimer->setInterval(partialIntervalMs); // the next call starts afresh
        }
        break;
    case AgentEvent::Type::TurnEnd:
        writeStateIfChanged();
        sync();
        break;
    case AgentEvent::Type::AgentEnd:
        m_running = false;
        writeStateIfChanged();
        sync();
        break;
    default:
        break;
    }
}

void SessionRecorder::notePartial(const AgentEvent &event)
{
    if (event.type == AgentEvent::Type::MessageStart) {
        if (!event.message.isAssistant())
            return;
        m_partial = event.message;
        m_partialBlocks.clear();
        m_partialDirty = m_partialWritten = false;
        return;
    }
    if (!m_partial)
        return;
    using Type = StreamEvent::Type;
    const StreamEvent &stream = event.streamEvent;
    switch (stream.type) {
    case Type::TextStart:
    case Type::TextDelta:
        m_partialBlocks[stream.contentIndex].type = ContentBlock::Type::Text;
        m_partialBlocks[stream.contentIndex].text += stream.delta;
        break;
    case Type::ThinkingStart:
    case Type::ThinkingDelta:
        m_partialBlocks[stream.contentIndex].type = ContentBlock::Type::Thinking;
        m_partialBlocks[stream.contentIndex].text += stream.delta;
        break;
    default:
        return; // tool calls are kept once the message ends: a cut-off call never runs
    }
    m_partialDirty = true;
    if (!m_partialTimer->isActive())
        m_partialTimer->start();
}

void SessionRecorder::noteToolOutput(const AgentEvent &event)
{
    QString text = event.result.text();
    if (text.isEmpty())
        return;
    // The end is what the card showed last; a command printing megabytes costs the file a
    // bounded record a second.
    if (text.size() > maxToolOutputChars) {
        qsizetype cut = text.size() - maxToolOutputChars;
        if (const qsizetype line = text.indexOf(QLatin1Char('\n'), cut);
            line >= 0 && line < cut + 200)
            cut = line + 1;
        text = SessionTr::tr("[… the first %n character(s) of the output are not kept]\n",
                             nullptr,
                             int(qMin<qsizetype>(cut, INT_MAX)))
               + text.mid(cut);
    }
    m_toolOutputs.insert(event.toolCallId, text);
    if (!m_toolOutputTimer->isActive())
        m_toolOutputTimer->start();
}

void SessionRecorder::writeToolOutputs()
{
    if (m_toolOutputs.isEmpty() || !m_log)
        return;
    for (auto it = m_toolOutputs.cbegin(); it != m_toolOutputs.cend(); ++it) {
        if (QString error; !m_log->appendToolOutput(it.key(), it.value(), &error)) {
            fail(error);
            break;
        }
    }
    m_toolOutputs.clear();
}

void SessionRecorder::writePartial()
{
    if (!m_partial || !m_partialDirty || !m_log)
        return;
    // The first record holds the answer so far, the next ones only what streamed since: new
    // blocks have higher content indexes, so a block keeps its position in the list.
    Message partial = *m_partial;
    partial.content = m_partialBlocks.values();
    if (m_partialWritten) {
        for (qsizetype i = 0; i < partial.content.size(); ++i) {
            if (i < m_partialWrittenLengths.size())
                partial.content[i].text.remove(0, m_partialWrittenLengths.at(i));
        }
    }
    QString error;
    if (!(m_partialWritten ? m_log->appendPartialMore(partial, &error)
                           : m_log->appendPartial(partial, &error))) {
        fail(error);
        return;
    }
    m_partialWrittenLengths.clear();
    for (const ContentBlock &block : std::as_const(m_partialBlocks))
        m_partialWrittenLengths.append(block.text.size());
    m_partialDirty = false;
    m_partialWritten = true;
}

bool SessionRecorder::appendToBranch(const Message &message, QString *error)
{
    const std::optional<QString> parent = m_log->leaf();
    QString id;
    if (!m_log->appendMessage(message, error, &id))
        return false;
    // The branches keep what the conversation keeps: a result that is on disk as a stub.
    if (parent && !id.isEmpty())
        m_tree.add(id,
                   *parent,
                   m_pages && m_pages->contains(message.toolCallId) ? m_pages->stubOf(message)
                                                                    : message);
    return true;
}

std::optional<QString> SessionRecorder::activeLeaf() const
{
    if (!m_log)
        return m_tree.isEmpty() && !QFile::exists(m_path) ? std::optional<QString>(QString())
                                                          : std::nullopt;
    return m_log->leaf();
}

bool SessionRecorder::switchBranch(const QString &leaf)
{
    if (!m_log || !m_log->leaf() || (!leaf.isEmpty() && !m_tree.contains(leaf)))
        return false;
    QString error;
    if (!m_log->appendBranch(leaf, &error) || !m_log->sync(&error)) {
        fail(error);
        return false;
    }
    return true;
}

bool SessionRecorder::ensureOpen()
{
    if (m_log)
        return true;
    const bool created = !QFile::exists(m_path);
    QString error;
    m_log = SessionLog::open(m_path, m_header, &error);
    if (!m_log) {
        fail(error);
        return false;
    }
    m_log->setPages(m_pages);
    // A new file starts with its state, so the model and title are there from the start.
    if (created)
        m_written = {};
    writeStateIfChanged();
    return true;
}

void SessionRecorder::writeStateIfChanged()
{
    // Nothing to keep before the first message: the file does not exist yet.
    if (!m_log)
        return;
    const QJsonObject now = state();
    if (now == m_written)
        return;
    if (QString error; !m_log->appendState(now, &error)) {
        fail(error);
        return;
    }
    m_written = now;
}

void SessionRecorder::sync()
{
    if (QString error; m_log && !m_log->sync(&error))
        fail(error);
}

void SessionRecorder::fail(const QString &message)
{
    if (m_failed)
        return;
    m_failed = true;
    emit failed(message);
}

void SessionRecorder::restore(const QJsonObject &state, Agent &agent)
{
    QList<Message> queue;
    const QJsonArray followUps = state.value(followUpsKey).toArray();
    for (const QJsonValue &value : followUps) {
        Message message;
        if (messageFromJson(value.toObject(), &message))
            queue.append(message);
    }
    // Paused first: a queue restored into an idle agent waits either way, and stays paused.
    agent.setFollowUpsPaused(state.value(pausedKey).toBool());
    if (!queue.isEmpty())
        agent.setFollowUpQueue(queue);
    // Left over after a stop, or accepted but not yet taken when the window closed (or
    // crashed): meant for a run that is over, so it waits for the user's choice, as after Stop.
    QList<Message> leftover;
    for (const QLatin1String key : {leftoverKey, steeringKey}) {
        const QJsonArray steering = state.value(key).toArray();
        for (const QJsonValue &value : steering) {
            Message message;
            if (messageFromJson(value.toObject(), &message))
                leftover.append(message);
        }
    }
    if (!leftover.isEmpty())
        agent.setLeftoverSteering(leftover);
}

QList<Message> SessionRecorder::interruption(const SessionLog::Contents &contents)
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    QList<Message> repair;
    // The calls of the last answer that have no result: they ran, or were about to, when
    // AgentDesk ended. Whether they finished is unknown; the model must not assume either.
    qsizetype last = contents.messages.size() - 1;
    while (last >= 0 && !contents.messages.at(last).isAssistant())
        --last;
    if (last >= 0) {
        QSet<QString> answered;
        for (qsizetype i = last + 1; i < contents.messages.size(); ++i) {
            if (contents.messages.at(i).isToolResult())
                answered.insert(contents.messages.at(i).toolCallId);
        }
        const Message &answer = contents.messages.at(last);
        // An answer that ended with an error or an abort never ran its calls: the loop's own
        // synthetic results say so at the next request.
        const bool callsRun = answer.stopReason == StopReason::ToolUse;
        for (const ContentBlock &call : answer.toolCalls()) {
            if (!callsRun || answered.contains(call.id))
                continue;
            // What it had shown stays: the user saw it, and the model may need it.
            QString shown = contents.toolOutputs.value(call.id);
            if (!shown.isEmpty() && !shown.endsWith(QLatin1Char('\n')))
                shown += QLatin1Char('\n');
            if (!shown.isEmpty())
                shown += QLatin1Char('\n');
            Message result = Message::makeToolResult(
                call.id,
                call.name,
                shown
                    + SessionTr::tr(
                        "Interrupted: AgentDesk ended while this tool call was running (the "
                        "window was closed or the program crashed). Whether it finished is "
                        "unknown: check its effects before running it again."),
                true);
            result.timestamp = now;
            result.details.interrupted = true;
            repair.append(result);
        }
    }
    if (contents.partial && !contents.partial->content.isEmpty()) {
        Message answer = *contents.partial;
        answer.stopReason = StopReason::Error;
        answer.errorMessage = SessionTr::tr(
            "Interrupted: AgentDesk ended while this answer was being "
            "written (the window was closed or the program crashed). "
            "It is cut off here.");
        if (answer.timestamp == 0)
            answer.timestamp = now;
        repair.append(answer);
    }
    if (repair.isEmpty() && contents.state.value(runningKey).toBool()) {
        Message note;
        note.role = Message::Role::Custom;
        note.customType = QStringLiteral("interrupted");
        note.content = {ContentBlock::makeText(
            SessionTr::tr("Interrupted: AgentDesk ended during this task (the window was closed or "
                          "the program crashed) before it finished."))};
        note.timestamp = now;
        repair.append(note);
    }
    return repair;
}

} // namespace AgentCore

#include "moc_sessionrecorder.cpp"
