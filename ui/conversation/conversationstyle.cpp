#include "conversationstyle.h"

#include <QFontDatabase>

namespace Ui {

static QFont withPointSizeFactor(QFont font, qreal factor)
{
    if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * factor);
    else
        font.setPixelSize(qMax(8, qRound(font.pixelSize() * factor)));
    return font;
}

ConversationStyle::ConversationStyle(const QPalette &palette, const QFont &font)
    : palette(palette)
    , body(font)
    , bold(font)
    , small(withPointSizeFactor(font, 0.9))
    , mono(QFontDatabase::systemFont(QFontDatabase::FixedFont))
    , bodyMetrics(font)
    , smallMetrics(small)
    , monoMetrics(mono)
{
    bold.setWeight(QFont::DemiBold);
    if (mono.pointSizeF() > 0 && font.pointSizeF() > 0)
        mono.setPointSizeF(font.pointSizeF() * 0.95);
    monoMetrics = QFontMetrics(mono);

    const QColor base = palette.color(QPalette::Base);
    const QColor window = palette.color(QPalette::Window);
    text = palette.color(QPalette::Text);
    dark = base.lightnessF() < 0.5;
    muted = mix(text, base, 0.45);
    accent = palette.color(QPalette::Highlight);
    userBubble = mix(base, accent, dark ? 0.28 : 0.14);
    assistantBubble = mix(base, window, dark ? 0.6 : 0.45);
    cardBackground = mix(base, text, dark ? 0.05 : 0.025);
    cardBorder = mix(base, text, dark ? 0.22 : 0.16);
    codeBackground = mix(base, text, dark ? 0.09 : 0.075);
    const QColor green = dark ? QColor(0x3f, 0xb9, 0x50) : QColor(0x1a, 0x7f, 0x37);
    const QColor red = dark ? QColor(0xf8, 0x51, 0x49) : QColor(0xcf, 0x22, 0x2e);
    addedBackground = mix(base, green, dark ? 0.25 : 0.16);
    removedBackground = mix(base, red, dark ? 0.25 : 0.14);
    hunk = dark ? QColor(0x79, 0xc0, 0xff) : QColor(0x05, 0x50, 0xae);
    error = red;
    success = green;
}

QColor ConversationStyle::mix(const QColor &a, const QColor &b, qreal t)
{
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * t),
                            float(a.greenF() + (b.greenF() - a.greenF()) * t),
                            float(a.blueF() + (b.blueF() - a.blueF()) * t));
}

} // namespace Ui
