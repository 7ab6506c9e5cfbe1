// A compaction in the window: its summary stands in for the messages it covers, which hide
// behind it until its toggle (mouse or Enter) shows them again in place; a resumed session
// with a compaction shows the same.
#include "../tools/toolstest.h"

#include <agentsession/agentsession.h>
#include <context/compaction.h>
#include <conversation/compactionitem.h>
#include <conversation/conversationitem.h>
#include <conversation/conversationview.h>
#include <futureresult.h>
#include <page/conversationpage.h>
#include <scriptedmodel.h>
#include <session/sessionlog.h>
#include <session/sessionstore.h>
#include <testmain.h>
#include <window/mainwindow.h>

#include <QAccessible>
#include <QScrollBar>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace AgentCore;
namespace tst_compactionview {

using TestSupport::ScriptedModel;
using Ui::CompactionItem;
using Ui::ConversationItem;
using Ui::ConversationView;

namespace {

constexpr int runTimeoutMs = 15'000;

Message userMessage(const QString &text)
{
    Message message;
    message.role = Message::Role::User;
    message.content << ContentBlock::makeText(text);
    return message;
}

Message assistantMessage(const QString &text)
{
    Message message;
    message.role = Message::Role::Assistant;
    message.content << ContentBlock::makeText(text);
    message.stopReason = StopReason::Stop;
    return message;
}

Message compactionMessage(qsizetype coveredCount,
                          const QString &summary,
                          const QString &instructions = {})
{
    Compaction compaction;
    compaction.summary = summary;
    compaction.coveredCount = coveredCount;
    compaction.instructions = instructions;
    compaction.model = QStringLiteral("claude-sonnet-4");
    compaction.provider = QStringLiteral("anthropic");
    compaction.usage.input = 12'000;
    compaction.usage.output = 800;
    compaction.usage.cost = 0.048;
    return compaction.toMessage();
}

/// \a turns exchanges "task i" / "answer i".
QList<Message> exchanges(int turns)
{
    QList<Message> messages;
    for (int i = 0; i < turns; ++i) {
        messages << userMessage(QStringLiteral("task %1").arg(i))
                 << assistantMessage(QStringLiteral("answer %1").arg(i));
    }
    return messages;
}

/// The first lines of the items the view shows (not hidden behind a summary), in order; a
/// summary as "Summary of N" (its title's plural is the English translation's).
QStringList shownTexts(const ConversationView &view)
{
    QStringList texts;
    for (int i = 0; i < view.itemCount(); ++i) {
        if (!view.isItemShown(i))
            continue;
        const ConversationItem *item = view.itemAt(i);
        if (item->kind() == ConversationItem::Kind::Compaction) {
            const auto summary = static_cast<const CompactionItem *>(item);
            texts << QStringLiteral("Summary of %1").arg(summary->compaction().coveredCount);
            continue;
        }
        texts << item->plainText().section(QLatin1Char('\n'), 0, 0);
    }
    return texts;
}

const CompactionItem *compactionAt(const ConversationView &view, int nth = 0)
{
    for (int i = 0, seen = 0; i < view.itemCount(); ++i) {
        if (view.itemAt(i)->kind() == ConversationItem::Kind::Compaction && seen++ == nth)
            return static_cast<const CompactionItem *>(view.itemAt(i));
    }
    return nullptr;
}

AgentEvent endEvent(const Message &message)
{
    AgentEvent event;
    event.type = AgentEvent::Type::MessageEnd;
    event.message = message;
    return event;
}

} // namespace

class tst_CompactionView : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AgentDeskTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_compactionview"));
    }
    void init()
    {
        m_view = std::make_unique<ConversationView>();
        m_view->resize(640, 480);
        m_view->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_view.get()));
    }
    void cleanup()
    {
        m_window.reset();
        m_view.reset();
        m_repo.reset();
    }

    void summaryHidesTheCoveredMessages()
    {
        QList<Message> messages = exchanges(3);
        messages << compactionMessage(4,
                                      QStringLiteral("The user asked for two things."),
                                      QStringLiteral("keep the API design discussion"));
        view().setMessages(messages);
        view().flush();

        // The summary sits where the covered messages were, before the kept turn.
        QCOMPARE(shownTexts(view()),
                 (QStringList{QStringLiteral("Summary of 4"),
                              QStringLiteral("task 2"),
                              QStringLiteral("answer 2")}));
        const CompactionItem *summary = compactionAt(view());
        QVERIFY(summary);
        QVERIFY(summary->title().startsWith(QStringLiteral("Summary of 4 earlier message")));
        QVERIFY(summary->plainText().contains(QStringLiteral("The user asked for two things.")));
        QVERIFY(summary->byline().contains(QStringLiteral("claude-sonnet-4")));
        QVERIFY(summary->byline().contains(QStringLiteral("$0.05")));
        QVERIFY(summary->plainText().contains(QStringLiteral("keep the API design discussion")));
        QVERIFY(summary->originalsToggleText().startsWith(QStringLiteral("Show the 4 original")));
        QVERIFY(summary->originalsToggleText().endsWith(QStringLiteral("(Enter)")));
        // Hidden items take no room and a screen reader is told they are not there.
        const int hidden = 0;
        QVERIFY(!view().isItemShown(hidden));
        QCOMPARE(view().itemRect(hidden).height(), 0);
        QAccessibleInterface *list = QAccessible::queryAccessibleInterface(m_view.get());
        QVERIFY(list->child(hidden)->state().invisible);
        QVERIFY(!list->child(view().indexOf(summary))->state().invisible);
    }

    void toggleShowsTheOriginalsInPlace()
    {
        QList<Message> messages = exchanges(40);
        messages << compactionMessage(58, QStringLiteral("Summary text."));
        view().setMessages(messages);
        view().flush();
        const CompactionItem *summary = compactionAt(view());
        const int index = view().indexOf(summary);
        QCOMPARE(index, 58);
        QCOMPARE(shownTexts(view()).size(), 23); // the summary and the 22 messages it keeps
        QCOMPARE(shownTexts(view()).first(), QStringLiteral("Summary of 58"));
        QCOMPARE(shownTexts(view()).at(1), QStringLiteral("task 29"));
        view().verticalScrollBar()->setValue(0);
        view().flush();
        const QRect toggle = summary->originalsToggleRect().translated(
            view().itemRect(index).topLeft());
        QVERIFY(!toggle.isEmpty());
        const int summaryTop = view().itemRect(index).top();
        QTest::mouseClick(view().viewport(), Qt::LeftButton, {}, toggle.center());
        view().flush();
        QVERIFY(summary->originalsShown());
        const QStringList shown = shownTexts(view());
        QCOMPARE(shown.size(), 81);
        QCOMPARE(shown.first(), QStringLiteral("task 0"));
        QCOMPARE(shown.at(57), QStringLiteral("answer 28"));
        QCOMPARE(shown.at(58), QStringLiteral("Summary of 58"));
        // The originals appear above it: the summary stays under the pointer, and it says the
        // model no longer sees them.
        QCOMPARE(view().itemRect(index).top(), summaryTop);
        QVERIFY(summary->originalsToggleText().contains(QStringLiteral("no longer sent")));
        QVERIFY(view().itemAt(0)->coveredBy() == summary);
        QVERIFY(view().itemRect(0).height() > 0);

        const QRect hide = summary->originalsToggleRect().translated(
            view().itemRect(index).topLeft());
        QTest::mouseClick(view().viewport(), Qt::LeftButton, {}, hide.center());
        view().flush();
        QCOMPARE(shownTexts(view()).size(), 23);
        QCOMPARE(view().itemRect(index).top(), summaryTop);
    }

    void liveCompactionCollapsesWhatItCovers()
    {
        const QList<Message> messages = exchanges(3);
        for (const Message &message : messages)
            view().apply(endEvent(message));
        view().flush();
        QCOMPARE(shownTexts(view()).size(), 6);
        view().apply(endEvent(compactionMessage(2, QStringLiteral("First summary."))));
        view().flush();
        QCOMPARE(shownTexts(view()),
                 (QStringList{QStringLiteral("Summary of 2"),
                              QStringLiteral("task 1"),
                              QStringLiteral("answer 1"),
                              QStringLiteral("task 2"),
                              QStringLiteral("answer 2")}));

        // A later compaction covers the earlier one too: that is raw message 6, this one covers
        // 0..6 and keeps task 3 and answer 3.
        view().apply(endEvent(userMessage(QStringLiteral("task 3"))));
        view().apply(endEvent(assistantMessage(QStringLiteral("answer 3"))));
        view().apply(endEvent(compactionMessage(7, QStringLiteral("Second summary."))));
        view().flush();
        QCOMPARE(shownTexts(view()),
                 (QStringList{QStringLiteral("Summary of 7"),
                              QStringLiteral("task 3"),
                              QStringLiteral("answer 3")}));
        const CompactionItem *first = compactionAt(view(), 0);
        const CompactionItem *second = compactionAt(view(), 1);
        QCOMPARE(first->coveredBy(), second);
        const_cast<CompactionItem *>(second)->setOriginalsShown(true);
        view().flush();
        QCOMPARE(shownTexts(view()).size(), 10); // 8 messages, the first summary, the second
    }

    // What a compaction covers was laid out while it was shown; collapsed behind the summary it
    // has no height and sits beside what is shown, never "far": its layouts (and a live
    // session's hundreds of summaries) must go all the same.
    void coveredItemsLetTheirLayoutsGo()
    {
        for (int round = 0; round < 3; ++round) {
            for (const Message &message : exchanges(3))
                view().apply(endEvent(message));
            view().flush();
            view().repaint();
            const qsizetype raw = (round + 1) * 7 - 1; // 6 exchanges, a summary each round
            view().apply(endEvent(compactionMessage(raw, QStringLiteral("Summary."))));
            view().flush();
            view().repaint();
        }
        int collapsed = 0;
        for (int i = 0; i < view().itemCount(); ++i) {
            const ConversationItem *item = view().itemAt(i);
            if (!item->isCollapsed())
                continue;
            ++collapsed;
            QVERIFY2(!item->hasLayout(), qPrintable(QStringLiteral("item %1").arg(i)));
        }
        QVERIFY(collapsed >= 14);
    }

    void keyboardTogglesTheSummaryOnScreen()
    {
        QList<Message> messages = exchanges(3);
        messages << compactionMessage(4, QStringLiteral("line\n").repeated(20));
        view().setMessages(messages);
        view().flush();
        const CompactionItem *summary = compactionAt(view());
        QVERIFY(summary->summaryIsLong());
        const int collapsedHeight = view().itemRect(view().indexOf(summary)).height();

        // Tab reaches the conversation; Enter shows the originals, again hides them.
        view().setFocus(Qt::TabFocusReason);
        QTRY_VERIFY(view().hasFocus());
        QTest::keyClick(&view(), Qt::Key_Return);
        view().flush();
        QVERIFY(summary->originalsShown());
        QCOMPARE(shownTexts(view()).size(), 7);
        QVERIFY(view().viewport()->rect().intersects(view().itemRect(view().indexOf(summary))));
        QTest::keyClick(&view(), Qt::Key_Enter);
        view().flush();
        QVERIFY(!summary->originalsShown());
        QCOMPARE(shownTexts(view()).size(), 3);

        // Space shows the whole summary.
        QTest::keyClick(&view(), Qt::Key_Space);
        view().flush();
        QVERIFY(summary->summaryExpanded());
        QVERIFY(view().itemRect(view().indexOf(summary)).height() > collapsedHeight);
    }

    void twoThousandMessagesToggleWithoutRebuilding()
    {
        QList<Message> messages = exchanges(1000);
        messages << compactionMessage(1990, QStringLiteral("Almost everything."));
        view().setMessages(messages);
        view().flush();
        QCOMPARE(view().itemCount(), 2001);
        QCOMPARE(shownTexts(view()).size(), 11);
        const ConversationItem *firstBefore = view().itemAt(0);
        CompactionItem *summary = const_cast<CompactionItem *>(compactionAt(view()));
        summary->setOriginalsShown(true);
        view().flush();
        // The same items, now shown: nothing was rebuilt, and only the screenful is laid out.
        QCOMPARE(view().itemAt(0), firstBefore);
        QCOMPARE(shownTexts(view()).size(), 2001);
        int laidOut = 0;
        for (int i = 0; i < view().itemCount(); ++i)
            laidOut += view().itemAt(i)->hasLayout() ? 1 : 0;
        QVERIFY2(laidOut < 150, qPrintable(QString::number(laidOut)));
    }

    void resumedSessionShowsTheSummary()
    {
        m_repo = std::make_unique<ToolsTest::Repo>();
        QVERIFY(m_repo->isValid());
        QTemporaryDir sessions;
        const QString path = sessions.filePath(QStringLiteral("20260101-compacted.jsonl"));
        {
            QString error;
            auto log = SessionLog::open(path, SessionStore::newHeader(m_repo->root()), &error);
            QVERIFY2(log, qPrintable(error));
            QList<Message> messages = exchanges(3);
            messages << compactionMessage(4, QStringLiteral("What happened before."));
            for (const Message &message : std::as_const(messages))
                QVERIFY2(log->appendMessage(message, &error), qPrintable(error));
        }
        Ui::AgentSetup setup;
        setup.model.client = std::make_shared<ScriptedModel>(QList<TestSupport::ModelStep>{});
        setup.model.label = QStringLiteral("scripted");
        setup.sessionsDirectory = sessions.path();
        m_window = std::make_unique<Ui::MainWindow>(setup);
        m_window->resize(1000, 700);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        QVERIFY(m_window->openRepository(m_repo->root()));
        QVERIFY(TestSupport::futureResult(m_window->resumeSession(path)));
        ConversationView *shown = m_window->conversationPage()->conversation();
        QTRY_VERIFY_WITH_TIMEOUT(m_window->session()->agent(), runTimeoutMs);
        shown->flush();
        QCOMPARE(shownTexts(*shown),
                 (QStringList{QStringLiteral("Summary of 4"),
                              QStringLiteral("task 2"),
                              QStringLiteral("answer 2")}));
        shown->setFocus(Qt::TabFocusReason);
        QTest::keyClick(shown, Qt::Key_Return);
        shown->flush();
        QCOMPARE(shownTexts(*shown).size(), 7);
        m_window.reset(); // before its sessions folder goes
    }

private:
    ConversationView &view() { return *m_view; }

    std::unique_ptr<ConversationView> m_view;
    std::unique_ptr<ToolsTest::Repo> m_repo;
    std::unique_ptr<Ui::MainWindow> m_window;
};

AGENTDESK_TEST_MAIN(tst_CompactionView)

} // namespace tst_compactionview

#include "tst_compactionview.moc"
