// The window's layout as the user left it: size, splitters and the side panel come back at
// the next start; a first start fits a 1000x700 screen.
#include <followuppanel.h>
#include <mainwindow.h>

#include <QAction>
#include <QApplication>
#include <QFile>
#include <QSettings>
#include <QSplitter>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

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
        // The conversation keeps most of the width.
        QVERIFY(window.findChild<QWidget *>(QStringLiteral("sidePanel"))->width() < 330);
    }
};

int main(int argc, char **argv)
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

#include "tst_windowlayout.moc"
