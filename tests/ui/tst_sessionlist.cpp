// The sessions list's contents (SessionList): the folder is read on a worker thread, and what a
// session of the window said while a scan ran is never undone by that scan's older reading; a
// scan that a newer one follows is dropped, whenever it ends.
#include <sessions/sessionitemdelegate.h>
#include <sessions/sessionlist.h>
#include <sessions/sessionspanel.h>
#include <testmain.h>

#include <QLineEdit>
#include <QListWidget>
#include <QMutex>
#include <QPointer>
#include <QSemaphore>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>

#include <memory>

namespace tst_sessionlist {

using AgentCore::SessionInfo;

namespace {

SessionInfo info(const QString &path, const QString &title, int messages, const QDateTime &modified)
{
    SessionInfo session;
    session.path = path;
    session.title = title;
    session.messageCount = messages;
    session.created = modified;
    session.modified = modified;
    return session;
}

/// Scans that each wait for the test's release, then return what the test gave for them, in
/// the order they started.
class HeldScans
{
public:
    explicit HeldScans(const QList<QList<SessionInfo>> &results)
        : m_results(results)
    {
        for (qsizetype i = 0; i < results.size(); ++i)
            m_gates.append(std::make_shared<QSemaphore>());
    }
    ~HeldScans()
    {
        for (const std::shared_ptr<QSemaphore> &gate : std::as_const(m_gates))
            gate->release(); // a failed test leaves no scan waiting
        QThreadPool::globalInstance()->waitForDone();
    }
    Ui::SessionList::Scan scan()
    {
        return [this](const QString &) {
            QMutexLocker locker(&m_mutex);
            const int index = m_started++;
            const std::shared_ptr<QSemaphore> gate = m_gates.value(index);
            locker.unlock();
            if (!gate)
                return QList<SessionInfo>();
            gate->acquire();
            return m_results.at(index);
        };
    }
    void release(int index) { m_gates.at(index)->release(); }
    int started()
    {
        QMutexLocker locker(&m_mutex);
        return m_started;
    }

private:
    QMutex m_mutex;
    const QList<QList<SessionInfo>> m_results;
    QList<std::shared_ptr<QSemaphore>> m_gates;
    int m_started = 0;
};

QString detailOf(const Ui::SessionsPanel &panel, const QString &title)
{
    const int row = panel.titles().indexOf(title);
    return row < 0 ? QString()
                   : panel.list()->item(row)->data(Ui::SessionItemDelegate::DetailRole).toString();
}

} // namespace

class tst_SessionList : public QObject
{
    Q_OBJECT

private slots:
    void aScanDoesNotUndoWhatTheWindowSaidMeanwhile()
    {
        QTemporaryDir dir;
        const QString x = dir.filePath(QStringLiteral("x.jsonl"));
        const QString y = dir.filePath(QStringLiteral("y.jsonl"));
        const QString z = dir.filePath(QStringLiteral("z.jsonl"));
        const QDateTime before = QDateTime::currentDateTime().addSecs(-60);
        // What the scan reads: X before its session's new message, Y before it was deleted.
        HeldScans scans({{info(x, QStringLiteral("fix the parser"), 1, before),
                          info(y, QStringLiteral("old work"), 4, before.addSecs(-1)),
                          info(z, QStringLiteral("other work"), 2, before.addSecs(-2))}});
        Ui::SessionsPanel panel;
        Ui::SessionList list(&panel, scans.scan());
        QSignalSpy scanned(&list, &Ui::SessionList::scanned);
        list.setDirectory(dir.path());
        QTRY_COMPARE(scans.started(), 1);
        QVERIFY(list.isScanning());

        // Meanwhile X's session records a message and a name, and Y is deleted.
        list.update(info(x, QStringLiteral("Parser work"), 3, QDateTime::currentDateTime()));
        list.remove(y);
        QCOMPARE(panel.titles(), QStringList{QStringLiteral("Parser work")});

        scans.release(0);
        QVERIFY(scanned.wait());
        QVERIFY(!list.isScanning());
        QCOMPARE(panel.titles(),
                 (QStringList{QStringLiteral("Parser work"), QStringLiteral("other work")}));
        QVERIFY2(detailOf(panel, QStringLiteral("Parser work")).startsWith(u'3'),
                 qPrintable(detailOf(panel, QStringLiteral("Parser work"))));
    }

    void anOlderScanEndingLastIsDropped()
    {
        QTemporaryDir dir;
        const QDateTime now = QDateTime::currentDateTime();
        const QString a = dir.filePath(QStringLiteral("a.jsonl"));
        const QString b = dir.filePath(QStringLiteral("b.jsonl"));
        HeldScans scans({{info(a, QStringLiteral("as it was"), 1, now)},
                         {info(a, QStringLiteral("as it is"), 2, now),
                          info(b, QStringLiteral("made elsewhere"), 1, now.addSecs(-1))}});
        Ui::SessionsPanel panel;
        Ui::SessionList list(&panel, scans.scan());
        QSignalSpy scanned(&list, &Ui::SessionList::scanned);
        list.setDirectory(dir.path());
        QTRY_COMPARE(scans.started(), 1);
        list.rescan(); // the folder changed while the first scan ran
        QTRY_COMPARE(scans.started(), 2);

        scans.release(1);
        QVERIFY(scanned.wait());
        const QStringList newest{QStringLiteral("as it is"), QStringLiteral("made elsewhere")};
        QCOMPARE(panel.titles(), newest);

        // The first scan ends last: what it read is older, and is not shown.
        scans.release(0);
        QVERIFY(QThreadPool::globalInstance()->waitForDone(10'000));
        QCoreApplication::sendPostedEvents();
        QCOMPARE(scanned.size(), 1);
        QCOMPARE(panel.titles(), newest);
        QVERIFY(!list.isScanning());
    }

    void aRescanKeepsTheSelectionAndARenameBeingTyped()
    {
        QTemporaryDir dir;
        const QDateTime now = QDateTime::currentDateTime();
        const QString a = dir.filePath(QStringLiteral("a.jsonl"));
        const QString b = dir.filePath(QStringLiteral("b.jsonl"));
        const QString c = dir.filePath(QStringLiteral("c.jsonl"));
        const QList<SessionInfo> two{info(a, QStringLiteral("first"), 1, now),
                                     info(b, QStringLiteral("second"), 2, now.addSecs(-1))};
        // The folder changes three times: a lock file comes, goes, then another window saves.
        QList<SessionInfo> three = two;
        three.prepend(info(c, QStringLiteral("made elsewhere"), 1, now.addSecs(1)));
        HeldScans scans({two, two, two, three});
        Ui::SessionsPanel panel;
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        Ui::SessionList list(&panel, scans.scan());
        QSignalSpy scanned(&list, &Ui::SessionList::scanned);
        const auto scan = [&](int index) {
            if (index > 0)
                list.rescan();
            QTRY_COMPARE(scans.started(), index + 1);
            scans.release(index);
            QTRY_COMPARE(scanned.size(), index + 1);
        };
        list.setDirectory(dir.path());
        scan(0);
        QCOMPARE(panel.titles(), (QStringList{QStringLiteral("first"), QStringLiteral("second")}));

        // The user renames "second" (F2) and is still typing when the lock file comes.
        panel.editTitle(1);
        QPointer<QLineEdit> editor = panel.list()->findChild<QLineEdit *>();
        QVERIFY(editor);
        QTest::keyClicks(editor, QStringLiteral("parser work"));
        scan(1);
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete); // a closed editor goes
        QVERIFY2(editor && editor->isVisible(), "the rename being typed was closed");
        QCOMPARE(editor->text(), QStringLiteral("parser work"));
        QTest::keyClick(editor, Qt::Key_Escape);
        QTRY_VERIFY(!editor || !editor->isVisible());

        // The list is read again with a session more: "second" is still the selected row.
        scan(2);
        scan(3);
        QCOMPARE(panel.titles().size(), 3);
        QVERIFY(panel.list()->currentItem());
        QCOMPARE(panel.list()->currentItem()->text(), QStringLiteral("second"));
    }
};

AGENTDESK_TEST_MAIN(tst_SessionList)

} // namespace tst_sessionlist

#include "tst_sessionlist.moc"
