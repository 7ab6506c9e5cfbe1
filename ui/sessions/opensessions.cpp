#include "opensessions.h"

#include "agentsession/agentsession.h"

#include <loop/agenttypes.h>
#include <permissions/permissionbroker.h>

namespace Ui {

namespace {

/// The run ended with an error the user has to read (not stopped by them, not a natural end).
bool failed(const AgentCore::AgentEvent &agentEnd)
{
    using AgentCore::StopReason;
    for (auto it = agentEnd.newMessages.crbegin(); it != agentEnd.newMessages.crend(); ++it) {
        if (it->isAssistant()) {
            return it->stopReason == StopReason::Error
                   || it->stopReason == StopReason::ContextOverflow
                   || it->stopReason == StopReason::Refusal;
        }
    }
    return false;
}

} // namespace

OpenSessions::OpenSessions(QObject *parent)
    : QObject(parent)
{}

OpenSessions::~OpenSessions()
{
    closeAll();
}

void OpenSessions::add(AgentSession *session)
{
    if (!session || entry(session))
        return;
    session->setParent(this);
    m_entries.append({session});
    connect(session, &AgentSession::stateChanged, this, [this, session] {
        updateWaiting(session);
        emit activityChanged(session);
    });
    connect(session,
            &AgentSession::eventEmitted,
            this,
            [this, session](const AgentCore::AgentEvent &event) {
                if (event.type == AgentCore::AgentEvent::Type::AgentStart) {
                    if (Entry *e = entry(session)) {
                        e->failed = false;
                        e->unseen = false;
                    }
                    emit activityChanged(session);
                } else if (event.type == AgentCore::AgentEvent::Type::AgentEnd) {
                    runEnded(session, event);
                }
            });
    // The broker belongs to the session: these connections end with it.
    AgentCore::PermissionBroker *broker = session->broker();
    connect(broker, &AgentCore::PermissionBroker::requested, this, [this, session] {
        updateWaiting(session);
    });
    connect(broker, &AgentCore::PermissionBroker::withdrawn, this, [this, session] {
        updateWaiting(session);
    });
    connect(broker, &AgentCore::PermissionBroker::answered, this, [this, session] {
        updateWaiting(session);
    });
    emit added(session);
}

void OpenSessions::setCurrent(AgentSession *session)
{
    Entry *e = entry(session);
    if (!e || session == m_current)
        return;
    AgentSession *previous = m_current;
    m_current = session;
    const bool wasUnseen = e->unseen;
    e->unseen = false;
    emit currentChanged(session, previous);
    if (wasUnseen)
        emit activityChanged(session);
}

void OpenSessions::close(AgentSession *session)
{
    const int index = indexOf(session);
    if (index < 0)
        return;
    emit removed(session);
    m_entries.removeAt(index);
    if (m_current == session) {
        m_current = nullptr;
        emit currentChanged(nullptr, session);
    }
    delete session;
}

void OpenSessions::closeAll()
{
    while (!m_entries.isEmpty())
        close(m_entries.constLast().session);
}

void OpenSessions::stopAll()
{
    for (const Entry &e : std::as_const(m_entries))
        e.session->stop();
}

QList<AgentSession *> OpenSessions::sessions() const
{
    QList<AgentSession *> sessions;
    sessions.reserve(m_entries.size());
    for (const Entry &e : m_entries)
        sessions.append(e.session);
    return sessions;
}

int OpenSessions::indexOf(const AgentSession *session) const
{
    for (int i = 0; i < m_entries.size(); ++i) {
        if (m_entries.at(i).session == session)
            return i;
    }
    return -1;
}

AgentSession *OpenSessions::find(const QString &path) const
{
    if (path.isEmpty())
        return nullptr;
    for (const Entry &e : m_entries) {
        if (e.session->sessionPath() == path)
            return e.session;
    }
    return nullptr;
}

bool OpenSessions::isRunning(const AgentSession *session)
{
    return session
           && (session->state() == AgentSession::State::Running
               || session->state() == AgentSession::State::Stopping);
}

int OpenSessions::runningCount() const
{
    int running = 0;
    for (const Entry &e : m_entries)
        running += isRunning(e.session) ? 1 : 0;
    return running;
}

SessionActivity OpenSessions::activity(const AgentSession *session) const
{
    const Entry *e = entry(session);
    if (!e)
        return SessionActivity::None;
    if (e->waiting)
        return SessionActivity::Waiting;
    if (isRunning(session))
        return SessionActivity::Running;
    if (e->failed)
        return SessionActivity::Failed;
    if (e->unseen)
        return SessionActivity::Unseen;
    return SessionActivity::None;
}

QHash<QString, SessionActivity> OpenSessions::activities() const
{
    QHash<QString, SessionActivity> activities;
    for (const Entry &e : m_entries)
        activities.insert(e.session->sessionPath(), activity(e.session));
    return activities;
}

void OpenSessions::closeIdleBeyond(int limit)
{
    for (int i = 0; i < m_entries.size() && m_entries.size() > limit;) {
        const Entry &e = m_entries.at(i);
        if (e.session != m_current && e.session->state() == AgentSession::State::Idle && !e.waiting
            && !e.unseen && !e.failed) {
            close(e.session);
        } else {
            ++i;
        }
    }
}

OpenSessions::Entry *OpenSessions::entry(const AgentSession *session)
{
    const int index = indexOf(session);
    return index < 0 ? nullptr : &m_entries[index];
}

const OpenSessions::Entry *OpenSessions::entry(const AgentSession *session) const
{
    const int index = indexOf(session);
    return index < 0 ? nullptr : &m_entries.at(index);
}

void OpenSessions::updateWaiting(AgentSession *session)
{
    Entry *e = entry(session);
    if (!e)
        return;
    const bool waiting = isRunning(session) && !session->broker()->pending().isEmpty();
    if (waiting == e->waiting)
        return;
    e->waiting = waiting;
    emit activityChanged(session);
}

void OpenSessions::runEnded(AgentSession *session, const AgentCore::AgentEvent &agentEnd)
{
    Entry *e = entry(session);
    if (!e)
        return;
    e->failed = failed(agentEnd);
    // A run the user stopped is not news; one that ended out of sight is.
    bool aborted = false;
    for (const AgentCore::Message &message : agentEnd.newMessages) {
        if (message.isAssistant())
            aborted = message.stopReason == AgentCore::StopReason::Aborted;
    }
    e->unseen = session != m_current && !aborted;
    emit activityChanged(session);
}

} // namespace Ui

#include "moc_opensessions.cpp"
