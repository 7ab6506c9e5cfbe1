#pragma once

#include <session/sessionstore.h>

#include <QHash>
#include <QObject>

#include <functional>

QT_BEGIN_NAMESPACE
class QFileSystemWatcher;
class QTimer;
QT_END_NAMESPACE

namespace Ui {

class AgentSession;
class SessionsPanel;

/// What the sessions list shows, kept without reading files on the UI thread. The folder is
/// read (SessionStore::list: every file, ~70 ms with a long one among them) on a worker thread
/// when the repository is opened and when another window or process adds or removes a file
/// (the folder is watched). A session of this window that recorded something updates its own
/// row from what it knows in memory: no file is read, no other row is touched. A scan that a
/// newer one follows is dropped when it ends, and what a session said after a scan began wins
/// over what that scan read. UI thread.
class SessionList final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SessionList)
public:
    /// How a folder is read, on a worker thread (default: SessionStore::list).
    using Scan = std::function<QList<AgentCore::SessionInfo>(const QString &directory)>;

    explicit SessionList(SessionsPanel *panel, Scan scan = {}, QObject *parent = nullptr);
    ~SessionList() override;

    /// Lists the sessions of \a directory (empty: none), read on a worker thread, and watches
    /// the folder for files another window or process adds or removes.
    void setDirectory(const QString &directory);
    QString directory() const { return m_directory; }
    /// Reads the folder again on a worker thread.
    void rescan();
    /// A scan is under way or about to start: its result is not shown yet.
    bool isScanning() const;
    /// Marks the conversation shown in the window (its file may not exist yet); reads nothing.
    void setCurrent(const QString &path);
    /// \a session recorded something (a task, a run's end, a title): its row, from what it
    /// knows in memory, becomes the newest.
    void sessionRecorded(const AgentSession *session);
    /// Shows \a session as given (a rename, a session that recorded something).
    void update(const AgentCore::SessionInfo &session);
    /// Names the session \a path, which no session of this window writes: SessionStore::rename
    /// (a read and a small append, under the session's lock) on a worker thread, then its row
    /// shows the name and renamed() follows; renameFailed() when the file cannot be written
    /// (its row keeps its name).
    void rename(const QString &path, const QString &title);
    /// \a path was deleted: its row goes (a file still there is read again).
    void remove(const QString &path);
    /// As listed, newest first (the unsaved conversation not among them).
    QList<AgentCore::SessionInfo> sessions() const { return m_sessions; }

signals:
    /// A scan's result is shown.
    void scanned();
    /// rename() wrote \a title into \a path, and its row shows it.
    void renamed(const QString &path, const QString &title);
    /// rename() could not write \a path: \a error says why.
    void renameFailed(const QString &path, const QString &error);

private:
    void scanFinished(quint64 serial, const QString &directory, QList<AgentCore::SessionInfo> found);
    void watch();
    /// Remembers \a session (nullopt: deleted) as what the window knows at this moment.
    void noteLocal(const QString &path, const std::optional<AgentCore::SessionInfo> &session);

    SessionsPanel *m_panel;
    Scan m_scan;
    QString m_directory;
    QString m_currentPath;
    QList<AgentCore::SessionInfo> m_sessions; // newest first
    QFileSystemWatcher *m_watcher;
    QTimer *m_rescanSoon;     // a burst of changes in the folder is read once
    quint64 m_serial = 0;     // counts scans started and local changes, in order
    quint64 m_latestScan = 0; // the serial of the newest scan started
    bool m_scanning = false;
    struct Local
    {
        quint64 serial = 0;
        std::optional<AgentCore::SessionInfo> session; // nullopt: deleted
    };
    // What the window changed after the scan under way began: applied over its result.
    QHash<QString, Local> m_local;
};

} // namespace Ui
