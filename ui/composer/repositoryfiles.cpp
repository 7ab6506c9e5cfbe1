#include "repositoryfiles.h"

#include <tools/filewalker.h>

#include <QThread>

#include <algorithm>
#include <tuple>

namespace Ui {

namespace {

QStringList listFiles(const QString &root, const AgentCore::AbortToken &abort)
{
    QStringList paths;
    AgentCore::FileWalker walker(root);
    walker.setAbortToken(abort);
    walker.walk([&paths](QByteArrayView relativePath, bool isDirectory) {
        if (!isDirectory)
            paths.append(QString::fromUtf8(relativePath));
        return paths.size() < RepositoryFiles::maxPaths ? AgentCore::FileWalker::Visit::Continue
                                                        : AgentCore::FileWalker::Visit::Stop;
    });
    return paths;
}

} // namespace

RepositoryFiles::RepositoryFiles(QObject *parent)
    : QObject(parent)
{}

RepositoryFiles::~RepositoryFiles()
{
    m_abort.abort();
    for (QThread *thread : m_threads) {
        thread->wait();
        delete thread;
    }
}

void RepositoryFiles::setRoot(const QString &root)
{
    m_root = root;
    m_paths.clear();
    m_abort.abort(); // a listing of the old root is of no use any more
    m_listing = false;
    startListing();
}

void RepositoryFiles::refresh()
{
    if (!m_listing)
        startListing();
}

void RepositoryFiles::startListing()
{
    reap();
    if (m_root.isEmpty())
        return;
    m_abort = AgentCore::AbortToken();
    m_listing = true;
    const int generation = ++m_generation;
    const QString root = m_root;
    const AgentCore::AbortToken abort = m_abort;
    QThread *thread = QThread::create([this, generation, root, abort] {
        const QStringList paths = listFiles(root, abort);
        // ~RepositoryFiles joins this thread before `this` goes: posting to it is safe, and
        // the posted call is dropped with the object.
        QMetaObject::invokeMethod(
            this,
            [this, generation, paths] { finishListing(generation, paths); },
            Qt::QueuedConnection);
    });
    thread->setObjectName(QStringLiteral("RepositoryFiles"));
    m_threads.push_back(thread);
    thread->start(QThread::LowPriority);
}

void RepositoryFiles::finishListing(int generation, const QStringList &paths)
{
    reap();
    if (generation != m_generation)
        return;
    m_listing = false;
    m_paths = paths;
    emit pathsChanged();
}

void RepositoryFiles::reap()
{
    const auto done = std::partition(m_threads.begin(), m_threads.end(), [](QThread *thread) {
        return !thread->isFinished();
    });
    for (auto it = done; it != m_threads.end(); ++it) {
        (*it)->wait(); // finished: returns at once
        delete *it;
    }
    m_threads.erase(done, m_threads.end());
}

QStringList RepositoryFiles::match(const QStringList &paths, const QString &query, int limit)
{
    if (query.isEmpty())
        return paths.mid(0, limit);
    struct Hit
    {
        int rank;
        qsizetype length;
        qsizetype order;
    };
    std::vector<Hit> hits;
    for (qsizetype i = 0; i < paths.size(); ++i) {
        const QString &path = paths.at(i);
        const qsizetype at = path.indexOf(query, 0, Qt::CaseInsensitive);
        if (at < 0)
            continue;
        const qsizetype nameStart = path.lastIndexOf(QLatin1Char('/')) + 1;
        int rank = 3;
        if (at == nameStart)
            rank = 0;
        else if (path.indexOf(query, nameStart, Qt::CaseInsensitive) >= 0)
            rank = 1;
        else if (at == 0)
            rank = 2;
        hits.push_back({rank, path.size(), i});
    }
    std::sort(hits.begin(), hits.end(), [](const Hit &a, const Hit &b) {
        return std::tie(a.rank, a.length, a.order) < std::tie(b.rank, b.length, b.order);
    });
    QStringList out;
    for (std::size_t i = 0; i < hits.size() && out.size() < limit; ++i)
        out.append(paths.at(hits[i].order));
    return out;
}

} // namespace Ui

#include "moc_repositoryfiles.cpp"
