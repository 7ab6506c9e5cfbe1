#pragma once

#include <QColor>
#include <QFont>
#include <QFontMetrics>
#include <QPalette>

namespace Ui {

/// Fonts, colours and spacing shared by every conversation item, derived from the view's
/// palette and font. A plain value; rebuilt when the palette or font changes.
struct ConversationStyle
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

    bool dark = false;
    QColor text;
    QColor muted;
    QColor userBubble;
    QColor assistantBubble;
    QColor cardBackground;
    QColor cardBorder;
    QColor codeBackground;
    QColor addedBackground;
    QColor removedBackground;
    QColor hunk;
    QColor error;
    QColor success;
    QColor accent;

    int margin = 12;  ///< around the whole conversation, and between items
    int padding = 10; ///< inside bubbles and cards
    int radius = 8;
    int spacing = 6; ///< between rows inside an item

    /// a and b mixed, t = 0 gives a.
    static QColor mix(const QColor &a, const QColor &b, qreal t);
};

} // namespace Ui
