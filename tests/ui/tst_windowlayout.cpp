// The window's layout as the user left it: size, splitters and the side panel come back at
// the next start; a first start fits a 1000x700 screen, and a review with a long command
// neither widens the window nor pushes its buttons out of it.
#include "../tools/toolstest.h"

#include <agentsession/agentsession.h>
#include <composer/composer.h>
#include <page/conversationpage.h>
#include <review/reviewanswerbar.h>
#include <review/reviewqueue.h>
#include <scriptedmodel.h>
#include <testmain.h>
#include <window/followuppanel.h>
#include <window/mainwindow.h>

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QFile>
#include <QLineEdit>
#include <QSettings>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QVBoxLayout>

namespace tst_windowlayout {

// Widgets whose minimum width is more than \a limit, for a failure's message: the culprits.
static QString windowLayoutWideWidgets(const QWidget *root, int limit)
{
    QStringList wide;
    const QList<QWidget *> children = root->findChildren<QWidget *>();
    for (const QWidget *widget : children) {
        if (widget->isVisibleTo(root) && widget->minimumSizeHint().width() > limit) {
            wide.append(QStringLiteral("%1(%2) %3")
                            .arg(QString::fromLatin1(widget->metaObject()->className()),
                                 widget->objectName())
                            .arg(widget->minimumSizeHint().width()));
        }
    }
    return wide.join(QStringLiteral(", "));
}

class tst_WindowLayout : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AgentDeskTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_windowlayout"));
    }
    void init() { QSettings().clear(); }
    void cleanup() { QSettings().clear(); }

    void layoutIsRestoredAtTheNextStart()
    {
        QList<int> centreSizes;
        QList<int> sideSizes;
        {
            Ui::MainWindow window;
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            window.resize(1040, 720);
            QTRY_COMPARE(window.size(), QSize(1040, 720));
            auto centre = window.findChild<QSplitter *>(QStringLiteral("centreSplitter"));
            auto side = window.findChild<QSplitter *>(QStringLiteral("sidePanel"));
            QVERIFY(centre && side);
            centre->setSizes({300, 420, 300});
            side->setSizes({400, 200});
            centreSizes = centre->sizes();
            sideSizes = side->sizes();
            window.close(); // as the user quits
        }
        Ui::MainWindow again;
        again.show();
        QVERIFY(QTest::qWaitForWindowExposed(&again));
        QTRY_COMPARE(again.size(), QSize(1040, 720));
        QCOMPARE(again.findChild<QSplitter *>(QStringLiteral("centreSplitter"))->sizes(),
                 centreSizes);
        QCOMPARE(again.findChild<QSplitter *>(QStringLiteral("sidePanel"))->sizes(), sideSizes);
    }

    void hiddenSidePanelStaysHidden()
    {
        {
            Ui::MainWindow window;
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            auto action = window.findChild<QAction *>(QStringLiteral("sidePanelAction"));
            QVERIFY(action && action->isChecked());
            QTest::keyClick(&window, Qt::Key_B, Qt::ControlModifier | Qt::ShiftModifier);
            QVERIFY(!action->isChecked());
            QVERIFY(!window.findChild<QSplitter *>(QStringLiteral("sidePanel"))->isVisible());
            window.close();
        }
        Ui::MainWindow again;
        again.show();
        QVERIFY(QTest::qWaitForWindowExposed(&again));
        QVERIFY(!again.findChild<QSplitter *>(QStringLiteral("sidePanel"))->isVisible());
        auto action = again.findChild<QAction *>(QStringLiteral("sidePanelAction"));
        QVERIFY(!action->isChecked());
        // And comes back with the keyboard.
        QTest::keyClick(&again, Qt::Key_B, Qt::ControlModifier | Qt::ShiftModifier);
        QVERIFY(again.findChild<QSplitter *>(QStringLiteral("sidePanel"))->isVisible());
    }

    void firstStartFitsASmallScreen()
    {
        Ui::MainWindow window;
        QVERIFY(window.minimumSizeHint().width() <= 1000);
        QVERIFY(window.minimumSizeHint().height() <= 700);
        window.resize(1000, 700);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_COMPARE(window.size(), QSize(1000, 700));
        // The conversation keeps half the width.
        auto page = window.conversationPage();
        QVERIFY2(page->width() >= 500, qPrintable(QString::number(page->width())));
        const int defaultPage = page->width();
        // Less when the user widens the side panels: what follows must fit even then.
        auto centre = window.findChild<QSplitter *>(QStringLiteral("centreSplitter"));
        centre->setSizes({220, 460, 300});
        QTRY_VERIFY(page->width() <= 470);

        // The message box is one line high while empty: its hint fits that line, both while
        // idle and while a task runs.
        Ui::Composer *composer = page->composer();
        const auto hintFits = [composer] {
            return composer->fontMetrics().horizontalAdvance(composer->placeholderText())
                   <= composer->viewport()->width();
        };
        QVERIFY2(hintFits(), qPrintable(composer->placeholderText()));
        QVERIFY(composer->placeholderText().startsWith(QStringLiteral("Ask the agent")));
        composer->setRunning(true);
        QVERIFY2(hintFits(), qPrintable(composer->placeholderText()));
        QVERIFY(composer->placeholderText().startsWith(QStringLiteral("Enter steers")));
        // A wide window shows every hint.
        window.resize(1600, 900);
        QTRY_COMPARE(composer->placeholderText(),
                     QStringLiteral("Enter steers the running task · Alt+Enter queues a "
                                    "follow-up · Esc stops"));

        // A review's feedback field, as wide as the conversation at 1000 pixels by default,
        // shows its whole placeholder.
        QWidget host;
        host.setFixedWidth(defaultPage - 30); // the review pane's margins and scroll bar
        auto layout = new QVBoxLayout(&host);
        auto bar = new Ui::ReviewAnswerBar(&host);
        layout->addWidget(bar);
        layout->addStretch();
        host.show();
        QVERIFY(QTest::qWaitForWindowExposed(&host));
        auto feedback = bar->findChild<QLineEdit *>(QStringLiteral("denyFeedback"));
        QVERIFY(feedback);
        const int needed = feedback->fontMetrics().horizontalAdvance(feedback->placeholderText());
        QVERIFY2(feedback->width() - 30 >= needed,
                 qPrintable(QStringLiteral("%1 < %2").arg(feedback->width()).arg(needed)));
    }

    // Issue #34: a window on a repository could not be narrower than 1186 pixels, and a Bash
    // command with a long title widened it by itself to 1568, its Apply button off a 1366
    // pixel screen. With the side panel shown or hidden, with a long command under review
    // (and a long writes review queued behind it), the window keeps its width and its
    // buttons.
    void longReviewsKeepTheWindowsWidth()
    {
        ToolsTest::Repo repo;
        QVERIFY(repo.isValid());
        QString command = QStringLiteral("cmake -B build -S . -DCMAKE_BUILD_TYPE=Release");
        while (command.size() < 400)
            command += QStringLiteral(" && printf '%s\\n' configured-the-long-build-tree-again");
        command += QStringLiteral(" > build/configure-log-with-a-long-name.txt");
        auto model = std::make_shared<TestSupport::ScriptedModel>(
            QList<TestSupport::ModelStep>{TestSupport::ModelStep::toolCall(QStringLiteral("b1"),
                                                                           QStringLiteral("Bash"),
                                                                           {{"command", command},
                                                                            {"description",
                                                                             command.left(300)}}),
                                          TestSupport::ModelStep::text(QStringLiteral("done"))});
        Ui::AgentSetup setup;
        setup.model.client = model;
        setup.model.label = QStringLiteral("scripted-model-with-a-rather-long-name (provider)");
        setup.options.systemPrompt = QStringLiteral("You are tested.");
        Ui::MainWindow window(setup);
        window.resize(1000, 700);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openRepository(repo.root()));
        QTRY_VERIFY(window.session()->agent());
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);

        auto sidePanel = window.findChild<QAction *>(QStringLiteral("sidePanelAction"));
        QVERIFY(sidePanel && sidePanel->isChecked());
        const auto minimumFits = [&window](int limit) {
            QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
            const int minimum = window.minimumSizeHint().width();
            return minimum <= limit ? QString()
                                    : QStringLiteral("minimum %1: %2")
                                          .arg(minimum)
                                          .arg(windowLayoutWideWidgets(&window, limit / 2));
        };
        QString wide = minimumFits(1000);
        QVERIFY2(wide.isEmpty(), qPrintable(wide));
        sidePanel->trigger();
        QVERIFY(!sidePanel->isChecked());
        wide = minimumFits(1000);
        QVERIFY2(wide.isEmpty(), qPrintable(wide));
        sidePanel->trigger();
        QVERIFY(sidePanel->isChecked());

        Ui::ConversationPage *page = window.conversationPage();
        QTest::keyClicks(page->composer(), QStringLiteral("Configure the build"));
        QTest::keyClick(page->composer(), Qt::Key_Return);
        QTRY_COMPARE(page->reviews()->count(), 1);
        // A command's writes, reviewed with the command as its title, waits behind it.
        AgentCore::PermissionRequest writes;
        writes.id = 990001;
        writes.toolName = QStringLiteral("Bash");
        writes.arguments.insert(QStringLiteral("command"), command);
        writes.commandOutput = QStringLiteral("configured");
        AgentCore::ShellWrite written;
        written.path = QStringLiteral("build/configure-log-with-a-long-name.txt");
        written.newType = AgentCore::ShellWrite::Type::File;
        written.newBytes = "configured\n";
        written.newSize = 11;
        writes.shellWrites = {written};
        page->reviews()->addRequest(writes);
        QTRY_COMPARE(page->reviews()->count(), 2);

        auto next = page->reviews()->findChild<QAbstractButton *>(QStringLiteral("nextRequest"));
        QVERIFY(next);
        // Each of the two reviews, at each width.
        for (const int width : {1000, 1366, -1000, -1366}) {
            if (width < 0 && page->reviews()->currentRequestId() != writes.id) {
                next->click();
                QCOMPARE(page->reviews()->currentRequestId(), writes.id);
            }
            window.resize(std::abs(width), 700);
            QTRY_COMPARE(window.width(), std::abs(width));
            QTest::qWait(50); // a layout pass that would widen the window
            QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
            QVERIFY2(window.width() == std::abs(width),
                     qPrintable(QStringLiteral("width %1: %2")
                                    .arg(window.width())
                                    .arg(windowLayoutWideWidgets(&window, 500))));
            wide = minimumFits(1000);
            QVERIFY2(wide.isEmpty(), qPrintable(wide));
            QWidget *review = page->reviews()->currentView();
            QVERIFY(review);
            auto apply = review->findChild<QAbstractButton *>(QStringLiteral("allowOnceButton"));
            QVERIFY(apply);
            QTRY_VERIFY(apply->isVisible());
            const QRect inWindow(apply->mapTo(&window, QPoint(0, 0)), apply->size());
            QVERIFY2(window.rect().contains(inWindow),
                     qPrintable(QStringLiteral("%1,%2 %3x%4 at width %5")
                                    .arg(inWindow.x())
                                    .arg(inWindow.y())
                                    .arg(inWindow.width())
                                    .arg(inWindow.height())
                                    .arg(width)));
        }
        window.session()->stop();
    }
};

static int windowLayoutMain(int argc, char **argv)
{
    // restoreGeometry() keeps a window on its screen: give the offscreen platform a screen of
    // a common laptop's size rather than its default 800x600.
    QTemporaryDir dir;
    const QString config = dir.filePath(QStringLiteral("screens.json"));
    QFile file(config);
    if (file.open(QIODevice::WriteOnly)) {
        file.write(R"({"screens":[{"name":"laptop","x":0,"y":0,"width":1920,"height":1080,)"
                   R"("logicalDpi":96,"logicalBaseDpi":96,"dpr":1}]})");
        file.close();
    }
    if (qEnvironmentVariable("QT_QPA_PLATFORM", QStringLiteral("offscreen"))
            .startsWith(QLatin1String("offscreen"))) {
        qputenv("QT_QPA_PLATFORM",
                QByteArray(QByteArray("offscreen:configfile=") + QFile::encodeName(config)));
    }
    QApplication app(argc, argv);
    tst_WindowLayout test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

AGENTDESK_TEST_ENTRY(windowLayoutMain)

} // namespace tst_windowlayout

#include "tst_windowlayout.moc"
