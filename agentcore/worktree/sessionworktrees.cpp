#include "sessionworktrees.h"
#include "translation.h"

#include <files/privatefiles.h>
#include <process/gitprocess.h>
#include <tools/shellwrites.h>
#include <tools/textfile.h>
#include <tools/unifieddiff.h>

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

#include <algorithm>

#include <sys/stat.h>
#include <unistd.h>

namespace AgentCore {

namespace {

using Type = ShellWrite::Type;

// git on the user's repository, through GitProcess: the user's global configuration
// (identity, excludes), but nothing of the repository's that runs a command (no hook: a
// post-checkout hook of the repository does not run because a session was made; no filter,
// fsmonitor, external diff...), nothing of the environment that started AgentDesk, and no
// optional lock: a `git status` style refresh never rewrites the main checkout's index behind
// the user's back.
GitProcess::Result git(const QString &directory,
                       const QStringList &args,
                       const QByteArray &input = {})
{
    GitProcess::Options options;
    options.input = input;
    return GitProcess::run(args, directory, options);
}

QString firstLine(const QByteArray &out)
{
    return QString::fromUtf8(out).section(QLatin1Char('\n'), 0, 0).trimmed();
}

QByteArray encoded(const QString &path)
{
    return QFile::encodeName(path);
}

QByteArray linkTarget(const QString &path)
{
    QByteArray buffer(4096, '\0');
    const ssize_t n = ::readlink(encoded(path).constData(), buffer.data(), buffer.size());
    return n < 0 ? QByteArray() : buffer.left(n);
}

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

QString canonical(const QString &path)
{
    const QString resolved = QFileInfo(path).canonicalFilePath();
    return resolved.isEmpty() ? QDir::cleanPath(path) : resolved;
}

// One path the worktree changed, as git reports it against the base commit.
struct Entry
{
    QString path;
    uint gitMode = 0; ///< the base commit's (0: not there)
    QByteArray sha;   ///< the base commit's blob
};

Type typeOfGitMode(uint mode)
{
    switch (mode & 0170000) {
    case 0100000:
        return Type::File;
    case 0120000:
        return Type::Symlink;
    case 0:
        return Type::None;
    default:
        return Type::Other; // a submodule
    }
}

// The blobs \a shas name, by id: sizes for all, bytes for those no larger than \a maxBytes.
struct Blob
{
    qint64 size = 0;
    QByteArray bytes;
    bool loaded = false;
};

QHash<QByteArray, Blob> readBlobs(const QString &directory,
                                  const QList<QByteArray> &shas,
                                  qint64 maxBytes,
                                  QString *error)
{
    QHash<QByteArray, Blob> blobs;
    if (shas.isEmpty())
        return blobs;
    const GitProcess::Result check = git(directory,
                                         {QStringLiteral("cat-file"),
                                          QStringLiteral("--batch-check")},
                                         shas.join('\n') + '\n');
    if (!check.ok()) {
        *error = check.problem();
        return blobs;
    }
    QList<QByteArray> small;
    for (const QByteArray &line : check.out.split('\n')) {
        const QList<QByteArray> parts = line.split(' ');
        if (parts.size() != 3)
            continue;
        Blob blob;
        blob.size = parts[2].toLongLong();
        blobs.insert(parts[0], blob);
        if (blob.size <= maxBytes)
            small.append(parts[0]);
    }
    if (small.isEmpty())
        return blobs;
    const GitProcess::Result batch = git(directory,
                                         {QStringLiteral("cat-file"), QStringLiteral("--batch")},
                                         small.join('\n') + '\n');
    if (!batch.ok()) {
        *error = batch.problem();
        return blobs;
    }
    // "<sha> blob <size>\n<bytes>\n" for each, in order.
    qsizetype at = 0;
    while (at < batch.out.size()) {
        const qsizetype end = batch.out.indexOf('\n', at);
        if (end < 0)
            break;
        const QList<QByteArray> parts = batch.out.mid(at, end - at).split(' ');
        if (parts.size() != 3)
            break;
        const qint64 size = parts[2].toLongLong();
        Blob &blob = blobs[parts[0]];
        blob.bytes = batch.out.mid(end + 1, size);
        blob.loaded = true;
        at = end + 1 + size + 1;
    }
    return blobs;
}

QString shortId(const QString &commit)
{
    return commit.left(10);
}

} // namespace

QString SessionWorktrees::defaultRoot()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation)
           + QStringLiteral("/worktrees");
}

QString SessionWorktrees::unavailableReason(const QString &repositoryRoot)
{
    if (!QFileInfo(repositoryRoot).isDir())
        return WorktreeTr::tr("%1 does not exist.").arg(repositoryRoot);
    const GitProcess::Result top = git(repositoryRoot,
                                       {QStringLiteral("rev-parse"),
                                        QStringLiteral("--show-toplevel")});
    if (!top.startError.isEmpty())
        return WorktreeTr::tr("git cannot be run here (%1), and a session worktree needs it.")
            .arg(top.startError);
    if (!top.ok())
        return WorktreeTr::tr(
                   "%1 is not a git repository (or git sees no working tree there), so a "
                   "session cannot have a worktree of its own.")
            .arg(repositoryRoot);
    const GitProcess::Result head = git(repositoryRoot,
                                        {QStringLiteral("rev-parse"),
                                         QStringLiteral("--verify"),
                                         QStringLiteral("--quiet"),
                                         QStringLiteral("HEAD^{commit}")});
    if (!head.ok())
        return WorktreeTr::tr(
                   "%1 has no commit yet: a session worktree starts from the checked-out "
                   "commit. Commit once, then try again.")
            .arg(repositoryRoot);
    return {};
}

QString SessionWorktrees::branchName(const QString &name, const QString &sessionId)
{
    const auto slugOf = [](const QString &text, int maxLength) {
        QString slug;
        for (const QChar c : text.toLower()) {
            if ((c >= u'a' && c <= u'z') || (c >= u'0' && c <= u'9'))
                slug += c;
            else if (!slug.isEmpty() && !slug.endsWith(u'-'))
                slug += u'-';
        }
        slug = slug.left(maxLength);
        while (slug.endsWith(u'-'))
            slug.chop(1);
        return slug;
    };
    QString slug = slugOf(name, 40);
    if (slug.isEmpty())
        slug = QStringLiteral("session");
    // A session id ends in a random part ("20250314-101500-123-a1b2"); another id, hashed.
    QString id = slugOf(sessionId.section(u'-', -1), 8);
    if (id.size() < 4)
        id = QString::fromLatin1(
            QCryptographicHash::hash(sessionId.toUtf8(), QCryptographicHash::Sha1).toHex().left(6));
    return QStringLiteral("agentdesk/") + slug + u'-' + id;
}

SessionWorktrees::Created SessionWorktrees::create(const QString &repositoryRoot,
                                                   const QString &dataRoot,
                                                   const QString &name,
                                                   const QString &sessionId)
{
    Created created;
    if (const QString reason = unavailableReason(repositoryRoot); !reason.isEmpty()) {
        created.error = reason;
        return created;
    }
    const QString root = firstLine(
        git(repositoryRoot, {QStringLiteral("rev-parse"), QStringLiteral("--show-toplevel")}).out);
    const GitProcess::Result head = git(root,
                                        {QStringLiteral("rev-parse"),
                                         QStringLiteral("--verify"),
                                         QStringLiteral("HEAD^{commit}")});
    const QString base = firstLine(head.out);
    if (!head.ok() || base.isEmpty()) {
        created.error = WorktreeTr::tr("git cannot read the checked-out commit of %1: %2")
                            .arg(root, head.problem());
        return created;
    }

    // One folder per repository (its name and a hash of its path, as the sessions' folder),
    // one worktree per session in it, named like its branch.
    const QString repositoryFolder
        = QDir::cleanPath(dataRoot) + u'/' + QFileInfo(root).fileName() + u'-'
          + QString::fromLatin1(
              QCryptographicHash::hash(root.toUtf8(), QCryptographicHash::Sha256).toHex().left(12));
    if (!PrivateFiles::makePath(repositoryFolder)) {
        created.error = WorktreeTr::tr("cannot create the folder %1 for the session's worktree.")
                            .arg(repositoryFolder);
        return created;
    }
    const QString wanted = branchName(name, sessionId);
    QString branch;
    QString folder;
    for (int n = 1; n <= 100 && branch.isEmpty(); ++n) {
        const QString candidate = n == 1 ? wanted : wanted + u'-' + QString::number(n);
        const QString candidateFolder = canonical(repositoryFolder) + u'/'
                                        + candidate.section(u'/', 1);
        if (QFileInfo::exists(candidateFolder) || QFileInfo(candidateFolder).isSymLink())
            continue;
        if (git(root,
                {QStringLiteral("show-ref"),
                 QStringLiteral("--verify"),
                 QStringLiteral("--quiet"),
                 QStringLiteral("refs/heads/") + candidate})
                .ok())
            continue;
        branch = candidate;
        folder = candidateFolder;
    }
    if (branch.isEmpty()) {
        created.error = WorktreeTr::tr("no free branch name like %1 is left.").arg(wanted);
        return created;
    }
    const GitProcess::Result add = git(root,
                                       {QStringLiteral("worktree"),
                                        QStringLiteral("add"),
                                        QStringLiteral("--quiet"),
                                        QStringLiteral("-b"),
                                        branch,
                                        folder,
                                        base});
    if (!add.ok()) {
        created.error = WorktreeTr::tr("git could not make the worktree %1: %2")
                            .arg(folder, add.problem());
        return created;
    }
    created.worktree = SessionWorktree{root, folder, branch, base};
    return created;
}

QString SessionWorktrees::check(const SessionWorktree &worktree)
{
    if (!worktree.isValid())
        return WorktreeTr::tr("The session's worktree record is incomplete.");
    const QString &root = worktree.repositoryRoot;
    if (!QFileInfo(root).isDir())
        return WorktreeTr::tr("The main checkout %1 of this session's worktree no longer exists.")
            .arg(root);
    const GitProcess::Result common = git(root,
                                          {QStringLiteral("rev-parse"),
                                           QStringLiteral("--path-format=absolute"),
                                           QStringLiteral("--git-common-dir")});
    if (!common.ok())
        return WorktreeTr::tr(
                   "%1 is no longer a git repository (%2), so this session's worktree cannot "
                   "be used.")
            .arg(root, common.problem());
    const GitProcess::Result branch = git(root,
                                          {QStringLiteral("rev-parse"),
                                           QStringLiteral("--verify"),
                                           QStringLiteral("--quiet"),
                                           QStringLiteral("refs/heads/") + worktree.branch
                                               + QStringLiteral("^{commit}")});
    if (!branch.ok())
        return WorktreeTr::tr(
                   "The branch %1 of this session was deleted or renamed outside AgentDesk. "
                   "AgentDesk does not recreate it: restore it (git reflog shows where it "
                   "was) or delete the session.")
            .arg(worktree.branch);
    if (!QFileInfo(worktree.path).isDir())
        return WorktreeTr::tr(
                   "The worktree folder %1 of this session was deleted outside AgentDesk; what "
                   "was not committed on its branch %2 is lost. AgentDesk does not recreate "
                   "it: keep the branch or delete the session.")
            .arg(worktree.path, worktree.branch);
    const GitProcess::Result own = git(worktree.path,
                                       {QStringLiteral("rev-parse"),
                                        QStringLiteral("--path-format=absolute"),
                                        QStringLiteral("--git-common-dir")});
    if (!own.ok() || canonical(firstLine(own.out)) != canonical(firstLine(common.out)))
        return WorktreeTr::tr("The folder %1 is no longer a worktree of %2 (it was changed outside "
                              "AgentDesk).")
            .arg(worktree.path, root);
    const GitProcess::Result head = git(worktree.path,
                                        {QStringLiteral("symbolic-ref"),
                                         QStringLiteral("-q"),
                                         QStringLiteral("HEAD")});
    const QString checkedOut = firstLine(head.out);
    if (checkedOut != QStringLiteral("refs/heads/") + worktree.branch)
        return WorktreeTr::tr(
                   "The worktree %1 no longer has the session's branch %2 checked out (it has "
                   "%3 now): it was switched outside AgentDesk.")
            .arg(worktree.path,
                 worktree.branch,
                 checkedOut.isEmpty() ? WorktreeTr::tr("a detached HEAD")
                                      : checkedOut.mid(int(qstrlen("refs/heads/"))));
    const GitProcess::Result contains = git(root,
                                            {QStringLiteral("merge-base"),
                                             QStringLiteral("--is-ancestor"),
                                             worktree.baseCommit,
                                             QStringLiteral("refs/heads/") + worktree.branch});
    if (contains.exitCode == 1)
        return WorktreeTr::tr(
                   "The branch %1 was moved outside AgentDesk: it no longer contains the "
                   "commit %2 the session started from (reset or rebased). Its changes "
                   "cannot be brought back by AgentDesk; merge the branch with git.")
            .arg(worktree.branch, shortId(worktree.baseCommit));
    if (!contains.ok())
        return WorktreeTr::tr(
                   "git cannot compare the branch %1 with the commit %2 the session started "
                   "from: %3")
            .arg(worktree.branch, shortId(worktree.baseCommit), contains.problem());
    return {};
}

WorktreeChanges SessionWorktrees::changes(const SessionWorktree &worktree)
{
    WorktreeChanges result;
    if (const QString problem = check(worktree); !problem.isEmpty()) {
        result.error = problem;
        return result;
    }
    const QString &tree = worktree.path;

    // Against the base commit: its commits and what is not committed, in one diff of the base
    // tree with the working tree. Renames as a deletion and an addition (each reviewed).
    const GitProcess::Result diff = git(tree,
                                        {QStringLiteral("diff"),
                                         QStringLiteral("--raw"),
                                         // whatever the user's color.ui or diff.external
                                         QStringLiteral("--no-color"),
                                         QStringLiteral("--no-ext-diff"),
                                         QStringLiteral("-z"),
                                         QStringLiteral("--no-renames"),
                                         QStringLiteral("--no-abbrev"),
                                         QStringLiteral("--ignore-submodules=all"),
                                         worktree.baseCommit,
                                         QStringLiteral("--")});
    if (!diff.ok()) {
        result.error = WorktreeTr::tr(
                           "git cannot compare the worktree with the commit it started from: %1")
                           .arg(diff.problem());
        return result;
    }
    QList<Entry> entries;
    const QList<QByteArray> fields = diff.out.split('\0');
    for (qsizetype i = 0; i + 1 < fields.size(); i += 2) {
        // ":<old mode> <new mode> <old sha> <new sha> <status>" then the path.
        const QList<QByteArray> header = fields[i].mid(1).split(' ');
        if (header.size() < 5)
            break;
        Entry entry;
        entry.path = QString::fromUtf8(fields[i + 1]);
        entry.gitMode = header[0].toUInt(nullptr, 8);
        if (entry.gitMode)
            entry.sha = header[2];
        entries.append(entry);
    }
    // Untracked files too (not ignored ones: build output stays in the worktree).
    const GitProcess::Result untracked = git(tree,
                                             {QStringLiteral("ls-files"),
                                              QStringLiteral("--others"),
                                              QStringLiteral("--exclude-standard"),
                                              QStringLiteral("-z")});
    if (!untracked.ok()) {
        result.error = WorktreeTr::tr("git cannot list the worktree's new files: %1")
                           .arg(untracked.problem());
        return result;
    }
    for (const QByteArray &path : untracked.out.split('\0')) {
        if (!path.isEmpty() && !path.endsWith('/')) // "dir/": a repository inside
            entries.append(Entry{QString::fromUtf8(path), 0, {}});
    }

    QList<QByteArray> shas;
    for (const Entry &entry : std::as_const(entries)) {
        if (!entry.sha.isEmpty() && typeOfGitMode(entry.gitMode) != Type::Other)
            shas.append(entry.sha);
    }
    QString blobError;
    const QHash<QByteArray, Blob> blobs = readBlobs(tree,
                                                    shas,
                                                    ShellWrites::maxReviewBytes,
                                                    &blobError);
    if (!blobError.isEmpty()) {
        result.error = WorktreeTr::tr("git cannot read the files of the commit %1: %2")
                           .arg(shortId(worktree.baseCommit), blobError);
        return result;
    }

    QHash<QString, QByteArray> baseShas; // path -> the base commit's blob, for the conflicts
    for (const Entry &entry : std::as_const(entries)) {
        const Type oldType = typeOfGitMode(entry.gitMode);
        if (oldType == Type::Other)
            continue;
        const QString source = tree + u'/' + entry.path;
        struct stat info;
        Type newType = Type::None;
        uint newMode = 0;
        qint64 newSize = 0;
        if (::lstat(encoded(source).constData(), &info) == 0) {
            if (S_ISREG(info.st_mode)) {
                newType = Type::File;
                // git keeps the executable bit only; so does what comes back.
                newMode = (info.st_mode & 0100) ? 0755 : 0644;
                newSize = info.st_size;
            } else if (S_ISLNK(info.st_mode)) {
                newType = Type::Symlink;
                newMode = 0777;
            }
        }
        const Blob blob = blobs.value(entry.sha);
        ShellWrite change;
        change.path = entry.path;
        change.oldType = oldType;
        change.newType = newType;
        change.oldMode = oldType == Type::Symlink ? 0777 : (entry.gitMode & 0777);
        change.newMode = newMode;
        change.oldSize = oldType == Type::File ? blob.size : 0;
        change.newSize = newSize;
        if (oldType == Type::Symlink)
            change.oldBytes = blob.bytes;
        if (newType == Type::Symlink)
            change.newBytes = linkTarget(source);
        if (newType == Type::File)
            change.newSource = source;
        const bool small = (oldType == Type::None || (oldType == Type::File && blob.loaded))
                           && (newType == Type::None
                               || (newType == Type::File && newSize <= ShellWrites::maxReviewBytes));
        const bool bothFiles = oldType == Type::File && newType == Type::File;
        if (small) {
            const QByteArray oldBytes = blob.bytes;
            const QByteArray newBytes = newType == Type::File ? readAll(source) : QByteArray();
            if (bothFiles && oldBytes == newBytes)
                change.contentChanged = false;
            if (!TextFile::looksBinary(oldBytes) && !TextFile::looksBinary(newBytes)) {
                change.oldBytes = oldBytes;
                change.newBytes = newBytes;
                change.newSource.clear();
                // Added and deleted files come back whole, but a diff shows what they hold.
                change.whole = !bothFiles;
                change.diff = UnifiedDiff::compute(QString::fromUtf8(oldBytes),
                                                   QString::fromUtf8(newBytes));
            }
        } else if (oldType == Type::Symlink && newType == Type::Symlink) {
            change.contentChanged = change.oldBytes != change.newBytes;
        }
        if (oldType == newType && !change.contentChanged && change.oldMode == change.newMode)
            continue;
        if (oldType == Type::None && newType == Type::None)
            continue;
        if (!entry.sha.isEmpty())
            baseShas.insert(entry.path, entry.sha);
        result.changes.append(change);
    }
    std::sort(result.changes.begin(),
              result.changes.end(),
              [](const ShellWrite &a, const ShellWrite &b) { return a.path < b.path; });

    // The conflicts: paths whose file in the main checkout is no longer the base commit's. The
    // decision: such a file is reported and left alone, not merged (git merge-file): a merge
    // writes conflict markers, or lines nobody reviewed, into the user's own work, and what
    // the reviewer accepted hunk by hunk was the diff against the base, not a merge result.
    // The branch keeps everything, for a `git merge` by the user.
    const QString &root = worktree.repositoryRoot;
    QStringList hashed; // regular files to compare by git's blob id, in one git run
    QList<int> hashedIndexes;
    for (int i = 0; i < result.changes.size(); ++i) {
        const ShellWrite &change = result.changes[i];
        const QString target = root + u'/' + change.path;
        struct stat info;
        const bool exists = ::lstat(encoded(target).constData(), &info) == 0;
        QString why;
        if (change.oldType == Type::None) {
            if (exists)
                why = WorktreeTr::tr("it was created in your checkout since the session started");
        } else if (!exists) {
            why = WorktreeTr::tr("it was deleted in your checkout since the session started");
        } else if (change.oldType == Type::Symlink) {
            if (!S_ISLNK(info.st_mode) || linkTarget(target) != change.oldBytes)
                why = WorktreeTr::tr("it was changed in your checkout since the session started");
        } else if (!S_ISREG(info.st_mode)) {
            why = WorktreeTr::tr("it was replaced in your checkout since the session started");
        } else if (change.path.contains(u'\n')) {
            if (!change.whole && readAll(target) != change.oldBytes)
                why = WorktreeTr::tr("it was changed in your checkout since the session started");
        } else {
            hashed.append(change.path);
            hashedIndexes.append(i);
        }
        if (!why.isEmpty())
            result.conflicts.insert(i, why);
    }
    if (!hashed.isEmpty()) {
        // The file's bytes as they are (no filter), against the base commit's blob.
        const GitProcess::Result hashes = git(root,
                                              {QStringLiteral("hash-object"),
                                               QStringLiteral("--no-filters"),
                                               QStringLiteral("--stdin-paths")},
                                              hashed.join(u'\n').toUtf8() + '\n');
        const QList<QByteArray> lines = hashes.out.split('\n');
        for (int k = 0; k < hashedIndexes.size(); ++k) {
            const int i = hashedIndexes[k];
            const QByteArray sha = baseShas.value(result.changes[i].path);
            if (!hashes.ok() || k >= lines.size() || lines[k].trimmed() != sha)
                result.conflicts
                    .insert(i,
                            WorktreeTr::tr(
                                "it was changed in your checkout since the session started"));
        }
    }
    return result;
}

PermissionRequest SessionWorktrees::reviewRequest(const SessionWorktree &worktree,
                                                  const WorktreeChanges &changes)
{
    PermissionRequest request;
    request.toolName = QStringLiteral("Worktree");
    request.arguments = {{QStringLiteral("branch"), worktree.branch},
                         {QStringLiteral("base"), worktree.baseCommit}};
    request.workingDirectory = worktree.repositoryRoot;
    request.shellWrites = changes.changes;
    request.reason = WorktreeTr::tr(
                         "the session's branch %1 changed %2 since %3; only what you accept "
                         "reaches your checkout")
                         .arg(worktree.branch,
                              TextFile::plural(changes.changes.size(),
                                               WorktreeTr::tr("1 path"),
                                               WorktreeTr::tr("%1 paths")),
                              shortId(worktree.baseCommit));
    QStringList lines;
    for (auto it = changes.conflicts.cbegin(); it != changes.conflicts.cend(); ++it)
        lines.append(changes.changes.value(it.key()).path + QStringLiteral(": ") + it.value());
    lines.sort();
    if (!lines.isEmpty())
        request.commandOutput = WorktreeTr::tr(
                                    "Not brought back (your checkout changed them; the branch "
                                    "%1 keeps them):")
                                    .arg(worktree.branch)
                                + u'\n' + lines.join(u'\n');
    return request;
}

ShellWriteApplier::Outcome SessionWorktrees::bringBack(
    const SessionWorktree &worktree,
    const WorktreeChanges &changes,
    const QHash<int, ShellWriteApplier::Choice> &choices,
    const QString &journalDirectory)
{
    QHash<int, ShellWriteApplier::Choice> allowed;
    QHash<int, QString> refused;
    for (auto it = choices.cbegin(); it != choices.cend(); ++it) {
        if (!it->accepted)
            continue;
        if (changes.conflicts.contains(it.key()))
            refused.insert(it.key(), changes.conflicts.value(it.key()));
        else
            allowed.insert(it.key(), it.value());
    }
    // The applier compares each target with the base's bytes again just before writing: a
    // file edited in the main checkout after changes() is refused too.
    ShellWriteApplier::Outcome outcome = ShellWriteApplier(journalDirectory)
                                             .apply(worktree.repositoryRoot,
                                                    changes.changes,
                                                    allowed);
    // The applier's words speak of a command; here the user edited the file meanwhile.
    const QString editedSince = QCoreApplication::translate("AgentCore::Tools",
                                                            "it changed since the command ran");
    for (auto it = outcome.failed.begin(); it != outcome.failed.end(); ++it) {
        if (it.value() == editedSince)
            it.value() = WorktreeTr::tr(
                "it was changed in your checkout since the review was made");
    }
    for (auto it = refused.cbegin(); it != refused.cend(); ++it)
        outcome.failed.insert(it.key(), it.value());
    return outcome;
}

QString SessionWorktrees::keepAsBranch(const SessionWorktree &worktree, const QString &message)
{
    if (const QString problem = check(worktree); !problem.isEmpty())
        return problem;
    const QString &tree = worktree.path;
    // The worktree's own index, never the main checkout's.
    const GitProcess::Result add = git(tree,
                                       {QStringLiteral("add"),
                                        QStringLiteral("-A"),
                                        QStringLiteral("--"),
                                        QStringLiteral(".")});
    if (!add.ok())
        return WorktreeTr::tr("git cannot stage the worktree's changes: %1").arg(add.problem());
    const GitProcess::Result staged = git(tree,
                                          {QStringLiteral("diff"),
                                           QStringLiteral("--cached"),
                                           QStringLiteral("--quiet")});
    if (staged.ok())
        return {}; // everything is committed already
    QStringList args;
    // The user's identity when git knows one; otherwise the commit still happens.
    if (firstLine(git(tree, {QStringLiteral("config"), QStringLiteral("user.name")}).out).isEmpty())
        args << QStringLiteral("-c") << QStringLiteral("user.name=AgentDesk");
    if (firstLine(git(tree, {QStringLiteral("config"), QStringLiteral("user.email")}).out).isEmpty())
        args << QStringLiteral("-c") << QStringLiteral("user.email=agentdesk@localhost");
    args << QStringLiteral("commit") << QStringLiteral("--quiet") << QStringLiteral("--no-verify")
         << QStringLiteral("--no-gpg-sign") << QStringLiteral("-m") << message;
    const GitProcess::Result commit = git(tree, args);
    if (!commit.ok())
        return WorktreeTr::tr("git cannot commit the worktree's changes on %1: %2")
            .arg(worktree.branch, commit.problem());
    return {};
}

QString SessionWorktrees::remove(const SessionWorktree &worktree, bool deleteBranch)
{
    const QString &root = worktree.repositoryRoot;
    if (!QFileInfo(root).isDir())
        return WorktreeTr::tr(
                   "The main checkout %1 no longer exists; the worktree %2 was left as it is.")
            .arg(root, worktree.path);
    QString error;
    if (QFileInfo::exists(worktree.path)) {
        const GitProcess::Result removed = git(root,
                                               {QStringLiteral("worktree"),
                                                QStringLiteral("remove"),
                                                QStringLiteral("--force"),
                                                worktree.path});
        if (!removed.ok() && QFileInfo::exists(worktree.path))
            error = WorktreeTr::tr("git cannot remove the worktree %1: %2")
                        .arg(worktree.path, removed.problem());
    }
    // Forgets a worktree whose folder is gone (deleted by hand, or just now).
    const GitProcess::Result prune = git(root,
                                         {QStringLiteral("worktree"), QStringLiteral("prune")});
    if (error.isEmpty() && !prune.ok())
        error = WorktreeTr::tr("git cannot forget the worktree %1: %2")
                    .arg(worktree.path, prune.problem());
    if (deleteBranch && error.isEmpty()) {
        const QString ref = QStringLiteral("refs/heads/") + worktree.branch;
        if (git(root,
                {QStringLiteral("show-ref"),
                 QStringLiteral("--verify"),
                 QStringLiteral("--quiet"),
                 ref})
                .ok()) {
            const GitProcess::Result branch
                = git(root, {QStringLiteral("branch"), QStringLiteral("-D"), worktree.branch});
            if (!branch.ok())
                error = WorktreeTr::tr("git cannot delete the branch %1: %2")
                            .arg(worktree.branch, branch.problem());
        }
    }
    return error;
}

bool SessionWorktrees::hasUncommittedChanges(const QString &worktreePath)
{
    const GitProcess::Result status = GitProcess::run({QStringLiteral("status"),
                                                       QStringLiteral("--porcelain"),
                                                       QStringLiteral("-uall")},
                                                      worktreePath,
                                                      10000);
    // When git cannot say, the user is asked: remove() forces.
    if (!status.ok())
        return QDir(worktreePath).exists();
    return !status.out.trimmed().isEmpty();
}

} // namespace AgentCore
