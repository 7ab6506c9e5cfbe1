#include "checkpointstore.h"

#include "filesetwriter.h"
#include "shadowgit.h"
#include "treewatcher.h"

#include <files/privatefiles.h>

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonDocument>
#include <QLockFile>
#include <QMutex>
#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <functional>
#include <utility>

namespace AgentCore {

// The state an incremental snapshot builds on. Guarded by the store's lock (one snapshot at a
// time) and, within the process, its mutex.
struct SnapshotBase
{
    explicit SnapshotBase(const QString &workTree)
        : watcher(workTree)
    {}

    QMutex mutex;
    TreeWatcher watcher;
    /// The previous snapshot's tree (an object id or a revision naming it); empty: none to
    /// build on (none yet, it failed, or it had nested repositories).
    QString tree;
    QByteArray rules; ///< the user's ignore files that snapshot was taken with
};

namespace {

// Where a restore's journal lives while it runs (FileSetWriter).
const QLatin1String journalFolder("restore-journal");
// The paths the last snapshot left out (over the size cap, unreadable), NUL-separated.
const QLatin1String leftOutName("agentdesk-left-out");

// Highest precedence of all attribute files: whatever the tree's .gitattributes say, bytes go
// in and come out unchanged (no end-of-line conversion, no clean/smudge filter, no ident).
const QByteArray shadowAttributes = "* -text !eol -filter -ident !working-tree-encoding\n";

QString refFor(const QString &sessionId)
{
    QString name = sessionId;
    static const QRegularExpression unsafe(QStringLiteral("[^A-Za-z0-9_-]"));
    name.replace(unsafe, QStringLiteral("_"));
    if (name.isEmpty())
        name = QStringLiteral("unsaved");
    return QStringLiteral("refs/agentdesk/%1/head").arg(name);
}

QList<QByteArray> splitNul(const QByteArray &bytes)
{
    QList<QByteArray> parts = bytes.split('\0');
    if (!parts.isEmpty() && parts.last().isEmpty())
        parts.removeLast();
    return parts;
}

// An anchored gitignore pattern matching exactly \a path.
QByteArray excludePattern(const QString &path)
{
    QByteArray pattern = "/";
    for (const char c : path.toUtf8()) {
        if (c == '\\' || c == '*' || c == '?' || c == '[' || c == ']' || c == ' ' || c == '!'
            || c == '#')
            pattern += '\\';
        pattern += c;
    }
    return pattern;
}

// The info/exclude of the user's repository at \a workTree (its .git folder, or the common
// folder a .git file of a linked worktree leads to); empty when there is none.
QString userExcludeFile(const QString &workTree)
{
    const QString dotGit = workTree + QStringLiteral("/.git");
    const QFileInfo info(dotGit);
    QString gitDir;
    if (info.isDir()) {
        gitDir = dotGit;
    } else if (info.isFile()) {
        QFile file(dotGit);
        if (file.open(QIODevice::ReadOnly)) {
            const QString line = QString::fromUtf8(file.readLine()).trimmed();
            if (line.startsWith(QLatin1String("gitdir:")))
                gitDir = QDir(workTree).absoluteFilePath(line.mid(7).trimmed());
        }
        QFile common(gitDir + QStringLiteral("/commondir"));
        if (!gitDir.isEmpty() && common.open(QIODevice::ReadOnly))
            gitDir = QDir(gitDir).absoluteFilePath(QString::fromUtf8(common.readAll()).trimmed());
    }
    return gitDir.isEmpty() ? QString() : gitDir + QStringLiteral("/info/exclude");
}

// The user's own excludes file (core.excludesFile of their global config, which the shadow
// repository does not read): what `git status` leaves out, a snapshot leaves out too. When it
// is not set, git (the shadow's too) reads $XDG_CONFIG_HOME/git/ignore by itself. Asked once
// per work tree and process: one git process, not one per snapshot.
QString userGlobalExcludesFile(const QString &workTree)
{
    static QMutex mutex;
    static QHash<QString, QString> known;
    const QMutexLocker locker(&mutex);
    if (const auto it = known.constFind(workTree); it != known.cend())
        return *it;
    // Through GitProcess: the user's repository's configuration runs nothing.
    const GitProcess::Result excludes = GitProcess::run({QStringLiteral("config"),
                                                         QStringLiteral("--path"),
                                                         QStringLiteral("--get"),
                                                         QStringLiteral("core.excludesFile")},
                                                        workTree,
                                                        10000);
    QString path;
    if (excludes.ok())
        path = QDir(workTree).absoluteFilePath(QString::fromLocal8Bit(excludes.out.trimmed()));
    known.insert(workTree, path);
    return path;
}

// The ignore rules from outside the tree that the shadow repository applies: the user's
// info/exclude, their core.excludesFile, and git's default one ($XDG_CONFIG_HOME/git/ignore).
// An incremental snapshot is only taken with the rules of the snapshot it builds on.
QByteArray outsideIgnoreRules(const QString &workTree)
{
    QString xdg = qEnvironmentVariable("XDG_CONFIG_HOME");
    if (xdg.isEmpty())
        xdg = QDir::homePath() + QStringLiteral("/.config");
    QFile info(userExcludeFile(workTree));
    QFile global(userGlobalExcludesFile(workTree));
    QFile fallback(xdg + QStringLiteral("/git/ignore"));
    QByteArray rules;
    for (QFile *file : {&info, &global, &fallback}) {
        rules += file->fileName().toUtf8() + '\0';
        if (!file->fileName().isEmpty() && file->open(QIODevice::ReadOnly))
            rules += file->readAll();
        rules += '\0';
    }
    return rules;
}

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

// The folders below \a workTree that are git repositories of their own (a `.git` in them)
// and not submodules of this one (.gitmodules): their files are snapshotted through an index
// of their own (see StoreSession::snapshot).
bool isNestedRepository(const QString &workTree, const QString &path, const QByteArray &gitmodules)
{
    struct stat info;
    if (::lstat(QFile::encodeName(workTree + QLatin1Char('/') + path + QStringLiteral("/.git"))
                    .constData(),
                &info)
        != 0) {
        return false;
    }
    static const QRegularExpression pathLine(QStringLiteral("^\\s*path\\s*=\\s*(.+?)\\s*$"),
                                             QRegularExpression::MultilineOption);
    for (auto it = pathLine.globalMatch(QString::fromUtf8(gitmodules)); it.hasNext();) {
        if (it.next().captured(1) == path)
            return false;
    }
    return true;
}

QByteArray readFile(const QString &path)
{
    if (path.isEmpty())
        return {};
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    if (readFile(path) == bytes && QFileInfo::exists(path))
        return true;
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate, PrivateFiles::fileMode)
           && file.write(bytes) == bytes.size();
}

// One entry of `git diff-tree -r -z --raw`.
struct RawChange
{
    int oldMode = 0;
    int newMode = 0;
    QString oldBlob;
    QString newBlob;
    QString path;
};

QList<RawChange> parseRawDiff(const QByteArray &out)
{
    QList<RawChange> changes;
    const QList<QByteArray> parts = splitNul(out);
    for (qsizetype i = 0; i + 1 < parts.size(); i += 2) {
        const QList<QByteArray> fields = parts.at(i).mid(1).split(' ');
        if (fields.size() < 5)
            continue;
        RawChange change;
        change.oldMode = fields.at(0).toInt(nullptr, 8);
        change.newMode = fields.at(1).toInt(nullptr, 8);
        change.oldBlob = QString::fromLatin1(fields.at(2));
        change.newBlob = QString::fromLatin1(fields.at(3));
        change.path = QString::fromUtf8(parts.at(i + 1));
        changes.append(change);
    }
    return changes;
}

bool isNullBlob(const QString &blob)
{
    return blob.isEmpty() || blob.count(QLatin1Char('0')) == blob.size();
}

// The objects' contents through one `git cat-file --batch`.
QHash<QString, QByteArray> readBlobs(const ShadowGit &git, const QStringList &blobs, QString *error)
{
    QHash<QString, QByteArray> contents;
    if (blobs.isEmpty())
        return contents;
    QByteArray input;
    for (const QString &blob : blobs)
        input += blob.toLatin1() + '\n';
    const ShadowGit::Result result = git.run({QStringLiteral("cat-file"), QStringLiteral("--batch")},
                                             input);
    if (!result.ok()) {
        *error = result.problem();
        return contents;
    }
    qsizetype at = 0;
    const QByteArray &out = result.out;
    while (at < out.size()) {
        const qsizetype newline = out.indexOf('\n', at);
        if (newline < 0)
            break;
        const QList<QByteArray> header = out.mid(at, newline - at).split(' ');
        at = newline + 1;
        if (header.size() < 3) // "<name> missing"
            continue;
        const qsizetype size = header.at(2).toLongLong();
        contents.insert(QString::fromLatin1(header.at(0)), out.mid(at, size));
        at += size + 1;
    }
    return contents;
}

std::optional<Checkpoint> checkpointFromCommit(const QString &id, const QByteArray &message)
{
    QJsonObject object = QJsonDocument::fromJson(message.trimmed()).object();
    if (object.isEmpty())
        return std::nullopt; // not one of ours
    object.insert(QStringLiteral("id"), id);
    return Checkpoint::fromJson(object);
}

// What a snapshot of the tree gave: its tree object and the files it left out.
struct Snapshot
{
    QString tree;
    QList<SkippedFile> skipped;
    QString error;
};

class StoreSession
{
public:
    StoreSession(const CheckpointStore &store, SnapshotBase *base)
        : m_store(store)
        , m_base(base)
        , m_git(store.gitDir(), store.workTree())
        , m_lock(store.gitDir() + QStringLiteral(".lock"))
    {
        m_git.setRepairLog(&m_repairs);
    }

    StoreSession(const StoreSession &) = delete;
    StoreSession &operator=(const StoreSession &) = delete;

    /// The stale locks the session's git runs removed, for people.
    QString repairs() const { return m_repairs.join(QStringLiteral("; ")); }

    // Creates the store when needed, takes the lock, finishes an interrupted restore.
    QString open(QStringList *recovered = nullptr)
    {
        if (!QFileInfo(m_store.workTree()).isDir())
            return QStringLiteral("the folder %1 does not exist").arg(m_store.workTree());
        if (!PrivateFiles::makePath(QFileInfo(m_store.gitDir()).absolutePath()))
            return QStringLiteral("cannot create the folder %1")
                .arg(QFileInfo(m_store.gitDir()).absolutePath());
        m_lock.setStaleLockTime(0); // a lock whose process is gone is stale
        if (!m_lock.tryLock(120000))
            return QStringLiteral("another AgentDesk is using the checkpoint store %1")
                .arg(m_store.gitDir());
        PrivateFiles::restrict(m_store.gitDir() + QStringLiteral(".lock"));
        if (!QFileInfo::exists(m_store.gitDir() + QStringLiteral("/HEAD"))) {
            const ShadowGit::Result init = m_git.init();
            if (!init.ok())
                return init.problem();
        }
        PrivateFiles::makePath(m_store.gitDir() + QStringLiteral("/info"));
        if (!writeFile(m_store.gitDir() + QStringLiteral("/info/attributes"), shadowAttributes))
            return QStringLiteral("cannot write to the checkpoint store %1").arg(m_store.gitDir());
        // A lock file a killed AgentDesk's git left (index.lock, a ref's) is removed by the
        // first run it is in the way of, once no process holds it (ShadowGit).
        const QStringList done = recover();
        if (recovered)
            *recovered = done;
        return {};
    }

    const ShadowGit &git() const { return m_git; }

    QStringList recover()
    {
        QStringList done;
        for (const FileSetWriter::Replayed &journal :
             FileSetWriter::replay(m_store.gitDir() + QLatin1Char('/') + journalFolder)) {
            if (journal.committed)
                done += journal.paths;
        }
        return done;
    }

    // The full pass (fullSnapshot), which the next incremental snapshot builds on. The watcher
    // starts before it, and what it saw until now is dropped: the pass reads all of it.
    Snapshot snapshot()
    {
        if (!m_base)
            return fullSnapshot();
        {
            const QMutexLocker locker(&m_base->mutex);
            m_base->tree.clear();
            m_base->rules = outsideIgnoreRules(m_store.workTree());
            if (m_base->watcher.start())
                m_base->watcher.takeChanges();
        }
        const Snapshot snapshot = fullSnapshot();
        const QMutexLocker locker(&m_base->mutex);
        if (snapshot.error.isEmpty() && m_nested.isEmpty())
            m_base->tree = snapshot.tree;
        return snapshot;
    }

    // `git add -A` into the shadow index, leaving out what the tree's ignore files, the user's
    // info/exclude and the size cap leave out; then the index's tree. One `git status` finds
    // what changed (a stat pass over the files the index knows, and the untracked cache for
    // the folders); an unchanged tree costs nothing more: its tree is HEAD's, the previous
    // checkpoint's.
    Snapshot fullSnapshot()
    {
        Snapshot snapshot;
        const QString excludePath = m_store.gitDir() + QStringLiteral("/info/exclude");
        const QString leftOutPath = m_store.gitDir() + QLatin1Char('/') + leftOutName;
        QByteArray userExcludes = readFile(userExcludeFile(m_store.workTree()));
        if (!userExcludes.isEmpty() && !userExcludes.endsWith('\n'))
            userExcludes += '\n';
        userExcludes += readFile(userGlobalExcludesFile(m_store.workTree()));
        if (!userExcludes.isEmpty() && !userExcludes.endsWith('\n'))
            userExcludes += '\n';
        // Nested repositories seen before stay out of the main index (their own snapshot
        // covers them) while they are still repositories.
        const QByteArray gitmodules = readFile(m_store.workTree() + QStringLiteral("/.gitmodules"));
        const QByteArray previousNested = readFile(m_store.gitDir()
                                                   + QStringLiteral("/agentdesk-nested"));
        m_nested.clear();
        for (const QByteArray &line : previousNested.split('\n')) {
            const QString path = QString::fromUtf8(line);
            if (!path.isEmpty() && isNestedRepository(m_store.workTree(), path, gitmodules))
                m_nested.append(path);
        }
        // The files the last snapshot left out (over the cap, unreadable) stay excluded, so the
        // exclude file, and with it the untracked cache, stays the same from one snapshot to
        // the next; each is looked at again below. The nested repositories come sorted, as
        // the last snapshot wrote them, for the same reason.
        const QByteArray previousLeftOut = readFile(leftOutPath);
        const QList<QByteArray> previous = splitNul(previousLeftOut);
        const auto excludesFor = [this, &userExcludes](const QList<QByteArray> &paths) {
            QStringList nested = m_nested;
            nested.removeDuplicates();
            std::sort(nested.begin(), nested.end());
            QByteArray excludes = userExcludes;
            for (const QString &path : std::as_const(nested))
                excludes += excludePattern(path) + '\n';
            for (const QByteArray &path : paths)
                excludes += excludePattern(QString::fromUtf8(path)) + '\n';
            return excludes;
        };
        const QByteArray excludes = excludesFor(previous);
        if (!writeFile(excludePath, excludes)) {
            snapshot.error = QStringLiteral("cannot write to the checkpoint store %1")
                                 .arg(m_store.gitDir());
            return snapshot;
        }

        // What `add` would read: files changed since the index last saw them, new files
        // (untracked, not ignored) and deleted ones. It writes the refreshed stat data and the
        // untracked cache back, so the next status does less.
        const ShadowGit::Result status = m_git.runUpdatingIndex(
            {QStringLiteral("status"),
             QStringLiteral("--porcelain=v2"),
             QStringLiteral("-z"),
             QStringLiteral("--branch"),
             QStringLiteral("--untracked-files=all"),
             // A nested repository's own state is not read (no git runs inside it); its
             // HEAD moving, or a file or nothing where it was, is still seen.
             QStringLiteral("--ignore-submodules=dirty"),
             QStringLiteral("--no-renames")});
        if (!status.ok()) {
            snapshot.error = status.problem();
            return snapshot;
        }
        QString head;              // HEAD: the store's newest checkpoint
        bool indexIsHead = true;   // the shadow index still holds HEAD's tree
        QList<QByteArray> changed; // what differs between the index and the tree
        QSet<QByteArray> tracked;  // of those, the ones the index has
        QByteArray newNested;      // nested repositories not seen before
        const QList<QByteArray> records = splitNul(status.out);
        for (qsizetype i = 0; i < records.size(); ++i) {
            const QByteArray &record = records.at(i);
            if (record.startsWith("# branch.oid ")) {
                const QByteArray oid = record.mid(13);
                if (!oid.startsWith('('))
                    head = QString::fromLatin1(oid); // not "(initial)"
            } else if (record.startsWith("? ")) {
                const QByteArray name = record.mid(2);
                // "sub/": status names a folder that is a repository of its own that way.
                // It leaves the main index (a gitlink of an older store) and gets its own.
                if (name.endsWith('/')
                    && isNestedRepository(m_store.workTree(),
                                          QString::fromUtf8(name.chopped(1)),
                                          gitmodules)) {
                    m_nested.append(QString::fromUtf8(name.chopped(1)));
                    newNested += name.chopped(1) + '\0';
                    continue;
                }
                changed.append(name);
            } else if (record.startsWith("1 ") || record.startsWith("2 ")
                       || record.startsWith("u ")) {
                // "1 XY sub mH mI mW hH hI path": X is the index against HEAD, Y the file
                // against the index. ("2" and "u", renames and conflicts, do not happen here.)
                const int fields = record.startsWith("1 ") ? 8 : record.startsWith("2 ") ? 9 : 10;
                qsizetype at = 0;
                for (int f = 0; f < fields && at >= 0; ++f)
                    at = record.indexOf(' ', at + 1);
                if (at < 0)
                    continue;
                const QByteArray path = record.mid(at + 1);
                if (record.at(2) != '.' || !record.startsWith("1 "))
                    indexIsHead = false;
                if (record.at(3) != '.') {
                    changed.append(path);
                    tracked.insert(path);
                }
                if (record.startsWith("2 "))
                    ++i; // the original path follows
            }
        }

        QList<QByteArray> leftOut;
        QByteArray removeFromIndex; // left out and in the index: they leave it
        QByteArray toAdd;           // what changed: the only paths `add` needs to look at
        qsizetype toAddCount = 0;
        QSet<QByteArray> seen;
        const QSet<QByteArray> wasLeftOut(previous.begin(), previous.end());
        for (const QByteArray &name : changed + previous) {
            if (seen.contains(name))
                continue;
            seen.insert(name);
            const QString path = QString::fromUtf8(name);
            const QByteArray native = QFile::encodeName(m_store.workTree() + QLatin1Char('/')
                                                        + path);
            struct stat info;
            if (::lstat(native.constData(), &info) != 0) {
                // Gone: the index lets go of it; a file it never had (left out, or deleted
                // since status named it) needs nothing.
                if (tracked.contains(name)) {
                    toAdd += name + '\0';
                    ++toAddCount;
                }
                continue;
            }
            if (!S_ISREG(info.st_mode)) {
                toAdd += name + '\0'; // a link, a folder, a nested repository: git takes care
                ++toAddCount;
                continue;
            }
            SkippedFile skipped;
            skipped.path = path;
            skipped.size = info.st_size;
            if (info.st_size > m_store.maxFileBytes())
                skipped.why = SkippedFile::Why::OverSizeCap;
            else if (::access(native.constData(), R_OK) != 0)
                skipped.why = SkippedFile::Why::Unreadable;
            else {
                toAdd += name + '\0';
                ++toAddCount;
                continue;
            }
            snapshot.skipped.append(skipped);
            leftOut.append(name);
            if (tracked.contains(name) && !wasLeftOut.contains(name))
                removeFromIndex += name + '\0';
        }
        std::sort(leftOut.begin(), leftOut.end());
        QByteArray leftOutList;
        for (const QByteArray &name : std::as_const(leftOut))
            leftOutList += name + '\0';
        removeFromIndex += newNested;
        const QByteArray nowExcluded = excludesFor(leftOut);
        if (leftOutList != previousLeftOut || nowExcluded != excludes) {
            // Before `add`: a file back under the cap must not be excluded any more, and a
            // new nested repository must be (a walk would add it as a gitlink).
            if (!writeFile(excludePath, nowExcluded) || !writeFile(leftOutPath, leftOutList)) {
                snapshot.error = QStringLiteral("cannot write to the checkpoint store %1")
                                     .arg(m_store.gitDir());
                return snapshot;
            }
        }
        if (!removeFromIndex.isEmpty()) {
            // A file that grew over the cap since the last snapshot leaves the index: its old
            // content stays in the older checkpoints.
            m_git.run({QStringLiteral("rm"),
                       QStringLiteral("--cached"),
                       QStringLiteral("-q"),
                       QStringLiteral("--ignore-unmatch"),
                       QStringLiteral("--pathspec-from-file=-"),
                       QStringLiteral("--pathspec-file-nul")},
                      removeFromIndex);
        }

        // Nested repositories have no index status looks at, and HEAD's tree holds their
        // files grafted in: with any (now, or at the last snapshot) the tree is composed anew.
        if (toAddCount == 0 && removeFromIndex.isEmpty() && indexIsHead && !head.isEmpty()
            && m_nested.isEmpty() && previousNested.isEmpty()) {
            snapshot.tree = head + QStringLiteral("^{tree}"); // nothing changed
            return snapshot;
        }
        if (toAddCount == 0)
            return writeTree(snapshot);

        // Only the paths status named: `add` does not walk the tree a second time. Many paths
        // (a first snapshot) are cheaper as one walk than as a long pathspec list.
        constexpr qsizetype maxListedPaths = 2000;
        const QStringList walk{QStringLiteral("add"),
                               QStringLiteral("-A"),
                               QStringLiteral("--ignore-errors"),
                               QStringLiteral("--"),
                               QStringLiteral(".")};
        const bool listed = toAddCount <= maxListedPaths;
        ShadowGit::Result add = listed ? m_git.run({QStringLiteral("--literal-pathspecs"),
                                                    QStringLiteral("add"),
                                                    QStringLiteral("-A"),
                                                    QStringLiteral("--ignore-errors"),
                                                    QStringLiteral("--pathspec-from-file=-"),
                                                    QStringLiteral("--pathspec-file-nul")},
                                                   toAdd)
                                       : m_git.run(walk);
        // A path git refuses as a pathspec (one beyond a link that replaced a folder): the
        // walk takes the tree as it is.
        if (listed && !add.ok() && !add.err.contains("unable to index file"))
            add = m_git.run(walk);
        if (!add.startError.isEmpty()) {
            snapshot.error = add.problem();
            return snapshot;
        }
        if (add.exitCode != 0) {
            // --ignore-errors: a file that vanished or could not be read between the stat pass
            // and the add is named; anything else is a real failure (disk full).
            static const QRegularExpression unable(
                QStringLiteral("unable to index file '?([^'\\n]+)'?"));
            bool named = false;
            for (auto it = unable.globalMatch(QString::fromUtf8(add.err)); it.hasNext();) {
                SkippedFile skipped;
                skipped.path = it.next().captured(1);
                skipped.why = SkippedFile::Why::Unreadable;
                snapshot.skipped.append(skipped);
                named = true;
            }
            if (!named) {
                snapshot.error = add.problem();
                return snapshot;
            }
        }
        return writeTree(snapshot);
    }

    Snapshot writeTree(Snapshot snapshot)
    {
        const ShadowGit::Result tree = m_git.run({QStringLiteral("write-tree")});
        if (!tree.ok()) {
            snapshot.error = tree.problem();
            return snapshot;
        }
        snapshot.tree = QString::fromLatin1(tree.out.trimmed());
        return withNestedRepositories(snapshot);
    }

    // What a user expects back after a rewind is what they see as theirs in the folder, and a
    // repository nested in it (a clone of a dependency, an experiment: not a submodule) is
    // theirs too: a Bash `rm -rf` or `git checkout .` in it destroys work its own .git may
    // not hold (untracked or uncommitted files). git would store it as a bare gitlink (its
    // HEAD's id, no content), so each nested repository gets an index of its own in the store
    // (its .gitignore files apply; its .git is never read or written), and its tree is
    // grafted under its path into the checkpoint's tree: a diff and a restore see its files
    // like any other. The main index leaves it out (an exclude pattern), so `add` never
    // meets it.
    Snapshot withNestedRepositories(Snapshot snapshot)
    {
        m_nested.removeDuplicates();
        std::sort(m_nested.begin(), m_nested.end());
        const QByteArray list = m_nested.join(QLatin1Char('\n')).toUtf8();
        writeFile(m_store.gitDir() + QStringLiteral("/agentdesk-nested"), list);
        if (m_nested.isEmpty())
            return snapshot;
        PrivateFiles::makePath(m_store.gitDir() + QStringLiteral("/nested-index"));
        ShadowGit compose(m_store.gitDir(),
                          m_store.workTree(),
                          m_store.gitDir() + QStringLiteral("/compose-index"));
        compose.setRepairLog(&m_repairs);
        ShadowGit::Result step = compose.run({QStringLiteral("read-tree"), snapshot.tree});
        for (const QString &path : std::as_const(m_nested)) {
            if (!step.ok())
                break;
            const QString hash = QString::fromLatin1(
                QCryptographicHash::hash(path.toUtf8(), QCryptographicHash::Sha1).toHex());
            ShadowGit nested(m_store.gitDir(),
                             m_store.workTree() + QLatin1Char('/') + path,
                             m_store.gitDir() + QStringLiteral("/nested-index/") + hash);
            nested.setRepairLog(&m_repairs);
            nested.run({QStringLiteral("add"),
                        QStringLiteral("-A"),
                        QStringLiteral("--ignore-errors"),
                        QStringLiteral("--"),
                        QStringLiteral(".")});
            const ShadowGit::Result tree = nested.run({QStringLiteral("write-tree")});
            if (!tree.ok()) {
                step = tree;
                break;
            }
            compose.run({QStringLiteral("update-index"),
                         QStringLiteral("--force-remove"),
                         QStringLiteral("--"),
                         path});
            step = compose.run({QStringLiteral("read-tree"),
                                QStringLiteral("--prefix=") + path + QLatin1Char('/'),
                                QString::fromLatin1(tree.out.trimmed())});
        }
        if (step.ok())
            step = compose.run({QStringLiteral("write-tree")});
        if (!step.ok()) {
            snapshot.error = step.problem();
            return snapshot;
        }
        snapshot.tree = QString::fromLatin1(step.out.trimmed());
        return snapshot;
    }

    QByteArray messageFor(const Checkpoint &checkpoint) const
    {
        QJsonObject message = checkpoint.toJson();
        message.remove(QStringLiteral("id"));
        message.insert(QStringLiteral("workTree"), m_store.workTree());
        return QJsonDocument(message).toJson(QJsonDocument::Compact) + '\n';
    }

    // A checkpoint of the previous snapshot's tree with only the paths the watcher names read
    // again: no stat of the whole tree, no read of the shadow index. The tree it makes is the
    // one the full pass would make, or there is none (nullopt) and the full pass runs: the
    // watcher is unsure, the ignore rules from outside the tree changed, a file crossed the
    // size cap either way or became unreadable (the full pass keeps the index and the list of
    // files left out in step), a nested repository is involved, a path is ignored that the
    // previous tree holds (added before the rule), or anything fails.
    std::optional<CheckpointOutcome> incrementalCommit(Checkpoint checkpoint)
    {
        if (!m_base)
            return std::nullopt;
        const QMutexLocker locker(&m_base->mutex);
        QString base = std::exchange(m_base->tree, QString()); // set again on success
        if (base.isEmpty() || !m_base->watcher.isWatching())
            return std::nullopt;
        const TreeWatcher::Changes changes = m_base->watcher.takeChanges();
        constexpr qsizetype maxPaths = 20000;
        if (!changes.sure || changes.paths.size() > maxPaths
            || m_base->rules != outsideIgnoreRules(m_store.workTree())
            || !readFile(m_store.gitDir() + QStringLiteral("/agentdesk-nested")).isEmpty()) {
            return std::nullopt;
        }
        const QString workTree = m_store.workTree() + QLatin1Char('/');
        const QList<QByteArray> previous = splitNul(
            readFile(m_store.gitDir() + QLatin1Char('/') + leftOutName));
        const QSet<QByteArray> leftOut(previous.begin(), previous.end());

        struct Entry
        {
            QByteArray path;
            int mode = 0; // 0100644, 0100755, 0120000
        };
        QList<QByteArray> deleted;
        QList<Entry> entries;
        QList<SkippedFile> skipped;
        QHash<QByteArray, bool> folderIsReal; // every folder on a path's way must be one
        const auto reachable = [&](const QByteArray &path) {
            for (qsizetype slash = path.indexOf('/'); slash > 0;
                 slash = path.indexOf('/', slash + 1)) {
                const QByteArray folder = path.left(slash);
                auto known = folderIsReal.constFind(folder);
                if (known == folderIsReal.cend()) {
                    struct stat info;
                    const bool real = ::lstat(QFile::encodeName(workTree + QString::fromUtf8(folder))
                                                  .constData(),
                                              &info)
                                          == 0
                                      && S_ISDIR(info.st_mode);
                    known = folderIsReal.insert(folder, real);
                }
                if (!*known)
                    return false;
            }
            return true;
        };
        // What one path is now; false: only the full pass can say.
        std::function<bool(const QByteArray &, bool)> take;
        take = [&](const QByteArray &path, bool named) {
            const QByteArray native = QFile::encodeName(workTree + QString::fromUtf8(path));
            // Gone, or beyond what is no folder any more (a link to elsewhere is not followed).
            if (!reachable(path)) {
                if (named)
                    deleted.append(path);
                return named;
            }
            struct stat info;
            if (::lstat(native.constData(), &info) != 0) {
                const bool gone = errno == ENOENT || errno == ENOTDIR;
                if (named && gone)
                    deleted.append(path);
                return named && gone;
            }
            if (S_ISLNK(info.st_mode)) {
                entries.append({path, 0120000});
                return true;
            }
            if (S_ISREG(info.st_mode)) {
                const bool fits = info.st_size <= m_store.maxFileBytes()
                                  && ::access(native.constData(), R_OK) == 0;
                if (fits != !leftOut.contains(path))
                    return false; // crossed the cap, or readable no more or again
                if (fits) {
                    entries.append({path, (info.st_mode & S_IXUSR) ? 0100755 : 0100644});
                } else {
                    SkippedFile file;
                    file.path = QString::fromUtf8(path);
                    file.size = info.st_size;
                    file.why = info.st_size > m_store.maxFileBytes() ? SkippedFile::Why::OverSizeCap
                                                                     : SkippedFile::Why::Unreadable;
                    skipped.append(file);
                    // Not in the previous tree unless another store's full pass left it out
                    // after that tree was made: then it leaves the tree as it left the index.
                    deleted.append(path);
                }
                return true;
            }
            if (!S_ISDIR(info.st_mode))
                return false; // a pipe, a socket, a device
            // A folder that appeared (or changed its mode): its subtree is replaced by what is
            // in it now.
            if (named)
                deleted.append(path);
            DIR *dir = ::opendir(native.constData());
            if (!dir)
                return false;
            bool ok = true;
            while (const dirent *entry = ::readdir(dir)) {
                const QByteArray name(entry->d_name);
                if (name == "." || name == "..")
                    continue;
                if (name == ".git" || entries.size() > maxPaths) {
                    ok = false;
                    break;
                }
                if (!take(path + '/' + name, false)) {
                    ok = false;
                    break;
                }
            }
            ::closedir(dir);
            return ok;
        };
        QList<QByteArray> named;
        for (const QString &path : changes.paths)
            named.append(path.toUtf8());
        for (const QByteArray &path : previous) {
            if (!changes.paths.contains(QString::fromUtf8(path)))
                named.append(path);
        }
        for (const QByteArray &path : std::as_const(named)) {
            if (!take(path, true))
                return std::nullopt;
        }

        // What the tree's .gitignore files and the shadow's excludes leave out, as the full
        // pass would; an ignored path the previous tree holds is a file added before its rule
        // (the full pass keeps it).
        QSet<QByteArray> ignored;
        if (!entries.isEmpty()) {
            QByteArray input;
            for (const Entry &entry : std::as_const(entries))
                input += entry.path + '\0';
            const ShadowGit::Result check = m_git.run({QStringLiteral("check-ignore"),
                                                       QStringLiteral("--no-index"),
                                                       QStringLiteral("--stdin"),
                                                       QStringLiteral("-z")},
                                                      input);
            if (!check.startError.isEmpty() || (check.exitCode != 0 && check.exitCode != 1))
                return std::nullopt;
            const QList<QByteArray> names = splitNul(check.out);
            ignored = QSet<QByteArray>(names.begin(), names.end());
        }
        if (!ignored.isEmpty()) {
            QByteArray input;
            for (const QByteArray &path : std::as_const(ignored)) {
                if (path.contains('\n'))
                    return std::nullopt;
                input += base.toUtf8() + ':' + path + '\n';
            }
            const ShadowGit::Result known = m_git.run({QStringLiteral("cat-file"),
                                                       QStringLiteral("--batch-check")},
                                                      input);
            if (!known.ok())
                return std::nullopt;
            for (const QByteArray &line : known.out.split('\n')) {
                if (!line.isEmpty() && !line.endsWith(" missing"))
                    return std::nullopt;
            }
        }
        if (base.contains(QLatin1Char('^'))) { // fast-import takes an object id
            const ShadowGit::Result tree = m_git.run({QStringLiteral("rev-parse"),
                                                      QStringLiteral("-q"),
                                                      QStringLiteral("--verify"),
                                                      base});
            if (!tree.ok())
                return std::nullopt;
            base = QString::fromLatin1(tree.out.trimmed());
        }

        // One commit on the session's chain: the previous tree, the deleted paths, the
        // contents now. Small enough to hold (over 256 MiB, the full pass streams it).
        const QString ref = refFor(checkpoint.sessionId);
        const QString parentId = refTarget(ref);
        checkpoint.time = QDateTime::currentDateTimeUtc();
        checkpoint.skipped = skipped;
        const QByteArray message = messageFor(checkpoint);
        QByteArray stream = "commit " + ref.toUtf8()
                            + "\nmark :1\ncommitter AgentDesk "
                              "<checkpoints@agentdesk> "
                            + QByteArray::number(checkpoint.time.toSecsSinceEpoch())
                            + " +0000\ndata " + QByteArray::number(message.size()) + '\n' + message
                            + '\n';
        if (!parentId.isEmpty())
            stream += "from " + parentId.toLatin1() + '\n';
        stream += "M 040000 " + base.toLatin1() + " \"\"\n";
        std::sort(deleted.begin(), deleted.end());
        for (const QByteArray &path : std::as_const(deleted))
            stream += "D " + fastImportPath(path) + '\n';
        constexpr qsizetype maxStreamBytes = 256 * 1024 * 1024;
        for (const Entry &entry : std::as_const(entries)) {
            if (ignored.contains(entry.path))
                continue;
            const QByteArray native = QFile::encodeName(workTree + QString::fromUtf8(entry.path));
            QByteArray bytes;
            if (entry.mode == 0120000) {
                char target[PATH_MAX];
                const ssize_t size = ::readlink(native.constData(), target, sizeof target);
                if (size < 0)
                    return std::nullopt;
                bytes = QByteArray(target, size);
            } else {
                // Not through a link put in its place since the stat.
                const int fd = ::open(native.constData(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
                QFile file;
                if (fd < 0 || !file.open(fd, QIODevice::ReadOnly, QFileDevice::AutoCloseHandle)) {
                    if (fd >= 0)
                        ::close(fd);
                    return std::nullopt;
                }
                bytes = file.read(m_store.maxFileBytes() + 1);
                if (bytes.size() > m_store.maxFileBytes() || file.error() != QFile::NoError)
                    return std::nullopt;
            }
            stream += "M " + QByteArray::number(entry.mode, 8) + " inline "
                      + fastImportPath(entry.path) + "\ndata " + QByteArray::number(bytes.size())
                      + '\n' + bytes + '\n';
            if (stream.size() > maxStreamBytes)
                return std::nullopt;
        }
        stream += "\nget-mark :1\nls :1 \"\"\n";
        const ShadowGit::Result made = m_git.run({QStringLiteral("fast-import"),
                                                  QStringLiteral("--quiet")},
                                                 stream);
        const QList<QByteArray> lines = made.out.split('\n');
        static const QRegularExpression treeLine(QStringLiteral("^040000 tree ([0-9a-f]+)\t$"));
        const QRegularExpressionMatch tree = lines.size() >= 2
                                                 ? treeLine.match(QString::fromLatin1(lines.at(1)))
                                                 : QRegularExpressionMatch();
        if (!made.ok() || !tree.hasMatch() || refTarget(ref) != QString::fromLatin1(lines.at(0)))
            return std::nullopt;
        checkpoint.id = QString::fromLatin1(lines.at(0));
        // HEAD follows as after a full pass: the newest checkpoint, so an older one it held
        // does not stay reachable after the pruner cut it.
        if (!m_git
                 .run({QStringLiteral("update-ref"),
                       QStringLiteral("--no-deref"),
                       QStringLiteral("HEAD"),
                       checkpoint.id})
                 .ok())
            return std::nullopt;
        m_base->tree = tree.captured(1);
        CheckpointOutcome outcome;
        outcome.checkpoint = checkpoint;
        outcome.incremental = true;
        return outcome;
    }

    CheckpointOutcome commit(Checkpoint checkpoint)
    {
        if (std::optional<CheckpointOutcome> quick = incrementalCommit(checkpoint))
            return *quick;
        CheckpointOutcome outcome;
        const Snapshot snapshot = this->snapshot();
        if (!snapshot.error.isEmpty()) {
            outcome.error = snapshot.error;
            return outcome;
        }
        checkpoint.time = QDateTime::currentDateTimeUtc();
        checkpoint.skipped = snapshot.skipped;
        const QString ref = refFor(checkpoint.sessionId);
        const QString parentId = refTarget(ref);
        QStringList args{QStringLiteral("commit-tree"), snapshot.tree};
        if (!parentId.isEmpty())
            args << QStringLiteral("-p") << parentId;
        args << QStringLiteral("-F") << QStringLiteral("-");
        const ShadowGit::Result made = m_git.run(args, messageFor(checkpoint));
        if (!made.ok()) {
            outcome.error = made.problem();
            return outcome;
        }
        checkpoint.id = QString::fromLatin1(made.out.trimmed());
        // The session's chain moves on (only from the parent it was built on), and HEAD, the
        // tree the next snapshot's status compares the index with, becomes this checkpoint.
        const QString expected = parentId.isEmpty()
                                     ? QString(checkpoint.id.size(), QLatin1Char('0'))
                                     : parentId;
        const QByteArray updates = QStringLiteral(
                                       "update %1 %2 %3\noption no-deref\nupdate HEAD %2\n")
                                       .arg(ref, checkpoint.id, expected)
                                       .toUtf8();
        const ShadowGit::Result updated = m_git.run({QStringLiteral("update-ref"),
                                                     QStringLiteral("--stdin")},
                                                    updates);
        if (!updated.ok()) {
            outcome.error = updated.problem();
            return outcome;
        }
        outcome.checkpoint = checkpoint;
        return outcome;
    }

    // Every file that differs between \a from's tree and the tree \a to (both in the store).
    CheckpointDiff diff(const QString &from, const QString &to, QStringList notCovered)
    {
        CheckpointDiff diff;
        const ShadowGit::Result raw = m_git.run({QStringLiteral("diff-tree"),
                                                 QStringLiteral("-r"),
                                                 QStringLiteral("-z"),
                                                 QStringLiteral("--raw"),
                                                 QStringLiteral("--no-renames"),
                                                 QStringLiteral("--abbrev=40"),
                                                 from,
                                                 to});
        if (!raw.ok()) {
            diff.error = raw.problem();
            return diff;
        }
        std::sort(notCovered.begin(), notCovered.end());
        notCovered.erase(std::unique(notCovered.begin(), notCovered.end()), notCovered.end());
        const QSet<QString> skip(notCovered.begin(), notCovered.end());
        QList<RawChange> changes;
        QStringList blobs;
        const QList<RawChange> raws = parseRawDiff(raw.out);
        // A nested repository that one side holds as a bare gitlink (a submodule, or a
        // checkpoint older than nested repositories' own snapshots) covers nothing below it:
        // its files are neither written nor deleted.
        QStringList gitlinks;
        for (const RawChange &change : raws) {
            if (change.oldMode == 0160000 || change.newMode == 0160000)
                gitlinks.append(change.path + QLatin1Char('/'));
        }
        const auto underGitlink = [&gitlinks](const QString &path) {
            return std::any_of(gitlinks.cbegin(), gitlinks.cend(), [&path](const QString &link) {
                return path.startsWith(link);
            });
        };
        for (const RawChange &change : raws) {
            // Nested repositories (gitlinks) hold no content here.
            if (change.oldMode == 0160000 || change.newMode == 0160000 || skip.contains(change.path)
                || underGitlink(change.path))
                continue;
            changes.append(change);
            if (!isNullBlob(change.oldBlob))
                blobs.append(change.oldBlob);
            if (!isNullBlob(change.newBlob))
                blobs.append(change.newBlob);
        }
        const QHash<QString, QByteArray> contents = readBlobs(m_git, blobs, &diff.error);
        if (!diff.error.isEmpty())
            return diff;
        for (const RawChange &change : changes) {
            CheckpointFileChange file;
            file.path = change.path;
            file.oldMode = change.oldMode;
            file.newMode = change.newMode;
            file.kind = change.oldMode == 0   ? CheckpointFileChange::Kind::Added
                        : change.newMode == 0 ? CheckpointFileChange::Kind::Deleted
                                              : CheckpointFileChange::Kind::Modified;
            file.oldBytes = contents.value(change.oldBlob);
            file.newBytes = contents.value(change.newBlob);
            diff.files.append(file);
        }
        diff.notCovered = notCovered;
        return diff;
    }

    // The commit \a ref points at, empty when there is none. Read from the store's files
    // (a loose ref, else packed-refs): no process for each checkpoint.
    QString refTarget(const QString &ref)
    {
        static const QRegularExpression oid(QStringLiteral("^([0-9a-f]{40}|[0-9a-f]{64})$"));
        const QString gitDir = m_store.gitDir();
        if (QFileInfo::exists(gitDir + QStringLiteral("/reftable"))) {
            const ShadowGit::Result parsed = m_git.run({QStringLiteral("rev-parse"),
                                                        QStringLiteral("-q"),
                                                        QStringLiteral("--verify"),
                                                        ref + QStringLiteral("^{commit}")});
            return parsed.ok() ? QString::fromLatin1(parsed.out.trimmed()) : QString();
        }
        const QString loose = QString::fromLatin1(
            readFile(gitDir + QLatin1Char('/') + ref).trimmed());
        if (oid.match(loose).hasMatch())
            return loose;
        const QByteArray suffix = ' ' + ref.toUtf8();
        for (const QByteArray &line :
             readFile(gitDir + QStringLiteral("/packed-refs")).split('\n')) {
            const QString target = QString::fromLatin1(line.left(line.indexOf(' ')));
            if (line.endsWith(suffix) && oid.match(target).hasMatch())
                return target;
        }
        return {};
    }

    QString treeOf(const QString &commit)
    {
        const ShadowGit::Result tree = m_git.run({QStringLiteral("rev-parse"),
                                                  QStringLiteral("-q"),
                                                  QStringLiteral("--verify"),
                                                  commit + QStringLiteral("^{tree}")});
        return tree.ok() ? QString::fromLatin1(tree.out.trimmed()) : QString();
    }

private:
    const CheckpointStore &m_store;
    SnapshotBase *m_base; ///< null: no watcher, every snapshot is a full pass
    ShadowGit m_git;
    QLockFile m_lock;
    QStringList m_nested;  ///< the nested repositories of the snapshot being taken
    QStringList m_repairs; ///< what the git runs repaired (stale locks removed)
};

QStringList skippedPaths(const QList<SkippedFile> &files)
{
    QStringList paths;
    for (const SkippedFile &file : files)
        paths.append(file.path);
    return paths;
}

} // namespace

CheckpointStore::CheckpointStore(QString workTree, QString storeRoot, qint64 maxFileBytes)
    : m_workTree(QDir::cleanPath(std::move(workTree)))
    , m_maxFileBytes(maxFileBytes)
{
    const QString hash = QString::fromLatin1(
        QCryptographicHash::hash(m_workTree.toUtf8(), QCryptographicHash::Sha1).toHex().left(16));
    QString name = QFileInfo(m_workTree).fileName();
    static const QRegularExpression unsafe(QStringLiteral("[^A-Za-z0-9._-]"));
    name.replace(unsafe, QStringLiteral("_"));
    m_gitDir = QDir::cleanPath(storeRoot) + QLatin1Char('/') + name.left(40) + QLatin1Char('-')
               + hash + QStringLiteral(".git");
    if (!m_gitDir.startsWith(m_workTree + QLatin1Char('/')))
        m_base = std::make_unique<SnapshotBase>(m_workTree);
}

CheckpointStore::~CheckpointStore() = default;

QString CheckpointStore::defaultStoreRoot()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation)
           + QStringLiteral("/checkpoints");
}

CheckpointOutcome CheckpointStore::create(const Checkpoint &request)
{
    StoreSession session(*this, m_base.get());
    if (const QString problem = session.open(); !problem.isEmpty()) {
        CheckpointOutcome outcome;
        outcome.error = problem;
        return outcome;
    }
    CheckpointOutcome outcome = session.commit(request);
    outcome.repaired = session.repairs();
    return outcome;
}

QList<Checkpoint> CheckpointStore::list(const QString &sessionId) const
{
    QList<Checkpoint> checkpoints;
    if (!QFileInfo::exists(m_gitDir + QStringLiteral("/HEAD")))
        return checkpoints;
    const ShadowGit git(m_gitDir, m_workTree);
    const ShadowGit::Result log = git.run({QStringLiteral("log"),
                                           QStringLiteral("-z"),
                                           QStringLiteral("--format=%H %B"),
                                           refFor(sessionId),
                                           QStringLiteral("--")});
    if (!log.ok())
        return checkpoints;
    for (const QByteArray &record : splitNul(log.out)) {
        const qsizetype space = record.indexOf(' ');
        if (space < 0)
            continue;
        if (const std::optional<Checkpoint> checkpoint
            = checkpointFromCommit(QString::fromLatin1(record.left(space)), record.mid(space + 1)))
            checkpoints.prepend(*checkpoint);
    }
    return checkpoints;
}

std::optional<Checkpoint> CheckpointStore::find(const QString &id) const
{
    if (!QFileInfo::exists(m_gitDir + QStringLiteral("/HEAD")))
        return std::nullopt;
    static const QRegularExpression hex(QStringLiteral("^[0-9a-f]{4,40}$"));
    if (!hex.match(id).hasMatch())
        return std::nullopt;
    const ShadowGit git(m_gitDir, m_workTree);
    const ShadowGit::Result full = git.run({QStringLiteral("rev-parse"),
                                            QStringLiteral("-q"),
                                            QStringLiteral("--verify"),
                                            id + QStringLiteral("^{commit}")});
    if (!full.ok())
        return std::nullopt;
    const QString commit = QString::fromLatin1(full.out.trimmed());
    const ShadowGit::Result message = git.run(
        {QStringLiteral("log"), QStringLiteral("-1"), QStringLiteral("--format=%B"), commit});
    if (!message.ok())
        return std::nullopt;
    return checkpointFromCommit(commit, message.out);
}

CheckpointDiff CheckpointStore::diff(const Checkpoint &checkpoint) const
{
    CheckpointDiff diff;
    StoreSession session(*this, m_base.get());
    if (const QString problem = session.open(); !problem.isEmpty()) {
        diff.error = problem;
        return diff;
    }
    const QString from = session.treeOf(checkpoint.id);
    if (from.isEmpty()) {
        diff.error = QStringLiteral("the checkpoint %1 is not in the store %2")
                         .arg(checkpoint.id, m_gitDir);
        return diff;
    }
    const Snapshot now = session.snapshot();
    if (!now.error.isEmpty()) {
        diff.error = now.error;
        return diff;
    }
    return session.diff(from,
                        now.tree,
                        skippedPaths(checkpoint.skipped) + skippedPaths(now.skipped));
}

QStringList CheckpointStore::changedPaths(const Checkpoint &from,
                                          const Checkpoint &to,
                                          QString *error) const
{
    QStringList paths;
    static const QRegularExpression oid(QStringLiteral("^[0-9a-f]{40}$"));
    if (!oid.match(from.id).hasMatch() || !oid.match(to.id).hasMatch()
        || !QFileInfo::exists(m_gitDir + QStringLiteral("/HEAD"))) {
        if (error)
            *error = QStringLiteral("the checkpoints %1 and %2 are not in the store %3")
                         .arg(from.id, to.id, m_gitDir);
        return paths;
    }
    // Two commits' trees: stored objects only, nothing of the working tree (as list()).
    const ShadowGit git(m_gitDir, m_workTree);
    const ShadowGit::Result names = git.run({QStringLiteral("diff-tree"),
                                             QStringLiteral("-r"),
                                             QStringLiteral("-z"),
                                             QStringLiteral("--name-only"),
                                             QStringLiteral("--no-renames"),
                                             from.id,
                                             to.id,
                                             QStringLiteral("--")});
    if (!names.ok()) {
        if (error)
            *error = names.problem();
        return paths;
    }
    for (const QByteArray &name : splitNul(names.out))
        paths.append(QString::fromUtf8(name));
    return paths;
}

RestoreOutcome CheckpointStore::restore(const Checkpoint &checkpoint, const QSet<QString> &keep)
{
    RestoreOutcome outcome;
    StoreSession session(*this, m_base.get());
    if (const QString problem = session.open(); !problem.isEmpty()) {
        outcome.error = problem;
        return outcome;
    }
    const QString from = session.treeOf(checkpoint.id);
    if (from.isEmpty()) {
        outcome.error = QStringLiteral("the checkpoint %1 is not in the store %2")
                            .arg(checkpoint.id, m_gitDir);
        return outcome;
    }
    // The stored checkpoint knows which files it left out; the caller's copy may not.
    QList<SkippedFile> checkpointSkipped = checkpoint.skipped;
    if (const std::optional<Checkpoint> stored = find(checkpoint.id))
        checkpointSkipped = stored->skipped;

    Checkpoint undoRequest;
    undoRequest.sessionId = checkpoint.sessionId;
    undoRequest.reason = Checkpoint::Reason::BeforeRestore;
    const CheckpointOutcome undo = session.commit(undoRequest);
    if (!undo.ok()) {
        outcome.error = QStringLiteral("could not record the state before the rewind, so "
                                       "nothing was changed: %1")
                            .arg(undo.error);
        return outcome;
    }
    outcome.undo = *undo.checkpoint;
    const CheckpointDiff diff = session.diff(from,
                                             session.treeOf(outcome.undo.id),
                                             skippedPaths(checkpointSkipped)
                                                 + skippedPaths(outcome.undo.skipped));
    if (!diff.ok()) {
        outcome.error = diff.error;
        return outcome;
    }

    QList<FileSetWriter::Change> changes;
    QStringList blobs;
    const ShadowGit::Result oldBlobs = session.git().run({QStringLiteral("ls-tree"),
                                                          QStringLiteral("-r"),
                                                          QStringLiteral("-z"),
                                                          QStringLiteral("--full-tree"),
                                                          from});
    QHash<QString, QString> blobOf; // path -> blob at the checkpoint
    for (const QByteArray &line : splitNul(oldBlobs.out)) {
        const qsizetype tab = line.indexOf('\t');
        const QList<QByteArray> fields = line.left(tab).split(' ');
        if (tab > 0 && fields.size() == 3)
            blobOf.insert(QString::fromUtf8(line.mid(tab + 1)), QString::fromLatin1(fields.at(2)));
    }
    for (const CheckpointFileChange &change : diff.files) {
        if (keep.contains(change.path)) {
            outcome.kept.append(change.path);
            continue;
        }
        if (change.path.section(QLatin1Char('/'), 0, 0) == QLatin1String(".git")) {
            outcome.failed.append(
                QStringLiteral("%1: not a path inside the working tree").arg(change.path));
            continue;
        }
        FileSetWriter::Change write;
        write.path = change.path;
        if (change.kind == CheckpointFileChange::Kind::Added) {
            write.kind = FileSetWriter::Change::Kind::Delete;
            write.removeEmptyParents = true;
        } else {
            const QString blob = blobOf.value(change.path);
            if (blob.isEmpty()) {
                outcome.failed.append(
                    QStringLiteral("%1: not found in the checkpoint").arg(change.path));
                continue;
            }
            write.kind = change.oldMode == 0120000 ? FileSetWriter::Change::Kind::Link
                                                   : FileSetWriter::Change::Kind::File;
            write.mode = change.oldMode == 0100755 ? 0755 : 0644;
            write.likeExisting = true; // git keeps only the executable bit
            write.source = blob;       // replaced by the bytes below
            blobs.append(blob);
        }
        changes.append(write);
    }
    if (changes.isEmpty())
        return outcome;
    QString problem;
    const QHash<QString, QByteArray> contents = readBlobs(session.git(), blobs, &problem);
    if (!problem.isEmpty()) {
        outcome.error = QStringLiteral("could not read the checkpoint's files, so nothing was "
                                       "changed: %1")
                            .arg(problem);
        return outcome;
    }
    for (FileSetWriter::Change &change : changes) {
        if (change.kind != FileSetWriter::Change::Kind::Delete)
            change.bytes = contents.value(std::exchange(change.source, QString()));
    }
    const FileSetWriter::Outcome written
        = FileSetWriter(m_gitDir + QLatin1Char('/') + journalFolder).write(m_workTree, changes);
    if (!written.error.isEmpty()) {
        outcome.error = QStringLiteral("could not write the restore's journal, so nothing was "
                                       "changed: %1")
                            .arg(written.error);
        return outcome;
    }
    for (int i = 0; i < changes.size(); ++i) {
        const FileSetWriter::Change &change = changes.at(i);
        if (written.failed.contains(i))
            outcome.failed.append(
                QStringLiteral("%1: %2").arg(change.path, written.failed.value(i)));
        else if (change.kind == FileSetWriter::Change::Kind::Delete)
            outcome.deleted.append(change.path);
        else
            outcome.written.append(change.path);
    }
    return outcome;
}

QStringList CheckpointStore::recoverInterruptedRestore()
{
    StoreSession session(*this, m_base.get());
    QStringList recovered;
    session.open(&recovered);
    return recovered;
}

} // namespace AgentCore
