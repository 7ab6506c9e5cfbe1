#include <contextview/contextdialog.h>
#include <conversation/conversationview.h>
#include <conversation/toolcarditem.h>
#include <testmain.h>

#include <ai/types.h>
#include <loop/agenttypes.h>
#include <session/sessionlog.h>
#include <session/sessionpages.h>
#include <session/sessionstore.h>

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFile>
#include <QFileInfo>
#include <QMenu>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>
#include <QTreeWidget>

#include <memory>

namespace tst_pagedoutputs {

using AgentCore::AgentEvent;
using AgentCore::Message;
using AgentCore::SessionPages;
using Ui::ConversationView;
using Ui::ToolCardItem;

namespace {

/// "line 1" to "line N", about 100 KB for 10,000 lines.
QString numberedLines(int count)
{
    QString text;
    for (int i = 1; i <= count; ++i)
        text += QStringLiteral("line %1 of the output\n").arg(i);
    return text;
}

Message bashCall(const QString &id)
{
    Message assistant;
    assistant.role = Message::Role::Assistant;
    assistant.stopReason = AgentCore::StopReason::ToolUse;
    assistant.content = {AgentCore::ContentBlock::makeToolCall(id,
                                                               QStringLiteral("Bash"),
                                                               {{QStringLiteral("command"),
                                                                 QStringLiteral("seq 5000")}})};
    return assistant;
}

/// A real session file with one Bash call whose result is \a output, and where its record is
/// (as the recorder tells SessionPages).
struct PagedSession
{
    QString path;
    QList<Message> whole; ///< as recorded
    qint64 resultOffset = 0;
    qint64 resultLength = 0;
};

PagedSession writePagedSession(const QString &folder, const QString &output)
{
    PagedSession session;
    session.path = folder + QStringLiteral("/paged.jsonl");
    QString error;
    auto log = AgentCore::SessionLog::open(session.path,
                                           AgentCore::SessionStore::newHeader(folder),
                                           &error);
    if (!log)
        qFatal("cannot write the session: %s", qPrintable(error));
    session.whole = {Message::makeUser(QStringLiteral("count to 5000")),
                     bashCall(QStringLiteral("call_1")),
                     Message::makeToolResult(QStringLiteral("call_1"),
                                             QStringLiteral("Bash"),
                                             output,
                                             false)};
    for (const Message &message : std::as_const(session.whole)) {
        const qint64 before = QFileInfo(session.path).size();
        if (!log->appendMessage(message, &error))
            qFatal("cannot write the session: %s", qPrintable(error));
        if (message.isToolResult()) {
            session.resultOffset = before;
            // The record's bytes, without the newline that ends its line.
            session.resultLength = QFileInfo(session.path).size() - before - 1;
        }
    }
    return session;
}

/// The conversation as a resumed session hands it over: the long result a stub.
QList<Message> resumedMessages(const PagedSession &session)
{
    QList<Message> messages = session.whole;
    messages.last() = SessionPages::stub(messages.last());
    return messages;
}

ToolCardItem *pagedCardIn(ConversationView &view, int *index = nullptr)
{
    for (int i = 0; i < view.itemCount(); ++i) {
        auto card = dynamic_cast<const ToolCardItem *>(view.itemAt(i));
        if (card && card->toolCallId() == QLatin1String("call_1")) {
            if (index)
                *index = i;
            return const_cast<ToolCardItem *>(card);
        }
    }
    return nullptr;
}

/// Clicks the card's "show all" row, as the user does.
bool clickOutputToggle(ConversationView &view)
{
    view.flush();
    int index = -1;
    const ToolCardItem *card = pagedCardIn(view, &index);
    if (!card || card->outputToggleRect().isEmpty())
        return false;
    const QRect item = view.itemRect(index);
    const QPoint at = item.topLeft() + card->outputToggleRect().center();
    if (!view.viewport()->rect().contains(at))
        return false;
    QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, at);
    return true;
}

/// Every load started has come back to the UI thread.
void settleLoads()
{
    QThreadPool::globalInstance()->waitForDone();
    QCoreApplication::processEvents();
    QCoreApplication::processEvents();
}

} // namespace

/// Long tool outputs paged from the session file (issue #39): a card built from a stub shows
/// its beginning and reads the whole output off the UI thread when it is expanded; a large
/// output that came live is cut to its preview once the file holds it.
class tst_PagedOutputs : public QObject
{
    Q_OBJECT

private slots:
    void init() { m_dir = std::make_unique<QTemporaryDir>(); }
    void cleanup()
    {
        settleLoads();
        m_dir.reset();
    }

    // A resumed session's stub shows its preview and how much more there is; expanding it
    // says it is loading, then shows the whole output read from the real session file, to
    // its last line; folding it drops the whole text again.
    void aResumedStubShowsItsPreviewAndExpandsToTheWholeOutput()
    {
        const QString output = numberedLines(5000);
        const PagedSession session = writePagedSession(m_dir->path(), output);
        auto pages = std::make_shared<SessionPages>(session.path);
        pages->add(QStringLiteral("call_1"), session.resultOffset, session.resultLength);

        ConversationView view;
        view.resize(800, 600);
        view.show();
        view.setPages(pages);
        view.setMessages(resumedMessages(session));
        view.flush();
        ToolCardItem *card = pagedCardIn(view);
        QVERIFY(card);
        QVERIFY(card->isPaged());
        QCOMPARE(card->pagedChars(), output.size());
        QCOMPARE(card->page(), ToolCardItem::Page::Preview);
        QVERIFY(card->heldOutputChars() <= SessionPages::previewChars);
        QVERIFY(card->outputText().startsWith(QLatin1String("line 1 of the output\n")));
        QVERIFY2(card->outputText().contains(QLatin1String("more (show all)")),
                 qPrintable(card->outputText()));
        QVERIFY(!card->outputText().contains(QLatin1String("line 5000 ")));

        QVERIFY(clickOutputToggle(view));
        QCOMPARE(card->page(), ToolCardItem::Page::Loading);
        QVERIFY2(card->outputText().contains(QLatin1String("Loading the whole output")),
                 qPrintable(card->outputText()));
        QTRY_COMPARE(card->page(), ToolCardItem::Page::Loaded);
        QVERIFY(card->outputText().contains(QLatin1String("line 5000 of the output")));
        QCOMPARE(card->wholeOutput().value_or(QString()), output);

        // Folded ("Show fewer lines" is below the last line): the beginning again, the whole
        // text gone from the card.
        card->setOutputExpanded(false);
        QCOMPARE(card->page(), ToolCardItem::Page::Preview);
        QVERIFY(card->heldOutputChars() <= SessionPages::previewChars);
        QVERIFY(!card->wholeOutput());
    }

    // A file that no longer holds the output: the card shows the error where the output
    // was, and folding brings the beginning back. Without a session file at all, too.
    void aFailedLoadShowsTheErrorInPlaceOfTheOutput()
    {
        const PagedSession session = writePagedSession(m_dir->path(), numberedLines(5000));
        auto pages = std::make_shared<SessionPages>(session.path);
        pages->add(QStringLiteral("call_1"), session.resultOffset, session.resultLength);
        QFile file(session.path);
        QVERIFY(file.resize(session.resultOffset + 10)); // cut in the middle of the record
        QString expected;
        QVERIFY(!pages->load(QStringLiteral("call_1"), &expected));
        QVERIFY(!expected.isEmpty());

        ConversationView view;
        view.resize(800, 600);
        view.show();
        view.setPages(pages);
        view.setMessages(resumedMessages(session));
        ToolCardItem *card = nullptr;
        QVERIFY(clickOutputToggle(view));
        card = pagedCardIn(view);
        QTRY_COMPARE(card->page(), ToolCardItem::Page::Failed);
        QVERIFY2(card->outputText().startsWith(expected), qPrintable(card->outputText()));
        QVERIFY(!card->outputText().contains(QLatin1String("line 1 of")));
        QVERIFY(clickOutputToggle(view));
        QCOMPARE(card->page(), ToolCardItem::Page::Preview);
        QVERIFY(card->outputText().startsWith(QLatin1String("line 1 of the output")));

        // No session file: the same, saying why.
        view.setPages(nullptr);
        QVERIFY(clickOutputToggle(view));
        QTRY_COMPARE(card->page(), ToolCardItem::Page::Failed);
        QVERIFY2(card->outputText().contains(QLatin1String("session file")),
                 qPrintable(card->outputText()));
    }

    // The conversation is replaced (a branch switch, another session) while a card's output
    // is being read: the load comes back to a card of the same call that did not ask for it,
    // and leaves it as it is.
    void aCardReplacedBeforeItsLoadEndsIsNotTouched()
    {
        const PagedSession session = writePagedSession(m_dir->path(), numberedLines(5000));
        auto pages = std::make_shared<SessionPages>(session.path);
        pages->add(QStringLiteral("call_1"), session.resultOffset, session.resultLength);

        ConversationView view;
        view.resize(800, 600);
        view.show();
        view.setPages(pages);
        view.setMessages(resumedMessages(session));
        QVERIFY(clickOutputToggle(view));
        QCOMPARE(pagedCardIn(view)->page(), ToolCardItem::Page::Loading);
        view.setMessages(resumedMessages(session)); // before the load is back
        settleLoads();
        ToolCardItem *card = pagedCardIn(view);
        QCOMPARE(card->page(), ToolCardItem::Page::Preview);
        QVERIFY(card->heldOutputChars() <= SessionPages::previewChars);

        // Gone altogether, or folded while loading: nothing comes back either.
        QVERIFY(clickOutputToggle(view));
        view.clear();
        settleLoads();
        QCOMPARE(view.itemCount(), 0);
        view.setMessages(resumedMessages(session));
        card = pagedCardIn(view);
        QVERIFY(clickOutputToggle(view));
        card->setOutputExpanded(false);
        settleLoads();
        QCOMPARE(card->page(), ToolCardItem::Page::Preview);
    }

    // A run's large output arrives whole; once the session file holds it and its card is off
    // the screen, the card keeps only its preview (the window's memory stays flat however
    // long the session), and expanding it reads it back.
    void aLiveLargeOutputIsCutToItsPreviewOnceTheFileHoldsIt()
    {
        const QString output = numberedLines(5000);
        const PagedSession session = writePagedSession(m_dir->path(), output);
        auto pages = std::make_shared<SessionPages>(session.path);

        ConversationView view;
        view.resize(800, 400);
        view.show();
        view.setPages(pages);
        AgentEvent event;
        event.type = AgentEvent::Type::MessageEnd;
        event.message = session.whole.at(0);
        view.apply(event);
        event.message = session.whole.at(1);
        view.apply(event);
        AgentEvent end;
        end.type = AgentEvent::Type::ToolExecutionEnd;
        end.toolCallId = QStringLiteral("call_1");
        end.toolName = QStringLiteral("Bash");
        end.result = AgentCore::ToolResult::makeText(output);
        view.apply(end);
        event.message = session.whole.at(2);
        view.apply(event);
        view.flush();
        ToolCardItem *card = pagedCardIn(view);
        QCOMPARE(card->page(), ToolCardItem::Page::Whole);
        QCOMPARE(card->heldOutputChars(), output.size());

        // Not in the file yet: it stays whole, even off screen.
        for (int i = 0; i < 40; ++i) {
            event.message = Message::makeUser(QStringLiteral("next %1").arg(i));
            view.apply(event);
        }
        view.flush();
        QCOMPARE(card->page(), ToolCardItem::Page::Whole);

        // Recorded; the card on the screen stays as the user sees it.
        pages->add(QStringLiteral("call_1"), session.resultOffset, session.resultLength);
        view.verticalScrollBar()->setValue(view.itemRect(2).top()
                                           + view.verticalScrollBar()->value());
        view.flush();
        QCOMPARE(card->page(), ToolCardItem::Page::Whole);

        // Off the screen: cut.
        view.scrollToBottom();
        view.flush();
        QCOMPARE(card->page(), ToolCardItem::Page::Preview);
        QVERIFY(card->isPaged());
        QCOMPARE(card->pagedChars(), output.size());
        QVERIFY(card->heldOutputChars() <= SessionPages::previewChars);
        QVERIFY(!card->wholeOutput());
        // One preview for the session: the card's is the one its histories keep (a live run
        // of a thousand reads would otherwise hold each preview twice).
        const Message stub = pages->stubOf(session.whole.at(2));
        QVERIFY(stub.isPaged());
        QCOMPARE(card->heldOutput(), stub.text());
        QCOMPARE(card->heldOutput().constData(), stub.content.first().text.constData());

        view.verticalScrollBar()->setValue(0);
        view.flush();
        QVERIFY(clickOutputToggle(view));
        QTRY_COMPARE(card->page(), ToolCardItem::Page::Loaded);
        QVERIFY(card->outputText().contains(QLatin1String("line 5000 of the output")));
    }

    // The user expands a card, then scrolls down before the output is read: when it comes,
    // what they look at stays where it is (the card grows above, out of sight).
    void aLoadThatComesBackOffScreenLeavesTheScreenAsItIs()
    {
        const PagedSession session = writePagedSession(m_dir->path(), numberedLines(5000));
        auto pages = std::make_shared<SessionPages>(session.path);
        pages->add(QStringLiteral("call_1"), session.resultOffset, session.resultLength);
        QList<Message> messages = resumedMessages(session);
        for (int i = 0; i < 40; ++i)
            messages.append(Message::makeUser(QStringLiteral("later %1").arg(i)));
        ConversationView view;
        view.resize(800, 400);
        view.show();
        view.setPages(pages);
        view.setMessages(messages);
        view.flush();
        view.verticalScrollBar()->setValue(0);
        QVERIFY(clickOutputToggle(view));
        QVERIFY(pagedCardIn(view)->page() == ToolCardItem::Page::Loading);
        const QScrollBar *bar = view.verticalScrollBar();
        view.verticalScrollBar()->setValue(bar->maximum() - 50); // the user scrolls on
        view.flush();
        int last = view.itemCount() - 1; // the lowest item on the screen
        while (last > 0 && view.itemRect(last).top() >= view.viewport()->height())
            --last;
        const QRect before = view.itemRect(last);
        QVERIFY(view.viewport()->rect().intersects(before));
        QVERIFY(before.top() > 0);
        settleLoads();
        view.flush();
        QCOMPARE(pagedCardIn(view)->page(), ToolCardItem::Page::Loaded);
        QCOMPARE(view.itemRect(last).top(), before.top());
    }

    // "Copy Output" of a stub's card copies the whole output, read from the file.
    void copyOutputCopiesTheWholeOutput()
    {
        const QString output = numberedLines(5000);
        const PagedSession session = writePagedSession(m_dir->path(), output);
        auto pages = std::make_shared<SessionPages>(session.path);
        pages->add(QStringLiteral("call_1"), session.resultOffset, session.resultLength);
        ConversationView view;
        view.resize(800, 600);
        view.setPages(pages);
        view.setMessages(resumedMessages(session));
        int index = -1;
        QVERIFY(pagedCardIn(view, &index));
        QApplication::clipboard()->clear();
        std::unique_ptr<QMenu> menu(view.createItemMenu(index));
        auto copy = menu->findChild<QAction *>(QStringLiteral("copyOutputAction"));
        QVERIFY(copy);
        copy->trigger();
        QTRY_COMPARE(QApplication::clipboard()->text(), output);
    }

    // The context view shows a paged output as it shows a whole one: read from the file.
    void theContextViewReadsAPagedOutput()
    {
        const QString output = numberedLines(5000);
        const PagedSession session = writePagedSession(m_dir->path(), output);
        auto pages = std::make_shared<SessionPages>(session.path);
        pages->add(QStringLiteral("call_1"), session.resultOffset, session.resultLength);
        const Message stub = SessionPages::stub(session.whole.at(2));

        Ui::ContextSnapshot snapshot;
        Ui::ContextItem item;
        item.kind = Ui::ContextItem::Kind::ToolOutput;
        item.title = QStringLiteral("Output of Bash: seq 5000");
        item.preview = Ui::ContextSnapshot::previewOf(stub);
        item.toolCallId = QStringLiteral("call_1");
        item.pagedChars = stub.pagedChars;
        item.messageIndex = 2;
        item.position = 1;
        item.tokens = 30000;
        snapshot.items = {item};
        const QString whole = Ui::ContextSnapshot::previewOf(session.whole.at(2));
        QVERIFY(whole.size() > item.preview.size());

        Ui::ContextDialog dialog;
        dialog.setPages(pages);
        dialog.setSnapshot(snapshot);
        dialog.show();
        QTRY_COMPARE(dialog.previewText(), whole);
    }

    // A resumed session of 20,000 messages (a third of its results stubs) paints its last
    // screen first: before the first paint only the items near the end are laid out, the
    // others only estimated (the layouts come as the user scrolls).
    void aLongResumedConversationLaysOutOnlyItsLastScreen()
    {
        const QString output = numberedLines(5000);
        QList<Message> messages;
        for (int call = 1; messages.size() < 20000; ++call) {
            const QString id = QStringLiteral("c%1").arg(call);
            messages << Message::makeUser(QStringLiteral("Look at part %1.").arg(call))
                     << bashCall(id)
                     << SessionPages::stub(
                            Message::makeToolResult(id,
                                                    QStringLiteral("Bash"),
                                                    call % 3 == 0 ? output : QStringLiteral("ok\n"),
                                                    false));
            Message answer;
            answer.role = Message::Role::Assistant;
            answer.content = {AgentCore::ContentBlock::makeText(
                QStringLiteral("Part %1 is **fine**.\n\nNothing to change.").arg(call))};
            messages << answer;
        }
        ConversationView view;
        view.resize(900, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setMessages(messages);
        view.flush();
        int laidOut = 0;
        int firstLaidOut = -1;
        for (int i = 0; i < view.itemCount(); ++i) {
            if (view.itemAt(i)->hasLayout()) {
                ++laidOut;
                firstLaidOut = firstLaidOut < 0 ? i : firstLaidOut;
            }
        }
        QVERIFY(view.isStuckToBottom());
        QVERIFY2(laidOut > 0 && laidOut < 60, qPrintable(QString::number(laidOut)));
        QVERIFY(firstLaidOut > view.itemCount() - 60);
        QVERIFY(view.itemRect(view.itemCount() - 1).bottom() <= view.viewport()->height());
    }

private:
    std::unique_ptr<QTemporaryDir> m_dir;
};

AGENTDESK_TEST_MAIN(tst_PagedOutputs)

} // namespace tst_pagedoutputs

#include "tst_pagedoutputs.moc"
