#pragma once

#include "checkpoint.h"
#include "nestedrepositories.h"

#include <QByteArray>
#include <QList>
#include <QSet>
#include <QString>

namespace AgentCore {

class StoreSession;

/// What a snapshot of the tree gave: its tree object and the files it left out.
struct Snapshot
{
    QString tree; ///< an object id, or a revision naming one (HEAD's tree)
    QList<SkippedFile> skipped;
    QString error; ///< non-empty: there is no snapshot
};

/// The full pass of a snapshot: `git add -A` into the shadow index, leaving out what the tree's
/// ignore files, the user's excludes (IgnoreRules) and the size cap leave out; then the index's
/// tree with the nested repositories grafted in (NestedRepositories). One `git status` finds
/// what changed (a stat pass over the files the index knows, and the untracked cache for the
/// folders); an unchanged tree costs nothing more: its tree is HEAD's, the previous
/// checkpoint's.
class FullSnapshot final
{
public:
    explicit FullSnapshot(StoreSession &session);
    FullSnapshot(const FullSnapshot &) = delete;
    FullSnapshot &operator=(const FullSnapshot &) = delete;

    Snapshot take();
    /// The tree taken has nested repositories grafted in (an incremental snapshot cannot build
    /// on it).
    bool hasNestedRepositories() const { return !m_nested.isEmpty(); }

private:
    /// What `git status` said differs from the shadow index.
    struct Status
    {
        QString head;              ///< HEAD: the store's newest checkpoint
        bool indexIsHead = true;   ///< the shadow index still holds HEAD's tree
        QList<QByteArray> changed; ///< what differs between the index and the tree
        QSet<QByteArray> tracked;  ///< of those, the ones the index has
        QByteArray newNested;      ///< nested repositories not seen before, NUL-separated
    };
    /// What the stat pass made of the changed paths and the ones left out before.
    struct Triage
    {
        QByteArray toAdd; ///< the only paths `add` needs to look at, NUL-separated
        qsizetype toAddCount = 0;
        QList<QByteArray> leftOut;  ///< over the cap or unreadable, sorted
        QByteArray removeFromIndex; ///< left out and in the index: they leave it
        QList<SkippedFile> skipped;
    };

    QByteArray excludesFor(const QList<QByteArray> &leftOut) const;
    QString readStatus(Status *status);
    void readStatusRecord(const QList<QByteArray> &records, qsizetype *i, Status *status);
    Triage triage(const Status &status) const;
    void triagePath(const QByteArray &name, bool tracked, bool wasLeftOut, Triage *triage) const;
    QString updateLeftOut(const Triage &triage, const QByteArray &excludes) const;
    void removeFromIndex(const QByteArray &paths) const;
    QString addToIndex(const Triage &triage, QList<SkippedFile> *skipped) const;
    Snapshot writeTree(Snapshot snapshot);

    StoreSession &m_session;
    NestedRepositories m_nested;
    QByteArray m_userExcludes;
    QByteArray m_gitmodules;
    QByteArray m_previousLeftOutList; ///< as the store holds it
    QList<QByteArray> m_previousLeftOut;
};

} // namespace AgentCore
