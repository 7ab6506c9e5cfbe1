#include "sessionlist.h"

#include "agentsession/agentsession.h"
#include "common/background.h"
#include "sessionspanel.h"

#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QTimer>

#include <algorithm>

namespace Ui {

namespace {

/// Changes in the folder within this time are read with one scan (a session opening makes its
/// lock file, a save may replace a file in steps).
constexpr int rescanDelayMs = 150;

void sortNewestFirst(QList<AgentCore::SessionInfo> &sessions)
{
    // As SessionStore::list orders them.
    std::sort(sessions.begin(),
              sessions.end(),
              [](const AgentCore::SessionInfo &a, const AgentCore::SessionInfo &b) {
                  if (a.modified != b.modified)
                      return a.modified > b.modified;
                  return a.path > b.path;
              });
}

} // namespace

SessionList::SessionList(SessionsPanel *panel, Scan scan, QObject *parent)
    : QObject(parent)
    , m_panel(panel)
    , m_scan(scan ? std::move(scan) : Scan([](const QString &directory) {
        // Called by rescan() off the UI thread.
        return AgentCore::SessionStore(directory).list();
    }))
    , m_watcher(new QFileSystemWatcher(this))
    , m_rescanSoon(new QTimer(this))
{
    m_rescanSoon->setSingleShot(true);
    m_rescanSoon->setInterval(rescanDelayMs);
    connect(m_rescanSoon, &QTimer::timeout, this, &SessionList::rescan);
    // A file made or removed by another window or process (appending to a file is not a
    // change of the folder: this window's own sessions update their rows themselves).
    connect(m_watcher, &QFileSystemWatcher::directoryChanged, m_rescanSoon, [this] {
        m_rescanSoon->start();
    });
}

SessionList::~SessionList() = default;

void SessionList::setDirectory(const QString &directory)
{
    if (!m_watcher->directories().isEmpty())
        m_watcher->removePaths(m_watcher->directories());
    m_directory = directory;
    m_currentPath.clear();
    m_sessions.clear();
    m_local.clear();
    m_panel->setSessions({}, {});
    watch();
    rescan();
}

void SessionList::rescan()
{
    m_rescanSoon->stop();
    const quint64 serial = m_latestScan = ++m_serial;
    if (m_directory.isEmpty()) {
        scanFinished(serial, m_directory, {});
        return;
    }
    m_scanning = true;
    watch(); // the folder may have been made since
    runInBackground(
        this,
        [directory = m_directory, scan = m_scan] { return scan(directory); },
        [this, serial, directory = m_directory](QList<AgentCore::SessionInfo> found) {
            scanFinished(serial, directory, std::move(found));
        });
}

bool SessionList::isScanning() const
{
    return m_scanning || m_rescanSoon->isActive();
}

void SessionList::scanFinished(quint64 serial,
                               const QString &directory,
                               QList<AgentCore::SessionInfo> found)
{
    // A newer scan is under way (or another repository was opened): it will say what is there.
    if (serial != m_latestScan || directory != m_directory)
        return;
    m_scanning = false;
    for (auto it = m_local.begin(); it != m_local.end();) {
        if (it->serial < serial) { // the scan read what the window wrote
            it = m_local.erase(it);
            continue;
        }
        // Changed while the scan ran: what the window knows is newer than what was read.
        const QString path = it.key();
        found.removeIf([&path](const AgentCore::SessionInfo &info) { return info.path == path; });
        if (it->session)
            found.append(*it->session);
        ++it;
    }
    sortNewestFirst(found);
    // A folder change that changed no session (a session of some window took or left its lock
    // file) leaves the rows alone: a rename being typed in one is not lost.
    if (found != m_sessions) {
        m_sessions = std::move(found);
        m_panel->setSessions(m_sessions, m_currentPath);
    }
    emit scanned();
}

void SessionList::setCurrent(const QString &path)
{
    m_currentPath = path;
    // Only the marker moves; the rows are made again from memory when the unsaved
    // conversation's row comes or goes.
    if (!m_panel->setCurrentPath(path))
        m_panel->setSessions(m_sessions, path);
}

void SessionList::sessionRecorded(const AgentSession *session)
{
    if (session->isReadOnly() || session->sessionPath().isEmpty())
        return; // the other window that writes it says so in its own list
    AgentCore::SessionInfo info;
    info.path = session->sessionPath();
    info.created = QDateTime::currentDateTime();
    for (const AgentCore::SessionInfo &listed : std::as_const(m_sessions)) {
        if (listed.path == info.path)
            info.created = listed.created;
    }
    // What SessionStore::describe would read back from the file just written.
    info.title = session->title().isEmpty()
                     ? AgentCore::SessionStore::titleFromTask(session->firstTask())
                     : session->title();
    info.modified = QDateTime::currentDateTime();
    info.messageCount = int(session->conversation().size());
    update(info);
}

void SessionList::update(const AgentCore::SessionInfo &session)
{
    watch(); // a session's first record may have made the folder
    m_sessions.removeIf(
        [&session](const AgentCore::SessionInfo &info) { return info.path == session.path; });
    m_sessions.prepend(session);
    sortNewestFirst(m_sessions);
    noteLocal(session.path, session);
    m_panel->updateSession(session);
}

void SessionList::rename(const QString &path, const QString &title)
{
    struct Outcome
    {
        bool ok = false;
        QString error;
    };
    runInBackground(
        this,
        [path, title] {
            Outcome outcome;
            // A read and a small append under the session's lock, off the UI thread.
            outcome.ok = AgentCore::SessionStore::rename(path, title, &outcome.error);
            return outcome;
        },
        [this, path, title](const Outcome &outcome) {
            if (!outcome.ok) {
                m_panel->setSessions(m_sessions, m_currentPath); // the edited row gets its name back
                emit renameFailed(path, outcome.error);
                return;
            }
            for (AgentCore::SessionInfo info : std::as_const(m_sessions)) {
                if (info.path == path) {
                    info.title = title.simplified();
                    info.modified = QDateTime::currentDateTime();
                    update(info);
                    break;
                }
            }
            emit renamed(path, title.simplified());
        });
}

void SessionList::remove(const QString &path)
{
    if (QFileInfo::exists(path)) { // not deleted after all (said in the status bar)
        rescan();
        return;
    }
    m_sessions.removeIf([&path](const AgentCore::SessionInfo &info) { return info.path == path; });
    noteLocal(path, std::nullopt);
    m_panel->removeSession(path);
}

void SessionList::noteLocal(const QString &path,
                            const std::optional<AgentCore::SessionInfo> &session)
{
    if (m_scanning)
        m_local.insert(path, {++m_serial, session});
}

void SessionList::watch()
{
    if (m_directory.isEmpty() || m_watcher->directories().contains(m_directory))
        return;
    // A repository's folder is made with its first session: watched from then on.
    if (QFileInfo::exists(m_directory))
        m_watcher->addPath(m_directory);
}

} // namespace Ui

#include "moc_sessionlist.cpp"
