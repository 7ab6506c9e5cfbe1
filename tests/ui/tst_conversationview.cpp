#include <conversation/conversationstyle.h>
#include <conversation/conversationview.h>
#include <conversation/messageitem.h>
#include <conversation/noteitem.h>
#include <conversation/renderedpiece.h>
#include <conversation/renderedtext.h>
#include <conversation/toolcarditem.h>
#include <testmain.h>

#include <QAccessible>
#include <QDir>
#include <QElapsedTimer>
#include <QImage>
#include <QJsonObject>
#include <QScrollBar>
#include <QStandardPaths>
#include <QTest>
#include <QToolButton>

using namespace AgentCore;
namespace tst_conversationview {

using Ui::ConversationItem;
using Ui::ConversationView;
using Ui::MessageItem;
using Ui::ToolCardItem;

namespace {

class PaintCounter final : public QObject
{
public:
    int count = 0;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Paint)
            ++count;
        return QObject::eventFilter(watched, event);
    }
};

AgentEvent messageEvent(AgentEvent::Type type, const Message &message)
{
    AgentEvent event;
    event.type = type;
    event.message = message;
    return event;
}

Message assistantMessage(const QString &text, const QString &thinking = {})
{
    Message message;
    message.role = Message::Role::Assistant;
    if (!thinking.isEmpty())
        message.content << ContentBlock::makeThinking(thinking);
    if (!text.isEmpty())
        message.content << ContentBlock::makeText(text);
    return message;
}

AgentEvent startAssistant()
{
    Message draft;
    draft.role = Message::Role::Assistant;
    return messageEvent(AgentEvent::Type::MessageStart, draft);
}

AgentEvent streamEvent(StreamEvent::Type type, const QString &delta, int contentIndex = 0)
{
    AgentEvent event;
    event.type = AgentEvent::Type::MessageUpdate;
    event.streamEvent.type = type;
    event.streamEvent.delta = delta;
    event.streamEvent.contentIndex = contentIndex;
    return event;
}

AgentEvent toolEvent(AgentEvent::Type type,
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

QList<const ConversationItem *> itemsOfKind(const ConversationView &view,
                                            ConversationItem::Kind kind)
{
    QList<const ConversationItem *> items;
    for (int i = 0; i < view.itemCount(); ++i) {
        if (view.itemAt(i)->kind() == kind)
            items << view.itemAt(i);
    }
    return items;
}

const MessageItem *lastAssistant(const ConversationView &view)
{
    const auto items = itemsOfKind(view, ConversationItem::Kind::Assistant);
    return items.isEmpty() ? nullptr : static_cast<const MessageItem *>(items.last());
}

const ToolCardItem *onlyCard(const ConversationView &view)
{
    const auto items = itemsOfKind(view, ConversationItem::Kind::ToolCard);
    return items.size() == 1 ? static_cast<const ToolCardItem *>(items.first()) : nullptr;
}

QString numberedLines(int count, const QString &prefix = QStringLiteral("line"))
{
    QStringList lines;
    for (int i = 1; i <= count; ++i)
        lines << prefix + QString::number(i);
    return lines.join(QLatin1Char('\n'));
}

QList<Message> longHistory(int messages, int bigOutputs)
{
    const QString bigOutput = numberedLines(2000, QStringLiteral("output line with some text "))
                                  .left(100 * 1024);
    QList<Message> history;
    int outputs = 0;
    for (int i = 0; history.size() < messages; ++i) {
        history << Message::makeUser(QStringLiteral("Question %1: why does it fail?").arg(i));
        Message answer = assistantMessage(
            QStringLiteral("Answer %1 with **markdown** and `code`.\n\n- one\n- two").arg(i));
        if (outputs < bigOutputs) {
            const QString id = QStringLiteral("call%1").arg(i);
            answer.content << ContentBlock::makeToolCall(id,
                                                         QStringLiteral("Bash"),
                                                         {{QStringLiteral("command"),
                                                           QStringLiteral("make")}});
            history << answer
                    << Message::makeToolResult(id, QStringLiteral("Bash"), bigOutput, false);
            ++outputs;
        } else {
            history << answer;
        }
    }
    return history.mid(0, messages);
}

// Markdown of about chars characters: headings, a list, a code block with blank lines.
QString longMarkdown(qsizetype chars)
{
    QString text;
    for (int section = 1; text.size() < chars; ++section) {
        text += QStringLiteral("## Section %1\n\nThe loop keeps the history as a plain list, so "
                               "a restore is a copy; `runTurn` decides.\n\n1. build it;\n\n"
                               "2. run it offscreen.\n\n```cpp\nint f%1()\n{\n\n    return "
                               "%1;\n}\n```\n\n")
                    .arg(section);
    }
    return text;
}

// The same picture, but for the last bit of the antialiased edges (composed in another order).
bool sameButForRounding(const QImage &a, const QImage &b)
{
    if (a.size() != b.size())
        return false;
    const QImage first = a.convertToFormat(QImage::Format_ARGB32);
    const QImage second = b.convertToFormat(QImage::Format_ARGB32);
    for (int y = 0; y < first.height(); ++y) {
        for (int x = 0; x < first.width(); ++x) {
            const QRgb p = first.pixel(x, y);
            const QRgb q = second.pixel(x, y);
            if (std::abs(qRed(p) - qRed(q)) > 2 || std::abs(qGreen(p) - qGreen(q)) > 2
                || std::abs(qBlue(p) - qBlue(q)) > 2 || std::abs(qAlpha(p) - qAlpha(q)) > 2)
                return false;
        }
    }
    return true;
}

} // namespace

class tst_ConversationView : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<ConversationView> m_view;

    ConversationView &view() { return *m_view; }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void init()
    {
        m_view = std::make_unique<ConversationView>();
        m_view->resize(640, 480);
        m_view->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_view.get()));
    }

    void cleanup() { m_view.reset(); }

    void streamedTextRendersAsMarkdown()
    {
        view().apply(startAssistant());
        view().apply(streamEvent(StreamEvent::Type::TextDelta, QStringLiteral("The **fix**")));
        QTRY_VERIFY(lastAssistant(view()));
        QTRY_COMPARE(lastAssistant(view())->plainText(), QStringLiteral("The fix"));

        view().apply(streamEvent(StreamEvent::Type::TextDelta, QStringLiteral(" is `done`.")));
        QTRY_COMPARE(lastAssistant(view())->plainText(), QStringLiteral("The fix is done."));
        QVERIFY(lastAssistant(view())->isStreaming());

        view().apply(messageEvent(AgentEvent::Type::MessageEnd,
                                  assistantMessage(QStringLiteral("The **fix** is `done`."))));
        QVERIFY(!lastAssistant(view())->isStreaming());
        QCOMPARE(itemsOfKind(view(), ConversationItem::Kind::Assistant).size(), 1);
    }

    void longStreamedReplyShowsTheWholeText()
    {
        const QString text = longMarkdown(200 * 1024);
        view().apply(startAssistant());
        for (qsizetype at = 0; at < text.size(); at += 20) {
            view().apply(streamEvent(StreamEvent::Type::TextDelta, text.mid(at, 20)));
            if ((at / 20) % 200 == 0)
                view().flush();
        }
        view().flush();
        const MessageItem *item = lastAssistant(view());
        QVERIFY(item);
        const int pieces = item->body().pieceCount();
        QVERIFY2(pieces > 100, qPrintable(QString::number(pieces)));
        view().apply(messageEvent(AgentEvent::Type::MessageEnd, assistantMessage(text)));
        view().flush();
        QVERIFY(!item->isStreaming());
        QCOMPARE(item->body().pieceCount(), pieces);

        const Ui::ConversationStyle style(view().palette(), view().font());
        Ui::RenderedPiece whole;
        whole.render(text, Ui::RenderedPiece::Format::Markdown, 600, style.body, style);
        QVERIFY(item->plainText() == whole.plainText());
        QVERIFY(item->plainText().contains(QStringLiteral("Section 2")));
    }

    void burstOfDeltasIsCoalesced()
    {
        view().apply(startAssistant());
        view().flush();
        PaintCounter counter;
        view().viewport()->installEventFilter(&counter);

        QElapsedTimer clock;
        clock.start();
        QString expected;
        for (int chunk = 0; chunk < 10; ++chunk) {
            for (int i = 0; i < 100; ++i) {
                const QString delta = QStringLiteral("w%1 ").arg(chunk * 100 + i);
                expected += delta;
                view().apply(streamEvent(StreamEvent::Type::TextDelta, delta));
            }
            QTest::qWait(10);
        }
        const qint64 elapsed = clock.elapsed();
        QTRY_COMPARE(lastAssistant(view())->plainText(), expected.trimmed());

        QVERIFY(counter.count >= 1);
        // 100 ms of deltas at 60 frames a second; a loaded machine stretches the burst.
        const qint64 allowed = qMax<qint64>(10, elapsed / 16 + 2);
        QVERIFY2(counter.count <= allowed,
                 qPrintable(QStringLiteral("%1 repaints for 1000 deltas in %2 ms")
                                .arg(counter.count)
                                .arg(elapsed)));
    }

    void discardRemovesDraftAndExplains()
    {
        view().apply(startAssistant());
        view().apply(streamEvent(StreamEvent::Type::TextDelta,
                                 QStringLiteral("<invoke name=\"Read\">loop.ts</invoke>")));
        AgentEvent call = streamEvent(StreamEvent::Type::ToolCallStart, {}, 1);
        call.streamEvent.toolCallId = QStringLiteral("fake");
        call.streamEvent.toolName = QStringLiteral("Read");
        view().apply(call);
        view().flush();
        QVERIFY(lastAssistant(view()));
        QVERIFY(onlyCard(view()));

        // The loop withdraws the message it flagged (a context overflow says otherwise).
        Message withdrawn = assistantMessage(
            QStringLiteral("<invoke name=\"Read\">loop.ts</invoke>"));
        withdrawn.protocolViolation = true;
        view().apply(messageEvent(AgentEvent::Type::MessageDiscard, withdrawn));
        QTRY_VERIFY(!lastAssistant(view()));
        QVERIFY(itemsOfKind(view(), ConversationItem::Kind::ToolCard).isEmpty());
        const auto notes = itemsOfKind(view(), ConversationItem::Kind::Note);
        QCOMPARE(notes.size(), 1);
        QVERIFY(notes.first()->plainText().contains(QStringLiteral("native tool calls")));

        // The retry streams into a new bubble, after the note.
        view().apply(startAssistant());
        view().apply(streamEvent(StreamEvent::Type::TextDelta, QStringLiteral("Reading it.")));
        view().apply(messageEvent(AgentEvent::Type::MessageEnd,
                                  assistantMessage(QStringLiteral("Reading it."))));
        view().flush();
        QCOMPARE(itemsOfKind(view(), ConversationItem::Kind::Assistant).size(), 1);
        QCOMPARE(view().itemAt(view().itemCount() - 1)->kind(), ConversationItem::Kind::Assistant);
        QCOMPARE(lastAssistant(view())->plainText(), QStringLiteral("Reading it."));
    }

    void toolCardRunsThenShowsResult_data()
    {
        QTest::addColumn<QString>("tool");
        QTest::addColumn<QJsonObject>("arguments");
        QTest::addColumn<QString>("resultText");
        QTest::addColumn<QJsonObject>("details");
        QTest::addColumn<bool>("isError");
        QTest::addColumn<QString>("keyArgument");
        QTest::addColumn<int>("state");
        QTest::addColumn<bool>("diff");
        QTest::addColumn<QString>("shown");

        const QString diff = QStringLiteral(
            "--- a/loop.ts\n+++ b/loop.ts\n@@ -1,2 +1,2 @@\n-let i = 0\n+let i = 1\n context\n");
        QTest::newRow("read") << QStringLiteral(
            "Read") << QJsonObject{{QStringLiteral("file_path"), QStringLiteral("src/loop.ts")}}
                              << QStringLiteral("1\tlet i = 0") << QJsonObject() << false
                              << QStringLiteral("src/loop.ts")
                              << int(ToolCardItem::State::Succeeded) << false
                              << QStringLiteral("let i = 0");
        QTest::newRow("edit shows its diff")
            << QStringLiteral("Edit")
            << QJsonObject{{QStringLiteral("file_path"), QStringLiteral("loop.ts")}}
            << QStringLiteral("Edited loop.ts.")
            << QJsonObject{{QStringLiteral("diff"), diff},
                           {QStringLiteral("additions"), 1},
                           {QStringLiteral("deletions"), 1}}
            << false << QStringLiteral("loop.ts") << int(ToolCardItem::State::Succeeded) << true
            << QStringLiteral("+let i = 1");
        QTest::newRow("grep error")
            << QStringLiteral("Grep")
            << QJsonObject{{QStringLiteral("pattern"), QStringLiteral("foo(")}}
            << QStringLiteral("Invalid regex: foo(") << QJsonObject() << true
            << QStringLiteral("foo(") << int(ToolCardItem::State::Failed) << false
            << QStringLiteral("Invalid regex");
    }

    void toolCardRunsThenShowsResult()
    {
        QFETCH(QString, tool);
        QFETCH(QJsonObject, arguments);
        QFETCH(QString, resultText);
        QFETCH(QJsonObject, details);
        QFETCH(bool, isError);
        ToolResult result = ToolResult::makeText(resultText, ToolDetails::fromJson(details));
        result.isError = isError;
        QFETCH(QString, keyArgument);
        QFETCH(int, state);
        QFETCH(bool, diff);
        QFETCH(QString, shown);

        view().apply(
            toolEvent(AgentEvent::Type::ToolExecutionStart, QStringLiteral("c1"), tool, arguments));
        view().flush();
        const ToolCardItem *card = onlyCard(view());
        QVERIFY(card);
        QCOMPARE(card->state(), ToolCardItem::State::Running);
        QVERIFY(card->isAnimating());
        QCOMPARE(card->keyArgument(), keyArgument);
        const int runningHeight = card->currentHeight();

        view().apply(toolEvent(AgentEvent::Type::ToolExecutionEnd,
                               QStringLiteral("c1"),
                               tool,
                               arguments,
                               result));
        view().flush();
        QCOMPARE(onlyCard(view()), card);
        QCOMPARE(int(card->state()), state);
        QCOMPARE(card->hasDiff(), diff);
        QVERIFY2(card->outputText().contains(shown), qPrintable(card->outputText()));
        QVERIFY(card->currentHeight() > runningHeight);
    }

    void bashOutputStreams()
    {
        const QJsonObject arguments{{QStringLiteral("command"), QStringLiteral("npm test")}};
        view().apply(toolEvent(AgentEvent::Type::ToolExecutionStart,
                               QStringLiteral("b1"),
                               QStringLiteral("Bash"),
                               arguments));
        for (int lines : {1, 3, 40}) {
            view().apply(toolEvent(AgentEvent::Type::ToolExecutionUpdate,
                                   QStringLiteral("b1"),
                                   QStringLiteral("Bash"),
                                   arguments,
                                   ToolResult::makeText(numberedLines(lines))));
            QTRY_VERIFY(
                onlyCard(view())
                && onlyCard(view())->outputText().endsWith(QStringLiteral("line%1").arg(lines)));
            QCOMPARE(onlyCard(view())->state(), ToolCardItem::State::Running);
        }
        // 40 lines are capped to the first and last ones.
        const QString shown = onlyCard(view())->outputText();
        QVERIFY(shown.startsWith(QStringLiteral("line1\n")));
        QVERIFY(!shown.contains(QStringLiteral("line20\n")));
        QVERIFY(shown.contains(QStringLiteral("more lines")));

        // Clicking the "more lines" row shows every line.
        view().flush();
        const ToolCardItem *card = onlyCard(view());
        const int collapsedHeight = card->currentHeight();
        int toggleY = -1;
        for (int y = 0; y < collapsedHeight && toggleY < 0; ++y) {
            if (card->isClickable(QPoint(60, y)))
                toggleY = y;
        }
        QVERIFY(toggleY > 0);
        const int top = card->top() - view().verticalScrollBar()->value();
        QTest::mousePress(view().viewport(), Qt::LeftButton, {}, QPoint(72, top + toggleY + 2));
        QVERIFY(card->outputText().contains(QStringLiteral("\nline20\n")));
        QVERIFY(card->currentHeight() > collapsedHeight);
    }

    void callsThatNeverRanSaySo()
    {
        view().apply(startAssistant());
        AgentEvent call = streamEvent(StreamEvent::Type::ToolCallStart, {}, 0);
        call.streamEvent.toolCallId = QStringLiteral("w1");
        call.streamEvent.toolName = QStringLiteral("Write");
        view().apply(call);
        view().flush();
        QCOMPARE(onlyCard(view())->state(), ToolCardItem::State::Pending);
        QCOMPARE(onlyCard(view())->toolName(), QStringLiteral("Write"));

        AgentEvent end;
        end.type = AgentEvent::Type::AgentEnd;
        view().apply(end);
        QCOMPARE(onlyCard(view())->state(), ToolCardItem::State::NotRun);
        QVERIFY(!lastAssistant(view())->isStreaming());
    }

    void thinkingIsCollapsedUntilClicked()
    {
        view().setMessages({Message::makeUser(QStringLiteral("Fix it")),
                            assistantMessage(QStringLiteral("Done."),
                                             QStringLiteral("First I read the loop.\nThen the "
                                                            "log.\nThe bound is off by one."))});
        view().flush();
        auto item = lastAssistant(view());
        QVERIFY(item);
        QVERIFY(!item->isThinkingExpanded());
        QCOMPARE(item->thinkingSummary(), QStringLiteral("First I read the loop."));
        const int collapsed = item->currentHeight();

        const int top = item->top() - view().verticalScrollBar()->value();
        QTest::mousePress(view().viewport(), Qt::LeftButton, {}, QPoint(40, top + 14));
        QVERIFY(item->isThinkingExpanded());
        QVERIFY(item->currentHeight() > collapsed);
    }

    void sticksToBottomUnlessScrolledUp()
    {
        QList<Message> history;
        for (int i = 0; i < 60; ++i)
            history << Message::makeUser(QStringLiteral("message %1").arg(i));
        view().setMessages(history);
        view().flush();
        QScrollBar *bar = view().verticalScrollBar();
        QVERIFY(bar->maximum() > 0);
        QCOMPARE(bar->value(), bar->maximum());

        const int before = bar->maximum();
        view().apply(messageEvent(AgentEvent::Type::MessageStart,
                                  Message::makeUser(QStringLiteral("one more"))));
        QTRY_VERIFY(bar->maximum() > before);
        QCOMPARE(bar->value(), bar->maximum());
        QVERIFY(view().isStuckToBottom());

        bar->setValue(bar->maximum() / 2); // the user scrolls up
        QVERIFY(!view().isStuckToBottom());
        const int reading = bar->value();
        const int maximum = bar->maximum();
        view().apply(startAssistant());
        view().apply(streamEvent(StreamEvent::Type::TextDelta, numberedLines(20)));
        QTRY_VERIFY(bar->maximum() > maximum);
        QCOMPARE(bar->value(), reading);

        bar->setValue(bar->maximum()); // back at the end: follows again
        QVERIFY(view().isStuckToBottom());
        const int grown = bar->maximum();
        view().apply(streamEvent(StreamEvent::Type::TextDelta, QStringLiteral("\n\nmore")));
        QTRY_VERIFY(bar->maximum() > grown);
        QCOMPARE(bar->value(), bar->maximum());
    }

    void jumpToLatestShowsWhenScrolledUpAndWorks()
    {
        QList<Message> history;
        for (int i = 0; i < 60; ++i)
            history << Message::makeUser(QStringLiteral("message %1").arg(i));
        view().setMessages(history);
        view().flush();
        QScrollBar *bar = view().verticalScrollBar();
        QToolButton *jump = view().jumpToLatestButton();
        QVERIFY(jump);
        QVERIFY(!jump->isVisible()); // at the end: nothing to jump to

        // Scrolled up on purpose: new output does not move the view, the button says there
        // is more, and a click brings the newest back and follows it again.
        bar->setValue(0);
        QVERIFY(jump->isVisible());
        QVERIFY(view().viewport()->geometry().contains(jump->geometry()));
        view().apply(messageEvent(AgentEvent::Type::MessageStart,
                                  Message::makeUser(QStringLiteral("newest"))));
        view().flush();
        QCOMPARE(bar->value(), 0);
        QVERIFY(jump->isVisible());
        QTest::mouseClick(jump, Qt::LeftButton);
        QCOMPARE(bar->value(), bar->maximum());
        QVERIFY(view().isStuckToBottom());
        QVERIFY(!jump->isVisible());

        // By keyboard: End in the conversation, or Tab to the button and Space.
        QVERIFY(QTest::qWaitForWindowActive(m_view.get()));
        view().setFocus();
        QTRY_VERIFY(view().hasFocus());
        QTest::keyClick(&view(), Qt::Key_Home);
        QCOMPARE(bar->value(), 0);
        QVERIFY(jump->isVisible());
        QTest::keyClick(&view(), Qt::Key_End);
        QCOMPARE(bar->value(), bar->maximum());
        QVERIFY(!jump->isVisible());
        bar->setValue(0);
        QTest::keyClick(&view(), Qt::Key_Tab);
        QTRY_VERIFY(jump->hasFocus());
        QTest::keyClick(jump, Qt::Key_Space);
        QCOMPARE(bar->value(), bar->maximum());
        QVERIFY(!jump->isVisible());
        QVERIFY(view().hasFocus()); // not lost with the button
    }

    // The button keeps what it painted while it looks the same (every paint of the
    // conversation paints it): it looks as a tool button with its style sheet does, and a
    // size or a focus it gets later shows at once.
    void jumpToLatestLooksAsStyled()
    {
        QList<Message> history;
        for (int i = 0; i < 60; ++i)
            history << Message::makeUser(QStringLiteral("message %1").arg(i));
        view().setMessages(history);
        view().flush();
        view().verticalScrollBar()->setValue(0);
        QToolButton *jump = view().jumpToLatestButton();
        QVERIFY(jump->isVisible());
        QToolButton plain(&view());
        plain.setText(jump->text());
        plain.setArrowType(jump->arrowType());
        plain.setToolButtonStyle(jump->toolButtonStyle());
        plain.setStyleSheet(jump->styleSheet());
        plain.setGeometry(jump->geometry());
        plain.show();
        const auto looksAlike = [&] {
            plain.resize(jump->size());
            return sameButForRounding(jump->grab().toImage(), plain.grab().toImage());
        };
        const QImage before = jump->grab().toImage();
        QVERIFY(looksAlike());
        QVERIFY(looksAlike()); // painted again from what it kept

        jump->resize(jump->width() + 40, jump->height());
        QVERIFY(looksAlike());
        jump->resize(plain.width() - 40, jump->height());

        // Its focus frame (the style sheet's :focus) shows at once.
        QVERIFY(QTest::qWaitForWindowActive(m_view.get()));
        jump->setFocus(Qt::TabFocusReason);
        QTRY_VERIFY(jump->hasFocus());
        QVERIFY(!sameButForRounding(jump->grab().toImage(), before));
        plain.setFocus(Qt::TabFocusReason);
        QTRY_VERIFY(plain.hasFocus());
        QVERIFY(sameButForRounding(jump->grab().toImage(), before));
    }

    void showsTheFocus()
    {
        view().setMessages({Message::makeUser(QStringLiteral("fix the crash"))});
        view().flush();
        QVERIFY(QTest::qWaitForWindowActive(m_view.get()));
        const QColor highlight = view().palette().color(QPalette::Highlight);
        view().clearFocus();
        QTRY_VERIFY(!view().hasFocus());
        QVERIFY(view().viewport()->grab().toImage().pixelColor(1, 1) != highlight);
        view().setFocus(Qt::TabFocusReason);
        QTRY_VERIFY(view().hasFocus());
        QCOMPARE(view().viewport()->grab().toImage().pixelColor(1, 1), highlight);
    }

    void screenReaderSeesTheItems()
    {
        Message answer = assistantMessage(QStringLiteral("Running the **tests**."));
        answer.content << ContentBlock::makeToolCall(QStringLiteral("b1"),
                                                     QStringLiteral("Bash"),
                                                     {{QStringLiteral("command"),
                                                       QStringLiteral("make test")}});
        view().setMessages({Message::makeUser(QStringLiteral("run the tests")),
                            answer,
                            Message::makeToolResult(QStringLiteral("b1"),
                                                    QStringLiteral("Bash"),
                                                    QStringLiteral("14 tests passed"),
                                                    false)});
        view().flush();
        QAccessibleInterface *conversation = QAccessible::queryAccessibleInterface(m_view.get());
        QVERIFY(conversation);
        QCOMPARE(conversation->role(), QAccessible::List);
        QCOMPARE(conversation->text(QAccessible::Name), QStringLiteral("Conversation"));
        QCOMPARE(conversation->childCount(), view().itemCount());

        QStringList names;
        for (int i = 0; i < conversation->childCount(); ++i) {
            QAccessibleInterface *item = conversation->child(i);
            QVERIFY(item && item->isValid());
            QCOMPARE(item->role(), QAccessible::ListItem);
            QCOMPARE(item->parent(), conversation);
            QCOMPARE(conversation->indexOfChild(item), i);
            QCOMPARE(conversation->child(i), item); // cached, not made again
            QVERIFY(!item->rect().isEmpty());
            names << item->text(QAccessible::Name);
        }
        QCOMPARE(names,
                 (QStringList{QStringLiteral("You: run the tests"),
                              QStringLiteral("Agent: Running the tests."),
                              QStringLiteral("Tool Bash: make test, done")}));
        QVERIFY(conversation->child(2)
                    ->text(QAccessible::Description)
                    .contains(QStringLiteral("14 tests passed")));
        const QRect first = conversation->child(0)->rect();
        QCOMPARE(conversation->childAt(first.center().x(), first.center().y()),
                 conversation->child(0));

        // The interfaces of items that are gone go with them, and the new ones are listed.
        const QAccessible::Id old = QAccessible::uniqueId(conversation->child(0));
        view().setMessages({Message::makeUser(QStringLiteral("something else"))});
        view().flush();
        QVERIFY(!QAccessible::accessibleInterface(old));
        QCOMPARE(conversation->childCount(), 1);
        QCOMPARE(conversation->child(0)->text(QAccessible::Name),
                 QStringLiteral("You: something else"));
    }

    void longHistoryLoadsLazily()
    {
        const QList<Message> history = longHistory(2000, 200);
        QCOMPARE(history.size(), 2000);
        QElapsedTimer clock;
        clock.start();
        view().setMessages(history);
        view().flush();
        qInfo("2,000 messages shown in %lld ms", clock.elapsed());
        // A tool result fills its card: 2,000 messages make 2,000 items.
        QCOMPARE(view().itemCount(), 2000);
        QCOMPARE(itemsOfKind(view(), ConversationItem::Kind::ToolCard).size(), 200);
        const ConversationItem *last = view().itemAt(view().itemCount() - 1);
        QVERIFY(last->hasLayout());
        QVERIFY(!view().itemAt(0)->hasLayout());

        // Scrolling through everything keeps only the items near the screen laid out.
        QScrollBar *bar = view().verticalScrollBar();
        int mostCached = 0;
        qint64 slowestStep = 0;
        for (int value = bar->maximum(); value > 0; value -= 3 * bar->pageStep()) {
            clock.restart();
            bar->setValue(value);
            view().viewport()->repaint();
            slowestStep = qMax(slowestStep, clock.elapsed());
            int cached = 0;
            for (int i = 0; i < view().itemCount(); ++i)
                cached += view().itemAt(i)->hasLayout() ? 1 : 0;
            mostCached = qMax(mostCached, cached);
        }
        qInfo("slowest scroll step with painting: %lld ms", slowestStep);
        bar->setValue(0);
        QVERIFY(view().itemAt(0)->hasLayout());
        QVERIFY2(mostCached < 150, qPrintable(QString::number(mostCached)));
    }

    // A scroll step places again only the items after the first one it laid out that came out
    // taller or shorter than estimated: the items stay edge to edge, where a whole new
    // placement puts them, and what is on the screen does not jump.
    void scrollingKeepsTheItemsInPlace()
    {
        QList<Message> history;
        for (int i = 0; i < 300; ++i) {
            // Long lines wrap, which an estimate only guesses: exact heights differ from it.
            history << Message::makeUser(QStringLiteral("Question %1").arg(i))
                    << assistantMessage(longMarkdown(300 + (i % 7) * 150));
        }
        view().setMessages(history);
        view().flush();
        QScrollBar *bar = view().verticalScrollBar();
        const auto tops = [this] {
            QList<int> all;
            for (int i = 0; i < view().itemCount(); ++i)
                all << view().itemRect(i).top();
            return all;
        };
        bar->setValue(0);
        int maximumChanges = 0;
        for (int step = 0; step < 40 && bar->value() < bar->maximum(); ++step) {
            const int maximum = bar->maximum();
            if (step % 2 == 0)
                bar->triggerAction(QAbstractSlider::SliderPageStepAdd);
            else
                QTest::keyClick(&view(), Qt::Key_Down);
            view().viewport()->repaint();
            maximumChanges += bar->maximum() != maximum;
            const QList<int> stepped = tops();
            const int value = bar->value();
            view().flush(); // places every item anew
            QCOMPARE(bar->value(), value);
            QCOMPARE(tops(), stepped);
            for (int i = 1; i < view().itemCount(); ++i)
                QVERIFY(view().itemRect(i).top() >= view().itemRect(i - 1).bottom());
        }
        // The steps laid out items whose heights were only estimated until then.
        QVERIFY(maximumChanges > 0);
    }

    void screenshots()
    {
        const QString directory = qEnvironmentVariable("AGENTDESK_SCREENSHOTS");
        if (directory.isEmpty())
            QSKIP("Set AGENTDESK_SCREENSHOTS to a directory to save screenshots.");
        QDir().mkpath(directory);
        saveStreamedReplyShots(directory);
        for (const bool dark : {false, true}) {
            if (dark) {
                QPalette palette;
                palette.setColor(QPalette::Window, QColor(0x2b, 0x2d, 0x30));
                palette.setColor(QPalette::Base, QColor(0x1e, 0x1f, 0x22));
                palette.setColor(QPalette::AlternateBase, QColor(0x2b, 0x2d, 0x30));
                palette.setColor(QPalette::Text, QColor(0xdf, 0xe1, 0xe5));
                palette.setColor(QPalette::WindowText, QColor(0xdf, 0xe1, 0xe5));
                palette.setColor(QPalette::Highlight, QColor(0x35, 0x74, 0xf0));
                view().setPalette(palette);
            }
            view().resize(760, 900);
            fillDemo();
            view().flush();
            QVERIFY(view().grab().save(
                QDir(directory).filePath(dark ? QStringLiteral("conversation-dark.png")
                                              : QStringLiteral("conversation-light.png"))));
        }
        fillDetailsDemo();
        view().flush();
        QVERIFY(view().grab().save(
            QDir(directory).filePath(QStringLiteral("conversation-details.png"))));
    }

private:
    // A long reply streamed in deltas, in the view (tst_RenderedText compares its pieces with
    // the same text rendered as one document).
    void saveStreamedReplyShots(const QString &directory)
    {
        const QString reply = longMarkdown(8 * 1024);
        view().resize(760, 900);
        view().apply(startAssistant());
        for (qsizetype at = 0; at < reply.size(); at += 20) {
            view().apply(streamEvent(StreamEvent::Type::TextDelta, reply.mid(at, 20)));
            if ((at / 20) % 50 == 0)
                view().flush();
        }
        view().apply(messageEvent(AgentEvent::Type::MessageEnd, assistantMessage(reply)));
        view().flush();
        QVERIFY(view().grab().save(
            QDir(directory).filePath(QStringLiteral("conversation-streamed.png"))));
        view().clear();
    }

    // Thinking expanded by a click, a capped Bash log, a failed call, a withdrawn draft.
    void fillDetailsDemo()
    {
        view().setMessages({Message::makeUser(QStringLiteral("Run the whole test suite.")),
                            assistantMessage(QStringLiteral("Running it now."),
                                             QStringLiteral("The suite is slow; run it once.\n"
                                                            "Then look at the failures only."))});
        view().flush();
        const int top = view().itemAt(1)->top() - view().verticalScrollBar()->value();
        QTest::mousePress(view().viewport(), Qt::LeftButton, {}, QPoint(40, top + 14));
        const QJsonObject bash{
            {QStringLiteral("command"), QStringLiteral("ctest --output-on-failure")}};
        view().apply(toolEvent(AgentEvent::Type::ToolExecutionStart,
                               QStringLiteral("b"),
                               QStringLiteral("Bash"),
                               bash));
        ToolResult log = ToolResult::makeText(numberedLines(240, QStringLiteral("Test #"))
                                                  + QStringLiteral("\n100% tests passed"),
                                              ToolDetails::fromJson(
                                                  QJsonObject{{QStringLiteral("logPath"),
                                                               QStringLiteral(
                                                                   "/tmp/agentdesk/bash-1.log")},
                                                              {QStringLiteral("exitCode"), 0}}));
        view().apply(toolEvent(AgentEvent::Type::ToolExecutionEnd,
                               QStringLiteral("b"),
                               QStringLiteral("Bash"),
                               bash,
                               log));
        const QJsonObject grep{{QStringLiteral("pattern"), QStringLiteral("sum(")}};
        view().apply(toolEvent(AgentEvent::Type::ToolExecutionStart,
                               QStringLiteral("g"),
                               QStringLiteral("Grep"),
                               grep));
        view().apply(toolEvent(AgentEvent::Type::ToolExecutionEnd,
                               QStringLiteral("g"),
                               QStringLiteral("Grep"),
                               grep,
                               ToolResult::makeError(QStringLiteral(
                                   "Invalid regular expression \"sum(\": missing ). Escape "
                                   "the parenthesis: sum\\("))));
        view().apply(startAssistant());
        view().apply(streamEvent(StreamEvent::Type::TextDelta, QStringLiteral("<tool_call>")));
        view().apply(messageEvent(AgentEvent::Type::MessageDiscard, {}));
        QTRY_COMPARE(itemsOfKind(view(), ConversationItem::Kind::Assistant).size(), 1);
    }

    void fillDemo()
    {
        view().clear();
        view().apply(messageEvent(AgentEvent::Type::MessageStart,
                                  Message::makeUser(QStringLiteral(
                                      "Read loop.ts and crash.log, then fix the bug."))));
        view().apply(startAssistant());
        view().apply(streamEvent(StreamEvent::Type::ThinkingDelta,
                                 QStringLiteral("The crash log points at loop.ts:42.\nThe index "
                                                "runs one past the end."),
                                 0));
        view().apply(messageEvent(
            AgentEvent::Type::MessageEnd,
            assistantMessage(QStringLiteral("The loop reads `items[i + 1]` on the last pass:\n\n"
                                            "```cpp\nfor (int i = 0; i < n; ++i) {\n"
                                            "    // off by one\n    total += items[i + 1];\n}\n```"
                                            "\n\nI will fix the bound and run the tests."),
                             QStringLiteral("The crash log points at loop.ts:42.\nThe index "
                                            "runs one past the end."))));
        const QString diff = QStringLiteral(
            "--- a/src/loop.ts\n+++ b/src/loop.ts\n@@ -40,5 +40,5 @@\n function sum(items) {\n"
            "-  for (let i = 0; i <= items.length; ++i)\n"
            "+  for (let i = 0; i < items.length; ++i)\n     total += items[i];\n");
        const QJsonObject edit{{QStringLiteral("file_path"), QStringLiteral("src/loop.ts")}};
        view().apply(toolEvent(AgentEvent::Type::ToolExecutionStart,
                               QStringLiteral("e"),
                               QStringLiteral("Edit"),
                               edit));
        view().apply(
            toolEvent(AgentEvent::Type::ToolExecutionEnd,
                      QStringLiteral("e"),
                      QStringLiteral("Edit"),
                      edit,
                      ToolResult::makeText(QStringLiteral("Edited src/loop.ts."),
                                           ToolDetails::fromJson(
                                               QJsonObject{{QStringLiteral("path"),
                                                            QStringLiteral("src/loop.ts")},
                                                           {QStringLiteral("diff"), diff},
                                                           {QStringLiteral("additions"), 1},
                                                           {QStringLiteral("deletions"), 1}}))));
        const QJsonObject bash{
            {QStringLiteral("command"), QStringLiteral("npm test -- --watch=false")}};
        view().apply(toolEvent(AgentEvent::Type::ToolExecutionStart,
                               QStringLiteral("b"),
                               QStringLiteral("Bash"),
                               bash));
        view().apply(toolEvent(AgentEvent::Type::ToolExecutionUpdate,
                               QStringLiteral("b"),
                               QStringLiteral("Bash"),
                               bash,
                               ToolResult::makeText(QStringLiteral(
                                   "> calculator@1.0.0 test\n> jest\n\nPASS src/loop.test.ts\n"
                                   "  sum\n    ✓ adds numbers (3 ms)\n    ✓ handles an empty list\n"
                                   "RUNS src/parser.test.ts"))));
        view().apply(startAssistant());
        view().apply(streamEvent(StreamEvent::Type::TextDelta,
                                 QStringLiteral("While the tests run: the fix changes `<=` to `<`"),
                                 0));
    }
};

AGENTDESK_TEST_MAIN(tst_ConversationView)

} // namespace tst_conversationview

#include "tst_conversationview.moc"
