// Issue #34, item 14: the look. The theme's named colours (ThemeColors) read in Light and Dark
// (WCAG AA for text against the background it is drawn on), the bars over the window and the
// status bar's bypass warning follow the theme as painted, and the style and icon theme are
// the desktop's where it has them: the startup style kept when it honours palettes, Fusion
// otherwise. Real widgets, offscreen, grabbed as the user would see them.

#include <common/themecolors.h>
#include <conversation/conversationstyle.h>
#include <review/diffhighlighter.h>
#include <settings/desktoplook.h>
#include <settings/theme.h>
#include <statusbar/agentstatusbar.h>
#include <testmain.h>
#include <window/rootuserbar.h>
#include <window/sandboxnoticebar.h>

#include <QApplication>
#include <QLabel>
#include <QMainWindow>
#include <QStyle>
#include <QTest>

using Ui::ThemeColors;

namespace tst_themelook {

namespace {

struct Pairing
{
    const char *what;
    QColor text;
    QColor background;
};

// Each text colour with every background it is drawn on.
QList<Pairing> textOnBackgrounds(const QPalette &palette)
{
    const Ui::ConversationStyle s(palette, QApplication::font());
    const Ui::DiffColors diff = Ui::DiffColors::fromPalette(palette);
    const QColor window = palette.color(QPalette::Window);
    return {
        {"text on the user's bubble", s.text, s.userBubble},
        {"text on the assistant's bubble", s.text, s.assistantBubble},
        {"text on a card", s.text, s.cardBackground},
        {"text in a code box", s.text, s.codeBackground},
        {"text on an added line", s.text, s.addedBackground},
        {"text on a removed line", s.text, s.removedBackground},
        {"muted on a card", s.muted, s.cardBackground},
        {"muted in a code box", s.muted, s.codeBackground},
        {"muted on the canvas", s.muted, s.canvas},
        {"error in a code box", s.error, s.codeBackground},
        {"error on a card", s.error, s.cardBackground},
        {"+N on a card", s.success, s.cardBackground},
        {"hunk in a code box", s.hunk, s.codeBackground},
        {"review: text on an added line", s.text, diff.addedLine},
        {"review: text on a changed word", s.text, diff.addedWord},
        {"review: text on a removed word", s.text, diff.removedWord},
        {"review: hunk header", diff.headerText, diff.header},
        {"review: line numbers on an added line", diff.gutterText, diff.addedLine},
        {"review: +N on the window", s.addedText, window},
        {"review: −N on the window", s.removedText, window},
        {"review: a risk on the window", s.warning, window},
        {"session: waiting on the window", s.attention, window},
        {"notice text", s.noticeText, s.noticeBackground},
        {"danger text", s.dangerText, s.dangerBackground},
    };
}

// The colour most of a widget is painted in, sampled where no text or icon is.
QColor paintedBackground(QWidget *widget)
{
    const QImage image = widget->grab().toImage();
    return image.pixelColor(image.width() - 2, image.height() / 2);
}

} // namespace

class tst_ThemeLook : public QObject
{
    Q_OBJECT

private slots:
    void cleanup() { Ui::applyTheme(Ui::Theme::System); }

    void textReadsOnItsBackgrounds_data()
    {
        QTest::addColumn<int>("theme");
        QTest::newRow("light") << int(Ui::Theme::Light);
        QTest::newRow("dark") << int(Ui::Theme::Dark);
    }
    void textReadsOnItsBackgrounds()
    {
        QFETCH(int, theme);
        Ui::applyTheme(Ui::Theme(theme));
        QWidget widget; // the palette a real widget gets
        for (const Pairing &pair : textOnBackgrounds(widget.palette())) {
            const qreal ratio = ThemeColors::contrast(pair.text, pair.background);
            if (ratio < 4.5)
                QFAIL(qPrintable(
                    QStringLiteral("%1: %2 on %3 is %4:1, under 4.5:1")
                        .arg(QLatin1String(pair.what), pair.text.name(), pair.background.name())
                        .arg(ratio, 0, 'f', 2)));
        }
        // Added and removed tell apart by more than their sign: clearly different tints.
        const ThemeColors colors = ThemeColors::of(widget.palette());
        QVERIFY(colors.addedBackground.hueF() != colors.removedBackground.hueF());
        QVERIFY(colors.addedBackground != colors.cardBackground);
        QVERIFY(colors.removedBackground != colors.cardBackground);
        // The cards stand out from the canvas behind them.
        QVERIFY(ThemeColors::contrast(colors.cardBorder, colors.canvas) > 1.2);
    }

    // The bars over the window take the theme's colours as painted: an amber notice reads
    // as dark in Dark and as light in Light, the red bar stays red with light text.
    void barsFollowTheTheme()
    {
        for (const Ui::Theme theme : {Ui::Theme::Light, Ui::Theme::Dark, Ui::Theme::Light}) {
            Ui::applyTheme(theme);
            const bool dark = theme == Ui::Theme::Dark;
            QMainWindow window;
            auto *column = new QWidget(&window);
            auto *notice = new Ui::SandboxNoticeBar(column);
            notice->showNotice(QStringLiteral("The sandbox for Bash is unavailable: because."));
            notice->resize(600, 60);
            window.setCentralWidget(column);
            auto *root = Ui::RootUserBar::addTo(&window, 0);
            window.resize(700, 300);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));

            const QColor noticeBackground = paintedBackground(notice);
            QVERIFY2(dark ? noticeBackground.lightness() < 100 : noticeBackground.lightness() > 180,
                     qPrintable(noticeBackground.name()));
            const QColor noticeText = notice
                                          ->findChild<QLabel *>(QStringLiteral("sandboxNoticeText"))
                                          ->palette()
                                          .color(QPalette::WindowText);
            QVERIFY2(ThemeColors::contrast(noticeText, noticeBackground) >= 4.5,
                     qPrintable(noticeText.name() + QStringLiteral(" on ")
                                + noticeBackground.name()));

            const QColor rootBackground = paintedBackground(root);
            QVERIFY2(rootBackground.hslHueF() < 0.05 || rootBackground.hslHueF() > 0.95,
                     qPrintable(rootBackground.name()));
            const QColor rootText = root->findChild<QLabel *>(QStringLiteral("rootUserBarText"))
                                        ->palette()
                                        .color(QPalette::WindowText);
            QVERIFY(ThemeColors::contrast(rootText, rootBackground) >= 4.5);
        }
    }

    // A bar already shown follows a change of theme in the settings, text and all.
    void barFollowsALiveSwitch()
    {
        Ui::applyTheme(Ui::Theme::Light);
        Ui::SandboxNoticeBar bar;
        bar.showNotice(QStringLiteral("The sandbox for Bash is unavailable: because."));
        bar.resize(600, 60);
        QVERIFY(QTest::qWaitForWindowExposed(&bar));
        QVERIFY(paintedBackground(&bar).lightness() > 180);
        Ui::applyTheme(Ui::Theme::Dark);
        QCoreApplication::processEvents();
        const QColor background = paintedBackground(&bar);
        QVERIFY2(background.lightness() < 100, qPrintable(background.name()));
        const QColor text = bar.findChild<QLabel *>(QStringLiteral("sandboxNoticeText"))
                                ->palette()
                                .color(QPalette::WindowText);
        QVERIFY2(ThemeColors::contrast(text, background) >= 4.5,
                 qPrintable(text.name() + QStringLiteral(" on ") + background.name()));
    }

    // The status bar's bypass warning: red with readable text in both themes.
    void bypassWarningReadsInBothThemes()
    {
        for (const Ui::Theme theme : {Ui::Theme::Light, Ui::Theme::Dark}) {
            Ui::applyTheme(theme);
            QMainWindow window;
            auto *bar = new Ui::AgentStatusBar(&window);
            window.setStatusBar(bar);
            window.setCentralWidget(new QWidget(&window));
            window.resize(1100, 300);
            bar->setPermissionMode(AgentCore::PermissionMode::Bypass);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            auto *warning = bar->findChild<QWidget *>(QStringLiteral("bypassWarning"));
            QVERIFY(warning->isVisible());
            const QColor background = paintedBackground(warning);
            const QColor text = warning->findChild<QLabel *>(QStringLiteral("bypassWarningText"))
                                    ->palette()
                                    .color(QPalette::WindowText);
            QVERIFY2(ThemeColors::contrast(text, background) >= 4.5,
                     qPrintable(text.name() + QStringLiteral(" on ") + background.name()));
        }
    }

    // Light and Dark recolour the style the desktop started with when it can be recoloured;
    // a style that ignores palettes gives way to Fusion. System keeps the startup style.
    void styleKeptWhenItHonoursPalettes()
    {
        using Ui::DesktopLook;
        for (const char *style : {"Breeze", "fusion", "Oxygen"}) {
            QVERIFY(DesktopLook::honoursPalettes(QLatin1String(style)));
            QCOMPARE(DesktopLook::styleFor(Ui::Theme::Dark, QLatin1String(style)),
                     QLatin1String(style));
            QCOMPARE(DesktopLook::styleFor(Ui::Theme::Light, QLatin1String(style)),
                     QLatin1String(style));
        }
        for (const char *style : {"Windows", "gtk2", "kvantum"}) {
            QVERIFY(!DesktopLook::honoursPalettes(QLatin1String(style)));
            QCOMPARE(DesktopLook::styleFor(Ui::Theme::Dark, QLatin1String(style)),
                     QStringLiteral("Fusion"));
            QCOMPARE(DesktopLook::styleFor(Ui::Theme::System, QLatin1String(style)),
                     QLatin1String(style));
        }
        // On KDE, where Qt fell back to Fusion and Breeze is installed: Breeze; not when the
        // user named a style, nor elsewhere, nor without Breeze.
        const QStringList withBreeze{QStringLiteral("Breeze"), QStringLiteral("Fusion")};
        QCOMPARE(DesktopLook::startupStyle(QStringLiteral("fusion"),
                                           QStringLiteral("KDE"),
                                           {},
                                           withBreeze),
                 QStringLiteral("Breeze"));
        QCOMPARE(DesktopLook::startupStyle(QStringLiteral("fusion"),
                                           QStringLiteral("KDE"),
                                           QStringLiteral("fusion"),
                                           withBreeze),
                 QStringLiteral("fusion"));
        QCOMPARE(DesktopLook::startupStyle(QStringLiteral("fusion"),
                                           QStringLiteral("GNOME"),
                                           {},
                                           withBreeze),
                 QStringLiteral("fusion"));
        QCOMPARE(DesktopLook::startupStyle(QStringLiteral("fusion"),
                                           QStringLiteral("KDE"),
                                           {},
                                           {QStringLiteral("Fusion")}),
                 QStringLiteral("fusion"));

        // The real application: started in Fusion here, it stays in it through every theme.
        const QString startup = QApplication::style()->name();
        QVERIFY(DesktopLook::honoursPalettes(startup));
        for (const Ui::Theme theme : {Ui::Theme::Dark, Ui::Theme::Light, Ui::Theme::System}) {
            Ui::applyTheme(theme);
            QCOMPARE(QApplication::style()->name(), startup);
        }
    }

    // The icon theme is one that is installed: the desktop's, else a known fallback.
    void iconThemeIsInstalled()
    {
        using Ui::DesktopLook;
        const QStringList installed{QStringLiteral("Adwaita"),
                                    QStringLiteral("breeze"),
                                    QStringLiteral("hicolor")};
        QCOMPARE(DesktopLook::iconTheme(QStringLiteral("breeze-dark"),
                                        QStringLiteral("KDE"),
                                        installed),
                 QStringLiteral("breeze"));
        QCOMPARE(DesktopLook::iconTheme(QStringLiteral("hicolor"),
                                        QStringLiteral("GNOME"),
                                        installed),
                 QStringLiteral("Adwaita"));
        QCOMPARE(DesktopLook::iconTheme(QStringLiteral("Adwaita"), QStringLiteral("KDE"), installed),
                 QStringLiteral("Adwaita")); // the user's choice, installed
        QCOMPARE(DesktopLook::iconTheme({}, {}, {QStringLiteral("hicolor")}), QString());
        QCOMPARE(DesktopLook::fallbackIconTheme(QStringLiteral("breeze"), installed),
                 QStringLiteral("Adwaita"));

        // This machine: after the first theme is applied, the theme named is installed.
        Ui::applyTheme(Ui::Theme::System);
        const QStringList here = DesktopLook::installedIconThemes();
        if (here.isEmpty() || here == QStringList{QStringLiteral("hicolor")})
            QSKIP("No icon theme is installed here.");
        QVERIFY2(here.contains(QIcon::themeName()), qPrintable(QIcon::themeName()));
        QVERIFY(!QIcon::fromTheme(QStringLiteral("document-new")).isNull());
    }
};

AGENTDESK_TEST_MAIN(tst_ThemeLook)

} // namespace tst_themelook

#include "tst_themelook.moc"
