// Issue #34, item 12: the sessions list's rows. The selected row is the open session's (a
// session shown by Ctrl+2 or a notification moves the selection with it), and a running row
// does not state a count and time that its file has not caught up with.
#include <i18n/translations.h>
#include <sessions/opensessions.h>
#include <sessions/sessionitemdelegate.h>
#include <sessions/sessionspanel.h>
#include <testmain.h>

#include <QDateTime>
#include <QListWidget>
#include <QStandardPaths>
#include <QTest>

namespace tst_sessionrows {

using AgentCore::SessionInfo;

class tst_SessionRows : public QObject
{
    Q_OBJECT

    static SessionInfo rowInfo(const QString &path, const QString &title, int messages)
    {
        SessionInfo session;
        session.path = path;
        session.title = title;
        session.messageCount = messages;
        session.created = QDateTime::currentDateTime().addSecs(-600);
        session.modified = session.created;
        return session;
    }
    static QString selectedPath(const Ui::SessionsPanel &panel)
    {
        const QListWidgetItem *item = panel.list()->currentItem();
        return item ? item->data(Ui::SessionItemDelegate::PathRole).toString() : QString();
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        Ui::Translations::install(QStringLiteral("en")); // "1 message", "12 messages"
    }

    void selectionFollowsTheOpenSession()
    {
        Ui::SessionsPanel panel;
        panel.resize(260, 400);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        const QList<SessionInfo>
            sessions{rowInfo(QStringLiteral("/s/a.jsonl"), QStringLiteral("A"), 4),
                     rowInfo(QStringLiteral("/s/b.jsonl"), QStringLiteral("B"), 2),
                     rowInfo(QStringLiteral("/s/c.jsonl"), QStringLiteral("C"), 9)};
        panel.setSessions(sessions, QStringLiteral("/s/a.jsonl"));
        QCOMPARE(selectedPath(panel), QStringLiteral("/s/a.jsonl"));
        // Another session shown (Ctrl+2, a notification, the inbox): its row is selected.
        QVERIFY(panel.setCurrentPath(QStringLiteral("/s/c.jsonl")));
        QCOMPARE(selectedPath(panel), QStringLiteral("/s/c.jsonl"));
        // The rows made again (a scan): still the open session's.
        panel.setSessions(sessions, QStringLiteral("/s/b.jsonl"));
        QCOMPARE(selectedPath(panel), QStringLiteral("/s/b.jsonl"));
        // A row the user selected to rename or delete stays selected through a scan.
        panel.list()->setCurrentRow(2);
        panel.setSessions(sessions, QStringLiteral("/s/b.jsonl"));
        QCOMPARE(selectedPath(panel), QStringLiteral("/s/c.jsonl"));
    }

    void runningRowSaysRunning()
    {
        Ui::SessionsPanel panel;
        panel.setSessions({rowInfo(QStringLiteral("/s/a.jsonl"), QStringLiteral("A"), 1),
                           rowInfo(QStringLiteral("/s/b.jsonl"), QStringLiteral("B"), 1),
                           rowInfo(QStringLiteral("/s/c.jsonl"), QStringLiteral("C"), 12)},
                          QStringLiteral("/s/a.jsonl"));
        panel.setOpenSessions({QStringLiteral("/s/a.jsonl"),
                               QStringLiteral("/s/b.jsonl"),
                               QStringLiteral("/s/c.jsonl")},
                              {{QStringLiteral("/s/a.jsonl"), Ui::SessionActivity::Running},
                               {QStringLiteral("/s/b.jsonl"), Ui::SessionActivity::Waiting},
                               {QStringLiteral("/s/c.jsonl"), Ui::SessionActivity::Unseen}});
        const auto detail = [&panel](int row) {
            return Ui::SessionItemDelegate::detailText(panel.list()->model()->index(row, 0));
        };
        // Its file has the task alone until the run ends: "Running · 1 message" was wrong.
        QCOMPARE(detail(0), QStringLiteral("Running"));
        QCOMPARE(detail(1), QStringLiteral("Waiting for approval"));
        // Ended: its file is written, the count and time are true again (one, many).
        QCOMPARE(detail(2).left(28), QStringLiteral("Done, not seen yet · 12 mess"));
        panel.setOpenSessions({QStringLiteral("/s/a.jsonl")}, {});
        QVERIFY2(detail(0).startsWith(QStringLiteral("1 message · ")), qPrintable(detail(0)));
    }
};

AGENTDESK_TEST_MAIN(tst_SessionRows)

} // namespace tst_sessionrows

#include "tst_sessionrows.moc"
