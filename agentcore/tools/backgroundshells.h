#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QHash>
#include <QList>
#include <QMutex>
#include <QObject>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <atomic>
#include <memory>
#include <optional>

QT_BEGIN_NAMESPACE
class QThread;
QT_END_NAMESPACE

namespace AgentCore {

/// One background command as it stands: what BashOutput, KillShell and the window's side panel
/// show of it.
struct BackgroundShell
{
    QString id; ///< "bash_1", "bash_2", ... in the order they started
    QString command;
    QString description;
    qint64 pid = 0; ///< of bash (or bwrap), the leader of its process group
    QDateTime started;
    bool sandboxed = false;
    bool running = true;
    /// Ended by KillShell, the side panel's Stop or the session's end (not on its own).
    bool stopped = false;
    bool crashed = false; ///< killed by a signal: exitCode holds the signal
    int exitCode = 0;
    qint64 totalBytes = 0; ///< of output so far
    QString logPath;       ///< the whole output; empty when it could not be written

    /// "running", "exit code 0", "stopped", "killed by signal 9", for people and the model.
    QString stateText() const;
};

/// What BackgroundShells::start runs: the program line BashTool made (bash, or bwrap around
/// it), its environment and folder.
struct BackgroundLaunch
{
    QString command; ///< the model's command line, as shown
    QString description;
    QString program;
    QStringList arguments;
    QProcessEnvironment environment;
    QString workingDirectory;
    bool inBwrap = false;
};

/// The commands a session runs in the background (Bash with run_in_background): each in a
/// session and process group of its own, stdin from /dev/null, stdout and stderr merged into a
/// ring of the last keptBytes per command and a log file of the whole output (in the log
/// directory, as Bash's long output). At most maxRunning() run at once. They end with this
/// object (stopAll(), which the CodingSession calls when it goes) and with AgentDesk, however
/// it ends: the leader gets SIGKILL when the thread that started it ends (PR_SET_PDEATHSIG, the
/// object's own thread, which lives as long as it), bwrap's --die-with-parent takes the
/// sandbox's processes with it, and outside bwrap a ProcessGroupGuard ends the whole group
/// when AgentDesk is killed (kill -9). What a command leaves running in its group when its
/// leader exits is terminated as Bash does.
/// The processes live on a thread of the object's own; every method is thread-safe and none
/// may be called from that thread. changed() is emitted there: connect with a queued
/// connection (the default across threads).
class BackgroundShells final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BackgroundShells)
public:
    static constexpr int defaultMaxRunning = 8;
    static constexpr qsizetype keptBytes = 1024 * 1024;
    /// stopAll()'s grace between TERM and KILL, at most: it runs as a session goes.
    static constexpr int stopAllGraceMs = 500;

    /// \a logDirectory: where each command's log goes (empty: no log).
    explicit BackgroundShells(const QString &logDirectory, int maxRunning = defaultMaxRunning);
    /// stopAll().
    ~BackgroundShells() override;

    int maxRunning() const { return m_maxRunning; }
    /// Between TERM and KILL (default 2000 ms).
    void setKillGracePeriod(int milliseconds) { m_graceMs = milliseconds; }

    /// The id of the started command, or the error that kept it from starting (too many
    /// running, the program could not start, stopAll() was called).
    struct Started
    {
        QString id;
        qint64 pid = 0;
        QString error;
    };
    /// Starts \a launch on the object's thread and waits for it to have started.
    Started start(const BackgroundLaunch &launch);

    /// Output since the last takeNew() of the same command (the model's reads), as far as the
    /// ring still has it: \a dropped counts the bytes it no longer had (the log has them).
    struct Taken
    {
        BackgroundShell shell;
        QByteArray bytes;
        qint64 dropped = 0;
    };
    /// nullopt for an unknown id.
    std::optional<Taken> takeNew(const QString &id);
    /// The last \a bytes of the output (the panel's view); empty for an unknown id.
    QByteArray tail(const QString &id, qsizetype bytes) const;

    std::optional<BackgroundShell> shell(const QString &id) const;
    /// Every command of the session, running or ended, in the order they started.
    QList<BackgroundShell> shells() const;
    int runningCount() const;

    /// TERM to the command's group now, KILL after the grace period if it still runs. Returns
    /// at once; false for an unknown id or one that has ended.
    bool requestStop(const QString &id);
    /// requestStop(), then waits until it has ended (at most the grace period and a second).
    /// The shell as it ended; nullopt for an unknown id.
    std::optional<BackgroundShell> stop(const QString &id);
    /// Stops every running command (TERM, KILL after the grace period but at most
    /// stopAllGraceMs), waits for them to end and ends the object's thread; start() refuses
    /// from then on. Idempotent.
    void stopAll();

signals:
    /// \a id started, printed something (at most every 100 ms), or ended.
    void changed(const QString &id);

private:
    struct Entry;
    Started startHere(const BackgroundLaunch &launch);
    std::shared_ptr<Entry> entry(const QString &id) const;
    void appendOutput(const QString &id, const QByteArray &bytes);
    void finish(const QString &id, bool crashed, int code);

    QString m_logDirectory;
    int m_maxRunning;
    std::atomic_int m_graceMs = 2000;
    QThread *m_thread = nullptr;  ///< owned; deleted in stopAll()
    QObject *m_context = nullptr; ///< lives on m_thread: the processes' parent
    QMutex m_startMutex;          ///< start() against stopAll()
    mutable QMutex m_mutex;
    QList<QString> m_order;
    QHash<QString, std::shared_ptr<Entry>> m_entries;
    int m_nextId = 1;
    bool m_closed = false;
};

} // namespace AgentCore
