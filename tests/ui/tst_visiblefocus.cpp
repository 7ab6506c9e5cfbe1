// Issue #34, item 12: every stop of Tab in the window shows that it has the focus. The window
// on a repository after a finished task (cards in the conversation, rows in the sessions list
// and the changed files) and with a review waiting: Tab goes round the whole chain, and each
// widget it stops at is drawn differently with the keyboard focus than without it.
#include "../tools/toolstest.h"

#include <agentsession/agentsession.h>
#include <composer/composer.h>
#include <page/conversationpage.h>
#include <review/reviewqueue.h>
#include <scriptedmodel.h>
#include <testmain.h>
#include <window/changedfilespanel.h>
#include <window/mainwindow.h>

#include <QApplication>
#include <QImage>
#include <QStandardPaths>
#include <QTest>

namespace tst_visiblefocus {

using TestSupport::ModelStep;
using TestSupport::ScriptedModel;

class tst_VisibleFocus : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AgentDeskTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_visiblefocus"));
    }

    void everyTabStopShowsItsFocus()
    {
        ToolsTest::Repo repo;
        QVERIFY(repo.isValid());
        QVERIFY(repo.write(QStringLiteral("notes.txt"), "old\n"));
        auto model = std::make_shared<ScriptedModel>(
            QList<ModelStep>{ModelStep::toolCall(QStringLiteral("r1"),
                                                 QStringLiteral("Read"),
                                                 {{"file_path", "notes.txt"}}),
                             ModelStep::toolCall(QStringLiteral("w1"),
                                                 QStringLiteral("Write"),
                                                 {{"file_path", "notes.txt"}, {"content", "new\n"}}),
                             ModelStep::text(QStringLiteral("Written.")),
                             ModelStep::toolCall(QStringLiteral("w2"),
                                                 QStringLiteral("Write"),
                                                 {{"file_path", "more.txt"}, {"content", "more\n"}}),
                             ModelStep::waitForAbort()});
        Ui::AgentSetup setup;
        setup.model.client = model;
        setup.model.label = QStringLiteral("scripted");
        setup.options.systemPrompt = QStringLiteral("You are tested.");
        setup.options.permissions.mode = AgentCore::PermissionMode::AcceptEdits;
        Ui::MainWindow window(setup);
        window.resize(1200, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openRepository(repo.root()));
        QTRY_VERIFY(window.session()->agent());
        Ui::Composer *composer = window.conversationPage()->composer();
        QTest::keyClicks(composer, QStringLiteral("Update the notes"));
        QTest::keyClick(composer, Qt::Key_Return);
        QTRY_COMPARE(window.session()->state(), Ui::AgentSession::State::Idle);
        QTRY_VERIFY(!window.changedFilesPanel()->rows().isEmpty());
        // A second task waits for a review: its buttons are in the chain too.
        window.session()->setPermissionMode(AgentCore::PermissionMode::Default);
        QTest::keyClicks(composer, QStringLiteral("And more"));
        QTest::keyClick(composer, Qt::Key_Return);
        QTRY_COMPARE(window.conversationPage()->reviews()->count(), 1);
        QTest::qWait(100);

        composer->setFocus(Qt::TabFocusReason);
        QTRY_VERIFY(composer->hasFocus());
        QStringList invisible;
        QList<QWidget *> seen;
        for (int step = 0; step < 80; ++step) {
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
            QWidget *focused = QApplication::focusWidget();
            QVERIFY(focused);
            if (focused == composer || seen.contains(focused))
                break;
            seen.append(focused);
            QTest::qWait(20);
            const QImage with = focused->grab().toImage();
            // The same widget without the focus: the window keeps it, on the composer.
            composer->setFocus(Qt::TabFocusReason);
            QTest::qWait(20);
            const QImage without = focused->grab().toImage();
            focused->setFocus(Qt::TabFocusReason);
            QTRY_VERIFY(focused->hasFocus());
            if (with == without) {
                invisible.append(
                    QStringLiteral("%1(%2)").arg(QString::fromLatin1(
                                                     focused->metaObject()->className()),
                                                 focused->objectName()));
            }
        }
        QVERIFY2(seen.size() > 5, qPrintable(QString::number(seen.size())));
        QVERIFY2(invisible.isEmpty(), qPrintable(invisible.join(QStringLiteral(", "))));
        window.session()->stop();
        QTRY_COMPARE(window.session()->state(), Ui::AgentSession::State::Idle);
    }
};

AGENTDESK_TEST_MAIN(tst_VisibleFocus)

} // namespace tst_visiblefocus

#include "tst_visiblefocus.moc"
