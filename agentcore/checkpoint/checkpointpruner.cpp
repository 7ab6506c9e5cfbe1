#include "checkpointpruner.h"

#include "checkpoint.h"
#include "checkpointstore.h"
#include "shadowgit.h"

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

QList<QByteArray> splitNul(const QByteArray &bytes)
{
    QList<QByteArray> parts = bytes.split('\0');
    if (!parts.isEmpty() && parts.last().isEmpty())
        parts.removeLast();
    return parts;
}

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
    for (const QByteArray &entry : splitNul(log.out)) {
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

} // namespace

CheckpointPruner::Outcome CheckpointPruner::prune(const CheckpointStore &store,
                                                  const QSet<QString> &liveSessions,
                                                  const Limits &limits)
{
    Outcome outcome;
    if (!QFileInfo::exists(store.gitDir() + QStringLiteral("/HEAD")))
        return outcome; // no store yet
    const ShadowGit git(store.gitDir(), store.workTree());
    bool dropped = false;
    {
        // The store's own lock (CheckpointStore takes it for every write): no checkpoint is
        // recorded and no restore reads the chains while they are cut.
        QLockFile lock(store.gitDir() + QStringLiteral(".lock"));
        lock.setStaleLockTime(0);
        if (!lock.tryLock(120000)) {
            outcome.error = QStringLiteral("the checkpoint store %1 is busy; not pruned")
                                .arg(store.gitDir());
            return outcome;
        }
        const ShadowGit::Result refs = git.run({QStringLiteral("for-each-ref"),
                                                QStringLiteral("--format=%(refname)"),
                                                QStringLiteral("refs/agentdesk/")});
        if (!refs.ok()) {
            outcome.error = refs.problem();
            return outcome;
        }
        const QString shallowPath = store.gitDir() + QStringLiteral("/shallow");
        const QSet<QString> oldShallow = readLines(shallowPath);
        QSet<QString> shallow;
        const qint64 now = QDateTime::currentSecsSinceEpoch();
        for (const QByteArray &line : refs.out.split('\n')) {
            const QString ref = QString::fromUtf8(line.trimmed());
            if (ref.isEmpty())
                continue;
            const std::optional<Chain> chain = chainOf(git, ref);
            if (!chain)
                continue;
            const qint64 newest = chain->records.first().time;
            if (!liveSessions.contains(chain->sessionId)
                && now - newest >= limits.deletedSessionGraceSeconds) {
                const ShadowGit::Result removed = git.run(
                    {QStringLiteral("update-ref"), QStringLiteral("-d"), ref});
                if (removed.ok()) {
                    outcome.droppedSessions.append(chain->sessionId);
                    dropped = true;
                    continue;
                }
                outcome.error = removed.problem();
            }
            // Newest first: the kept ones are a prefix of the chain.
            qsizetype kept = 0;
            for (const Record &record : chain->records) {
                const bool young = now - record.time <= qint64(limits.maxAgeDays) * 86400;
                if (kept >= qMax(1, limits.keepNewest) && (kept >= limits.maxPerSession || !young)) {
                    break;
                }
                ++kept;
            }
            const QString oldest = chain->records.at(kept - 1).commit;
            if (kept < chain->records.size()) {
                shallow.insert(oldest);
                outcome.droppedCheckpoints += int(chain->records.size() - kept);
                dropped = true;
            } else if (oldShallow.contains(oldest)) {
                shallow.insert(oldest); // cut by an earlier prune
            }
        }
        if (shallow != oldShallow && !writeLines(shallowPath, shallow)) {
            outcome.error = QStringLiteral("cannot write %1").arg(shallowPath);
            return outcome;
        }
        // gc keeps what the shadow index names, and an incremental snapshot (TreeWatcher)
        // leaves the index at the last full pass, which may be a checkpoint just cut. The
        // index becomes HEAD's tree, the newest checkpoint; -m keeps the stat data of every
        // entry that did not change, so the next full pass still stats rather than hashes,
        // and -i leaves the work tree out of it (its files may differ from either).
        if (dropped) {
            const ShadowGit::Result reset = git.run({QStringLiteral("read-tree"),
                                                     QStringLiteral("-m"),
                                                     QStringLiteral("-i"),
                                                     QStringLiteral("HEAD")});
            if (!reset.ok()) {
                outcome.error = reset.problem();
                return outcome;
            }
        }
    }

    // gc.auto is off for every other command of the store (a snapshot never pays for it).
    const ShadowGit::Result gc = dropped ? git.run(
                                     {QStringLiteral("gc"),
                                      QStringLiteral("--quiet"),
                                      QStringLiteral("--prune=") + limits.unreachableExpiry})
                                         : git.run({QStringLiteral("-c"),
                                                    QStringLiteral("gc.auto=6700"),
                                                    QStringLiteral("gc"),
                                                    QStringLiteral("--auto"),
                                                    QStringLiteral("--quiet")});
    if (!gc.ok() && outcome.error.isEmpty())
        outcome.error = gc.problem();
    return outcome;
}

} // namespace AgentCore
