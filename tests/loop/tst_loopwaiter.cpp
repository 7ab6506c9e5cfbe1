#include <loop/internal/handoffspin.h>
#include <loop/internal/loopwaiter.h>
#include <testmain.h>

#include <cputime.h>

#include <QElapsedTimer>
#include <QTest>

#include <thread>

using namespace AgentCore;

namespace tst_loopwaiter {

using TestSupport::threadCpuMs;

class tst_LoopWaiter : public QObject
{
    Q_OBJECT

private slots:
    void theSpinEndsAtItsBoundWhateverItWaitsFor()
    {
        int looks = 0;
        QElapsedTimer clock;
        clock.start();
        QVERIFY(!spinForHandOff([&looks] {
            ++looks;
            return false;
        }));
        QVERIFY(clock.elapsed() < 50);
        QVERIFY(looks > 1 || !handOffSpinHelps()); // on one CPU it looks once and gives up
        QVERIFY(spinForHandOff([] { return true; }));
    }

    void aWakeBeforeTheWaitIsNeverLost()
    {
        AbortToken abort;
        LoopWaiter waiter(abort);
        waiter.wake();
        QElapsedTimer clock;
        clock.start();
        waiter.wait();
        QVERIFY(clock.elapsed() < 100);
    }

    void spinsOnlyBrieflyThenSleepsUntilWoken()
    {
        // wait() spins for the wake-up at most handOffSpinBound (50 µs), then sleeps: a wake
        // that comes 300 ms later costs this thread next to no CPU. An unbounded spin would
        // cost all 300 ms.
        AbortToken abort;
        LoopWaiter waiter(abort);
        std::thread waker([&waiter] {
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
            waiter.wake();
        });
        QElapsedTimer clock;
        clock.start();
        const qint64 before = threadCpuMs();
        waiter.wait();
        const qint64 cpu = threadCpuMs() - before;
        waker.join();
        QVERIFY(clock.elapsed() >= 250);
        QVERIFY2(cpu < 100, qPrintable(QStringLiteral("%1 ms of CPU").arg(cpu)));
    }

    void anAbortEndsTheWaitWithoutAWake()
    {
        AbortToken abort;
        LoopWaiter waiter(abort);
        std::thread aborter([abort]() mutable {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            abort.abort();
        });
        QElapsedTimer clock;
        clock.start();
        const qint64 before = threadCpuMs();
        waiter.wait();
        const qint64 cpu = threadCpuMs() - before;
        aborter.join();
        QVERIFY(clock.elapsed() < 5000);
        QVERIFY2(cpu < 50, qPrintable(QStringLiteral("%1 ms of CPU").arg(cpu)));
        waiter.wait(); // aborted: returns at once, every time
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_LoopWaiter)

} // namespace tst_loopwaiter

#include "tst_loopwaiter.moc"
