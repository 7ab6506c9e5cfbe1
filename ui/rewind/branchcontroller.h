#pragma once

#include <ai/types.h>

#include <QObject>
#include <QPointer>
#include <QString>

QT_BEGIN_NAMESPACE
class QWidget;
QT_END_NAMESPACE

namespace Ui {

class AgentSession;
class BranchTreeDialog;
class RewindController;

/// The branches of one window's conversation (AgentCore::SessionTree): "Edit and resend",
/// "Fork from here" (with the files, through the RewindController, when asked), the
/// switchers' steps and the tree view. Each is refused, with the reason (refused()), while the
/// agent works: a switch never stops a run, whose work belongs to the branch it runs on. The
/// session emits branchSwitched() when the conversation changed. UI thread.
class BranchController final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BranchController)
public:
    /// \a rewind restores the files of "and restore files".
    BranchController(QWidget *dialogParent, RewindController *rewind, QObject *parent = nullptr);
    ~BranchController() override;

    /// Not owned; null detaches.
    void setSession(AgentSession *session);

    /// Where branches part on the conversation shown: at raw message messageIndex, it shows
    /// branch position (from 1) of count.
    struct Part
    {
        qsizetype messageIndex = -1;
        int position = 0;
        int count = 0;
    };
    QList<Part> parts() const;

    /// The switcher at raw message \a messageIndex: goes \a step branches over (to the latest
    /// branch through that one).
    bool step(qsizetype messageIndex, int step);
    /// "Fork from here": a new branch ending at raw message \a messageIndex; \a withFiles: the
    /// files as they were then too.
    bool fork(qsizetype messageIndex, bool withFiles);
    /// Whether "Edit and resend" may start on raw message \a messageIndex now; refused()
    /// otherwise.
    bool mayEdit(qsizetype messageIndex);
    /// Sends \a text and \a pictures in place of the user message \a messageIndex, on a new
    /// branch from right before it; \a withFiles: the files as they were then first.
    bool resend(qsizetype messageIndex,
                const QString &text,
                const QList<AgentCore::ContentBlock> &pictures,
                bool withFiles);
    /// Opens the tree view (not modal for the caller); nullptr, and refused(), without
    /// branches to show.
    BranchTreeDialog *showTree();
    /// The tree view while it is open.
    BranchTreeDialog *treeDialog() const;

signals:
    /// A branch could not be made or switched to; \a reason is for people.
    void refused(const QString &reason);

private:
    bool refuseIfBusy();

    QWidget *m_dialogParent;
    RewindController *m_rewind;
    QPointer<AgentSession> m_session;
    QPointer<BranchTreeDialog> m_tree;
};

} // namespace Ui
