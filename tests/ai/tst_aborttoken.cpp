#include "ai/aborttoken.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QTest>
#include <QThread>
#include <QTimer>
#include <testmain.h>

#include <atomic>
#include <memory>
#include <thread>
#include <vector>

namespace tst_aborttoken {

using AgentCore::AbortToken;

class tst_AbortToken : public QObject
{
    Q_OBJECT

private slots:
    void freshTokenIsNotAborted();
    void abortFromAnotherThreadRunsCallbackInContextThread();
    void abortWakesALocalEventLoopInAWorker();
    void callbackRegisteredAfterAbortRunsOnceQueued();
    void callbacksRunOnceWhateverTheAborts();
    void concurrentAbortsRunEachCallbackOnce();
    void disconnectedCallbackNeverRuns();
    void callbackOfDeletedContextNeverRuns();
    void copiesShareState();
};

void tst_AbortToken::freshTokenIsNotAborted()
{
    const AbortToken token;
    QVERIFY(!token.isAborted());
}

void tst_AbortToken::abortFromAnotherThreadRunsCallbackInContextThread()
{
    AbortToken token;
    QObject context;
    QThread *callbackThread = nullptr;
    int calls = 0;
    token.onAbort(&context, [&] {
        callbackThread = QThread::currentThread();
        ++calls;
    });

    std::thread aborter([token]() mutable { token.abort(); });
    aborter.join();

    QVERIFY(token.isAborted());
    QCOMPARE(calls, 0); // queued to the context's thread, which has not spun yet
    QTRY_COMPARE(calls, 1);
    QCOMPARE(callbackThread, QThread::currentThread());
}

void tst_AbortToken::abortWakesALocalEventLoopInAWorker()
{
    // What a worker blocked in HttpModelClient::complete() relies on.
    AbortToken token;
    std::atomic_bool registered = false;
    std::atomic_bool woken = false;
    std::unique_ptr<QThread> worker(QThread::create([&] {
        QEventLoop loop;
        token.onAbort(&loop, [&loop] { loop.quit(); });
        registered = true;
        QTimer::singleShot(20'000, &loop, &QEventLoop::quit); // a safety net, never reached
        loop.exec();
        woken = token.isAborted();
    }));
    worker->start();
    QTRY_VERIFY(registered);

    QElapsedTimer timer;
    timer.start();
    token.abort();
    QTRY_VERIFY_WITH_TIMEOUT(worker->isFinished(), 5'000);
    QVERIFY(woken);
    QVERIFY2(timer.elapsed() < 2'000, qPrintable(QString::number(timer.elapsed())));
    worker->wait();
}

void tst_AbortToken::callbackRegisteredAfterAbortRunsOnceQueued()
{
    AbortToken token;
    token.abort();
    QObject context;
    int calls = 0;
    token.onAbort(&context, [&calls] { ++calls; });
    QCOMPARE(calls, 0); // never re-entrantly from onAbort()
    QTRY_COMPARE(calls, 1);
    token.abort();
    int sentinel = 0;
    token.onAbort(&context, [&sentinel] { ++sentinel; });
    QTRY_COMPARE(sentinel, 1);
    QCOMPARE(calls, 1);
}

void tst_AbortToken::callbacksRunOnceWhateverTheAborts()
{
    AbortToken token;
    QObject context;
    int first = 0;
    int second = 0;
    token.onAbort(&context, [&first] { ++first; });
    token.onAbort(&context, [&second] { ++second; });
    token.abort();
    token.abort();
    QTRY_COMPARE(second, 1);
    token.abort();
    int sentinel = 0;
    token.onAbort(&context, [&sentinel] { ++sentinel; });
    QTRY_COMPARE(sentinel, 1);
    QCOMPARE(first, 1);
    QCOMPARE(second, 1);
}

void tst_AbortToken::concurrentAbortsRunEachCallbackOnce()
{
    AbortToken token;
    QObject context;
    int calls = 0;
    token.onAbort(&context, [&calls] { ++calls; });

    std::atomic_bool go = false;
    std::vector<std::thread> threads;
    for (int i = 0; i < 8; ++i) {
        threads.emplace_back([token, &go]() mutable {
            while (!go) {
            }
            token.abort();
        });
    }
    go = true;
    for (std::thread &thread : threads)
        thread.join();

    int sentinel = 0;
    token.onAbort(&context, [&sentinel] { ++sentinel; });
    QTRY_COMPARE(sentinel, 1);
    QCOMPARE(calls, 1);
}

void tst_AbortToken::disconnectedCallbackNeverRuns()
{
    AbortToken token;
    QObject context;
    int disconnected = 0;
    int kept = 0;
    const int id = token.onAbort(&context, [&disconnected] { ++disconnected; });
    token.onAbort(&context, [&kept] { ++kept; });
    token.disconnect(id);
    token.disconnect(id); // twice, or an unknown id: harmless
    token.disconnect(-42);
    token.abort();
    QTRY_COMPARE(kept, 1);
    QCOMPARE(disconnected, 0);
}

void tst_AbortToken::callbackOfDeletedContextNeverRuns()
{
    AbortToken token;
    int calls = 0;
    {
        QObject gone;
        token.onAbort(&gone, [&calls] { ++calls; });
    }
    // Deleted after the abort was queued but before it was delivered.
    auto *late = new QObject;
    token.onAbort(late, [&calls] { ++calls; });
    QObject context;
    int sentinel = 0;
    token.onAbort(&context, [&sentinel] { ++sentinel; });
    token.abort();
    delete late;
    QTRY_COMPARE(sentinel, 1);
    QCOMPARE(calls, 0);
}

void tst_AbortToken::copiesShareState()
{
    AbortToken original;
    const AbortToken copy = original;
    AbortToken assigned;
    assigned = copy;
    QObject context;
    int calls = 0;
    copy.onAbort(&context, [&calls] { ++calls; });

    assigned.abort();
    QVERIFY(original.isAborted());
    QVERIFY(copy.isAborted());
    QTRY_COMPARE(calls, 1);

    const AbortToken unrelated;
    QVERIFY(!unrelated.isAborted());
}

AGENTDESK_GUILESS_TEST_MAIN(tst_AbortToken)

} // namespace tst_aborttoken

#include "tst_aborttoken.moc"
