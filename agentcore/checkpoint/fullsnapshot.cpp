#include "fullsnapshot.h"

#include "checkpointstore.h"
#include "ignorerules.h"
#include "storefiles.h"
#include "storesession.h"

#include <QFile>
#include <QRegularExpression>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <optional>

namespace AgentCore {

namespace {

QString cannotWriteTo(const QString &gitDir)
{
    return QStringLiteral("cannot write to the checkpoint store %1").arg(gitDir);
}

// The path of a "1", "2" or "u" record of `git status --porcelain=v2`; nullopt when it has
// none. "1 XY sub mH mI mW hH hI path": the path follows a fixed count of fields.
std::optional<QByteArray> trackedRecordPath(const QByteArray &record)
{
    const int fields = record.startsWith("1 ") ? 8 : record.startsWith("2 ") ? 9 : 10;
    qsizetype at = 0;
    for (int f = 0; f < fields && at >= 0; ++f)
        at = record.indexOf(' ', at + 1);
    if (at < 0)
        return std::nullopt;
    return record.mid(at + 1);
}

// The files `add --ignore-errors` named "unable to index file": each vanished or could not be
// read between the stat pass and the add. False when git named none.
bool takeUnindexable(const QByteArray &err, QList<SkippedFile> *skipped)
{
    static const QRegularExpression unable(QStringLiteral("unable to index file '?([^'\\n]+)'?"));
    bool named = false;
    for (auto it = unable.globalMatch(QString::fromUtf8(err)); it.hasNext();) {
        SkippedFile file;
        file.path = it.next().captured(1);
        file.why = SkippedFile::Why::Unreadable;
        skipped->append(file);
        named = true;
    }
    return named;
}

} // namespace

FullSnapshot::FullSnapshot(StoreSession &session)
    : m_session(session)
    , m_nested(session)
{}

Snapshot FullSnapshot::take()
{
    Snapshot snapshot;
    const QString workTree = m_session.store().workTree();
    const QString gitDir = m_session.store().gitDir();
    m_userExcludes = IgnoreRules::userExcludes(workTree);
    // Nested repositories seen before stay out of the main index (their own snapshot
    // covers them) while they are still repositories.
    m_gitmodules = StoreFiles::read(workTree + QStringLiteral("/.gitmodules"));
    const QByteArray previousNested = m_nested.keepPrevious(m_gitmodules);
    // The files the last snapshot left out (over the cap, unreadable) stay excluded, so the
    // exclude file, and with it the untracked cache, stays the same from one snapshot to
    // the next; each is looked at again in triage(). The nested repositories come sorted, as
    // the last snapshot wrote them, for the same reason.
    m_previousLeftOutList = StoreFiles::read(StoreFiles::leftOutList(gitDir));
    m_previousLeftOut = StoreFiles::splitNul(m_previousLeftOutList);
    const QByteArray excludes = excludesFor(m_previousLeftOut);
    if (!StoreFiles::write(StoreFiles::excludeFile(gitDir), excludes)) {
        snapshot.error = cannotWriteTo(gitDir);
        return snapshot;
    }

    Status status;
    if (const QString problem = readStatus(&status); !problem.isEmpty()) {
        snapshot.error = problem;
        return snapshot;
    }
    Triage triage = this->triage(status);
    triage.removeFromIndex += status.newNested;
    snapshot.skipped = triage.skipped;
    if (const QString problem = updateLeftOut(triage, excludes); !problem.isEmpty()) {
        snapshot.error = problem;
        return snapshot;
    }
    removeFromIndex(triage.removeFromIndex);

    // Nested repositories have no index status looks at, and HEAD's tree holds their
    // files grafted in: with any (now, or at the last snapshot) the tree is composed anew.
    if (triage.toAddCount == 0 && triage.removeFromIndex.isEmpty() && status.indexIsHead
        && !status.head.isEmpty() && m_nested.isEmpty() && previousNested.isEmpty()) {
        snapshot.tree = status.head + QStringLiteral("^{tree}"); // nothing changed
        return snapshot;
    }
    if (triage.toAddCount > 0) {
        if (const QString problem = addToIndex(triage, &snapshot.skipped); !problem.isEmpty()) {
            snapshot.error = problem;
            return snapshot;
        }
    }
    return writeTree(snapshot);
}

// The exclude file: the user's excludes, the nested repositories, the files \a leftOut.
QByteArray FullSnapshot::excludesFor(const QList<QByteArray> &leftOut) const
{
    QByteArray excludes = m_userExcludes;
    for (const QString &path : m_nested.paths())
        excludes += IgnoreRules::excludePattern(path) + '\n';
    for (const QByteArray &path : leftOut)
        excludes += IgnoreRules::excludePattern(QString::fromUtf8(path)) + '\n';
    return excludes;
}

// What `add` would read: files changed since the index last saw them, new files (untracked,
// not ignored) and deleted ones. Status writes the refreshed stat data and the untracked cache
// back, so the next one does less.
QString FullSnapshot::readStatus(Status *status)
{
    const ShadowGit::Result result = m_session.git().runUpdatingIndex(
        {QStringLiteral("status"),
         QStringLiteral("--porcelain=v2"),
         QStringLiteral("-z"),
         QStringLiteral("--branch"),
         QStringLiteral("--untracked-files=all"),
         // A nested repository's own state is not read (no git runs inside it); its
         // HEAD moving, or a file or nothing where it was, is still seen.
         QStringLiteral("--ignore-submodules=dirty"),
         QStringLiteral("--no-renames")});
    if (!result.ok())
        return result.problem();
    const QList<QByteArray> records = StoreFiles::splitNul(result.out);
    for (qsizetype i = 0; i < records.size(); ++i)
        readStatusRecord(records, &i, status);
    return {};
}

// Record *\a i into \a status; a "2" record moves \a i past the original path that follows it.
void FullSnapshot::readStatusRecord(const QList<QByteArray> &records, qsizetype *i, Status *status)
{
    const QByteArray &record = records.at(*i);
    if (record.startsWith("# branch.oid ")) {
        const QByteArray oid = record.mid(13);
        if (!oid.startsWith('('))
            status->head = QString::fromLatin1(oid); // not "(initial)"
    } else if (record.startsWith("? ")) {
        const QByteArray name = record.mid(2);
        // "sub/": status names a folder that is a repository of its own that way.
        // It leaves the main index (a gitlink of an older store) and gets its own.
        if (name.endsWith('/')
            && NestedRepositories::isNested(m_session.store().workTree(),
                                            QString::fromUtf8(name.chopped(1)),
                                            m_gitmodules)) {
            m_nested.add(QString::fromUtf8(name.chopped(1)));
            status->newNested += name.chopped(1) + '\0';
            return;
        }
        status->changed.append(name);
    } else if (record.startsWith("1 ") || record.startsWith("2 ") || record.startsWith("u ")) {
        // X is the index against HEAD, Y the file against the index. ("2" and "u", renames
        // and conflicts, do not happen here.)
        const std::optional<QByteArray> path = trackedRecordPath(record);
        if (!path)
            return;
        if (record.at(2) != '.' || !record.startsWith("1 "))
            status->indexIsHead = false;
        if (record.at(3) != '.') {
            status->changed.append(*path);
            status->tracked.insert(*path);
        }
        if (record.startsWith("2 "))
            ++*i; // the original path follows
    }
}

// Each path status named, and each one left out before, looked at again: what `add` is to
// read, and what it must not (over the size cap, unreadable).
FullSnapshot::Triage FullSnapshot::triage(const Status &status) const
{
    Triage triage;
    QSet<QByteArray> seen;
    const QSet<QByteArray> wasLeftOut(m_previousLeftOut.begin(), m_previousLeftOut.end());
    for (const QByteArray &name : status.changed + m_previousLeftOut) {
        if (seen.contains(name))
            continue;
        seen.insert(name);
        triagePath(name, status.tracked.contains(name), wasLeftOut.contains(name), &triage);
    }
    std::sort(triage.leftOut.begin(), triage.leftOut.end());
    return triage;
}

void FullSnapshot::triagePath(const QByteArray &name,
                              bool tracked,
                              bool wasLeftOut,
                              Triage *triage) const
{
    const QString path = QString::fromUtf8(name);
    const QByteArray native = QFile::encodeName(m_session.store().workTree() + QLatin1Char('/')
                                                + path);
    struct stat info;
    if (::lstat(native.constData(), &info) != 0) {
        // Gone: the index lets go of it; a file it never had (left out, or deleted since
        // status named it) needs nothing.
        if (tracked) {
            triage->toAdd += name + '\0';
            ++triage->toAddCount;
        }
        return;
    }
    if (!S_ISREG(info.st_mode)) {
        triage->toAdd += name + '\0'; // a link, a folder, a nested repository: git takes care
        ++triage->toAddCount;
        return;
    }
    SkippedFile skipped;
    skipped.path = path;
    skipped.size = info.st_size;
    if (info.st_size > m_session.store().maxFileBytes())
        skipped.why = SkippedFile::Why::OverSizeCap;
    else if (::access(native.constData(), R_OK) != 0)
        skipped.why = SkippedFile::Why::Unreadable;
    else {
        triage->toAdd += name + '\0';
        ++triage->toAddCount;
        return;
    }
    triage->skipped.append(skipped);
    triage->leftOut.append(name);
    if (tracked && !wasLeftOut)
        triage->removeFromIndex += name + '\0';
}

// Before `add`: a file back under the cap must not be excluded any more, and a new nested
// repository must be (a walk would add it as a gitlink). \a excludes: the exclude file now.
QString FullSnapshot::updateLeftOut(const Triage &triage, const QByteArray &excludes) const
{
    QByteArray leftOutList;
    for (const QByteArray &name : triage.leftOut)
        leftOutList += name + '\0';
    const QByteArray nowExcluded = excludesFor(triage.leftOut);
    if (leftOutList == m_previousLeftOutList && nowExcluded == excludes)
        return {};
    const QString gitDir = m_session.store().gitDir();
    if (!StoreFiles::write(StoreFiles::excludeFile(gitDir), nowExcluded)
        || !StoreFiles::write(StoreFiles::leftOutList(gitDir), leftOutList))
        return cannotWriteTo(gitDir);
    return {};
}

// A file that grew over the cap since the last snapshot leaves the index (its old content
// stays in the older checkpoints), and so does a new nested repository.
void FullSnapshot::removeFromIndex(const QByteArray &paths) const
{
    if (paths.isEmpty())
        return;
    m_session.git().run({QStringLiteral("rm"),
                         QStringLiteral("--cached"),
                         QStringLiteral("-q"),
                         QStringLiteral("--ignore-unmatch"),
                         QStringLiteral("--pathspec-from-file=-"),
                         QStringLiteral("--pathspec-file-nul")},
                        paths);
}

// Only the paths status named: `add` does not walk the tree a second time. Many paths (a first
// snapshot) are cheaper as one walk than as a long pathspec list. A path git refuses as a
// pathspec (one beyond a link that replaced a folder): the walk takes the tree as it is.
QString FullSnapshot::addToIndex(const Triage &triage, QList<SkippedFile> *skipped) const
{
    constexpr qsizetype maxListedPaths = 2000;
    const QStringList walk{QStringLiteral("add"),
                           QStringLiteral("-A"),
                           QStringLiteral("--ignore-errors"),
                           QStringLiteral("--"),
                           QStringLiteral(".")};
    const ShadowGit &git = m_session.git();
    const bool listed = triage.toAddCount <= maxListedPaths;
    ShadowGit::Result add = listed ? git.run({QStringLiteral("--literal-pathspecs"),
                                              QStringLiteral("add"),
                                              QStringLiteral("-A"),
                                              QStringLiteral("--ignore-errors"),
                                              QStringLiteral("--pathspec-from-file=-"),
                                              QStringLiteral("--pathspec-file-nul")},
                                             triage.toAdd)
                                   : git.run(walk);
    if (listed && !add.ok() && !add.err.contains("unable to index file"))
        add = git.run(walk);
    if (!add.startError.isEmpty())
        return add.problem();
    // --ignore-errors: anything but files it could not index is a real failure (disk full).
    if (add.exitCode != 0 && !takeUnindexable(add.err, skipped))
        return add.problem();
    return {};
}

Snapshot FullSnapshot::writeTree(Snapshot snapshot)
{
    const ShadowGit::Result tree = m_session.git().run({QStringLiteral("write-tree")});
    if (!tree.ok()) {
        snapshot.error = tree.problem();
        return snapshot;
    }
    snapshot.tree = m_nested.graftInto(QString::fromLatin1(tree.out.trimmed()), &snapshot.error);
    return snapshot;
}

} // namespace AgentCore
