#pragma once

#include <QHash>
#include <QList>
#include <QObject>
#include <QPointer>

namespace AgentCore {
struct AgentEvent;
}

namespace Ui {

class AgentSession;

/// What an open session is doing, as its badge in the sessions list shows it.
enum class SessionActivity {
    None,    ///< not open in the window, or open, idle and seen
    Running, ///< a task runs
    Waiting, ///< a review waits for the user's answer
    Failed,  ///< its last task failed and the user has not looked at it since
    Unseen,  ///< its last task finished while the user looked at another session
};

/// The sessions open in one window, each an AgentSession with its Agent on its own worker
/// thread, keyed by session file path. Any number run at once; one is current (shown). A
/// session that is not current keeps running and recording; what it did meanwhile is its
/// activity() until the user makes it current again. Owns the sessions (deleting one aborts
/// and joins its worker). UI thread.
class OpenSessions final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(OpenSessions)
public:
    explicit OpenSessions(QObject *parent = nullptr);
    ~OpenSessions() override;

    /// Takes \a session over (it becomes its parent) and appends it; it is not made current.
    void add(AgentSession *session);
    /// Makes \a session (one of sessions()) current: its Failed or Unseen badge is cleared.
    void setCurrent(AgentSession *session);
    /// Deletes \a session (a running one is aborted, nothing more is recorded); removed() is
    /// emitted first. Closing the current one leaves no session current.
    void close(AgentSession *session);
    void closeAll();
    /// Aborts every running session; each records agent_end, then becomes idle.
    void stopAll();

    AgentSession *current() const { return m_current; }
    /// In the order they were opened (Ctrl+1...9 go by it).
    QList<AgentSession *> sessions() const;
    int count() const { return int(m_entries.size()); }
    int indexOf(const AgentSession *session) const;
    /// Null when no open session has the file \a path.
    AgentSession *find(const QString &path) const;
    /// Running or stopping (waiting for a review counts as running).
    int runningCount() const;
    static bool isRunning(const AgentSession *session);
    SessionActivity activity(const AgentSession *session) const;
    /// Every open session's activity by file path (those with None too).
    QHash<QString, SessionActivity> activities() const;
    /// Closes the oldest sessions beyond \a limit that are idle, not current, and have
    /// nothing the user has not seen (an open session costs a worker thread and its memory).
    void closeIdleBeyond(int limit);

signals:
    void added(Ui::AgentSession *session);
    /// \a session is about to be deleted.
    void removed(Ui::AgentSession *session);
    /// \a previous may be null (or about to be closed).
    void currentChanged(Ui::AgentSession *current, Ui::AgentSession *previous);
    /// The activity of \a session changed (its badge).
    void activityChanged(Ui::AgentSession *session);

private:
    struct Entry
    {
        AgentSession *session = nullptr;
        bool waiting = false; ///< its broker has a request without an answer
        bool failed = false;
        bool unseen = false;
    };
    Entry *entry(const AgentSession *session);
    const Entry *entry(const AgentSession *session) const;
    void updateWaiting(AgentSession *session);
    void runEnded(AgentSession *session, const AgentCore::AgentEvent &agentEnd);

    QList<Entry> m_entries;
    AgentSession *m_current = nullptr;
};

} // namespace Ui
