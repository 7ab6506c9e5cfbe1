#include "checkpointpruner.h"

#include "checkpoint.h"
#include "checkpointstore.h"
#include "shadowgit.h"
#include "storefiles.h"

#include <files/privatefiles.h>

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLockFile>

#include <optional>

namespace AgentCore {

namespace {

struct Record
{
    QString commit;
    qint64 time = 0; ///< seconds since the epoch
};

struct Chain
{
    QString ref;
    QString sessionId;
    QList<Record> records; ///< newest first, as far as the shallow file lets git see
};

std::optional<Chain> chainOf(const ShadowGit &git, const QString &ref)
{
    const ShadowGit::Result log = git.run({QStringLiteral("log"),
                                           QStringLiteral("-z"),
                                           QStringLiteral("--format=%H %ct %B"),
                                           ref,
                                           QStringLiteral("--")});
    if (!log.ok())
        return std::nullopt;
    Chain chain;
    chain.ref = ref;
    for (const QByteArray &entry : StoreFiles::splitNul(log.out)) {
        const QList<QByteArray> fields = entry.split(' ');
        if (fields.size() < 3)
            continue;
        chain.records.append({QString::fromLatin1(fields.at(0)), fields.at(1).toLongLong()});
        if (chain.records.size() == 1) {
            const qsizetype body = fields.at(0).size() + fields.at(1).size() + 2;
            const QJsonObject message = QJsonDocument::fromJson(entry.mid(body).trimmed()).object();
            if (message.isEmpty())
                return std::nullopt; // not one of ours: left alone
            QJsonObject withId = message;
            withId.insert(QStringLiteral("id"), chain.records.first().commit);
            const std::optional<Checkpoint> newest = Checkpoint::fromJson(withId);
            if (!newest)
                return std::nullopt;
            // Empty for a session never saved: no file can ever name it.
            chain.sessionId = newest->sessionId;
        }
    }
    if (chain.records.isEmpty())
        return std::nullopt;
    return chain;
}

QSet<QString> readLines(const QString &path)
{
    QSet<QString> lines;
    QFile file(path);
    if (file.open(QIODevice::ReadOnly)) {
        for (const QByteArray &line : file.readAll().split('\n')) {
            if (!line.trimmed().isEmpty())
                lines.insert(QString::fromLatin1(line.trimmed()));
        }
    }
    return lines;
}

bool writeLines(const QString &path, const QSet<QString> &lines)
{
    if (lines.isEmpty())
        return QFile::remove(path) || !QFileInfo::exists(path);
    QStringList sorted(lines.begin(), lines.end());
    sorted.sort();
    const QString temporary = path + QStringLiteral(".agentdesk");
    QFile file(temporary);
    const QByteArray bytes = sorted.join(QLatin1Char('\n')).toLatin1() + '\n';
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate, PrivateFiles::fileMode)
        || file.write(bytes) != bytes.size() || !file.flush()) {
        file.remove();
        return false;
    }
    file.close();
    QFile::remove(path);
    return QFile::rename(temporary, path);
}

// One prune's work under the store's lock: each session's chain dropped (its session is gone)
// or cut below its oldest kept checkpoint (the shallow file), then the index reset if anything
// went.
class ChainCutter
{
public:
    ChainCutter(const ShadowGit &git,
                const QSet<QString> &liveSessions,
                const CheckpointPruner::Limits &limits)
        : m_git(git)
        , m_liveSessions(liveSessions)
        , m_limits(limits)
    {}

    // False: stopped on an error (outcome().error), nothing more to do.
    bool cutAll()
    {
        const ShadowGit::Result refs = m_git.run({QStringLiteral("for-each-ref"),
                                                  QStringLiteral("--format=%(refname)"),
                                                  QStringLiteral("refs/agentdesk/")});
        if (!refs.ok()) {
            m_outcome.error = refs.problem();
            return false;
        }
        const QString shallowPath = m_git.gitDir() + QStringLiteral("/shallow");
        m_oldShallow = readLines(shallowPath);
        m_now = QDateTime::currentSecsSinceEpoch();
        for (const QByteArray &line : refs.out.split('\n')) {
            const QString ref = QString::fromUtf8(line.trimmed());
            if (ref.isEmpty())
                continue;
            const std::optional<Chain> chain = chainOf(m_git, ref);
            if (!chain || dropIfGone(*chain))
                continue;
            cut(*chain);
        }
        if (m_shallow != m_oldShallow && !writeLines(shallowPath, m_shallow)) {
            m_outcome.error = QStringLiteral("cannot write %1").arg(shallowPath);
            return false;
        }
        return !m_dropped || resetIndex();
    }

    const CheckpointPruner::Outcome &outcome() const { return m_outcome; }
    bool droppedAny() const { return m_dropped; }

private:
    // A session with no file, past the grace time: its ref goes, and with it the chain.
    bool dropIfGone(const Chain &chain)
    {
        const qint64 newest = chain.records.first().time;
        if (m_liveSessions.contains(chain.sessionId)
            || m_now - newest < m_limits.deletedSessionGraceSeconds)
            return false;
        const ShadowGit::Result removed = m_git.run(
            {QStringLiteral("update-ref"), QStringLiteral("-d"), chain.ref});
        if (!removed.ok()) {
            m_outcome.error = removed.problem();
            return false;
        }
        m_outcome.droppedSessions.append(chain.sessionId);
        m_dropped = true;
        return true;
    }

    // Newest first: the kept ones are a prefix of the chain.
    void cut(const Chain &chain)
    {
        qsizetype kept = 0;
        for (const Record &record : chain.records) {
            const bool young = m_now - record.time <= qint64(m_limits.maxAgeDays) * 86400;
            if (kept >= qMax(1, m_limits.keepNewest) && (kept >= m_limits.maxPerSession || !young)) {
                break;
            }
            ++kept;
        }
        const QString oldest = chain.records.at(kept - 1).commit;
        if (kept < chain.records.size()) {
            m_shallow.insert(oldest);
            m_outcome.droppedCheckpoints += int(chain.records.size() - kept);
            m_dropped = true;
        } else if (m_oldShallow.contains(oldest)) {
            m_shallow.insert(oldest); // cut by an earlier prune
        }
    }

    // gc keeps what the shadow index names, and an incremental snapshot (TreeWatcher) leaves
    // the index at the last full pass, which may be a checkpoint just cut. The index becomes
    // HEAD's tree, the newest checkpoint; -m keeps the stat data of every entry that did not
    // change, so the next full pass still stats rather than hashes, and -i leaves the work
    // tree out of it (its files may differ from either).
    bool resetIndex()
    {
        const ShadowGit::Result reset = m_git.run({QStringLiteral("read-tree"),
                                                   QStringLiteral("-m"),
                                                   QStringLiteral("-i"),
                                                   QStringLiteral("HEAD")});
        if (!reset.ok()) {
            m_outcome.error = reset.problem();
            return false;
        }
        return true;
    }

    const ShadowGit &m_git;
    const QSet<QString> &m_liveSessions;
    const CheckpointPruner::Limits &m_limits;
    qint64 m_now = 0; ///< seconds since the epoch, as the chains are read
    QSet<QString> m_oldShallow;
    QSet<QString> m_shallow;
    CheckpointPruner::Outcome m_outcome;
    bool m_dropped = false;
};

// After the lock is released: gc.auto is off for every other command of the store (a snapshot
// never pays for it). With anything dropped, the objects nothing reaches any more older than
// \a expiry go; else git's own threshold decides.
void collectGarbage(const ShadowGit &git,
                    bool dropped,
                    const QString &expiry,
                    CheckpointPruner::Outcome *outcome)
{
    const ShadowGit::Result gc = dropped ? git.run({QStringLiteral("gc"),
                                                    QStringLiteral("--quiet"),
                                                    QStringLiteral("--prune=") + expiry})
                                         : git.run({QStringLiteral("-c"),
                                                    QStringLiteral("gc.auto=6700"),
                                                    QStringLiteral("gc"),
                                                    QStringLiteral("--auto"),
                                                    QStringLiteral("--quiet")});
    if (!gc.ok() && outcome->error.isEmpty())
        outcome->error = gc.problem();
}

} // namespace

CheckpointPruner::Outcome CheckpointPruner::prune(const CheckpointStore &store,
                                                  const QSet<QString> &liveSessions,
                                                  const Limits &limits)
{
    if (!QFileInfo::exists(store.gitDir() + QStringLiteral("/HEAD")))
        return {}; // no store yet
    const ShadowGit git(store.gitDir(), store.workTree());
    ChainCutter cutter(git, liveSessions, limits);
    {
        // The store's own lock (CheckpointStore takes it for every write): no checkpoint is
        // recorded and no restore reads the chains while they are cut.
        QLockFile lock(store.gitDir() + QStringLiteral(".lock"));
        lock.setStaleLockTime(0);
        if (!lock.tryLock(120000)) {
            Outcome busy;
            busy.error = QStringLiteral("the checkpoint store %1 is busy; not pruned")
                             .arg(store.gitDir());
            return busy;
        }
        if (!cutter.cutAll())
            return cutter.outcome();
    }
    Outcome outcome = cutter.outcome();
    collectGarbage(git, cutter.droppedAny(), limits.unreachableExpiry, &outcome);
    return outcome;
}

} // namespace AgentCore
