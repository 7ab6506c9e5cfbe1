#include <loop/internal/toolrunner.h>
#include <testmain.h>

#include <cputime.h>

#include <QElapsedTimer>
#include <QSemaphore>
#include <QTest>
#include <QThread>

#include <atomic>
#include <memory>

using namespace AgentCore;

namespace tst_toolrunner {

using TestSupport::processCpuMs;

class tst_ToolRunner : public QObject
{
    Q_OBJECT

private slots:
    void runsEveryJobOnAnotherThread()
    {
        ToolRunner runner;
        QSemaphore done;
        std::atomic<int> onCaller = 0;
        const auto caller = QThread::currentThread();
        for (int i = 0; i < 100; ++i) {
            runner.start([&] {
                if (QThread::currentThread() == caller)
                    ++onCaller;
                done.release();
            });
        }
        QVERIFY(done.tryAcquire(100, 5000));
        QCOMPARE(onCaller.load(), 0);
    }

    void reusesAWarmThreadForJobsOneAfterAnother()
    {
        ToolRunner runner;
        for (int i = 0; i < 50; ++i) {
            QSemaphore done;
            runner.start([] {}, [&done] { done.release(); });
            QVERIFY(done.tryAcquire(1, 5000));
        }
        QCOMPARE(runner.threadCount(), 1);
    }

    void anIdleThreadSpinsOnlyBrieflyThenSleeps()
    {
        // After its job the thread spins for the next one, bounded by handOffSpinBound (50 µs):
        // over the next 300 ms without a job the process (this thread sleeps) uses next to no
        // CPU. An unbounded spin would use all of it.
        ToolRunner runner;
        QSemaphore done;
        runner.start([] {}, [&done] { done.release(); });
        QVERIFY(done.tryAcquire(1, 5000));
        const qint64 before = processCpuMs();
        QThread::msleep(300);
        QVERIFY2(processCpuMs() - before < 100,
                 qPrintable(QStringLiteral("%1 ms of CPU").arg(processCpuMs() - before)));
        // And it still takes the next job, from its sleep.
        runner.start([] {}, [&done] { done.release(); });
        QVERIFY(done.tryAcquire(1, 5000));
        QCOMPARE(runner.threadCount(), 1);
    }

    void runsABatchConcurrentlyWithoutALimit()
    {
        // Every job waits until all of them run: a pool with fewer threads than jobs would
        // deadlock here.
        constexpr int jobs = 32;
        ToolRunner runner;
        QSemaphore started;
        QSemaphore release;
        QSemaphore finished;
        for (int i = 0; i < jobs; ++i) {
            runner.start([&] {
                started.release();
                release.acquire();
                finished.release();
            });
        }
        QVERIFY(started.tryAcquire(jobs, 10000));
        release.release(jobs);
        QVERIFY(finished.tryAcquire(jobs, 10000));
        QCOMPARE(runner.threadCount(), jobs);
    }

    void runsAJobObjectThenItsFinishedOnTheSameThreadAndDeletesIt()
    {
        struct Record
        {
            QThread *run = nullptr;
            QThread *finished = nullptr;
            bool finishedAfterRun = false;
            QSemaphore deleted;
        };
        class RecordingJob final : public ToolRunner::Job
        {
        public:
            explicit RecordingJob(Record &record)
                : m_record(record)
            {}
            ~RecordingJob() override { m_record.deleted.release(); }
            void run() override { m_record.run = QThread::currentThread(); }
            void finished() override
            {
                m_record.finishedAfterRun = m_record.run != nullptr;
                m_record.finished = QThread::currentThread();
            }

        private:
            Record &m_record;
        };
        ToolRunner runner;
        Record record;
        runner.start(std::make_unique<RecordingJob>(record));
        QVERIFY(record.deleted.tryAcquire(1, 5000));
        QVERIFY(record.finishedAfterRun);
        QVERIFY(record.run != QThread::currentThread());
        QCOMPARE(record.finished, record.run);
    }

    void aHangingJobNeverHoldsUpTheNext()
    {
        ToolRunner runner;
        auto release = std::make_shared<QSemaphore>();
        runner.start([release] { release->acquire(); });
        QSemaphore done;
        runner.start([&done] { done.release(); });
        QVERIFY(done.tryAcquire(1, 5000));
        release->release();
    }

    void destructionDoesNotWaitForARunningJob()
    {
        auto release = std::make_shared<QSemaphore>();
        auto finished = std::make_shared<QSemaphore>();
        QElapsedTimer clock;
        {
            ToolRunner runner;
            QSemaphore started;
            runner.start([release, finished, &started] {
                started.release();
                release->acquire();
                finished->release();
            });
            QVERIFY(started.tryAcquire(1, 5000));
            clock.start();
        }
        QVERIFY(clock.elapsed() < 100);
        // The abandoned job still finishes normally, after its runner is gone.
        release->release();
        QVERIFY(finished->tryAcquire(1, 5000));
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_ToolRunner)

} // namespace tst_toolrunner

#include "tst_toolrunner.moc"
