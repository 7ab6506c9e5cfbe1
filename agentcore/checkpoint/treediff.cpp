#include "treediff.h"

#include "storefiles.h"
#include "storesession.h"

#include <QSet>

#include <algorithm>

namespace AgentCore {

namespace {

constexpr int gitlinkMode = 0160000;

bool isNullBlob(const QString &blob)
{
    return blob.isEmpty() || blob.count(QLatin1Char('0')) == blob.size();
}

} // namespace

TreeDiff::TreeDiff(const StoreSession &session)
    : m_session(session)
{}

CheckpointDiff TreeDiff::between(const QString &from,
                                 const QString &to,
                                 QStringList notCovered) const
{
    CheckpointDiff diff;
    const ShadowGit::Result raw = m_session.git().run({QStringLiteral("diff-tree"),
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
    const QList<RawChange> changes = covered(parseRaw(raw.out), notCovered);
    QStringList blobs;
    for (const RawChange &change : changes) {
        if (!isNullBlob(change.oldBlob))
            blobs.append(change.oldBlob);
        if (!isNullBlob(change.newBlob))
            blobs.append(change.newBlob);
    }
    const QHash<QString, QByteArray> contents = m_session.readBlobs(blobs, &diff.error);
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

QList<TreeDiff::RawChange> TreeDiff::parseRaw(const QByteArray &out)
{
    QList<RawChange> changes;
    const QList<QByteArray> parts = StoreFiles::splitNul(out);
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

// \a raws without the paths \a notCovered names and without nested repositories held as bare
// gitlinks: a gitlink (a submodule, or a checkpoint older than nested repositories' own
// snapshots) holds no content, and covers nothing below it: its files are neither written nor
// deleted.
QList<TreeDiff::RawChange> TreeDiff::covered(const QList<RawChange> &raws,
                                             const QStringList &notCovered)
{
    const QSet<QString> skip(notCovered.begin(), notCovered.end());
    QStringList gitlinks;
    for (const RawChange &change : raws) {
        if (change.oldMode == gitlinkMode || change.newMode == gitlinkMode)
            gitlinks.append(change.path + QLatin1Char('/'));
    }
    const auto underGitlink = [&gitlinks](const QString &path) {
        return std::any_of(gitlinks.cbegin(), gitlinks.cend(), [&path](const QString &link) {
            return path.startsWith(link);
        });
    };
    QList<RawChange> changes;
    for (const RawChange &change : raws) {
        if (change.oldMode == gitlinkMode || change.newMode == gitlinkMode
            || skip.contains(change.path) || underGitlink(change.path))
            continue;
        changes.append(change);
    }
    return changes;
}

} // namespace AgentCore
