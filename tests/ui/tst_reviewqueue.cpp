#include <review/bashreviewview.h>
#include <review/diffreviewview.h>
#include <review/reviewqueue.h>
#include <testmain.h>

#include <permissions/permissionbroker.h>

#include <QApplication>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QVBoxLayout>

#include <atomic>
#include <thread>

namespace tst_reviewqueue {

using AgentCore::AbortToken;
using AgentCore::PermissionAnswer;
using AgentCore::PermissionBroker;
using AgentCore::PermissionRequest;
using AgentCore::UnifiedDiff;
using Choice = PermissionAnswer::Choice;

namespace {

PermissionRequest editRequest(const QString &path)
{
    PermissionRequest request;
    request.toolName = QStringLiteral("Edit");
    request.filePath = QStringLiteral("/repo/") + path;
    request.displayPath = path;
    request.oldText = QStringLiteral("a\nb\n");
    request.newText = QStringLiteral("a\nc\n");
    request.diff = UnifiedDiff::compute(request.oldText, request.newText);
    return request;
}

PermissionRequest bashRequest(const QString &command)
{
    PermissionRequest request;
    request.toolName = QStringLiteral("Bash");
    AgentCore::BashAnalysis analysis;
    analysis.command = command;
    analysis.understood = false;
    analysis.problem = QStringLiteral("test");
    request.bash = analysis;
    return request;
}

// One ask() on a thread of its own, as a tool call makes it.
class Asking
{
public:
    Asking(PermissionBroker *broker, const PermissionRequest &request)
        : m_thread([this, broker, request] {
            m_answer = broker->ask(request, m_abort);
            m_done = true;
        })
    {}
    ~Asking()
    {
        m_abort.abort(); // a failed test must not leave the thread waiting for an answer
        m_thread.join();
    }

    void abort() { m_abort.abort(); }
    bool done() const { return m_done; }
    std::optional<PermissionAnswer> answer() const { return m_done ? m_answer : std::nullopt; }

private:
    AbortToken m_abort;
    std::optional<PermissionAnswer> m_answer;
    std::atomic_bool m_done = false;
    std::thread m_thread;
};

QString position(const Ui::ReviewQueue &queue)
{
    return queue.findChild<QLabel *>(QStringLiteral("queuePosition"))->text();
}

} // namespace

class tst_ReviewQueue : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        qRegisterMetaType<AgentCore::PermissionAnswer>();
    }

    void keepsOrderAndAnswersTheBroker()
    {
        PermissionBroker broker;
        Ui::ReviewQueue queue;
        queue.setBroker(&broker);
        queue.resize(800, 500);
        queue.show();
        QVERIFY(QTest::qWaitForWindowExposed(&queue));

        // One at a time, so the order of arrival is known.
        Asking first(&broker, editRequest(QStringLiteral("a.cpp")));
        QTRY_COMPARE(queue.count(), 1);
        Asking second(&broker, bashRequest(QStringLiteral("make")));
        QTRY_COMPARE(queue.count(), 2);
        Asking third(&broker, editRequest(QStringLiteral("b.cpp")));
        QTRY_COMPARE(queue.count(), 3);

        QVERIFY2(position(queue).contains(QStringLiteral("1 of 3")), qPrintable(position(queue)));
        auto diff = qobject_cast<Ui::DiffReviewView *>(queue.currentView());
        QVERIFY(diff);
        QCOMPARE(diff->requestId(), queue.requestIds().at(0));

        QTest::mouseClick(diff->findChild<QPushButton *>(QStringLiteral("allowOnceButton")),
                          Qt::LeftButton);
        QTRY_VERIFY(first.done());
        QCOMPARE(first.answer()->choice, Choice::AllowOnce);
        QVERIFY(!second.done());
        QCOMPARE(queue.count(), 2);
        QVERIFY2(position(queue).contains(QStringLiteral("1 of 2")), qPrintable(position(queue)));
        auto bash = qobject_cast<Ui::BashReviewView *>(queue.currentView());
        QVERIFY(bash);

        QTest::mouseClick(bash->findChild<QPushButton *>(QStringLiteral("denyButton")),
                          Qt::LeftButton);
        QTRY_VERIFY(second.done());
        QCOMPARE(second.answer()->choice, Choice::Deny);
        QVERIFY(qobject_cast<Ui::DiffReviewView *>(queue.currentView()));
        QVERIFY2(position(queue).contains(QStringLiteral("1 of 1")), qPrintable(position(queue)));

        queue.currentView()->findChild<QPushButton *>(QStringLiteral("allowOnceButton"))->click();
        QTRY_VERIFY(third.done());
        QCOMPARE(queue.count(), 0);
        QVERIFY(!queue.currentView());
    }

    // The hunks the user unchecked reach the asker (the permission middleware) in the answer.
    void brokerGetsTheRejectedHunks()
    {
        PermissionBroker broker;
        Ui::ReviewQueue queue;
        queue.setBroker(&broker);
        QSignalSpy answered(&queue, &Ui::ReviewQueue::answered);
        PermissionRequest request = editRequest(QStringLiteral("a.cpp"));
        for (int i = 1; i <= 20; ++i)
            request.oldText += QStringLiteral("line %1\n").arg(i);
        request.newText = request.oldText;
        request.newText.replace(QStringLiteral("line 1\n"), QStringLiteral("first\n"))
            .replace(QStringLiteral("line 20\n"), QStringLiteral("last\n"));
        request.diff = UnifiedDiff::compute(request.oldText, request.newText);
        Asking asking(&broker, request);
        QTRY_COMPARE(queue.count(), 1);

        auto view = qobject_cast<Ui::DiffReviewView *>(queue.currentView());
        QVERIFY(view);
        QCOMPARE(view->hunkCount(), 2);
        view->setHunkAccepted(0, false);
        view->findChild<QPushButton *>(QStringLiteral("allowOnceButton"))->click();
        QTRY_VERIFY(asking.done());
        QCOMPARE(asking.answer()->choice, Choice::AllowOnce);
        QCOMPARE(asking.answer()->rejectedHunks, QList<int>({0}));
        QCOMPARE(answered.size(), 1);
        QCOMPARE(answered.at(0).at(1).value<PermissionAnswer>().rejectedHunks, QList<int>({0}));
        QCOMPARE(answered.at(0).at(2).value<QList<int>>(), QList<int>({0}));
    }

    void arrivingRequestDoesNotTakeFocus()
    {
        PermissionBroker broker;
        QWidget window;
        auto composer = new QLineEdit(&window);
        auto queue = new Ui::ReviewQueue(&window);
        queue->setBroker(&broker);
        auto layout = new QVBoxLayout(&window);
        layout->addWidget(queue, 1);
        layout->addWidget(composer);
        window.resize(800, 600);
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        composer->setFocus();
        QTRY_VERIFY(composer->hasFocus());
        QTest::keyClicks(composer, QStringLiteral("fix the"));

        QSignalSpy answered(queue, &Ui::ReviewQueue::answered);
        Asking edit(&broker, editRequest(QStringLiteral("a.cpp")));
        QTRY_COMPARE(queue->count(), 1);
        Asking bash(&broker, bashRequest(QStringLiteral("make")));
        QTRY_COMPARE(queue->count(), 2);
        QCoreApplication::processEvents();

        QCOMPARE(QApplication::focusWidget(), composer);
        QTest::keyClicks(QApplication::focusWidget(), QStringLiteral(" overflow"));
        QCOMPARE(composer->text(), QStringLiteral("fix the overflow"));
        // The queue catches no keys typed outside it: Ctrl+Enter in another widget is not an
        // answer (ConversationPage forwards its composer's, see tst_AppFlow).
        QTest::keyClick(composer, Qt::Key_Return, Qt::ControlModifier);
        QTest::keyClick(composer, Qt::Key_Escape);
        QCOMPARE(QApplication::focusWidget(), composer);
        QCOMPARE(answered.size(), 0);
        QVERIFY(!edit.done());

        // Answered elsewhere (the approvals inbox answers the broker): each review closes.
        const QList<quint64> ids = queue->requestIds();
        QVERIFY(broker.answer(ids.at(0), PermissionAnswer()));
        QCOMPARE(queue->requestIds(), QList<quint64>{ids.at(1)});
        QVERIFY(broker.answer(ids.at(1), PermissionAnswer()));
        QCOMPARE(queue->count(), 0);
        QCOMPARE(answered.size(), 2);
    }

    void keyboardMovesThroughTheQueue()
    {
        PermissionBroker broker;
        Ui::ReviewQueue queue;
        queue.setBroker(&broker);
        queue.show();
        QVERIFY(QTest::qWaitForWindowActive(&queue));
        Asking first(&broker, editRequest(QStringLiteral("a.cpp")));
        QTRY_COMPARE(queue.count(), 1);
        Asking second(&broker, editRequest(QStringLiteral("b.cpp")));
        QTRY_COMPARE(queue.count(), 2);

        // The user chose to go to the review; answering keeps the focus in the queue.
        QWidget *view = queue.currentView();
        view->findChild<QWidget *>(QStringLiteral("unifiedView"))->setFocus();
        QTRY_VERIFY(view->isAncestorOf(QApplication::focusWidget()));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return, Qt::ControlModifier);
        QTRY_VERIFY(first.done());
        QCOMPARE(first.answer()->choice, Choice::AllowOnce);
        QTRY_VERIFY(queue.currentView()->isAncestorOf(QApplication::focusWidget()));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return, Qt::ControlModifier);
        QTRY_VERIFY(second.done());
    }

    void withdrawnRequestVanishes()
    {
        PermissionBroker broker;
        Ui::ReviewQueue queue;
        queue.setBroker(&broker);
        queue.show();
        QVERIFY(QTest::qWaitForWindowExposed(&queue));
        Asking kept(&broker, editRequest(QStringLiteral("a.cpp")));
        QTRY_COMPARE(queue.count(), 1);
        Asking withdrawn(&broker, bashRequest(QStringLiteral("sleep 100")));
        QTRY_COMPARE(queue.count(), 2);
        const quint64 keptId = queue.requestIds().at(0);

        withdrawn.abort();
        QTRY_COMPARE(queue.count(), 1);
        QVERIFY(withdrawn.done());
        QVERIFY(!withdrawn.answer());
        QCOMPARE(queue.requestIds(), QList<quint64>({keptId}));
        QVERIFY2(position(queue).contains(QStringLiteral("1 of 1")), qPrintable(position(queue)));

        kept.abort();
        QTRY_COMPARE(queue.count(), 0);
        QVERIFY(!queue.currentView());
    }

    void showsWhatWasPendingBeforeIt()
    {
        PermissionBroker broker;
        Asking asking(&broker, editRequest(QStringLiteral("a.cpp")));
        QTRY_COMPARE(broker.pending().size(), 1);
        Ui::ReviewQueue queue;
        queue.setBroker(&broker);
        QCOMPARE(queue.count(), 1);
        QCoreApplication::processEvents(); // the queued requested() must not add it twice
        QCOMPARE(queue.count(), 1);
        QVERIFY(broker.answer(queue.requestIds().at(0), PermissionAnswer()));
    }

    // Issue #34, item 7: the reviews of a session the page no longer shows went on waiting
    // in its queue (and the message box said "A review waits…") after the page was given
    // another session, or none. Another broker brings its own reviews only.
    void anotherBrokerDropsTheOldReviews()
    {
        PermissionBroker first;
        PermissionBroker second;
        Ui::ReviewQueue queue;
        queue.setBroker(&first);
        Asking old(&first, editRequest(QStringLiteral("a.cpp")));
        QTRY_COMPARE(queue.count(), 1);
        QSignalSpy counts(&queue, &Ui::ReviewQueue::countChanged);
        queue.setBroker(nullptr);
        QCOMPARE(queue.count(), 0);
        QVERIFY(!queue.currentView());
        QCOMPARE(counts.constLast().at(0).toInt(), 0);

        Asking other(&second, editRequest(QStringLiteral("b.cpp")));
        QTRY_COMPARE(second.pending().size(), 1);
        queue.setBroker(&first);
        QCOMPARE(queue.count(), 1); // still pending there: shown again
        queue.setBroker(&second);
        QCOMPARE(queue.count(), 1);
        QCOMPARE(queue.requestIds(), QList<quint64>({second.pending().at(0).id}));
        QVERIFY(!old.done()); // the first session's call still waits for its answer
    }
};

AGENTDESK_TEST_MAIN(tst_ReviewQueue)

} // namespace tst_reviewqueue

#include "tst_reviewqueue.moc"
