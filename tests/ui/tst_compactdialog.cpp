// "Compact now": the dialog previews what a compaction would summarise and keep, says why it
// cannot compact when it cannot, and hands the user's instructions on; the window opens it
// from the Agent menu and Ctrl+Shift+K.
#include "../tools/toolstest.h"

#include <agentsession/agentsession.h>
#include <context/compaction.h>
#include <context/tokenestimate.h>
#include <contextview/compactdialog.h>
#include <conversation/conversationitem.h>
#include <conversation/conversationview.h>
#include <page/conversationpage.h>
#include <scriptedmodel.h>
#include <session/sessionlog.h>
#include <testmain.h>
#include <window/mainwindow.h>

#include <QAction>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace AgentCore;
namespace tst_compactdialog {

using Ui::CompactDialog;

namespace {

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

QList<Message> exchanges(int turns)
{
    QList<Message> messages;
    for (int i = 0; i < turns; ++i) {
        messages << userMessage(QStringLiteral("task %1\nmore detail").arg(i))
                 << assistantMessage(QStringLiteral("answer %1").arg(i));
    }
    return messages;
}

QStringList texts(const QListWidget *list)
{
    QStringList lines;
    for (int i = 0; i < list->count(); ++i)
        lines << list->item(i)->text();
    return lines;
}

bool hasCompaction(const Ui::ConversationView *view)
{
    for (int i = 0; i < view->itemCount(); ++i) {
        if (view->itemAt(i)->kind() == Ui::ConversationItem::Kind::Compaction)
            return true;
    }
    return false;
}

} // namespace

class tst_CompactDialog : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AgentDeskTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_compactdialog"));
    }

    void previewShowsBothSides()
    {
        CompactDialog dialog;
        const QList<Message> conversation = exchanges(5);
        // Nothing fits a budget of one token: all but the latest turn (the last reply) goes.
        dialog.setConversation(conversation, {}, 1);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        const auto plan = planCompaction(conversation, {}, 1);
        QVERIFY(plan);
        QCOMPARE(dialog.summarisedList()->count(), 9);
        QCOMPARE(dialog.keptList()->count(), 1);
        QCOMPARE(texts(dialog.keptList()), QStringList{QStringLiteral("Agent: answer 4")});
        QCOMPARE(dialog.summarisedList()->item(0)->text(), QStringLiteral("You: task 0"));
        const QString tokens = QString::number(plan->summarisedTokens);
        // (The plural is the English translation's: "9 message(s)" until it has the entry.)
        QVERIFY(dialog.summarisedFigures().startsWith(QStringLiteral("9 message")));
        QVERIFY(
            dialog.summarisedFigures().endsWith(QStringLiteral(", about %1 tokens").arg(tokens)));
        QVERIFY(dialog.findChild<QLabel *>(QStringLiteral("summarisedHeading"))
                    ->text()
                    .contains(dialog.summarisedFigures()));
        QVERIFY(dialog.keptFigures().startsWith(QStringLiteral("1 message")));
        QVERIFY(dialog.keptFigures().endsWith(
            QStringLiteral(", about %1 tokens").arg(plan->keptTokens)));
        QVERIFY(dialog.compactButton()->isEnabled());
        QVERIFY(dialog.disabledReason().isEmpty());
        QVERIFY(!dialog.findChild<QLabel *>(QStringLiteral("compactDisabledReason"))->isVisible());

        // A generous budget keeps everything but the first turn.
        dialog.setConversation(conversation, {}, 1'000'000);
        QCOMPARE(dialog.summarisedList()->count(), 1);
        QCOMPARE(dialog.keptList()->count(), 9);
    }

    void earlierSummaryIsListedAsSuch()
    {
        QList<Message> conversation = exchanges(3);
        Compaction compaction;
        compaction.summary = QStringLiteral("The user set up the project.");
        compaction.coveredCount = 2;
        conversation << compaction.toMessage() << exchanges(2);
        CompactDialog dialog;
        dialog.setConversation(conversation, {}, 1);
        QVERIFY(dialog.summarisedList()->count() > 1);
        QCOMPARE(dialog.summarisedList()->item(0)->text(),
                 QStringLiteral("Earlier summary: The user set up the project."));
    }

    void nothingToCompactSaysWhy()
    {
        CompactDialog dialog;
        dialog.setConversation(exchanges(1).mid(0, 1), {}, 1);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QVERIFY(!dialog.compactButton()->isEnabled());
        QVERIFY(dialog.disabledReason().startsWith(QStringLiteral("Nothing to compact yet")));
        auto reason = dialog.findChild<QLabel *>(QStringLiteral("compactDisabledReason"));
        QVERIFY(reason->isVisible());
        QCOMPARE(reason->text(), dialog.disabledReason());
        QCOMPARE(dialog.summarisedList()->count(), 0);

        // Enter does not compact either.
        QSignalSpy requested(&dialog, &CompactDialog::compactRequested);
        QTest::keyClick(dialog.instructionsEdit(), Qt::Key_Return);
        QCOMPARE(requested.count(), 0);
    }

    void blockedWhileTheAgentWorks()
    {
        CompactDialog dialog;
        dialog.setConversation(exchanges(4), {}, 1);
        dialog.setBlockedReason(QStringLiteral("The agent is working."));
        QVERIFY(!dialog.compactButton()->isEnabled());
        QCOMPARE(dialog.disabledReason(), QStringLiteral("The agent is working."));
        QCOMPARE(dialog.summarisedList()->count(), 7); // the preview still shows
        dialog.setBlockedReason({});
        QVERIFY(dialog.compactButton()->isEnabled());
    }

    void compactEmitsTheInstructions()
    {
        CompactDialog dialog;
        dialog.setConversation(exchanges(4), {}, 1);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QSignalSpy requested(&dialog, &CompactDialog::compactRequested);
        QTRY_VERIFY(dialog.instructionsEdit()->hasFocus());
        QTest::keyClicks(dialog.instructionsEdit(),
                         QStringLiteral("keep the API design discussion"));
        QTest::keyClick(dialog.instructionsEdit(), Qt::Key_Return); // the default button
        QCOMPARE(requested.count(), 1);
        QCOMPARE(requested.at(0).at(0).toString(), QStringLiteral("keep the API design discussion"));
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QVERIFY(!dialog.isVisible());
    }

    void cancelEmitsNothing()
    {
        CompactDialog dialog;
        dialog.setConversation(exchanges(4), {}, 1);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QSignalSpy requested(&dialog, &CompactDialog::compactRequested);
        QTest::keyClick(&dialog, Qt::Key_Escape);
        QCOMPARE(requested.count(), 0);
        QCOMPARE(dialog.result(), int(QDialog::Rejected));
    }

    void windowCompactsWithTheInstructions()
    {
        ToolsTest::Repo repo;
        QVERIFY(repo.isValid());
        QTemporaryDir sessions;
        auto model = std::make_shared<TestSupport::ScriptedModel>(QList<TestSupport::ModelStep>{
            TestSupport::ModelStep::text(QStringLiteral("The user asked for task 0."))});
        Ui::AgentSetup setup;
        setup.model.client = model;
        setup.model.label = QStringLiteral("scripted");
        setup.sessionsDirectory = sessions.path();
        auto window = std::make_unique<Ui::MainWindow>(setup);
        window->resize(1000, 700);
        window->show();
        QVERIFY(QTest::qWaitForWindowExposed(window.get()));
        QVERIFY(window->openRepository(repo.root()));
        QTRY_VERIFY_WITH_TIMEOUT(window->session()->agent(), 15'000);
        QTRY_COMPARE(window->session()->state(), Ui::AgentSession::State::Idle);
        // As a resumed session would have it: the agent's conversation and the window's.
        QVERIFY(window->session()->agent()->setMessages(exchanges(3)));
        Ui::ConversationView *view = window->conversationPage()->conversation();
        view->setMessages(exchanges(3));

        // Agent > Compact Conversation…, by its shortcut.
        QSignalSpy requested(window.get(), &Ui::MainWindow::compactRequested);
        window->activateWindow();
        QTest::keyClick(window.get(), Qt::Key_K, Qt::ControlModifier | Qt::ShiftModifier);
        CompactDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = window->findChild<CompactDialog *>()) && dialog->isVisible());
        QCOMPARE(dialog->summarisedList()->count() + dialog->keptList()->count(), 6);
        QVERIFY(dialog->compactButton()->isEnabled());
        QTest::keyClicks(dialog->instructionsEdit(), QStringLiteral("keep the tests"));
        QTest::keyClick(dialog->instructionsEdit(), Qt::Key_Return);
        QCOMPARE(requested.count(), 1);
        QCOMPARE(requested.at(0).at(0).toString(), QStringLiteral("keep the tests"));

        // The summary request went to the session's model; the compaction is appended, shown
        // and written to the session file.
        QTRY_COMPARE_WITH_TIMEOUT(window->session()->agent()->messages().size(), 7, 15'000);
        const Message appended = window->session()->agent()->messages().constLast();
        const std::optional<Compaction> compaction = Compaction::of(appended);
        QVERIFY(compaction);
        QCOMPARE(compaction->summary, QStringLiteral("The user asked for task 0."));
        QCOMPARE(compaction->instructions, QStringLiteral("keep the tests"));
        QVERIFY(model->callCount() >= 1);
        QTRY_VERIFY(hasCompaction(view));
        QVERIFY(!view->isItemShown(0)); // task 0, behind the summary
        const QString path = window->session()->sessionPath();
        QTRY_VERIFY(QFile::exists(path));
        window.reset();
        QString error;
        const auto contents = SessionLog::load(path, &error);
        QVERIFY2(contents, qPrintable(error));
        QVERIFY(!contents->messages.isEmpty());
        QVERIFY(Compaction::of(contents->messages.constLast()));
    }
};

AGENTDESK_TEST_MAIN(tst_CompactDialog)

} // namespace tst_compactdialog

#include "tst_compactdialog.moc"
