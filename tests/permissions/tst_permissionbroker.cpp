#include <permissions/permissionbroker.h>
#include <testmain.h>

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <atomic>
#include <memory>
#include <thread>

using namespace AgentCore;

namespace tst_permissionbroker {

namespace {

PermissionRequest request(const char *tool)
{
    PermissionRequest request;
    request.toolCallId = QStringLiteral("call_") + QString::fromUtf8(tool);
    request.toolName = QString::fromUtf8(tool);
    request.reason = QStringLiteral("asks in default mode");
    return request;
}

PermissionAnswer answerWith(PermissionAnswer::Choice choice, const QString &feedback = {})
{
    PermissionAnswer answer;
    answer.choice = choice;
    answer.feedback = feedback;
    return answer;
}

// One ask() on a thread of its own, as a tool call would make it.
class Asking
{
public:
    Asking(PermissionBroker *broker, const PermissionRequest &request, AbortToken abort = {})
        : m_abort(abort)
        , m_thread([this, broker, request] {
            m_answer = broker->ask(request, m_abort);
            m_elapsedSinceAbortMs = m_abortClock.isValid() ? m_abortClock.elapsed() : -1;
            m_done = true;
        })
    {}
    ~Asking()
    {
        if (m_thread.joinable())
            m_thread.join();
    }

    void abortNow()
    {
        m_abortClock.start();
        m_abort.abort();
    }
    void join() { m_thread.join(); }
    bool done() const { return m_done; }
    const std::optional<PermissionAnswer> &answer() const { return m_answer; }
    qint64 elapsedSinceAbortMs() const { return m_elapsedSinceAbortMs; }

private:
    AbortToken m_abort;
    QElapsedTimer m_abortClock;
    std::optional<PermissionAnswer> m_answer;
    qint64 m_elapsedSinceAbortMs = -1;
    std::atomic_bool m_done = false;
    std::thread m_thread;
};

} // namespace

class tst_PermissionBroker : public QObject
{
    Q_OBJECT

private slots:
    void answeredFromUiThread_data()
    {
        QTest::addColumn<int>("choice");
        QTest::addColumn<QString>("feedback");
        QTest::newRow("allow once") << int(PermissionAnswer::Choice::AllowOnce) << "";
        QTest::newRow("allow always") << int(PermissionAnswer::Choice::AllowAlways) << "";
        QTest::newRow("deny") << int(PermissionAnswer::Choice::Deny) << "use Edit, not sed";
    }

    void answeredFromUiThread()
    {
        QFETCH(int, choice);
        QFETCH(QString, feedback);
        PermissionBroker broker;
        QSignalSpy requested(&broker, &PermissionBroker::requested);
        Asking asking(&broker, request("Edit"));
        QTRY_COMPARE(requested.size(), 1);

        const auto announced = requested.first().first().value<PermissionRequest>();
        QVERIFY(announced.id != 0);
        QCOMPARE(announced.toolName, QStringLiteral("Edit"));
        QCOMPARE(announced.toolCallId, QStringLiteral("call_Edit"));
        QCOMPARE(broker.pending().size(), 1);
        QCOMPARE(broker.pending().first().id, announced.id);
        QVERIFY(!asking.done());

        QVERIFY(broker.answer(announced.id, answerWith(PermissionAnswer::Choice(choice), feedback)));
        asking.join();
        QVERIFY(asking.answer().has_value());
        QCOMPARE(int(asking.answer()->choice), choice);
        QCOMPARE(asking.answer()->feedback, feedback);
        QVERIFY(broker.pending().isEmpty());
        // Answered once only.
        QVERIFY(!broker.answer(announced.id, answerWith(PermissionAnswer::Choice::Deny)));
        QVERIFY(!broker.answer(4242, answerWith(PermissionAnswer::Choice::Deny)));
    }

    void answeredInAnyOrder()
    {
        PermissionBroker broker;
        QSignalSpy requested(&broker, &PermissionBroker::requested);
        Asking first(&broker, request("Read"));
        QTRY_COMPARE(requested.size(), 1);
        Asking second(&broker, request("Grep"));
        QTRY_COMPARE(requested.size(), 2);

        const QList<PermissionRequest> pending = broker.pending();
        QCOMPARE(pending.size(), 2);
        QCOMPARE(pending.at(0).toolName, QStringLiteral("Read")); // order of arrival
        QCOMPARE(pending.at(1).toolName, QStringLiteral("Grep"));
        QVERIFY(pending.at(0).id != pending.at(1).id);

        QVERIFY(broker.answer(pending.at(1).id, answerWith(PermissionAnswer::Choice::Deny, "no")));
        second.join();
        QCOMPARE(second.answer()->choice, PermissionAnswer::Choice::Deny);
        QVERIFY(!first.done());
        QCOMPARE(broker.pending().size(), 1);
        QVERIFY(broker.answer(pending.at(0).id, answerWith(PermissionAnswer::Choice::AllowOnce)));
        first.join();
        QCOMPARE(first.answer()->choice, PermissionAnswer::Choice::AllowOnce);
    }

    void abortEndsTheWait()
    {
        PermissionBroker broker;
        QSignalSpy requested(&broker, &PermissionBroker::requested);
        QSignalSpy withdrawn(&broker, &PermissionBroker::withdrawn);
        Asking asking(&broker, request("Bash"));
        QTRY_COMPARE(requested.size(), 1);
        const quint64 id = requested.first().first().value<PermissionRequest>().id;

        asking.abortNow();
        // The UI thread does not spin its event loop here: the wait must end on its own.
        asking.join();
        QVERIFY(!asking.answer().has_value());
        QVERIFY2(asking.elapsedSinceAbortMs() < 100,
                 qPrintable(QString::number(asking.elapsedSinceAbortMs())));
        QTRY_COMPARE(withdrawn.size(), 1);
        QCOMPARE(withdrawn.first().first().value<quint64>(), id);
        QVERIFY(broker.pending().isEmpty());
        QVERIFY(!broker.answer(id, answerWith(PermissionAnswer::Choice::AllowOnce)));
    }

    void alreadyAborted()
    {
        PermissionBroker broker;
        QSignalSpy requested(&broker, &PermissionBroker::requested);
        AbortToken abort;
        abort.abort();
        Asking asking(&broker, request("Bash"), abort);
        asking.join();
        QVERIFY(!asking.answer().has_value());
        QCoreApplication::processEvents();
        QCOMPARE(requested.size(), 0); // nothing to review
    }

    void destroyingDeniesPending()
    {
        auto broker = std::make_unique<PermissionBroker>();
        QSignalSpy requested(broker.get(), &PermissionBroker::requested);
        Asking asking(broker.get(), request("Write"));
        QTRY_COMPARE(requested.size(), 1);
        broker.reset();
        asking.join();
        QVERIFY(asking.answer().has_value());
        QCOMPARE(asking.answer()->choice, PermissionAnswer::Choice::Deny);
        QVERIFY(asking.answer()->feedback.contains(QLatin1String("window closed")));
    }

    void waitsOnAQThread()
    {
        PermissionBroker broker;
        QSignalSpy requested(&broker, &PermissionBroker::requested);
        std::optional<PermissionAnswer> answer;
        std::unique_ptr<QThread> thread(
            QThread::create([&] { answer = broker.ask(request("Edit"), AbortToken()); }));
        thread->start();
        QTRY_COMPARE(requested.size(), 1);
        // requested arrives on the UI thread, where a reviewer answers it.
        QVERIFY(broker.answer(requested.first().first().value<PermissionRequest>().id,
                              answerWith(PermissionAnswer::Choice::AllowSession)));
        QVERIFY(thread->wait(5000));
        QVERIFY(answer.has_value());
        QCOMPARE(answer->choice, PermissionAnswer::Choice::AllowSession);
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_PermissionBroker)

} // namespace tst_permissionbroker

#include "tst_permissionbroker.moc"
