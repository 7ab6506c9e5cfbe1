#include "theme.h"

#include "desktoplook.h"

#include <QApplication>
#include <QPalette>
#include <QStyle>
#include <QStyleFactory>

namespace Ui {

namespace {

struct StartupLook
{
    QString styleName;
    QPalette palette;
};

// The desktop's look, taken once: its style (Breeze on KDE where Qt started without it) and
// icon theme applied, then remembered with the palette for Theme::System.
const StartupLook &startupLook()
{
    static const StartupLook look = [] {
        DesktopLook::applyToApplication();
        return StartupLook{QApplication::style()->name(), QApplication::palette()};
    }();
    return look;
}

void setColors(QPalette &palette,
               QPalette::ColorRole role,
               const QColor &active,
               const QColor &disabled)
{
    palette.setColor(QPalette::Active, role, active);
    palette.setColor(QPalette::Inactive, role, active);
    palette.setColor(QPalette::Disabled, role, disabled);
}

QPalette darkPalette()
{
    QPalette palette;
    const QColor window(0x2b, 0x2d, 0x30);
    const QColor base(0x1e, 0x1f, 0x22);
    const QColor text(0xdf, 0xe1, 0xe5);
    const QColor disabledText(0x7a, 0x7e, 0x85);
    setColors(palette, QPalette::Window, window, window);
    setColors(palette, QPalette::WindowText, text, disabledText);
    setColors(palette, QPalette::Base, base, window);
    setColors(palette, QPalette::AlternateBase, QColor(0x26, 0x28, 0x2b), window);
    setColors(palette, QPalette::Text, text, disabledText);
    setColors(palette, QPalette::PlaceholderText, QColor(0x8c, 0x90, 0x96), disabledText);
    setColors(palette, QPalette::Button, QColor(0x3c, 0x3f, 0x41), window);
    setColors(palette, QPalette::ButtonText, text, disabledText);
    setColors(palette, QPalette::BrightText, QColor(0xff, 0x6b, 0x68), disabledText);
    setColors(palette, QPalette::ToolTipBase, QColor(0x3c, 0x3f, 0x41), window);
    setColors(palette, QPalette::ToolTipText, text, disabledText);
    // Light enough on the dark base to read, with white text on the highlight.
    setColors(palette, QPalette::Highlight, QColor(0x2f, 0x65, 0xca), QColor(0x45, 0x48, 0x4d));
    setColors(palette, QPalette::HighlightedText, Qt::white, disabledText);
    setColors(palette, QPalette::Link, QColor(0x6c, 0xa8, 0xff), disabledText);
    setColors(palette, QPalette::LinkVisited, QColor(0xb1, 0x8c, 0xf0), disabledText);
    setColors(palette, QPalette::Light, QColor(0x4a, 0x4d, 0x51), QColor(0x4a, 0x4d, 0x51));
    setColors(palette, QPalette::Midlight, QColor(0x3f, 0x42, 0x46), QColor(0x3f, 0x42, 0x46));
    setColors(palette, QPalette::Mid, QColor(0x33, 0x35, 0x38), QColor(0x33, 0x35, 0x38));
    setColors(palette, QPalette::Dark, QColor(0x1a, 0x1b, 0x1d), QColor(0x1a, 0x1b, 0x1d));
    setColors(palette, QPalette::Shadow, QColor(0x0f, 0x0f, 0x10), QColor(0x0f, 0x0f, 0x10));
    return palette;
}

QPalette lightPalette(const QStyle &style)
{
    QPalette palette = style.standardPalette();
    setColors(palette, QPalette::Highlight, QColor(0x30, 0x8c, 0xc6), QColor(0xd0, 0xd0, 0xd0));
    setColors(palette, QPalette::HighlightedText, Qt::white, QColor(0x80, 0x80, 0x80));
    setColors(palette, QPalette::Link, QColor(0x0b, 0x5c, 0xad), QColor(0x80, 0x80, 0x80));
    setColors(palette, QPalette::LinkVisited, QColor(0x6a, 0x3d, 0x9a), QColor(0x80, 0x80, 0x80));
    return palette;
}

} // namespace

void applyTheme(Theme theme)
{
    const StartupLook &startup = startupLook();
    const QString styleName = DesktopLook::styleFor(theme, startup.styleName);
    if (QApplication::style()->name().compare(styleName, Qt::CaseInsensitive) != 0) {
        if (QStyle *style = QStyleFactory::create(styleName))
            QApplication::setStyle(style); // takes ownership
    }
    switch (theme) {
    case Theme::System:
        QApplication::setPalette(startup.palette);
        break;
    case Theme::Light:
        QApplication::setPalette(lightPalette(*QApplication::style()));
        break;
    case Theme::Dark:
        QApplication::setPalette(darkPalette());
        break;
    }
}

} // namespace Ui
