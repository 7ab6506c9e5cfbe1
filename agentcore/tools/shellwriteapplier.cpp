#include "shellwriteapplier.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUuid>

#include <algorithm>
#include <cerrno>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace AgentCore {

namespace {
struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(AgentCore::ShellWriteApplier)
};

using Type = ShellWrite::Type;

QByteArray encoded(const QString &path)
{
    return QFile::encodeName(path);
}

const QString journalSuffix = QStringLiteral(".journal");

// One step of a committed journal; each is atomic and may run twice.
enum class Phase { Unlink, Rmdir, Mkdir, Rename, Chmod };

struct Step
{
    Phase phase;
    QString path; ///< the target
    QString from; ///< Rename: the staged file
    uint mode = 0;
};

QString phaseName(Phase phase)
{
    switch (phase) {
    case Phase::Unlink:
        return QStringLiteral("unlink");
    case Phase::Rmdir:
        return QStringLiteral("rmdir");
    case Phase::Mkdir:
        return QStringLiteral("mkdir");
    case Phase::Rename:
        return QStringLiteral("rename");
    case Phase::Chmod:
        return QStringLiteral("chmod");
    }
    return {};
}

void syncDirectory(const QString &path)
{
    const int fd = ::open(encoded(path).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
}

void runStep(const Step &step)
{
    const QByteArray path = encoded(step.path);
    switch (step.phase) {
    case Phase::Unlink:
        ::unlink(path.constData()); // a directory there (a repeated run) is left alone
        break;
    case Phase::Rmdir:
        ::rmdir(path.constData());
        break;
    case Phase::Mkdir:
        if (::mkdir(path.constData(), step.mode) == 0)
            ::chmod(path.constData(), step.mode); // the umask does not decide
        break;
    case Phase::Rename:
        if (::access(encoded(step.from).constData(), F_OK) == 0 || QFileInfo(step.from).isSymLink())
            ::rename(encoded(step.from).constData(), path.constData());
        break;
    case Phase::Chmod:
        ::chmod(path.constData(), step.mode);
        break;
    }
}

bool writeJournal(const QString &file, const QJsonObject &journal, QString *error)
{
    const QString temporary = file + QStringLiteral(".tmp");
    QFile out(temporary);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate)
        || out.write(QJsonDocument(journal).toJson(QJsonDocument::Compact)) < 0 || !out.flush()
        || ::fsync(out.handle()) != 0) {
        *error = Tr::tr("cannot write the journal %1: %2").arg(temporary, out.errorString());
        return false;
    }
    out.close();
    if (::rename(encoded(temporary).constData(), encoded(file).constData()) != 0) {
        *error = Tr::tr("cannot write the journal %1").arg(file);
        return false;
    }
    syncDirectory(QFileInfo(file).path());
    return true;
}

QJsonObject journalOf(bool committed, const QString &root, const QList<Step> &steps)
{
    QJsonArray array;
    for (const Step &step : steps) {
        QJsonObject object{{QStringLiteral("op"), phaseName(step.phase)},
                           {QStringLiteral("path"), step.path}};
        if (!step.from.isEmpty())
            object.insert(QStringLiteral("from"), step.from);
        if (step.mode)
            object.insert(QStringLiteral("mode"), int(step.mode));
        array.append(object);
    }
    return {{QStringLiteral("state"),
             committed ? QStringLiteral("committed") : QStringLiteral("staged")},
            {QStringLiteral("root"), root},
            {QStringLiteral("steps"), array}};
}

QList<Step> stepsOf(const QJsonObject &journal)
{
    QList<Step> steps;
    for (const QJsonValue &value : journal.value(QStringLiteral("steps")).toArray()) {
        const QJsonObject object = value.toObject();
        const QString op = object.value(QStringLiteral("op")).toString();
        Step step{Phase::Unlink, object.value(QStringLiteral("path")).toString(), {}, 0};
        step.from = object.value(QStringLiteral("from")).toString();
        step.mode = uint(object.value(QStringLiteral("mode")).toInt());
        for (Phase phase :
             {Phase::Unlink, Phase::Rmdir, Phase::Mkdir, Phase::Rename, Phase::Chmod}) {
            if (phaseName(phase) == op)
                step.phase = phase;
        }
        if (!step.path.isEmpty())
            steps.append(step);
    }
    return steps;
}

// The nearest directory of \a path's parents that exists: new files are staged there, on the
// same filesystem as their target, so the final rename is atomic.
QString stagingDirectory(const QString &root, const QString &path)
{
    QString directory = QFileInfo(path).path();
    while (directory.size() > root.size() && !QFileInfo(directory).isDir())
        directory = QFileInfo(directory).path();
    return directory;
}

bool stage(const QString &temporary, const QByteArray &bytes, uint mode, QString *error)
{
    QFile out(temporary);
    if (!out.open(QIODevice::WriteOnly | QIODevice::NewOnly) || out.write(bytes) != bytes.size()
        || !out.flush() || ::fchmod(out.handle(), mode) != 0 || ::fsync(out.handle()) != 0) {
        *error = out.errorString();
        out.remove();
        return false;
    }
    return true;
}

bool stageCopy(const QString &temporary, const QString &source, uint mode, QString *error)
{
    QFile in(source);
    if (!in.open(QIODevice::ReadOnly)) {
        *error = in.errorString();
        return false;
    }
    QFile out(temporary);
    if (!out.open(QIODevice::WriteOnly | QIODevice::NewOnly)) {
        *error = out.errorString();
        return false;
    }
    while (!in.atEnd()) {
        const QByteArray chunk = in.read(1 << 20);
        if (out.write(chunk) != chunk.size()) {
            *error = out.errorString();
            out.remove();
            return false;
        }
    }
    if (!out.flush() || ::fchmod(out.handle(), mode) != 0 || ::fsync(out.handle()) != 0) {
        *error = out.errorString();
        out.remove();
        return false;
    }
    return true;
}

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

QByteArray linkTarget(const QString &path)
{
    QByteArray buffer(4096, '\0');
    const ssize_t n = ::readlink(encoded(path).constData(), buffer.data(), buffer.size());
    return n < 0 ? QByteArray() : buffer.left(n);
}

// The target is still as the command found it: nothing edited it since.
bool unchangedSince(const QString &target, const ShellWrite &change)
{
    struct stat info;
    if (::lstat(encoded(target).constData(), &info) != 0)
        return change.oldType == Type::None;
    switch (change.oldType) {
    case Type::None:
        return false;
    case Type::Directory:
        return S_ISDIR(info.st_mode);
    case Type::Symlink:
        return S_ISLNK(info.st_mode) && linkTarget(target) == change.oldBytes;
    case Type::File:
        if (!S_ISREG(info.st_mode) || info.st_size != change.oldSize)
            return false;
        return change.oldBytes.isEmpty() && change.oldSize > 0 ? true
                                                               : readAll(target) == change.oldBytes;
    case Type::Other:
        return !S_ISDIR(info.st_mode) && !S_ISREG(info.st_mode) && !S_ISLNK(info.st_mode);
    }
    return false;
}

int depth(const QString &path)
{
    return int(path.count(QLatin1Char('/')));
}

// The journal folder is shared by every agent of every AgentDesk process (the data folder),
// and each agent replays the journals when it is made: a journal whose apply is still running
// in another agent or process must be left alone, or its staged files vanish under it. Each
// apply holds an flock on `<journal>.lock` until its journal is gone; the kernel drops it when
// the process dies, however it dies, so a journal nobody holds is one a crash left behind (no
// process id to go stale or be reused).
class JournalLock final
{
public:
    JournalLock() = default;
    JournalLock(const JournalLock &) = delete;
    JournalLock &operator=(const JournalLock &) = delete;
    ~JournalLock() { release(); }

    static QString pathOf(const QString &journal) { return journal + QStringLiteral(".lock"); }

    /// Takes the lock of \a journal, waiting for it or not; false when another holds it (or
    /// the lock file cannot be made).
    bool take(const QString &journal, bool wait)
    {
        release();
        m_path = pathOf(journal);
        const QByteArray path = encoded(m_path);
        for (;;) {
            const int fd = ::open(path.constData(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
            if (fd < 0)
                return false;
            int result;
            do {
                result = ::flock(fd, LOCK_EX | (wait ? 0 : LOCK_NB));
            } while (result != 0 && errno == EINTR);
            if (result != 0) {
                ::close(fd); // someone else's: its file stays
                return false;
            }
            // A holder that let go may have removed the file between our open and our flock:
            // then this lock is on a file nobody else will ever see. Only the one at the path
            // counts.
            struct stat atPath;
            struct stat held;
            if (::stat(path.constData(), &atPath) == 0 && ::fstat(fd, &held) == 0
                && atPath.st_dev == held.st_dev && atPath.st_ino == held.st_ino) {
                m_fd = fd;
                return true;
            }
            ::close(fd);
        }
    }

    /// Removes the lock file while still holding it, then lets go.
    void release()
    {
        if (m_fd < 0)
            return;
        ::unlink(encoded(m_path).constData());
        ::close(m_fd);
        m_fd = -1;
    }

private:
    QString m_path;
    int m_fd = -1;
};

} // namespace

ShellWriteApplier::ShellWriteApplier(QString journalDirectory)
    : m_directory(std::move(journalDirectory))
{}

QByteArray ShellWriteApplier::keptBytes(const ShellWrite &change, const QList<int> &rejectedHunks)
{
    if (rejectedHunks.isEmpty() || change.whole)
        return change.newBytes;
    // The diff was made from the UTF-8 texts; Latin-1 keeps every byte and every line break
    // where it was, so the kept hunks are spliced into the file's own bytes.
    return change.diff
        .apply(QString::fromLatin1(change.oldBytes),
               QString::fromLatin1(change.newBytes),
               rejectedHunks)
        .toLatin1();
}

ShellWriteApplier::Outcome ShellWriteApplier::apply(const QString &root,
                                                    const QList<ShellWrite> &changes,
                                                    const QHash<int, Choice> &choices) const
{
    Outcome outcome;
    QList<Step> steps;
    QList<std::pair<QString, int>> staged; // temporary file, change index
    QList<int> candidates;
    for (int i = 0; i < changes.size(); ++i) {
        const auto choice = choices.constFind(i);
        if (choice == choices.cend() || !choice->accepted)
            continue;
        const ShellWrite &change = changes[i];
        if (!change.whole && !change.diff.isEmpty()
            && choice->rejectedHunks.size() >= change.diff.hunks().size())
            continue; // every hunk rejected: nothing of it is accepted
        const QString target = root + QLatin1Char('/') + change.path;
        if (!unchangedSince(target, change)) {
            outcome.failed.insert(i, Tr::tr("it changed since the command ran"));
            continue;
        }
        candidates.append(i);
    }

    if (!QDir().mkpath(m_directory)) {
        outcome.error = Tr::tr("cannot create the folder %1").arg(m_directory);
        return outcome;
    }
    const QString journal = m_directory + QLatin1Char('/')
                            + QUuid::createUuid().toString(QUuid::WithoutBraces) + journalSuffix;
    JournalLock held; // until the journal is gone (released last, at return)
    if (!held.take(journal, true)) {
        outcome.error = Tr::tr("cannot lock the journal %1").arg(JournalLock::pathOf(journal));
        return outcome;
    }

    // The temporary names first, so that a kill while staging leaves nothing unlisted.
    QHash<int, QString> temporaries;
    for (int i : std::as_const(candidates)) {
        const ShellWrite &change = changes[i];
        if (change.newType != Type::File && change.newType != Type::Symlink)
            continue;
        if (!change.contentChanged && change.oldType == change.newType)
            continue; // a change of mode only: chmod
        const QString target = root + QLatin1Char('/') + change.path;
        temporaries.insert(i,
                           stagingDirectory(root, target) + QStringLiteral("/.")
                               + QFileInfo(target).fileName().left(40)
                               + QStringLiteral(".agentdesk-")
                               + QUuid::createUuid().toString(QUuid::Id128).left(12));
    }
    QList<Step> cleanup;
    for (auto it = temporaries.cbegin(); it != temporaries.cend(); ++it)
        cleanup.append({Phase::Unlink, it.value(), {}, 0});
    if (!writeJournal(journal, journalOf(false, root, cleanup), &outcome.error))
        return outcome;

    for (int i : std::as_const(candidates)) {
        const ShellWrite &change = changes[i];
        const QString target = root + QLatin1Char('/') + change.path;
        const QString temporary = temporaries.value(i);
        QString why;
        bool ok = true;
        if (!temporary.isEmpty() && change.newType == Type::Symlink) {
            ok = ::symlink(change.newBytes.constData(), encoded(temporary).constData()) == 0;
            if (!ok)
                why = QString::fromLocal8Bit(::strerror(errno));
        } else if (!temporary.isEmpty() && !change.newSource.isEmpty()) {
            ok = stageCopy(temporary, change.newSource, change.newMode, &why);
        } else if (!temporary.isEmpty()) {
            ok = stage(temporary,
                       keptBytes(change, choices.value(i).rejectedHunks),
                       change.newMode,
                       &why);
        }
        if (!ok) {
            outcome.failed.insert(i, Tr::tr("cannot write %1: %2").arg(temporary, why));
            continue;
        }
        // Replaced or deleted: what was there goes first (a directory only once empty).
        const bool replaced = change.oldType != change.newType;
        if (replaced && change.oldType == Type::Directory)
            steps.append({Phase::Rmdir, target, {}, 0});
        else if (replaced && change.oldType != Type::None
                 && (change.newType == Type::None || change.newType == Type::Directory))
            steps.append({Phase::Unlink, target, {}, 0});
        if (change.newType == Type::Directory && replaced)
            steps.append({Phase::Mkdir, target, {}, change.newMode});
        else if (change.newType == Type::Directory
                 || (temporary.isEmpty() && change.newType == Type::File))
            steps.append({Phase::Chmod, target, {}, change.newMode});
        if (!temporary.isEmpty()) {
            // Parents a rejected "directory added" would have made.
            QString parent = QFileInfo(target).path();
            QStringList missing;
            while (parent.size() > root.size() && !QFileInfo(parent).isDir()) {
                missing.prepend(parent);
                parent = QFileInfo(parent).path();
            }
            for (const QString &directory : std::as_const(missing))
                steps.append({Phase::Mkdir, directory, {}, 0755});
            steps.append({Phase::Rename, target, temporary, 0});
        }
        outcome.applied.append(i);
    }

    // Deepest removals first, shallowest creations first, then contents, then modes.
    std::stable_sort(steps.begin(), steps.end(), [](const Step &a, const Step &b) {
        const auto rank = [](Phase phase) {
            return phase == Phase::Unlink   ? 0
                   : phase == Phase::Rmdir  ? 0
                   : phase == Phase::Mkdir  ? 1
                   : phase == Phase::Rename ? 2
                                            : 3;
        };
        if (rank(a.phase) != rank(b.phase))
            return rank(a.phase) < rank(b.phase);
        if (rank(a.phase) == 0)
            return depth(a.path) > depth(b.path);
        if (a.phase == Phase::Mkdir)
            return depth(a.path) < depth(b.path);
        return false;
    });
    steps.erase(std::unique(steps.begin(),
                            steps.end(),
                            [](const Step &a, const Step &b) {
                                return a.phase == b.phase && a.path == b.path && a.from == b.from;
                            }),
                steps.end());

    if (!writeJournal(journal, journalOf(true, root, steps), &outcome.error)) {
        for (const Step &step : std::as_const(cleanup))
            runStep(step);
        QFile::remove(journal);
        outcome.applied.clear();
        return outcome;
    }
    for (const Step &step : std::as_const(steps))
        runStep(step);
    for (int i : std::as_const(outcome.applied)) {
        // A directory that kept something the reviewer did not let go is not removed.
        const ShellWrite &change = changes[i];
        if (change.oldType == Type::Directory && change.newType != Type::Directory
            && QFileInfo(root + QLatin1Char('/') + change.path).isDir()) {
            outcome.failed.insert(i, Tr::tr("it still holds files that were kept"));
        }
    }
    for (auto it = outcome.failed.cbegin(); it != outcome.failed.cend(); ++it)
        outcome.applied.removeAll(it.key());
    QFile::remove(journal);
    return outcome;
}

QStringList ShellWriteApplier::replay(const QString &journalDirectory)
{
    QStringList lines;
    const QDir dir(journalDirectory);
    for (const QString &name : dir.entryList({QStringLiteral("*") + journalSuffix}, QDir::Files)) {
        const QString file = dir.filePath(name);
        JournalLock held;
        if (!held.take(file, false))
            continue; // an apply going on in another agent or process
        if (!QFileInfo::exists(file))
            continue; // it ended meanwhile
        const QJsonObject journal = QJsonDocument::fromJson(readAll(file)).object();
        const bool committed = journal.value(QStringLiteral("state")).toString()
                               == QStringLiteral("committed");
        const QList<Step> steps = stepsOf(journal);
        for (const Step &step : steps)
            runStep(step);
        if (committed) {
            // Staged files a failed step left behind.
            for (const Step &step : steps) {
                if (step.phase == Phase::Rename)
                    ::unlink(encoded(step.from).constData());
            }
        }
        QFile::remove(file);
        lines.append(committed ? Tr::tr("Finished applying a command's accepted changes to %1 "
                                        "(%2 steps) that an earlier run left unfinished.")
                                     .arg(journal.value(QStringLiteral("root")).toString())
                                     .arg(steps.size())
                               : Tr::tr("Removed the files staged for a command's changes to %1 "
                                        "that an earlier run never applied.")
                                     .arg(journal.value(QStringLiteral("root")).toString()));
    }
    for (const QString &name : dir.entryList({QStringLiteral("*.journal.tmp")}, QDir::Files)) {
        // Being written by an apply going on elsewhere, unless its lock is free.
        JournalLock held;
        if (held.take(dir.filePath(name.chopped(4)), false))
            QFile::remove(dir.filePath(name));
    }
    for (const QString &name : dir.entryList({QStringLiteral("*.journal.lock")}, QDir::Files)) {
        // Left by an apply killed before its journal was written: taking it removes it.
        JournalLock held;
        held.take(dir.filePath(name.chopped(5)), false);
    }
    return lines;
}

} // namespace AgentCore
