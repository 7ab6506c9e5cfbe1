#include "nestedrepositories.h"

#include "checkpointstore.h"
#include "storefiles.h"
#include "storesession.h"

#include <files/privatefiles.h>

#include <QCryptographicHash>
#include <QFile>
#include <QRegularExpression>

#include <sys/stat.h>

#include <algorithm>
#include <utility>

namespace AgentCore {

NestedRepositories::NestedRepositories(StoreSession &session)
    : m_session(session)
{}

bool NestedRepositories::isNested(const QString &workTree,
                                  const QString &path,
                                  const QByteArray &gitmodules)
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

QByteArray NestedRepositories::keepPrevious(const QByteArray &gitmodules)
{
    const QString workTree = m_session.store().workTree();
    const QByteArray previous = StoreFiles::read(StoreFiles::nestedList(m_session.store().gitDir()));
    m_paths.clear();
    for (const QByteArray &line : previous.split('\n')) {
        const QString path = QString::fromUtf8(line);
        if (!path.isEmpty() && isNested(workTree, path, gitmodules))
            m_paths.append(path);
    }
    return previous;
}

QStringList NestedRepositories::paths() const
{
    QStringList paths = m_paths;
    paths.removeDuplicates();
    std::sort(paths.begin(), paths.end());
    return paths;
}

QString NestedRepositories::graftInto(const QString &tree, QString *error)
{
    const QString gitDir = m_session.store().gitDir();
    m_paths = paths();
    StoreFiles::write(StoreFiles::nestedList(gitDir), m_paths.join(QLatin1Char('\n')).toUtf8());
    if (m_paths.isEmpty())
        return tree;
    PrivateFiles::makePath(gitDir + QStringLiteral("/nested-index"));
    const ShadowGit compose = m_session.gitFor(m_session.store().workTree(),
                                               gitDir + QStringLiteral("/compose-index"));
    ShadowGit::Result step = compose.run({QStringLiteral("read-tree"), tree});
    for (const QString &path : std::as_const(m_paths)) {
        if (!step.ok())
            break;
        const ShadowGit::Result nested = treeOf(path);
        if (!nested.ok()) {
            step = nested;
            break;
        }
        compose.run({QStringLiteral("update-index"),
                     QStringLiteral("--force-remove"),
                     QStringLiteral("--"),
                     path});
        step = compose.run({QStringLiteral("read-tree"),
                            QStringLiteral("--prefix=") + path + QLatin1Char('/'),
                            QString::fromLatin1(nested.out.trimmed())});
    }
    if (step.ok())
        step = compose.run({QStringLiteral("write-tree")});
    if (!step.ok()) {
        *error = step.problem();
        return {};
    }
    return QString::fromLatin1(step.out.trimmed());
}

ShadowGit::Result NestedRepositories::treeOf(const QString &path)
{
    const QString gitDir = m_session.store().gitDir();
    const QString hash = QString::fromLatin1(
        QCryptographicHash::hash(path.toUtf8(), QCryptographicHash::Sha1).toHex());
    const ShadowGit nested = m_session.gitFor(m_session.store().workTree() + QLatin1Char('/') + path,
                                              gitDir + QStringLiteral("/nested-index/") + hash);
    nested.run({QStringLiteral("add"),
                QStringLiteral("-A"),
                QStringLiteral("--ignore-errors"),
                QStringLiteral("--"),
                QStringLiteral(".")});
    return nested.run({QStringLiteral("write-tree")});
}

} // namespace AgentCore
