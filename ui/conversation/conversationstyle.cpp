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
    : ThemeColors(ThemeColors::of(palette))
    , palette(palette)
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
}

} // namespace Ui
