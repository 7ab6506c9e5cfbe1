#include <ai/requestbuilder.h>
#include <loop/toolprotocol.h>
#include <testmain.h>

#include <toolprotocolcheck.h>

#include <QRandomGenerator>
#include <QTest>

using namespace AgentCore;
namespace tst_toolprotocol {

using TestSupport::toolProtocolProblem;
using namespace Qt::StringLiterals;

namespace {

Message user(const QString &text)
{
    Message message = Message::makeUser(text);
    message.timestamp = 1;
    return message;
}

Message assistant(const QStringList &callIds, const QString &text = {})
{
    Message message;
    message.role = Message::Role::Assistant;
    message.timestamp = 2;
    if (!text.isNull())
        message.content.append(ContentBlock::makeText(text));
    for (const QString &id : callIds)
        message.content.append(ContentBlock::makeToolCall(id, QStringLiteral("Read"), {}));
    message.stopReason = callIds.isEmpty() ? StopReason::Stop : StopReason::ToolUse;
    return message;
}

Message result(const QString &id, const QString &text = QStringLiteral("ok"))
{
    Message message = Message::makeToolResult(id, QStringLiteral("Read"), text, false);
    message.timestamp = 3;
    return message;
}

Message custom(const QString &text)
{
    Message message;
    message.role = Message::Role::Custom;
    message.customType = QStringLiteral("reminder");
    message.content.append(ContentBlock::makeText(text));
    message.timestamp = 4;
    return message;
}

Message synthetic(const Message &caller, const QString &id)
{
    return missingToolResult(caller, ContentBlock::makeToolCall(id, QStringLiteral("Read"), {}));
}

// A compact picture of a history for readable failures: u, a(ids), r(id), c, e (empty).
QString shape(const QList<Message> &messages)
{
    QStringList parts;
    for (const Message &m : messages) {
        switch (m.role) {
        case Message::Role::User:
            parts << QStringLiteral("u");
            break;
        case Message::Role::Custom:
            parts << QStringLiteral("c");
            break;
        case Message::Role::ToolResult:
            parts << QStringLiteral("r(%1%2)").arg(m.toolCallId, m.isError ? u"!"_s : QString());
            break;
        case Message::Role::Assistant: {
            QStringList ids;
            for (const ContentBlock &call : m.toolCalls())
                ids << call.id;
            parts << (ids.isEmpty() && m.text().trimmed().isEmpty()
                          ? QStringLiteral("e")
                          : QStringLiteral("a(%1)").arg(ids.join(u',')));
            break;
        }
        }
    }
    return parts.join(u' ');
}

// What a model reads of a history, without the ids (the wire makes reused ids unique): each
// message's role and text, calls counted, results with their error flag.
QString readout(const QList<Message> &messages)
{
    QStringList parts;
    for (const Message &m : messages) {
        if (m.isToolResult())
            parts << QStringLiteral("r%1[%2]").arg(m.isError ? u"!"_s : QString(), m.text());
        else if (m.isAssistant())
            parts << QStringLiteral("a%1[%2]").arg(m.toolCalls().size()).arg(m.text());
        else
            parts << QStringLiteral("u[%1]").arg(m.text());
    }
    return parts.join(u' ');
}

// Random histories: a valid conversation, then the damage real histories suffer.
class HistoryGenerator
{
public:
    explicit HistoryGenerator(quint32 seed)
        : m_rng(seed)
    {}

    QList<Message> next()
    {
        QList<Message> history;
        const int turns = int(m_rng.bounded(1, 7));
        for (int t = 0; t < turns; ++t) {
            history.append(user(QStringLiteral("task %1").arg(t)));
            const int calls = int(m_rng.bounded(0, 4));
            QStringList ids;
            for (int c = 0; c < calls; ++c)
                ids << callId();
            history.append(
                assistant(ids, m_rng.bounded(2) ? QStringLiteral("thinking aloud") : QString()));
            for (const QString &id : std::as_const(ids))
                history.append(result(id, QStringLiteral("result %1").arg(m_rng.generate())));
            if (calls > 0 && m_rng.bounded(2))
                history.append(assistant({}, QStringLiteral("done")));
        }
        const int damage = int(m_rng.bounded(0, 7));
        for (int d = 0; d < damage; ++d)
            damageOnce(history);
        return history;
    }

private:
    QString callId()
    {
        // A small pool makes ids repeat across turns, like local servers that count from 0.
        if (m_rng.bounded(3) == 0)
            return QStringLiteral("call_%1").arg(m_rng.bounded(3));
        return QStringLiteral("id%1").arg(++m_counter);
    }

    qsizetype position(const QList<Message> &history, int extra = 0)
    {
        return qsizetype(m_rng.bounded(int(history.size()) + extra));
    }

    Message emptyAssistant()
    {
        Message message = assistant({});
        switch (m_rng.bounded(3)) {
        case 0:
            break; // no content at all, like an error before the first byte
        case 1:
            message.content.append(ContentBlock::makeText(QStringLiteral(" \n")));
            break;
        default:
            message.content.append(ContentBlock::makeThinking(QStringLiteral("hmm")));
        }
        message.stopReason = m_rng.bounded(2) ? StopReason::Aborted : StopReason::Error;
        return message;
    }

    void damageOnce(QList<Message> &history)
    {
        if (history.isEmpty()) {
            history.append(user(QStringLiteral("again")));
            return;
        }
        switch (m_rng.bounded(8)) {
        case 0: // dropped (a sliding window, a lost line)
            history.removeAt(position(history));
            break;
        case 1: { // reordered
            history.swapItemsAt(position(history), position(history));
            break;
        }
        case 2: // duplicated
            history.insert(position(history, 1), history.at(position(history)));
            break;
        case 3: // a reminder inserted anywhere, e.g. between a call and its result
            history.insert(position(history, 1), custom(QStringLiteral("reminder")));
            break;
        case 4:
            history.insert(position(history, 1), user(QStringLiteral("steer")));
            break;
        case 5:
            history.insert(position(history, 1), emptyAssistant());
            break;
        case 6: // an orphan result
            history.insert(position(history, 1), result(callId()));
            break;
        default: { // a result moved anywhere
            const qsizetype from = position(history);
            const Message moved = history.takeAt(from);
            history.insert(position(history, 1), moved);
        }
        }
    }

    QRandomGenerator m_rng;
    int m_counter = 0;
};

QList<Message> withoutResults(const QList<Message> &messages, bool dropEmptyAssistants)
{
    QList<Message> kept;
    for (const Message &m : messages) {
        if (m.isToolResult() || (dropEmptyAssistants && isEmptyAssistantMessage(m)))
            continue;
        kept.append(m);
    }
    return kept;
}

} // namespace

class tst_ToolProtocol : public QObject
{
    Q_OBJECT

private slots:
    void projection_data()
    {
        QTest::addColumn<QList<Message>>("input");
        QTest::addColumn<QList<Message>>("expected");

        const Message a12 = assistant({u"1"_s, u"2"_s});
        const Message a1 = assistant({u"1"_s});
        const Message aText = assistant({}, u"all done"_s);
        Message emptyError = assistant({});
        emptyError.stopReason = StopReason::Error;
        Message blank = assistant({}, u"  \n\t"_s);
        Message thinkingOnly = assistant({});
        thinkingOnly.content.append(ContentBlock::makeThinking(u"partial thought"_s));
        thinkingOnly.stopReason = StopReason::Aborted;

        QTest::newRow("valid history unchanged")
            << QList{user(u"q"_s), a12, result(u"1"_s), result(u"2"_s), aText}
            << QList{user(u"q"_s), a12, result(u"1"_s), result(u"2"_s), aText};
        QTest::newRow("empty assistant after error dropped")
            << QList{user(u"q"_s), emptyError, user(u"again"_s)}
            << QList{user(u"q"_s), user(u"again"_s)};
        QTest::newRow("blank and thinking-only assistants dropped")
            << QList{user(u"q"_s), blank, thinkingOnly, aText} << QList{user(u"q"_s), aText};
        QTest::newRow("orphan result dropped (window cut its call)")
            << QList{result(u"0"_s), user(u"q"_s), aText} << QList{user(u"q"_s), aText};
        QTest::newRow("results put in call order") << QList{a12, result(u"2"_s), result(u"1"_s)}
                                                   << QList{a12, result(u"1"_s), result(u"2"_s)};
        QTest::newRow("reminder between call and result moves after the results")
            << QList{a12, custom(u"r"_s), result(u"1"_s), user(u"u"_s), result(u"2"_s)}
            << QList{a12, result(u"1"_s), result(u"2"_s), custom(u"r"_s), user(u"u"_s)};
        QTest::newRow("missing result gets a synthetic error")
            << QList{a12, result(u"2"_s), aText}
            << QList{a12, synthetic(a12, u"1"_s), result(u"2"_s), aText};
        QTest::newRow("call at the end of history answered")
            << QList{user(u"q"_s), a1} << QList{user(u"q"_s), a1, synthetic(a1, u"1"_s)};
        QTest::newRow("duplicate result keeps the first")
            << QList{a1, result(u"1"_s, u"first"_s), result(u"1"_s, u"second"_s)}
            << QList{a1, result(u"1"_s, u"first"_s)};
        QTest::newRow("result before its call is an orphan")
            << QList{result(u"1"_s), a1} << QList{a1, synthetic(a1, u"1"_s)};
        QTest::newRow("reused ids pair with the nearest call before them")
            << QList{a1, result(u"1"_s, u"turn 1"_s), a1, result(u"1"_s, u"turn 2"_s)}
            << QList{a1, result(u"1"_s, u"turn 1"_s), a1, result(u"1"_s, u"turn 2"_s)};
        QTest::newRow("reused id: a late result belongs to the later call")
            << QList{a1, a1, result(u"1"_s, u"late"_s)}
            << QList{a1, synthetic(a1, u"1"_s), a1, result(u"1"_s, u"late"_s)};
        const Message twice = assistant({u"x"_s, u"x"_s});
        QTest::newRow("same id twice in one message takes results in turn")
            << QList{twice, result(u"x"_s, u"a"_s), result(u"x"_s, u"b"_s)}
            << QList{twice, result(u"x"_s, u"a"_s), result(u"x"_s, u"b"_s)};
        QTest::newRow("empty history") << QList<Message>{} << QList<Message>{};
    }

    void projection()
    {
        QFETCH(QList<Message>, input);
        QFETCH(QList<Message>, expected);
        const QList<Message> projected = projectToolCallProtocol(input);
        QCOMPARE(shape(projected), shape(expected));
        QCOMPARE(projected, expected);
        QCOMPARE(toolProtocolProblem(projected), QString());
    }

    void syntheticResultIsAnErrorTheModelCanRead()
    {
        const Message caller = assistant({u"c1"_s});
        const QList<Message> projected = projectToolCallProtocol({caller});
        QCOMPARE(projected.size(), 2);
        const Message &added = projected.at(1);
        QVERIFY(added.isToolResult());
        QVERIFY(added.isError);
        QCOMPARE(added.toolCallId, u"c1"_s);
        QCOMPARE(added.toolName, u"Read"_s);
        QVERIFY(added.text().contains(u"No result"_s));
    }

    // One pairing for the loop's projection and for the wire builders (wireHistory), which get
    // histories the loop never projected (an extension's rewrite, a hand-built context): the
    // same placement and the same text for the model either way.
    void projectionAndWireHistoryPairAlike_data()
    {
        QTest::addColumn<QList<Message>>("input");
        const Message a12 = assistant({u"1"_s, u"2"_s});
        const Message a1 = assistant({u"1"_s});
        QTest::newRow("unpaired call")
            << QList{user(u"q"_s), a12, result(u"2"_s), assistant({}, u"done"_s)};
        QTest::newRow("orphan result")
            << QList{result(u"0"_s, u"orphan"_s), user(u"q"_s), a1, result(u"1"_s)};
        QTest::newRow("result after a later message")
            << QList{a12, result(u"2"_s, u"two"_s), user(u"steer"_s), result(u"1"_s, u"one"_s)};
        QTest::newRow("reused id: a late result belongs to the later call")
            << QList{user(u"q"_s), a1, a1, result(u"1"_s, u"late"_s)};
    }

    void projectionAndWireHistoryPairAlike()
    {
        QFETCH(QList<Message>, input);
        const QList<Message> projected = projectToolCallProtocol(input);
        QCOMPARE(toolProtocolProblem(projected), QString());
        const QList<Message> wire = wireHistory(input);
        QCOMPARE(readout(wire), readout(projected));
        QCOMPARE(toolProtocolProblem(wire), QString());
    }

    void checkerRejectsBrokenHistories_data()
    {
        QTest::addColumn<QList<Message>>("history");
        const Message a12 = assistant({u"1"_s, u"2"_s});
        QTest::newRow("orphan") << QList{user(u"q"_s), result(u"1"_s)};
        QTest::newRow("missing") << QList{a12, result(u"1"_s)};
        QTest::newRow("order") << QList{a12, result(u"2"_s), result(u"1"_s)};
        QTest::newRow("separated") << QList{a12, custom(u"r"_s), result(u"1"_s), result(u"2"_s)};
        QTest::newRow("duplicate") << QList{a12, result(u"1"_s), result(u"2"_s), result(u"2"_s)};
        QTest::newRow("empty assistant") << QList{user(u"q"_s), assistant({})};
    }

    // The property test below relies on the checker: it must catch every kind of breakage.
    void checkerRejectsBrokenHistories()
    {
        QFETCH(QList<Message>, history);
        QVERIFY(!toolProtocolProblem(history).isEmpty());
    }

    void randomHistories_data()
    {
        QTest::addColumn<quint32>("seed");
        for (const quint32 seed : {1u, 42u, 2024u, 777777u})
            QTest::addRow("seed %u", seed) << seed;
    }

    void randomHistories()
    {
        QFETCH(quint32, seed);
        HistoryGenerator generator(seed);
        int damagedInputs = 0;
        for (int round = 0; round < 2500; ++round) {
            const QList<Message> input = generator.next();
            const QList<Message> projected = projectToolCallProtocol(input);
            const QString problem = toolProtocolProblem(projected);
            if (!problem.isEmpty())
                QFAIL(qPrintable(QStringLiteral("round %1: %2\n  in:  %3\n  out: %4")
                                     .arg(round)
                                     .arg(problem, shape(input), shape(projected))));
            QCOMPARE(projectToolCallProtocol(projected), projected); // idempotent
            // The wire builders pair a raw history as the loop's projection does.
            const QList<Message> wire = wireHistory(input);
            const QList<Message> wireOfProjected = wireHistory(projected);
            if (wire != wireOfProjected)
                QFAIL(qPrintable(QStringLiteral("round %1: the wire pairs differently\n  in:   %2\n"
                                                "  wire: %3\n  loop: %4")
                                     .arg(round)
                                     .arg(shape(input), readout(wire), readout(wireOfProjected))));
            // Nothing but results is invented or reordered; only empty assistants vanish.
            QCOMPARE(withoutResults(projected, false), withoutResults(input, true));
            if (toolProtocolProblem(input).isEmpty())
                QCOMPARE(projected, input);
            else
                ++damagedInputs;
        }
        QVERIFY2(damagedInputs > 1000, "the generator must produce broken histories");
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_ToolProtocol)

} // namespace tst_toolprotocol

#include "tst_toolprotocol.moc"
