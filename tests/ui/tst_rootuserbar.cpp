// A window started as root says so in a bar above everything else (files it writes will belong
// to root), on the real main window; any other user gets no bar.
#include <testmain.h>
#include <window/mainwindow.h>
#include <window/rootuserbar.h>

#include <QImage>
#include <QLabel>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>

namespace tst_rootuserbar {

class tst_RootUserBar : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AgentDeskTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_rootuserbar"));
        QSettings().clear();
    }

    void rootSeesTheBarAboveTheConversation_data()
    {
        QTest::addColumn<int>("width");
        QTest::newRow("wide window") << 1200;
        QTest::newRow("narrow window: the text wraps") << 520;
    }

    void rootSeesTheBarAboveTheConversation()
    {
        QFETCH(int, width);
        Ui::MainWindow window;
        Ui::RootUserBar *bar = Ui::RootUserBar::addTo(&window, 0);
        QVERIFY(bar);
        window.resize(width, 700);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));

        QVERIFY(bar->isVisible());
        QVERIFY(bar->text().contains(QStringLiteral("runs as root")));
        QVERIFY(bar->text().contains(QStringLiteral("will belong to root")));
        // Above the conversation (still there, below it), across the window's width.
        const auto splitter = window.findChild<QWidget *>(QStringLiteral("centreSplitter"));
        QVERIFY(splitter && splitter->isVisible());
        const QRect barRect(bar->mapTo(&window, QPoint()), bar->size());
        QVERIFY2(barRect.bottom() < splitter->mapTo(&window, QPoint()).y(),
                 "the bar is not above the conversation");
        QCOMPARE(barRect.width(), window.width());
        // All of the text fits: a narrow window wraps it instead of cutting it.
        const auto label = bar->findChild<QLabel *>(QStringLiteral("rootUserBarText"));
        QVERIFY(label->height() >= label->heightForWidth(label->width()));
        // What the user sees: the bar's red, in the pixels of the window.
        const QImage image = window.grab().toImage();
        QCOMPARE(QColor(image.pixel(barRect.right() - 2, barRect.center().y())),
                 QColor(0xb4, 0x23, 0x18));
    }

    void otherUsersSeeNoBar_data()
    {
        QTest::addColumn<uint>("userId");
        QTest::newRow("first user") << 1000u;
        QTest::newRow("nobody") << 65534u;
        QTest::newRow("uid 1") << 1u;
    }

    void otherUsersSeeNoBar()
    {
        QFETCH(uint, userId);
        Ui::MainWindow window;
        QVERIFY(!Ui::RootUserBar::addTo(&window, userId));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.findChildren<Ui::RootUserBar *>().isEmpty());
    }
};

AGENTDESK_TEST_MAIN(tst_RootUserBar)

} // namespace tst_rootuserbar

#include "tst_rootuserbar.moc"
