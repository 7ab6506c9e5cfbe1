// ScriptedStream: a finished message played as provider-like stream events, paced, abortable.
#include <ai/scriptedstream.h>
#include <testmain.h>

#include <QElapsedTimer>
#include <QTest>
#include <QThread>

#include <memory>

using namespace AgentCore;

namespace tst_scriptedstream {

namespace {

Message sample()
{
    Message message;
    message.role = Message::Role::Assistant;
    message.content = {ContentBlock::makeThinking(QStringLiteral("hmm")),
                       ContentBlock::makeText(QStringLiteral("Hello world")),
                       ContentBlock::makeToolCall(QStringLiteral("c1"),
                                                  QStringLiteral("Read"),
                                                  {{QStringLiteral("file_path"),
                                                    QStringLiteral("a.md")}})};
    message.stopReason = StopReason::ToolUse;
    return message;
}

QString describe(const StreamEvent &event)
{
    using T = StreamEvent::Type;
    switch (event.type) {
    case T::Start:
        return QStringLiteral("start");
    case T::TextStart:
        return QStringLiteral("text_start");
    case T::TextDelta:
        return QStringLiteral("text:") + event.delta;
    case T::TextEnd:
        return QStringLiteral("text_end");
    case T::ThinkingStart:
        return QStringLiteral("thinking_start");
    case T::ThinkingDelta:
        return QStringLiteral("thinking:") + event.delta;
    case T::ThinkingEnd:
        return QStringLiteral("thinking_end");
    case T::ToolCallStart:
        return QStringLiteral("call_start:") + event.toolName;
    case T::ToolCallDelta:
        return QStringLiteral("call:") + event.delta;
    case T::ToolCallEnd:
        return QStringLiteral("call_end:")
               + event.arguments.value(QLatin1String("file_path")).toString();
    case T::Retry:
        return QStringLiteral("retry");
    case T::Done:
        return QStringLiteral("done:") + stopReasonName(event.stopReason);
    case T::Error:
        return QStringLiteral("error:") + stopReasonName(event.stopReason);
    }
    return {};
}

} // namespace

class tst_ScriptedStream : public QObject
{
    Q_OBJECT

private slots:
    void streamsInPieces_data()
    {
        QTest::addColumn<int>("chunkSize");
        QTest::addColumn<QStringList>("events");
        QTest::newRow("8") << 8
                           << QStringList{"start",
                                          "thinking_start",
                                          "thinking:hmm",
                                          "thinking_end",
                                          "text_start",
                                          "text:Hello wo",
                                          "text:rld",
                                          "text_end",
                                          "call_start:Read",
                                          "call:{\"file_p",
                                          "call:ath\":\"a.",
                                          "call:md\"}",
                                          "call_end:a.md",
                                          "done:toolUse"};
        QTest::newRow("whole") << 100
                               << QStringList{"start",
                                              "thinking_start",
                                              "thinking:hmm",
                                              "thinking_end",
                                              "text_start",
                                              "text:Hello world",
                                              "text_end",
                                              "call_start:Read",
                                              "call:{\"file_path\":\"a.md\"}",
                                              "call_end:a.md",
                                              "done:toolUse"};
    }

    void streamsInPieces()
    {
        QFETCH(int, chunkSize);
        QFETCH(QStringList, events);
        QStringList seen;
        ScriptedStream stream({}, [&seen](const StreamEvent &e) { seen.append(describe(e)); });
        stream.setChunkSize(chunkSize);
        QCOMPARE(stream.play(sample()), sample());
        QCOMPARE(seen, events);
        QCOMPARE(stream.emittedEvents(), events.size());
    }

    void errorStopReasonEndsWithError()
    {
        Message failed = sample();
        failed.content = {ContentBlock::makeText(QStringLiteral("par"))};
        failed.stopReason = StopReason::ContextOverflow;
        failed.errorMessage = QStringLiteral("too long");
        QList<StreamEvent> seen;
        ScriptedStream stream({}, [&seen](const StreamEvent &e) { seen.append(e); });
        QCOMPARE(stream.play(failed), failed);
        QCOMPARE(seen.last().type, StreamEvent::Type::Error);
        QCOMPARE(seen.last().stopReason, StopReason::ContextOverflow);
        QCOMPARE(seen.last().errorMessage, QStringLiteral("too long"));
    }

    void pausesBetweenPieces()
    {
        ScriptedStream stream({}, {});
        stream.setChunkSize(4);
        stream.setChunkPauseMs(20);
        QElapsedTimer timer;
        timer.start();
        stream.play(sample()); // 1 + 3 + 4 pieces
        QVERIFY2(timer.elapsed() >= 8 * 20 - 10, qPrintable(QString::number(timer.elapsed())));
    }

    void alreadyAbortedStreamsNothing()
    {
        AbortToken abort;
        abort.abort();
        QStringList seen;
        ScriptedStream stream(abort, [&seen](const StreamEvent &e) { seen.append(describe(e)); });
        const Message result = stream.play(sample());
        QCOMPARE(result.stopReason, StopReason::Aborted);
        QVERIFY(result.content.isEmpty());
        QCOMPARE(seen, QStringList{"error:aborted"});
    }

    void abortEndsAPauseAtOnce()
    {
        // The token fires from another thread while the stream waits after its first piece.
        AbortToken abort;
        QStringList seen;
        std::unique_ptr<QThread> aborter(QThread::create([abort]() mutable {
            QThread::msleep(20);
            abort.abort();
        }));
        ScriptedStream stream(abort, [&](const StreamEvent &e) {
            seen.append(describe(e));
            if (e.type == StreamEvent::Type::TextDelta)
                aborter->start();
        });
        stream.setChunkSize(5);
        stream.setChunkPauseMs(60'000);
        stream.setAbortMessage(QStringLiteral("stopped"));
        QElapsedTimer timer;
        timer.start();
        Message message = sample();
        message.content.removeFirst(); // text first
        const Message result = stream.play(message);
        QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed())));
        QCOMPARE(result.stopReason, StopReason::Aborted);
        QCOMPARE(result.errorMessage, QStringLiteral("stopped"));
        QCOMPARE(result.content,
                 QList<ContentBlock>{ContentBlock::makeText(QStringLiteral("Hello"))});
        QCOMPARE(seen, (QStringList{"start", "text_start", "text:Hello", "error:aborted"}));
        QVERIFY(aborter->wait(5000));
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_ScriptedStream)

} // namespace tst_scriptedstream

#include "tst_scriptedstream.moc"
