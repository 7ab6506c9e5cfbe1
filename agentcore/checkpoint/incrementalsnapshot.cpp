#include "incrementalsnapshot.h"

#include "ignorerules.h"
#include "snapshotbase.h"
#include "storefiles.h"
#include "storesession.h"

#include <QFile>
#include <QRegularExpression>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <utility>

namespace AgentCore {

namespace {

// More paths than this: the full pass is as quick, and the stream stays small.
constexpr qsizetype maxScannedPaths = 20000;
// Over this, the full pass streams the files instead of holding them.
constexpr qsizetype maxStreamBytes = 256 * 1024 * 1024;

// \a path quoted for a `git fast-import` command: every byte git's C-style unquoting would
// take differently escaped in octal.
QByteArray fastImportPath(const QByteArray &path)
{
    QByteArray quoted = "\"";
    for (const char c : path) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 0x20 || byte == 0x7f || c == '"' || c == '\\')
            quoted += '\\' + QByteArray::number(byte, 8).rightJustified(3, '0');
        else
            quoted += c;
    }
    return quoted + '"';
}

// The watcher's paths, then the ones left out last time (each may be back under the cap).
QList<QByteArray> pathsToScan(const TreeWatcher::Changes &changes, const QList<QByteArray> &leftOut)
{
    QList<QByteArray> named;
    for (const QString &path : changes.paths)
        named.append(path.toUtf8());
    for (const QByteArray &path : leftOut) {
        if (!changes.paths.contains(QString::fromUtf8(path)))
            named.append(path);
    }
    return named;
}

} // namespace

IncrementalSnapshot::IncrementalSnapshot(StoreSession &session, SnapshotBase &base)
    : m_session(session)
    , m_base(base)
{}

std::optional<CheckpointOutcome> IncrementalSnapshot::commit(Checkpoint checkpoint)
{
    const QMutexLocker locker(&m_base.mutex);
    QString base = std::exchange(m_base.tree, QString()); // set again on success
    if (base.isEmpty() || !m_base.watcher.isWatching())
        return std::nullopt;
    const TreeWatcher::Changes changes = m_base.watcher.takeChanges();
    if (!canBuildOn(changes))
        return std::nullopt;
    const CheckpointStore &store = m_session.store();
    const QList<QByteArray> leftOut = StoreFiles::splitNul(
        StoreFiles::read(StoreFiles::leftOutList(store.gitDir())));
    ChangedPathScan scan(store.workTree() + QLatin1Char('/'),
                         store.maxFileBytes(),
                         QSet<QByteArray>(leftOut.begin(), leftOut.end()),
                         maxScannedPaths);
    if (!scan.scan(pathsToScan(changes, leftOut)))
        return std::nullopt;
    const std::optional<QSet<QByteArray>> ignored = ignoredPaths(scan.entries());
    if (!ignored || !baseLacks(base, *ignored))
        return std::nullopt;
    const std::optional<QString> baseTree = treeId(base);
    if (!baseTree)
        return std::nullopt;
    const QString ref = StoreFiles::sessionRef(checkpoint.sessionId);
    checkpoint.time = QDateTime::currentDateTimeUtc();
    checkpoint.skipped = scan.skipped();
    const std::optional<QByteArray> stream = importStream(checkpoint, ref, *baseTree, scan, *ignored);
    if (!stream)
        return std::nullopt;
    return runImport(checkpoint, ref, *stream);
}

bool IncrementalSnapshot::canBuildOn(const TreeWatcher::Changes &changes) const
{
    const CheckpointStore &store = m_session.store();
    return changes.sure && changes.paths.size() <= maxScannedPaths
           && m_base.rules == IgnoreRules::outsideRules(store.workTree())
           && StoreFiles::read(StoreFiles::nestedList(store.gitDir())).isEmpty();
}

// What the tree's .gitignore files and the shadow's excludes leave out of \a entries, as the
// full pass would; nullopt when git could not say.
std::optional<QSet<QByteArray>> IncrementalSnapshot::ignoredPaths(
    const QList<ChangedPathScan::Entry> &entries) const
{
    if (entries.isEmpty())
        return QSet<QByteArray>();
    QByteArray input;
    for (const ChangedPathScan::Entry &entry : entries)
        input += entry.path + '\0';
    const ShadowGit::Result check = m_session.git().run({QStringLiteral("check-ignore"),
                                                         QStringLiteral("--no-index"),
                                                         QStringLiteral("--stdin"),
                                                         QStringLiteral("-z")},
                                                        input);
    if (!check.startError.isEmpty() || (check.exitCode != 0 && check.exitCode != 1))
        return std::nullopt;
    const QList<QByteArray> names = StoreFiles::splitNul(check.out);
    return QSet<QByteArray>(names.begin(), names.end());
}

// The previous tree holds none of \a ignored: one it holds is a file added before its rule
// (the full pass keeps it).
bool IncrementalSnapshot::baseLacks(const QString &base, const QSet<QByteArray> &ignored) const
{
    if (ignored.isEmpty())
        return true;
    QByteArray input;
    for (const QByteArray &path : ignored) {
        if (path.contains('\n'))
            return false;
        input += base.toUtf8() + ':' + path + '\n';
    }
    const ShadowGit::Result known = m_session.git().run({QStringLiteral("cat-file"),
                                                         QStringLiteral("--batch-check")},
                                                        input);
    if (!known.ok())
        return false;
    for (const QByteArray &line : known.out.split('\n')) {
        if (!line.isEmpty() && !line.endsWith(" missing"))
            return false;
    }
    return true;
}

// \a base as an object id (fast-import takes no revision such as HEAD^{tree}).
std::optional<QString> IncrementalSnapshot::treeId(const QString &base) const
{
    if (!base.contains(QLatin1Char('^')))
        return base;
    const ShadowGit::Result tree = m_session.git().run(
        {QStringLiteral("rev-parse"), QStringLiteral("-q"), QStringLiteral("--verify"), base});
    if (!tree.ok())
        return std::nullopt;
    return QString::fromLatin1(tree.out.trimmed());
}

// One commit on the session's chain: the previous tree, the deleted paths, the contents now.
// Small enough to hold (over maxStreamBytes, nullopt: the full pass streams it).
std::optional<QByteArray> IncrementalSnapshot::importStream(const Checkpoint &checkpoint,
                                                            const QString &ref,
                                                            const QString &base,
                                                            const ChangedPathScan &scan,
                                                            const QSet<QByteArray> &ignored) const
{
    const QString parentId = m_session.refTarget(ref);
    const QByteArray message = StoreFiles::commitMessage(checkpoint, m_session.store().workTree());
    QByteArray stream = "commit " + ref.toUtf8()
                        + "\nmark :1\ncommitter AgentDesk "
                          "<checkpoints@agentdesk> "
                        + QByteArray::number(checkpoint.time.toSecsSinceEpoch()) + " +0000\ndata "
                        + QByteArray::number(message.size()) + '\n' + message + '\n';
    if (!parentId.isEmpty())
        stream += "from " + parentId.toLatin1() + '\n';
    stream += "M 040000 " + base.toLatin1() + " \"\"\n";
    QList<QByteArray> deleted = scan.deleted();
    std::sort(deleted.begin(), deleted.end());
    for (const QByteArray &path : std::as_const(deleted))
        stream += "D " + fastImportPath(path) + '\n';
    for (const ChangedPathScan::Entry &entry : scan.entries()) {
        if (ignored.contains(entry.path))
            continue;
        const std::optional<QByteArray> bytes = contentOf(entry);
        if (!bytes)
            return std::nullopt;
        stream += "M " + QByteArray::number(entry.mode, 8) + " inline " + fastImportPath(entry.path)
                  + "\ndata " + QByteArray::number(bytes->size()) + '\n' + *bytes + '\n';
        if (stream.size() > maxStreamBytes)
            return std::nullopt;
    }
    stream += "\nget-mark :1\nls :1 \"\"\n";
    return stream;
}

// A link's target, or a file's bytes; nullopt when it changed since the scan.
std::optional<QByteArray> IncrementalSnapshot::contentOf(const ChangedPathScan::Entry &entry) const
{
    const CheckpointStore &store = m_session.store();
    const QByteArray native = QFile::encodeName(store.workTree() + QLatin1Char('/')
                                                + QString::fromUtf8(entry.path));
    if (entry.mode == 0120000) {
        char target[PATH_MAX];
        const ssize_t size = ::readlink(native.constData(), target, sizeof target);
        if (size < 0)
            return std::nullopt;
        return QByteArray(target, size);
    }
    // Not through a link put in its place since the stat.
    const int fd = ::open(native.constData(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    QFile file;
    if (fd < 0 || !file.open(fd, QIODevice::ReadOnly, QFileDevice::AutoCloseHandle)) {
        if (fd >= 0)
            ::close(fd);
        return std::nullopt;
    }
    const QByteArray bytes = file.read(store.maxFileBytes() + 1);
    if (bytes.size() > store.maxFileBytes() || file.error() != QFile::NoError)
        return std::nullopt;
    return bytes;
}

// Runs \a stream; the commit must be the one the session's ref now names. HEAD follows as after
// a full pass: the newest checkpoint, so an older one it held does not stay reachable after the
// pruner cut it. The tree made is the next snapshot's base.
std::optional<CheckpointOutcome> IncrementalSnapshot::runImport(Checkpoint checkpoint,
                                                                const QString &ref,
                                                                const QByteArray &stream)
{
    const ShadowGit &git = m_session.git();
    const ShadowGit::Result made = git.run({QStringLiteral("fast-import"),
                                            QStringLiteral("--quiet")},
                                           stream);
    const QList<QByteArray> lines = made.out.split('\n');
    static const QRegularExpression treeLine(QStringLiteral("^040000 tree ([0-9a-f]+)\t$"));
    const QRegularExpressionMatch tree = lines.size() >= 2
                                             ? treeLine.match(QString::fromLatin1(lines.at(1)))
                                             : QRegularExpressionMatch();
    if (!made.ok() || !tree.hasMatch()
        || m_session.refTarget(ref) != QString::fromLatin1(lines.at(0)))
        return std::nullopt;
    checkpoint.id = QString::fromLatin1(lines.at(0));
    if (!git.run({QStringLiteral("update-ref"),
                  QStringLiteral("--no-deref"),
                  QStringLiteral("HEAD"),
                  checkpoint.id})
             .ok())
        return std::nullopt;
    m_base.tree = tree.captured(1);
    CheckpointOutcome outcome;
    outcome.checkpoint = checkpoint;
    outcome.incremental = true;
    return outcome;
}

} // namespace AgentCore
