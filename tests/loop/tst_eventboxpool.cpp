#include <loop/internal/eventboxpool.h>

#include <QTest>
#include <QThread>

#include <algorithm>
#include <memory>
#include <vector>

using namespace AgentCore;

class tst_EventBoxPool : public QObject
{
    Q_OBJECT

private slots:
    void aRecycledBoxCarriesNothingOfItsLastEvent()
    {
        EventBoxPool pool;
        auto first = pool.make(AgentEvent::Type::MessageEnd,
                               Message::makeUser(QStringLiteral("first")));
        first->toolResults.append(Message::makeUser(QStringLiteral("result")));
        first->toolName = QStringLiteral("Read");
        AgentEvent *const box = first.get();
        pool.recycle(std::move(first));

        const auto second = pool.make();
        QCOMPARE(second.get(), box); // the same memory, built anew
        QCOMPARE(second->type, AgentEvent::Type::AgentStart);
        QVERIFY(second->message.content.isEmpty());
        QVERIFY(second->toolResults.isEmpty());
        QVERIFY(second->toolName.isEmpty());

        const auto third = pool.make(AgentEvent::Type::TurnStart, Message());
        QVERIFY(third.get() != box); // no spare box left: a new one
        QCOMPARE(third->type, AgentEvent::Type::TurnStart);
    }

    void boxesRecycledOnAnotherThreadServeTheMaker()
    {
        EventBoxPool pool;
        std::vector<std::unique_ptr<AgentEvent>> made;
        for (int i = 0; i < 8; ++i)
            made.push_back(pool.make(AgentEvent::Type::MessageUpdate, StreamEvent()));
        std::vector<AgentEvent *> boxes;
        for (const auto &event : made)
            boxes.push_back(event.get());
        std::unique_ptr<QThread> consumer(QThread::create([&pool, &made] {
            for (auto &event : made)
                pool.recycle(std::move(event));
        }));
        consumer->start();
        QVERIFY(consumer->wait(5000));
        for (int i = 0; i < 8; ++i) {
            const auto event = pool.make();
            QVERIFY(std::find(boxes.begin(), boxes.end(), event.get()) != boxes.end());
            // Kept by its owner and deleted as any `new AgentEvent` (here by unique_ptr).
        }
    }

    void anEventKeptByItsOwnerIsAnOrdinaryAllocation()
    {
        std::unique_ptr<AgentEvent> kept;
        {
            EventBoxPool pool;
            kept = pool.make(AgentEvent::Type::MessageEnd, Message::makeUser(QStringLiteral("x")));
        }
        // The pool is gone; the event lives on and is freed by the default deleter.
        QCOMPARE(kept->message.text(), QStringLiteral("x"));
    }
};

QTEST_GUILESS_MAIN(tst_EventBoxPool)
#include "tst_eventboxpool.moc"
