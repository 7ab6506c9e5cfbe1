#include "storesession.h"

#include "checkpointstore.h"
#include "filesetwriter.h"
#include "storefiles.h"

#include <files/privatefiles.h>

#include <QFileInfo>
#include <QRegularExpression>

namespace AgentCore {

StoreSession::StoreSession(const CheckpointStore &store)
    : m_store(store)
    , m_git(store.gitDir(), store.workTree())
    , m_lock(store.gitDir() + QStringLiteral(".lock"))
{
    m_git.setRepairLog(&m_repairs);
}

QString StoreSession::open(QStringList *recovered)
{
    if (QString problem = makeFolder(); !problem.isEmpty())
        return problem;
    if (QString problem = takeLock(); !problem.isEmpty())
        return problem;
    if (QString problem = makeRepository(); !problem.isEmpty())
        return problem;
    // A lock file a killed AgentDesk's git left (index.lock, a ref's) is removed by the
    // first run it is in the way of, once no process holds it (ShadowGit).
    const QStringList done = finishInterruptedRestore();
    if (recovered)
        *recovered = done;
    return {};
}

ShadowGit StoreSession::gitFor(const QString &workTree, const QString &indexFile)
{
    ShadowGit git(m_store.gitDir(), workTree, indexFile);
    git.setRepairLog(&m_repairs);
    return git;
}

// The working tree must exist; the store's folder is made for it.
QString StoreSession::makeFolder() const
{
    if (!QFileInfo(m_store.workTree()).isDir())
        return QStringLiteral("the folder %1 does not exist").arg(m_store.workTree());
    if (!PrivateFiles::makePath(QFileInfo(m_store.gitDir()).absolutePath()))
        return QStringLiteral("cannot create the folder %1")
            .arg(QFileInfo(m_store.gitDir()).absolutePath());
    return {};
}

QString StoreSession::takeLock()
{
    m_lock.setStaleLockTime(0); // a lock whose process is gone is stale
    if (!m_lock.tryLock(120000))
        return QStringLiteral("another AgentDesk is using the checkpoint store %1")
            .arg(m_store.gitDir());
    PrivateFiles::restrict(m_store.gitDir() + QStringLiteral(".lock"));
    return {};
}

// The bare repository, once, and its attributes on every open (an older store's may differ).
QString StoreSession::makeRepository() const
{
    if (!QFileInfo::exists(m_store.gitDir() + QStringLiteral("/HEAD"))) {
        const ShadowGit::Result init = m_git.init();
        if (!init.ok())
            return init.problem();
    }
    PrivateFiles::makePath(m_store.gitDir() + QStringLiteral("/info"));
    if (!StoreFiles::write(StoreFiles::attributesFile(m_store.gitDir()), StoreFiles::attributes()))
        return QStringLiteral("cannot write to the checkpoint store %1").arg(m_store.gitDir());
    return {};
}

QStringList StoreSession::finishInterruptedRestore() const
{
    QStringList done;
    for (const FileSetWriter::Replayed &journal :
         FileSetWriter::replay(StoreFiles::journalFolder(m_store.gitDir()))) {
        if (journal.committed)
            done += journal.paths;
    }
    return done;
}

QString StoreSession::refTarget(const QString &ref) const
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
        StoreFiles::read(gitDir + QLatin1Char('/') + ref).trimmed());
    if (oid.match(loose).hasMatch())
        return loose;
    const QByteArray suffix = ' ' + ref.toUtf8();
    for (const QByteArray &line :
         StoreFiles::read(gitDir + QStringLiteral("/packed-refs")).split('\n')) {
        const QString target = QString::fromLatin1(line.left(line.indexOf(' ')));
        if (line.endsWith(suffix) && oid.match(target).hasMatch())
            return target;
    }
    return {};
}

QString StoreSession::treeOf(const QString &commit) const
{
    const ShadowGit::Result tree = m_git.run({QStringLiteral("rev-parse"),
                                              QStringLiteral("-q"),
                                              QStringLiteral("--verify"),
                                              commit + QStringLiteral("^{tree}")});
    return tree.ok() ? QString::fromLatin1(tree.out.trimmed()) : QString();
}

QHash<QString, QByteArray> StoreSession::readBlobs(const QStringList &blobs, QString *error) const
{
    QHash<QString, QByteArray> contents;
    if (blobs.isEmpty())
        return contents;
    QByteArray input;
    for (const QString &blob : blobs)
        input += blob.toLatin1() + '\n';
    const ShadowGit::Result result = m_git.run({QStringLiteral("cat-file"),
                                                QStringLiteral("--batch")},
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

} // namespace AgentCore
