#pragma once

#include <ai/aborttoken.h>

#include <QObject>
#include <QStringList>

#include <memory>
#include <vector>

QT_BEGIN_NAMESPACE
class QThread;
QT_END_NAMESPACE

namespace Ui {

/// The files of a repository, for `@` mentions: listed on a thread of their own, the way the
/// Glob and Grep tools see them (.gitignore respected, .git skipped).
/// Lives on the UI thread; never blocks it, except ~RepositoryFiles, which aborts a listing
/// still going on and joins it (the walk checks the abort token between entries).
class RepositoryFiles final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RepositoryFiles)
public:
    /// A listing stops there: a mention popup has no use for more.
    static constexpr int maxPaths = 50'000;

    explicit RepositoryFiles(QObject *parent = nullptr);
    ~RepositoryFiles() override;

    /// Forgets the paths of the previous root and starts listing \a root (absolute).
    void setRoot(const QString &root);
    QString root() const { return m_root; }
    /// Lists the root again, unless a listing is going on: files come and go while the agent
    /// works.
    void refresh();
    bool isListing() const { return m_listing; }
    /// '/'-separated, relative to the root, in the walk's order. Empty until the first listing
    /// is done.
    QStringList paths() const { return m_paths; }

    /// The paths matching \a query best first, at most \a limit: the file name starting with
    /// it, then the file name containing it, then the path starting with it, then the path
    /// containing it (case-insensitively); shorter paths first within each. An empty query
    /// matches every path, in order.
    static QStringList match(const QStringList &paths, const QString &query, int limit);

signals:
    /// A listing finished: paths() holds its result.
    void pathsChanged();

private:
    void startListing();
    void finishListing(int generation, const QStringList &paths);
    void reap();

    QString m_root;
    QStringList m_paths;
    int m_generation = 0;
    bool m_listing = false;
    AgentCore::AbortToken m_abort;
    std::vector<QThread *> m_threads; // owned; a replaced listing may still be winding down
};

} // namespace Ui
