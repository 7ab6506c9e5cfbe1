#include "filesetwriter.h"
#include "translation.h"

#include <files/privatefiles.h>

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QSet>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <optional>
#include <utility>

namespace AgentCore {

namespace {

using Kind = FileSetWriter::Change::Kind;

std::atomic<void (*)(const QString &)> testHook{nullptr};

const QString journalSuffix = QStringLiteral(".journal");

// One step of a committed journal; each is atomic and may run twice.
enum class Op { Remove, Mkdir, Rename, Chmod, Prune };

struct Step
{
    Op op = Op::Remove;
    QString path;       ///< the target, relative to the root
    QString from;       ///< Rename: the temporary file, relative to the root
    uint mode = 0;      ///< Mkdir, Chmod
    bool exact = false; ///< Mkdir: the mode as given, not as the umask leaves it
    int change = -1;    ///< the change it belongs to (not journalled)
};

const std::pair<Op, QLatin1String> opNames[] = {{Op::Remove, QLatin1String("remove")},
                                                {Op::Mkdir, QLatin1String("mkdir")},
                                                {Op::Rename, QLatin1String("rename")},
                                                {Op::Chmod, QLatin1String("chmod")},
                                                {Op::Prune, QLatin1String("prune")}};

QString systemError()
{
    return QString::fromLocal8Bit(std::strerror(errno));
}

QByteArray native(const QString &root, const QString &relative)
{
    return QFile::encodeName(relative.isEmpty() ? root : root + QLatin1Char('/') + relative);
}

void syncFolder(const QString &path)
{
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
}

bool writeAll(int fd, const QByteArray &bytes)
{
    qsizetype done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.constData() + done, size_t(bytes.size() - done));
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        done += n;
    }
    return true;
}

bool validPath(const QString &path)
{
    const QStringList parts = path.split(QLatin1Char('/'));
    return !path.isEmpty() && !parts.contains(QStringLiteral("..")) && !parts.contains(QString())
           && !parts.contains(QStringLiteral("."));
}

QString parentOf(const QString &path)
{
    const qsizetype slash = path.lastIndexOf(QLatin1Char('/'));
    return slash < 0 ? QString() : path.left(slash);
}

int depth(const QString &path)
{
    return int(path.count(QLatin1Char('/')));
}

// Walks the folders from the root to \a path's parent. Every one that exists must be a real
// folder: a link there could lead a write outside the root. \a missing gets the ones that do
// not exist (shallowest first), or that \a removed (the set's deletions) takes away first;
// null: a missing one is a problem.
QString checkParents(const QString &root,
                     const QString &path,
                     QStringList *missing,
                     const QSet<QString> &removed = {})
{
    const QStringList parts = path.split(QLatin1Char('/'));
    QString folder;
    for (qsizetype i = 0; i + 1 < parts.size(); ++i) {
        folder += (folder.isEmpty() ? QString() : QStringLiteral("/")) + parts.at(i);
        if (missing && !missing->isEmpty()) {
            missing->append(folder);
            continue;
        }
        struct stat info;
        if ((missing && removed.contains(folder))
            || ::lstat(native(root, folder).constData(), &info) != 0) {
            if (!missing)
                return CheckpointTr::tr("the folder %1 does not exist").arg(folder);
            missing->append(folder);
            continue;
        }
        if (S_ISLNK(info.st_mode))
            return CheckpointTr::tr("%1 is a symbolic link; not followed").arg(folder);
        if (!S_ISDIR(info.st_mode))
            return CheckpointTr::tr("%1 is not a folder").arg(folder);
    }
    return {};
}

QString runStep(const QString &root, const Step &step)
{
    if (step.op == Op::Prune) {
        // Folders left empty by a deletion, up to the root; a real folder only.
        for (QString folder = parentOf(step.path); !folder.isEmpty(); folder = parentOf(folder)) {
            if (!checkParents(root, folder, nullptr).isEmpty())
                return {};
            struct stat info;
            if (::lstat(native(root, folder).constData(), &info) != 0 || !S_ISDIR(info.st_mode)
                || ::rmdir(native(root, folder).constData()) != 0) {
                return {};
            }
        }
        return {};
    }
    QStringList missing;
    if (const QString problem = checkParents(root, step.path, &missing); !problem.isEmpty())
        return problem;
    const QByteArray target = native(root, step.path);
    struct stat current;
    const bool exists = missing.isEmpty() && ::lstat(target.constData(), &current) == 0;
    switch (step.op) {
    case Op::Remove:
        if (!exists)
            return {};
        if (S_ISDIR(current.st_mode))
            return ::rmdir(target.constData()) == 0 || errno == ENOENT ? QString() : systemError();
        return ::unlink(target.constData()) == 0 || errno == ENOENT ? QString() : systemError();
    case Op::Mkdir:
        if (!missing.isEmpty())
            return CheckpointTr::tr("the folder %1 does not exist").arg(missing.first());
        if (exists && !S_ISDIR(current.st_mode))
            return CheckpointTr::tr("%1 is in the way of a folder").arg(step.path);
        if (!exists && ::mkdir(target.constData(), step.exact ? step.mode : 0777) != 0
            && errno != EEXIST) {
            return systemError();
        }
        if (step.exact && ::chmod(target.constData(), step.mode) != 0) // the umask does not decide
            return systemError();
        return {};
    case Op::Rename: {
        if (!missing.isEmpty())
            return CheckpointTr::tr("the folder %1 does not exist").arg(missing.first());
        const QByteArray from = native(root, step.from);
        struct stat staged;
        if (::lstat(from.constData(), &staged) != 0)
            return {}; // renamed already (a replay)
        if (exists && S_ISDIR(current.st_mode) && ::rmdir(target.constData()) != 0)
            return CheckpointTr::tr("a folder is in the way: %1").arg(systemError());
        if (::rename(from.constData(), target.constData()) != 0) {
            const QString problem = systemError();
            ::unlink(from.constData());
            return problem;
        }
        return {};
    }
    case Op::Chmod:
        if (!exists)
            return CheckpointTr::tr("%1 does not exist").arg(step.path);
        if (S_ISLNK(current.st_mode))
            return {}; // chmod would follow it; a link has no mode of its own
        return ::chmod(target.constData(), step.mode) == 0 ? QString() : systemError();
    case Op::Prune:
        break;
    }
    return {};
}

bool saveJournal(const QString &file, const QJsonObject &journal, QString *error)
{
    const QString temporary = file + QStringLiteral(".tmp");
    const QByteArray name = QFile::encodeName(temporary);
    const int fd = ::open(name.constData(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0 || !writeAll(fd, QJsonDocument(journal).toJson(QJsonDocument::Compact))
        || ::fsync(fd) != 0) {
        *error = CheckpointTr::tr("cannot write the journal %1: %2").arg(temporary, systemError());
        if (fd >= 0)
            ::close(fd);
        ::unlink(name.constData());
        return false;
    }
    ::close(fd);
    if (::rename(name.constData(), QFile::encodeName(file).constData()) != 0) {
        *error = CheckpointTr::tr("cannot write the journal %1: %2").arg(file, systemError());
        ::unlink(name.constData());
        return false;
    }
    syncFolder(QFileInfo(file).path());
    return true;
}

QJsonObject journalOf(bool committed,
                      const QString &root,
                      const QStringList &temporaries,
                      const QList<Step> &steps)
{
    QJsonArray array;
    for (const Step &step : steps) {
        QJsonObject object{{QStringLiteral("path"), step.path}};
        for (const auto &[op, name] : opNames) {
            if (op == step.op)
                object.insert(QStringLiteral("op"), name);
        }
        if (!step.from.isEmpty())
            object.insert(QStringLiteral("from"), step.from);
        if (step.op == Op::Mkdir || step.op == Op::Chmod)
            object.insert(QStringLiteral("mode"), int(step.mode));
        if (step.exact)
            object.insert(QStringLiteral("exact"), true);
        array.append(object);
    }
    return {{QStringLiteral("state"),
             committed ? QStringLiteral("committed") : QStringLiteral("staged")},
            {QStringLiteral("root"), root},
            {QStringLiteral("temporaries"), QJsonArray::fromStringList(temporaries)},
            {QStringLiteral("steps"), array}};
}

QList<Step> stepsOf(const QJsonObject &journal)
{
    QList<Step> steps;
    for (const QJsonValue &value : journal.value(QStringLiteral("steps")).toArray()) {
        const QJsonObject object = value.toObject();
        Step step;
        const QString op = object.value(QStringLiteral("op")).toString();
        bool known = false;
        for (const auto &[candidate, name] : opNames) {
            if (op == name) {
                step.op = candidate;
                known = true;
            }
        }
        step.path = object.value(QStringLiteral("path")).toString();
        step.from = object.value(QStringLiteral("from")).toString();
        step.mode = uint(object.value(QStringLiteral("mode")).toInt());
        step.exact = object.value(QStringLiteral("exact")).toBool();
        if (known && validPath(step.path) && (step.from.isEmpty() || validPath(step.from)))
            steps.append(step);
    }
    return steps;
}

// A journal folder is shared by every agent of every AgentDesk process (the data folder), and
// each agent replays the journals when it is made: a journal whose write is still going on in
// another agent or process must be left alone, or its staged files vanish under it. Each write
// holds an flock on `<journal>.lock` until its journal is gone; the kernel drops it when the
// process dies, however it dies, so a journal nobody holds is one a crash left behind (no
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
        const QByteArray path = QFile::encodeName(m_path);
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
        ::unlink(QFile::encodeName(m_path).constData());
        ::close(m_fd);
        m_fd = -1;
    }

private:
    QString m_path;
    int m_fd = -1;
};

QString temporaryName(const QString &folder)
{
    const QString name = QStringLiteral(".agentdesk-")
                         + QString::number(QRandomGenerator::global()->generate64(), 16);
    return folder.isEmpty() ? name : folder + QLatin1Char('/') + name;
}

// Writes \a change's new content to \a temporary (relative to \a root), flushed to disk.
QString stage(const QString &root, const QString &temporary, const FileSetWriter::Change &change)
{
    const QByteArray name = native(root, temporary);
    ::unlink(name.constData());
    if (change.kind == Kind::Link)
        return ::symlink(change.bytes.constData(), name.constData()) == 0 ? QString()
                                                                          : systemError();
    const bool executable = change.mode & 0111;
    std::optional<mode_t> mode;
    if (!change.likeExisting) {
        mode = mode_t(change.mode & 07777);
    } else if (struct stat current; ::lstat(native(root, change.path).constData(), &current) == 0
                                    && S_ISREG(current.st_mode)) {
        // Keep the permissions the file has now (0600, 0664...), with the executable bit.
        mode_t kept = current.st_mode & 07777;
        if (executable)
            kept |= (kept & 0444) >> 2;
        else
            kept &= ~mode_t(0111);
        mode = kept;
    }
    const int fd = ::open(name.constData(),
                          O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                          executable ? 0777 : 0666);
    if (fd < 0)
        return systemError();
    bool ok = true;
    if (change.source.isEmpty()) {
        ok = writeAll(fd, change.bytes);
    } else {
        QFile in(change.source);
        ok = in.open(QIODevice::ReadOnly);
        while (ok && !in.atEnd()) {
            const QByteArray chunk = in.read(1 << 20);
            ok = !chunk.isEmpty() && writeAll(fd, chunk);
        }
        if (!ok && in.error() != QFileDevice::NoError) {
            ::close(fd);
            ::unlink(name.constData());
            return in.errorString();
        }
    }
    ok = ok && (!mode || ::fchmod(fd, *mode) == 0) && ::fsync(fd) == 0;
    const QString problem = ok ? QString() : systemError();
    ::close(fd);
    if (!ok)
        ::unlink(name.constData());
    return problem;
}

// What writing \a changes under \a root takes, step by step (in the order of the changes);
// the files and links are first written to temporary names, listed in \a temporaries (change
// -> temporary, relative). A change that cannot be made is in \a outcome's failed list.
QList<Step> planSteps(const QString &root,
                      const QList<FileSetWriter::Change> &changes,
                      FileSetWriter::Outcome &outcome,
                      QHash<int, QString> &temporaries)
{
    QList<Step> steps;
    QSet<QString> removed; // a link or file deleted where a folder must go
    for (const FileSetWriter::Change &change : changes) {
        if (change.kind == Kind::Delete)
            removed.insert(change.path);
    }
    for (int i = 0; i < changes.size(); ++i) {
        const FileSetWriter::Change &change = changes[i];
        if (!validPath(change.path)) {
            outcome.failed.insert(i, CheckpointTr::tr("not a path inside the folder"));
            continue;
        }
        QStringList missing;
        const QString problem = checkParents(root,
                                             change.path,
                                             &missing,
                                             change.kind == Kind::Delete ? QSet<QString>()
                                                                         : removed);
        if (!problem.isEmpty()) {
            if (change.kind != Kind::Delete)
                outcome.failed.insert(i, problem);
            continue; // nothing to delete behind a link or a file
        }
        if (change.kind == Kind::Delete) {
            if (!missing.isEmpty())
                continue; // nothing there
            steps.append({Op::Remove, change.path, {}, 0, false, i});
            if (change.removeEmptyParents)
                steps.append({Op::Prune, change.path, {}, 0, false, i});
            continue;
        }
        for (const QString &folder : std::as_const(missing))
            steps.append({Op::Mkdir, folder, {}, 0777, false, i});
        switch (change.kind) {
        case Kind::File:
        case Kind::Link: {
            // Beside the target, or in the nearest folder that exists: the rename stays on
            // one filesystem, so it is atomic.
            const QString folder = missing.isEmpty() ? parentOf(change.path)
                                                     : parentOf(missing.first());
            temporaries.insert(i, temporaryName(folder));
            steps.append({Op::Rename, change.path, temporaries.value(i), 0, false, i});
            break;
        }
        case Kind::Folder:
            steps.append({Op::Mkdir, change.path, {}, change.mode & 07777, true, i});
            break;
        case Kind::Mode:
            steps.append({Op::Chmod, change.path, {}, change.mode & 07777, false, i});
            break;
        case Kind::Delete:
            break;
        }
    }
    return steps;
}

// Deepest removals first, shallowest new folders first, then contents, then modes, then the
// folders deletions left empty; each step once.
QList<Step> orderSteps(QList<Step> steps)
{
    std::stable_sort(steps.begin(), steps.end(), [](const Step &a, const Step &b) {
        if (a.op != b.op)
            return int(a.op) < int(b.op);
        if (a.op == Op::Remove)
            return depth(a.path) > depth(b.path);
        if (a.op == Op::Mkdir && depth(a.path) != depth(b.path))
            return depth(a.path) < depth(b.path);
        if (a.op == Op::Mkdir)
            return a.exact && !b.exact; // a folder's own mode over a parent made on the way
        return false;
    });
    QList<Step> unique;
    QSet<QString> seen;
    for (const Step &step : std::as_const(steps)) {
        const QString key = QString::number(int(step.op)) + QLatin1Char('\n') + step.path
                            + QLatin1Char('\n') + step.from;
        if (!seen.contains(key)) {
            seen.insert(key);
            unique.append(step);
        }
    }
    return unique;
}

} // namespace

FileSetWriter::FileSetWriter(QString journalFolder)
    : m_journalFolder(std::move(journalFolder))
{}

void FileSetWriter::setTestHook(void (*hook)(const QString &path))
{
    testHook.store(hook);
}

FileSetWriter::Outcome FileSetWriter::write(const QString &root, const QList<Change> &changes) const
{
    Outcome outcome;
    QHash<int, QString> temporaries; // change -> temporary file, relative
    QList<Step> steps = planSteps(root, changes, outcome, temporaries);
    if (steps.isEmpty())
        return outcome;

    if (!PrivateFiles::makePath(m_journalFolder)) {
        outcome.error = CheckpointTr::tr("cannot create the folder %1").arg(m_journalFolder);
        return outcome;
    }
    const QString journal = m_journalFolder + QLatin1Char('/')
                            + QString::number(QRandomGenerator::global()->generate64(), 16)
                            + journalSuffix;
    JournalLock held; // until the journal is gone (released last, at return)
    if (!held.take(journal, true)) {
        outcome.error = CheckpointTr::tr("cannot lock the journal %1")
                            .arg(JournalLock::pathOf(journal));
        return outcome;
    }
    // The temporary names first, so that a kill while staging leaves nothing unlisted.
    const QStringList temporaryList = temporaries.values();
    if (!saveJournal(journal, journalOf(false, root, temporaryList, {}), &outcome.error))
        return outcome;
    for (auto it = temporaries.cbegin(); it != temporaries.cend(); ++it) {
        const QString problem = stage(root, it.value(), changes[it.key()]);
        if (!problem.isEmpty())
            outcome.failed.insert(it.key(), problem);
    }
    steps.removeIf([&outcome](const Step &step) { return outcome.failed.contains(step.change); });

    steps = orderSteps(std::move(steps));

    if (!saveJournal(journal, journalOf(true, root, temporaryList, steps), &outcome.error)) {
        for (const QString &temporary : temporaryList)
            ::unlink(native(root, temporary).constData());
        QFile::remove(journal);
        outcome.failed.clear();
        return outcome;
    }
    for (const Step &step : std::as_const(steps)) {
        if (step.op == Op::Rename) {
            if (auto hook = testHook.load())
                hook(step.path);
        }
        const QString problem = runStep(root, step);
        if (!problem.isEmpty() && !outcome.failed.contains(step.change))
            outcome.failed.insert(step.change, problem);
    }
    // A failed step's temporary file is not left behind.
    for (const QString &temporary : temporaryList)
        ::unlink(native(root, temporary).constData());
    QFile::remove(journal);
    return outcome;
}

QList<FileSetWriter::Replayed> FileSetWriter::replay(const QString &journalFolder)
{
    QList<Replayed> replayed;
    const QDir dir(journalFolder);
    for (const QString &name : dir.entryList({QStringLiteral("*") + journalSuffix}, QDir::Files)) {
        const QString file = dir.filePath(name);
        JournalLock held;
        if (!held.take(file, false))
            continue; // a write going on in another agent or process
        if (!QFileInfo::exists(file))
            continue; // it ended meanwhile
        QFile in(file);
        const QJsonObject journal = in.open(QIODevice::ReadOnly)
                                        ? QJsonDocument::fromJson(in.readAll()).object()
                                        : QJsonObject();
        in.close();
        Replayed one;
        one.root = journal.value(QStringLiteral("root")).toString();
        one.committed = journal.value(QStringLiteral("state")).toString()
                        == QLatin1String("committed");
        if (!one.root.isEmpty()) {
            if (one.committed) {
                for (const Step &step : stepsOf(journal)) {
                    runStep(one.root, step);
                    if (step.op != Op::Prune && !one.paths.contains(step.path))
                        one.paths.append(step.path);
                }
            }
            // Staged files of a journal never committed, or that a failed step left behind.
            for (const QJsonValue &temporary :
                 journal.value(QStringLiteral("temporaries")).toArray()) {
                if (validPath(temporary.toString()))
                    ::unlink(native(one.root, temporary.toString()).constData());
            }
            replayed.append(one);
        }
        QFile::remove(file);
    }
    for (const QString &name : dir.entryList({QStringLiteral("*.journal.tmp")}, QDir::Files)) {
        // Being written by a write going on elsewhere, unless its lock is free.
        JournalLock held;
        if (held.take(dir.filePath(name.chopped(4)), false))
            QFile::remove(dir.filePath(name));
    }
    for (const QString &name : dir.entryList({QStringLiteral("*.journal.lock")}, QDir::Files)) {
        // Left by a write killed before its journal was written: taking it removes it.
        JournalLock held;
        held.take(dir.filePath(name.chopped(5)), false);
    }
    return replayed;
}

} // namespace AgentCore
