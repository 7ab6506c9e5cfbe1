#pragma once

#include "checkpointdiff.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace AgentCore {

class StoreSession;

/// Every file that differs between two trees of a checkpoint store, with both sides' bytes:
/// one `git diff-tree`, one `git cat-file --batch`. The files a side left out (over the size
/// cap, unreadable) and the repositories a side holds as bare gitlinks are not compared.
class TreeDiff final
{
public:
    explicit TreeDiff(const StoreSession &session);

    /// From \a from's tree to the tree \a to (both in the store); \a notCovered: the paths
    /// either side left out.
    CheckpointDiff between(const QString &from, const QString &to, QStringList notCovered) const;

private:
    /// One entry of `git diff-tree -r -z --raw`.
    struct RawChange
    {
        int oldMode = 0;
        int newMode = 0;
        QString oldBlob;
        QString newBlob;
        QString path;
    };

    static QList<RawChange> parseRaw(const QByteArray &out);
    static QList<RawChange> covered(const QList<RawChange> &raws, const QStringList &notCovered);

    const StoreSession &m_session;
};

} // namespace AgentCore
