#pragma once

#include "common/themecolors.h"

#include <QFont>
#include <QFontMetrics>
#include <QPalette>

namespace Ui {

/// What every conversation item paints with: the theme's named colours (ThemeColors, their one
/// home), and the fonts and spacing of the conversation, derived from the view's palette and
/// font. A plain value; rebuilt when the palette or font changes.
struct ConversationStyle : ThemeColors
{
    ConversationStyle(const QPalette &palette, const QFont &font);

    QPalette palette;
    QFont body;
    QFont bold;
    QFont small;
    QFont mono;
    QFontMetrics bodyMetrics;
    QFontMetrics smallMetrics;
    QFontMetrics monoMetrics;

    int margin = 12;  ///< around the whole conversation, and between items
    int padding = 10; ///< inside bubbles and cards
    int radius = 8;
    int spacing = 6; ///< between rows inside an item
};

} // namespace Ui
