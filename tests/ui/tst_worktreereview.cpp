// A worktree session's changes come back through the real writes review view: a hunk
// unchecked stays in the session's branch, a conflict with the main checkout is shown and not
// overwritten. And the sessions panel's "New session in a worktree…" entry says why it is off.
#include "../checkpoint/checkpointtesttree.h"

#include <permissions/shellwritesreview.h>
#include <review/shellwritesreviewview.h>
#include <sessions/sessionspanel.h>
#include <testmain.h>
#include <worktree/sessionworktrees.h>

#include <QAbstractButton>
#include <QAction>
#include <QLabel>
#include <QMenu>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QToolButton>
#include <QTreeWidget>
#include <QtTest>

using namespace AgentCore;
using namespace CheckpointTest;

namespace tst_worktreereview {

class TestWorktreeReview : public QObject
{
    Q_OBJECT

private slots:
    void changesComeBackThroughTheReview()
    {
        QTemporaryDir dir;
        const QString root = dir.filePath(QStringLiteral("main"));
        QVERIFY(QDir().mkpath(root));
        QByteArray text;
        for (int i = 1; i <= 40; ++i)
            text += "line " + QByteArray::number(i) + '\n';
        QVERIFY(git(root, {QStringLiteral("init"), QStringLiteral("-q")}));
        QVERIFY(writeFile(root + QStringLiteral("/a.txt"), text));
        QVERIFY(writeFile(root + QStringLiteral("/b.txt"), "b\n"));
        QVERIFY(git(root, {QStringLiteral("add"), QStringLiteral("-A")}));
        QVERIFY(git(root,
                    {QStringLiteral("commit"),
                     QStringLiteral("-q"),
                     QStringLiteral("-m"),
                     QStringLiteral("base")}));
        const SessionWorktrees::Created created
            = SessionWorktrees::create(root,
                                       dir.filePath(QStringLiteral("worktrees")),
                                       QStringLiteral("Review me"),
                                       QStringLiteral("20260101-000000-000-beef"));
        QVERIFY2(created.worktree, qPrintable(created.error));
        const SessionWorktree worktree = *created.worktree;

        QByteArray edited = text;
        edited.replace("line 3\n", "line three\n");
        edited.replace("line 37\n", "line thirty-seven\n");
        QVERIFY(writeFile(worktree.path + QStringLiteral("/a.txt"), edited));
        QVERIFY(writeFile(worktree.path + QStringLiteral("/b.txt"), "session b\n"));
        QVERIFY(writeFile(root + QStringLiteral("/b.txt"), "user b\n")); // meanwhile

        const WorktreeChanges changes = SessionWorktrees::changes(worktree);
        QCOMPARE(changes.error, QString());
        QCOMPARE(changes.changes.size(), 2);
        QCOMPARE(changes.changes[0].path, QStringLiteral("a.txt"));
        QVERIFY(changes.conflicts.contains(1));

        PermissionRequest request = SessionWorktrees::reviewRequest(worktree, changes);
        request.id = 7;
        Ui::ShellWritesReviewView view;
        view.resize(900, 600);
        view.setRequest(request);
        view.show();
        QVERIFY(view.findChild<QLabel *>(QStringLiteral("reviewTitle"))
                    ->text()
                    .contains(worktree.branch));
        QVERIFY(view.findChild<QPlainTextEdit *>(QStringLiteral("commandOutput"))
                    ->toPlainText()
                    .contains(QStringLiteral("b.txt: it was changed in your checkout")));
        QVERIFY(view.findChild<QPlainTextEdit *>(QStringLiteral("commandOutput"))->isVisible());
        // Issue #34: without a conflict there is nothing to say: no empty "(no output)" box.
        PermissionRequest quiet = request;
        quiet.commandOutput.clear();
        Ui::ShellWritesReviewView quietView;
        quietView.setRequest(quiet);
        quietView.show();
        QVERIFY(QTest::qWaitForWindowExposed(&quietView));
        QVERIFY(
            !quietView.findChild<QPlainTextEdit *>(QStringLiteral("commandOutput"))->isVisible());
        // a.txt with its two hunks, each with a checkbox.
        auto tree = view.findChild<QTreeWidget *>(QStringLiteral("writesTree"));
        QCOMPARE(tree->topLevelItemCount(), 2);
        QCOMPARE(tree->topLevelItem(0)->childCount(), 2);

        view.setHunkAccepted(0, 1, false);
        QSignalSpy answered(&view, &Ui::ShellWritesReviewView::answered);
        view.findChild<QAbstractButton *>(QStringLiteral("allowOnceButton"))->click();
        QCOMPARE(answered.size(), 1);
        const auto answer = answered.at(0).at(1).value<PermissionAnswer>();
        const ShellWriteApplier::Outcome outcome
            = SessionWorktrees::bringBack(worktree,
                                          changes,
                                          ShellWritesReview::choices(request, answer),
                                          dir.filePath(QStringLiteral("journal")));
        QCOMPARE(outcome.applied, QList<int>{0});
        QVERIFY(outcome.failed.contains(1));

        QByteArray expected = text;
        expected.replace("line 3\n", "line three\n");
        QCOMPARE(readFile(root + QStringLiteral("/a.txt")), expected);
        QCOMPARE(readFile(root + QStringLiteral("/b.txt")), QByteArray("user b\n"));
    }

    void newSessionInAWorktreeSaysWhyItIsOff()
    {
        Ui::SessionsPanel panel;
        QAction *action = panel.newInWorktreeAction();
        QVERIFY(panel.findChild<QToolButton *>(QStringLiteral("newSessionButton"))
                    ->menu()
                    ->actions()
                    .contains(action));
        QVERIFY(!action->isEnabled());
        const QString reason = SessionWorktrees::unavailableReason(QDir::rootPath());
        QVERIFY(reason.contains(QStringLiteral("not a git repository")));
        panel.setWorktreeUnavailableReason(reason);
        QVERIFY(!action->isEnabled());
        QCOMPARE(action->toolTip(), reason);

        panel.setWorktreeUnavailableReason({});
        QVERIFY(action->isEnabled());
        QSignalSpy requested(&panel, &Ui::SessionsPanel::newInWorktreeRequested);
        action->trigger();
        QCOMPARE(requested.size(), 1);
    }
};

AGENTDESK_TEST_MAIN(TestWorktreeReview)

} // namespace tst_worktreereview

#include "tst_worktreereview.moc"
