// The Task card of the conversation (#37): a subagent's run shown live inside its card, folded
// by default (nothing of the child's text laid out), opened by a click or Enter, its child's
// tool cards drawn as in the main conversation, a grandchild nested in its parent's card, Esc
// in an open card asking to stop that subagent alone, its usage on its header, and a resumed
// session's transcripts in place. Events are built here as CodingSession::subagentEvent
// delivers them; tst_subagentwindow drives the same through the real session.
#include <conversation/conversationmodel.h>
#include <conversation/conversationview.h>
#include <conversation/taskcarditem.h>
#include <conversation/toolcarditem.h>
#include <testmain.h>

#include <QJsonObject>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

#include <memory>

using namespace AgentCore;
namespace tst_subagentcard {

using Ui::ConversationItem;
using Ui::ConversationView;
using Ui::TaskCardItem;
using Ui::ToolCardItem;

namespace {

AgentEvent messageEnd(const Message &message)
{
    AgentEvent event;
    event.type = AgentEvent::Type::MessageEnd;
    event.message = message;
    return event;
}

AgentEvent toolStep(AgentEvent::Type type,
                    const QString &id,
                    const QString &name,
                    const QJsonObject &arguments,
                    const ToolResult &result = {})
{
    AgentEvent event;
    event.type = type;
    event.toolCallId = id;
    event.toolName = name;
    event.arguments = arguments;
    event.result = result;
    event.isError = result.isError;
    return event;
}

Message reply(const QString &text, const QList<ContentBlock> &calls = {}, qint64 tokens = 0)
{
    Message message;
    message.role = Message::Role::Assistant;
    if (!text.isEmpty())
        message.content << ContentBlock::makeText(text);
    message.content << calls;
    message.stopReason = calls.isEmpty() ? StopReason::Stop : StopReason::ToolUse;
    message.provider = QStringLiteral("anthropic");
    message.model = QStringLiteral("claude-sonnet-4-5");
    message.usage.input = tokens;
    message.usage.output = tokens / 10;
    message.usage.cost = double(tokens) / 1e6;
    return message;
}

Message prompt(const QString &text)
{
    Message message;
    message.role = Message::Role::User;
    message.content << ContentBlock::makeText(text);
    return message;
}

Message toolResultMessage(const QString &id, const QString &name, const QString &text, bool error)
{
    Message message;
    message.role = Message::Role::ToolResult;
    message.toolCallId = id;
    message.toolName = name;
    message.content << ContentBlock::makeText(text);
    message.isError = error;
    return message;
}

QJsonObject taskArguments(const QString &description)
{
    return {{"description", description},
            {"prompt", "Find where the SSE stream is parsed and say which function does it."},
            {"subagent_type", "explore"}};
}

ToolResult textResult(const QString &text, bool error = false)
{
    ToolResult result;
    result.content << ContentBlock::makeText(text);
    result.isError = error;
    return result;
}

/// The events of a child that read \a file and answered, as its loop emits them.
QList<AgentEvent> childThatReads(const QString &readId, const QString &file, qint64 tokens)
{
    const ContentBlock read = ContentBlock::makeToolCall(readId,
                                                         QStringLiteral("Read"),
                                                         {{"file_path", file}});
    const ToolResult lines = textResult(QStringLiteral("1\tint parse(const char *line);"));
    return {messageEnd(prompt(QStringLiteral("Find where the SSE stream is parsed."))),
            messageEnd(reply(QStringLiteral("Reading the parser."), {read}, tokens)),
            toolStep(AgentEvent::Type::ToolExecutionStart,
                     readId,
                     QStringLiteral("Read"),
                     {{"file_path", file}}),
            toolStep(AgentEvent::Type::ToolExecutionEnd,
                     readId,
                     QStringLiteral("Read"),
                     {{"file_path", file}},
                     lines),
            messageEnd(toolResultMessage(readId, QStringLiteral("Read"), lines.text(), false)),
            messageEnd(
                reply(QStringLiteral("parse() in %1 parses the stream.").arg(file), {}, tokens))};
}

} // namespace

class tst_SubagentCard : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init()
    {
        m_view = std::make_unique<ConversationView>();
        m_view->resize(800, 600);
        m_view->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_view.get()));
    }
    void cleanup() { m_view.reset(); }

    void foldedThenOpenedShowsTheChildsToolCards();
    void enterOpensTheFocusedCard();
    void grandchildNestsInItsParentsCard();
    void escInAnOpenCardStopsThatChildOnly();
    void cardShowsWhatTheChildUsed();
    void resumedTranscriptsShowAsTheyWere();

private:
    void startTask(const QString &id, const QString &description)
    {
        const ContentBlock call = ContentBlock::makeToolCall(id,
                                                             QStringLiteral("Task"),
                                                             taskArguments(description));
        m_view->apply(messageEnd(reply(QStringLiteral("Delegating the search."), {call}, 1000)));
        m_view->apply(toolStep(AgentEvent::Type::ToolExecutionStart,
                               id,
                               QStringLiteral("Task"),
                               taskArguments(description)));
    }
    void child(const QStringList &path, const QList<AgentEvent> &events)
    {
        for (const AgentEvent &event : events) {
            SubagentEvent sub;
            sub.path = path;
            sub.agentType = QStringLiteral("explore");
            sub.description = QStringLiteral("Find the SSE parser");
            sub.event = event;
            m_view->applySubagent(sub);
        }
    }
    void endTask(const QString &id, const QString &text, bool error = false)
    {
        m_view->apply(toolStep(AgentEvent::Type::ToolExecutionEnd,
                               id,
                               QStringLiteral("Task"),
                               taskArguments(QStringLiteral("Find the SSE parser")),
                               textResult(text, error)));
    }
    /// The card's place in the viewport.
    QRect cardRect(const TaskCardItem *card)
    {
        m_view->flush();
        return m_view->itemRect(m_view->indexOf(card));
    }
    void clickHeader(const TaskCardItem *card)
    {
        const QRect rect = cardRect(card);
        QTest::mouseClick(m_view->viewport(),
                          Qt::LeftButton,
                          {},
                          rect.topLeft() + card->headerRect().center());
        m_view->flush();
    }
    static QList<const ToolCardItem *> childCards(const TaskCardItem *card)
    {
        QList<const ToolCardItem *> cards;
        for (int i = 0; i < card->child()->count(); ++i) {
            if (card->child()->at(i)->kind() == ConversationItem::Kind::ToolCard)
                cards << static_cast<const ToolCardItem *>(card->child()->at(i));
        }
        return cards;
    }
    static bool anyChildLaidOut(const TaskCardItem *card)
    {
        for (int i = 0; i < card->child()->count(); ++i) {
            if (card->child()->at(i)->hasLayout())
                return true;
        }
        return false;
    }

    std::unique_ptr<ConversationView> m_view;
};

void tst_SubagentCard::foldedThenOpenedShowsTheChildsToolCards()
{
    startTask(QStringLiteral("t1"), QStringLiteral("Find the SSE parser"));
    child({QStringLiteral("t1")},
          childThatReads(QStringLiteral("r1"), QStringLiteral("src/sse.cpp"), 2000));
    endTask(QStringLiteral("t1"), QStringLiteral("parse() in src/sse.cpp parses the stream."));
    TaskCardItem *card = m_view->task({QStringLiteral("t1")});
    QVERIFY(card);
    QCOMPARE(card->agentType(), QStringLiteral("explore"));
    QCOMPARE(card->progress(), TaskCardItem::Progress::Done);

    // Folded: one line says what it did; none of the child's items is laid out.
    QVERIFY(!card->isOpen());
    const int foldedHeight = cardRect(card).height();
    QVERIFY2(foldedHeight < 80, qPrintable(QString::number(foldedHeight)));
    QVERIFY(!anyChildLaidOut(card));
    QVERIFY2(card->activityText().contains(QStringLiteral("1 tool call")),
             qPrintable(card->activityText()));
    QCOMPARE(childCards(card).size(), 1);

    // One click opens it: the child's Read card is drawn (laid out) inside.
    clickHeader(card);
    QVERIFY(card->isOpen());
    QVERIFY(childCards(card).first()->hasLayout());
    QCOMPARE(childCards(card).first()->toolName(), QStringLiteral("Read"));
    QVERIFY(cardRect(card).height() > foldedHeight + 100);
    QVERIFY2(card->plainText().contains(QStringLiteral("Read src/sse.cpp")),
             qPrintable(card->plainText()));
    QVERIFY(
        card->plainText().contains(QStringLiteral("parse() in src/sse.cpp parses the stream.")));
    // A click inside the child's Read card reaches it (its output toggles like any card's).
    QVERIFY(m_view->viewport()->grab().width() > 0); // paints without trouble

    // Another click folds it again, and the child's layouts go.
    clickHeader(card);
    QVERIFY(!card->isOpen());
    QVERIFY(!anyChildLaidOut(card));
    QCOMPARE(cardRect(card).height(), foldedHeight);
}

void tst_SubagentCard::enterOpensTheFocusedCard()
{
    startTask(QStringLiteral("t1"), QStringLiteral("Find the SSE parser"));
    child({QStringLiteral("t1")},
          childThatReads(QStringLiteral("r1"), QStringLiteral("src/sse.cpp"), 2000));
    TaskCardItem *card = m_view->task({QStringLiteral("t1")});
    QVERIFY(card);
    m_view->setFocus();
    // Alt+Up picks the latest item the keys act on: the Task card.
    QTest::keyClick(m_view.get(), Qt::Key_Up, Qt::AltModifier);
    QCOMPARE(m_view->focusedTask(), QStringList{QStringLiteral("t1")});
    QTest::keyClick(m_view.get(), Qt::Key_Return);
    QVERIFY(card->isOpen());
    QTest::keyClick(m_view.get(), Qt::Key_Space);
    QVERIFY(!card->isOpen());
}

void tst_SubagentCard::grandchildNestsInItsParentsCard()
{
    startTask(QStringLiteral("t1"), QStringLiteral("Survey the repository"));
    const QJsonObject nestedArguments = taskArguments(QStringLiteral("Find the SSE parser"));
    const ContentBlock nestedCall = ContentBlock::makeToolCall(QStringLiteral("t2"),
                                                               QStringLiteral("Task"),
                                                               nestedArguments);
    child({QStringLiteral("t1")},
          {messageEnd(prompt(QStringLiteral("Survey the repository."))),
           messageEnd(reply(QStringLiteral("Delegating."), {nestedCall}, 500)),
           toolStep(AgentEvent::Type::ToolExecutionStart,
                    QStringLiteral("t2"),
                    QStringLiteral("Task"),
                    nestedArguments)});
    child({QStringLiteral("t1"), QStringLiteral("t2")},
          childThatReads(QStringLiteral("r9"), QStringLiteral("src/sse.cpp"), 3000));

    TaskCardItem *outer = m_view->task({QStringLiteral("t1")});
    TaskCardItem *inner = m_view->task({QStringLiteral("t1"), QStringLiteral("t2")});
    QVERIFY(outer && inner);
    QVERIFY(outer->child()->indexOf(inner) >= 0); // inside the child's conversation
    QCOMPARE(childCards(inner).size(), 1);
    QCOMPARE(childCards(inner).first()->toolName(), QStringLiteral("Read"));
    QCOMPARE(m_view->task({QStringLiteral("t2")}), nullptr); // not in the main conversation
    // The outer card counts what its own subagent used.
    QCOMPARE(outer->usage().input, 500 + 2 * 3000);
    QCOMPARE(inner->usage().input, 2 * 3000);

    // Opened both, the grandchild's Read card is laid out inside the nested card.
    clickHeader(outer);
    const QRect innerRect = outer->taskRect({QStringLiteral("t2")});
    QVERIFY(!innerRect.isEmpty());
    QTest::mouseClick(m_view->viewport(),
                      Qt::LeftButton,
                      {},
                      cardRect(outer).topLeft() + innerRect.topLeft()
                          + inner->headerRect().center());
    m_view->flush();
    QVERIFY(inner->isOpen());
    QVERIFY(childCards(inner).first()->hasLayout());
    QCOMPARE(m_view->focusedTask(), (QStringList{QStringLiteral("t1"), QStringLiteral("t2")}));

    // A hook that ran for the grandchild's Read is listed on its card, laid out again in place.
    const int before = cardRect(outer).height();
    m_view->addHookRun(QStringLiteral("r9"), QStringLiteral("PreToolUse ./check.sh: allowed"), {});
    QCOMPARE(childCards(inner).first()->hookRunCount(), 1);
    QVERIFY(cardRect(outer).height() > before);
}

void tst_SubagentCard::escInAnOpenCardStopsThatChildOnly()
{
    startTask(QStringLiteral("t1"), QStringLiteral("Find the SSE parser"));
    QList<AgentEvent> running = childThatReads(QStringLiteral("r1"),
                                               QStringLiteral("src/sse.cpp"),
                                               2000);
    running.removeLast(); // still working: a Grep runs
    running << toolStep(AgentEvent::Type::ToolExecutionStart,
                        QStringLiteral("g1"),
                        QStringLiteral("Grep"),
                        {{"pattern", "parse"}});
    child({QStringLiteral("t1")}, running);
    TaskCardItem *card = m_view->task({QStringLiteral("t1")});
    QVERIFY(card);
    QCOMPARE(card->progress(), TaskCardItem::Progress::Running);
    QSignalSpy stops(m_view.get(), &ConversationView::stopSubagentRequested);

    // Folded, Esc is not the card's: the page stops the whole task with it.
    clickHeader(card); // opens
    clickHeader(card); // folds
    QCOMPARE(m_view->focusedTask(), QStringList{QStringLiteral("t1")});
    QTest::keyClick(m_view.get(), Qt::Key_Escape);
    QCOMPARE(stops.size(), 0);

    // Open, Esc stops this subagent alone.
    clickHeader(card);
    QVERIFY(card->isOpen());
    QTest::keyClick(m_view.get(), Qt::Key_Escape);
    QCOMPARE(stops.size(), 1);
    QCOMPARE(stops.first().first().toStringList(), QStringList{QStringLiteral("t1")});
    // The core ends the call with an error saying the user stopped it: the card says stopped.
    endTask(QStringLiteral("t1"), QStringLiteral("The user stopped this subagent."), true);
    QCOMPARE(card->progress(), TaskCardItem::Progress::Stopped);
    QCOMPARE(card->progressText(0), QStringLiteral("stopped"));
    // What the child was running when it stopped never will: no spinner goes on inside.
    const auto grep = static_cast<const ToolCardItem *>(card->child()->card(QStringLiteral("g1")));
    QVERIFY(grep);
    QCOMPARE(grep->state(), ToolCardItem::State::NotRun);
    // Done, Esc no longer asks for anything.
    QTest::keyClick(m_view.get(), Qt::Key_Escape);
    QCOMPARE(stops.size(), 1);
}

void tst_SubagentCard::cardShowsWhatTheChildUsed()
{
    startTask(QStringLiteral("t1"), QStringLiteral("Find the SSE parser"));
    child({QStringLiteral("t1")},
          childThatReads(QStringLiteral("r1"), QStringLiteral("src/sse.cpp"), 20'000));
    TaskCardItem *card = m_view->task({QStringLiteral("t1")});
    QVERIFY(card);
    // Two replies of 20k input and 2k output each, at a known price.
    QCOMPARE(card->usage().totalTokens(), 44'000);
    QVERIFY2(card->usageText().contains(QStringLiteral("44k tokens")),
             qPrintable(card->usageText()));
    QVERIFY2(card->usageText().contains(QStringLiteral("$0.04")), qPrintable(card->usageText()));
}

void tst_SubagentCard::resumedTranscriptsShowAsTheyWere()
{
    const ContentBlock call = ContentBlock::makeToolCall(QStringLiteral("t1"),
                                                         QStringLiteral("Task"),
                                                         taskArguments(QStringLiteral(
                                                             "Find the SSE parser")));
    const ContentBlock nested = ContentBlock::makeToolCall(QStringLiteral("t2"),
                                                           QStringLiteral("Task"),
                                                           taskArguments(
                                                               QStringLiteral("Read it")));
    const ContentBlock read = ContentBlock::makeToolCall(QStringLiteral("r1"),
                                                         QStringLiteral("Read"),
                                                         {{"file_path", "src/sse.cpp"}});
    m_view->setMessages({prompt(QStringLiteral("Where is the SSE parser?")),
                         reply(QStringLiteral("Delegating."), {call}, 100),
                         toolResultMessage(QStringLiteral("t1"),
                                           QStringLiteral("Task"),
                                           QStringLiteral("parse() in src/sse.cpp."),
                                           false),
                         reply(QStringLiteral("It is parse() in src/sse.cpp."), {}, 100)});
    QHash<QString, QList<Message>> transcripts;
    transcripts.insert(QStringLiteral("t1"),
                       {prompt(QStringLiteral("Find the SSE parser.")),
                        reply(QString(), {nested}, 1000),
                        toolResultMessage(QStringLiteral("t2"),
                                          QStringLiteral("Task"),
                                          QStringLiteral("done"),
                                          false),
                        reply(QStringLiteral("parse() in src/sse.cpp."), {}, 1000)});
    transcripts.insert(QStringLiteral("t1/t2"),
                       {prompt(QStringLiteral("Read it.")),
                        reply(QString(), {read}, 500),
                        toolResultMessage(QStringLiteral("r1"),
                                          QStringLiteral("Read"),
                                          QStringLiteral("1\tint parse();"),
                                          false),
                        reply(QStringLiteral("Read."), {}, 500)});
    m_view->setSubagentTranscripts(transcripts);

    TaskCardItem *card = m_view->task({QStringLiteral("t1")});
    TaskCardItem *inner = m_view->task({QStringLiteral("t1"), QStringLiteral("t2")});
    QVERIFY(card && inner);
    QCOMPARE(card->progress(), TaskCardItem::Progress::Done);
    QCOMPARE(inner->progress(), TaskCardItem::Progress::Done);
    QCOMPARE(childCards(inner).size(), 1);
    QCOMPARE(childCards(inner).first()->state(), ToolCardItem::State::Succeeded);
    QCOMPARE(card->usage().input, 1000 + 1000 + 500 + 500);
    QVERIFY(!card->isOpen());
    clickHeader(card);
    QVERIFY2(card->plainText().contains(QStringLiteral("parse() in src/sse.cpp.")),
             qPrintable(card->plainText()));
}

AGENTDESK_TEST_MAIN(tst_SubagentCard)

} // namespace tst_subagentcard

#include "tst_subagentcard.moc"
