// Every tool call of a conversation gets an id of its own, whatever the provider numbered it:
// while it streams, when its message ends, and in a history read back from an older file.
#include <loop/toolcallids.h>
#include <loop/toolprotocol.h>
#include <testmain.h>

#include <toolprotocolcheck.h>

#include <QTest>

using namespace AgentCore;
namespace tst_toolcallids {

using TestSupport::toolProtocolProblem;
using namespace Qt::StringLiterals;

namespace {

Message assistant(const QStringList &callIds)
{
    Message message;
    message.role = Message::Role::Assistant;
    message.content.append(ContentBlock::makeText(u"Looking."_s));
    for (const QString &id : callIds)
        message.content.append(ContentBlock::makeToolCall(id, u"Read"_s, {}));
    message.stopReason = StopReason::ToolUse;
    return message;
}

Message result(const QString &id, const QString &text)
{
    return Message::makeToolResult(id, u"Read"_s, text, false);
}

/// "id:result text" of each call in order, its result found by id alone.
QStringList pairs(const QList<Message> &history)
{
    QStringList pairs;
    for (const Message &message : history) {
        for (const ContentBlock &call : message.toolCalls()) {
            QString text = u"(none)"_s;
            for (const Message &other : history) {
                if (other.isToolResult() && other.toolCallId == call.id)
                    text = other.text();
            }
            pairs << call.id + u':' + text;
        }
    }
    return pairs;
}

} // namespace

class tst_ToolCallIds : public QObject
{
    Q_OBJECT

private slots:
    void madeUnique_data()
    {
        QTest::addColumn<QList<Message>>("history");
        QTest::addColumn<QStringList>("expected");

        QTest::newRow("numbered per reply")
            << QList<Message>{Message::makeUser(u"go"_s),
                              assistant({u"call_0"_s, u"call_1"_s}),
                              result(u"call_0"_s, u"a"_s),
                              result(u"call_1"_s, u"b"_s),
                              assistant({u"call_0"_s}),
                              result(u"call_0"_s, u"c"_s)}
            << QStringList{u"call_0:a"_s, u"call_1:b"_s, u"call_0_2:c"_s};
        QTest::newRow("result after a steering message")
            << QList<Message>{assistant({u"call_0"_s}),
                              result(u"call_0"_s, u"a"_s),
                              assistant({u"call_0"_s}),
                              Message::makeUser(u"also the docs"_s),
                              result(u"call_0"_s, u"b"_s)}
            << QStringList{u"call_0:a"_s, u"call_0_2:b"_s};
        QTest::newRow("a provider id that looks renamed")
            << QList<Message>{assistant({u"call_0"_s}),
                              result(u"call_0"_s, u"a"_s),
                              assistant({u"call_0"_s}),
                              result(u"call_0"_s, u"b"_s),
                              assistant({u"call_0_2"_s}),
                              result(u"call_0_2"_s, u"c"_s)}
            << QStringList{u"call_0:a"_s, u"call_0_2:b"_s, u"call_0_2_2:c"_s};
        QTest::newRow("no ids at all") << QList<Message>{assistant({QString(), QString()}),
                                                         result(QString(), u"a"_s),
                                                         result(QString(), u"b"_s)}
                                       << QStringList{u"call_1:a"_s, u"call_2:b"_s};
        QTest::newRow("unique ids stay") << QList<Message>{assistant({u"toolu_1"_s}),
                                                           result(u"toolu_1"_s, u"a"_s),
                                                           assistant({u"toolu_2"_s}),
                                                           result(u"toolu_2"_s, u"b"_s)}
                                         << QStringList{u"toolu_1:a"_s, u"toolu_2:b"_s};
    }

    void madeUnique()
    {
        QFETCH(QList<Message>, history);
        QFETCH(QStringList, expected);
        const QList<Message> unique = ToolCallIds::madeUnique(history);
        QCOMPARE(pairs(unique), expected);
        QCOMPARE(ToolCallIds::madeUnique(unique), unique); // read back again: the same
        QCOMPARE(toolProtocolProblem(projectToolCallProtocol(unique)), QString());
        for (qsizetype i = 0; i < unique.size(); ++i) {
            const QList<ContentBlock> before = history.at(i).toolCalls();
            const QList<ContentBlock> after = unique.at(i).toolCalls();
            for (qsizetype k = 0; k < after.size(); ++k) {
                const bool renamed = after.at(k).id != before.at(k).id;
                QCOMPARE(after.at(k).providerId, renamed ? before.at(k).id : QString());
            }
        }
    }

    // The loop names a call while it streams; its finished message gets the same id.
    void streamedIdsAreTheFinishedMessagesIds()
    {
        ToolCallIds ids({assistant({u"call_0"_s}), result(u"call_0"_s, u"a"_s)});
        ids.startMessage();
        QCOMPARE(ids.streamed(1, QString()), QString()); // no id yet: nothing to show
        QCOMPARE(ids.streamed(1, u"call_0"_s), u"call_0_2"_s);
        QCOMPARE(ids.streamed(1, u"call_0"_s), u"call_0_2"_s);
        QCOMPARE(ids.streamed(2, u"call_1"_s), u"call_1"_s);
        Message message = assistant({u"call_0"_s, u"call_1"_s, u"call_1"_s});
        ids.assign(message);
        const QList<ContentBlock> calls = message.toolCalls();
        QCOMPARE(calls.at(0).id, u"call_0_2"_s);
        QCOMPARE(calls.at(1).id, u"call_1"_s);
        QCOMPARE(calls.at(2).id, u"call_1_2"_s); // a repeat within one message, never streamed
        QCOMPARE(calls.at(1).providerId, QString());
        QCOMPARE(calls.at(2).providerId, u"call_1"_s);

        // The next reply numbers from call_0 again.
        ids.startMessage();
        QCOMPARE(ids.streamed(1, u"call_0"_s), u"call_0_3"_s);
    }

    // An attempt that was withdrawn (protocol-violation retry) leaves its ids free.
    void aWithdrawnAttemptTakesNoId()
    {
        ToolCallIds ids;
        ids.startMessage();
        QCOMPARE(ids.streamed(1, u"call_0"_s), u"call_0"_s);
        ids.startMessage();
        QCOMPARE(ids.streamed(1, u"call_0"_s), u"call_0"_s);
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_ToolCallIds)

} // namespace tst_toolcallids

#include "tst_toolcallids.moc"
