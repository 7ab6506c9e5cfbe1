#pragma once

#include <QColor>

QT_BEGIN_NAMESPACE
class QPalette;
QT_END_NAMESPACE

namespace Ui {

/// The window's named colours beyond QPalette's roles: the one home of every colour AgentDesk
/// paints itself (conversation, reviews, status bar, notice bars). Derived from a palette, so
/// Light, Dark, System and a desktop colour scheme all give colours that belong to it; the few
/// hues of their own (green, red, amber, blue) are chosen per light or dark base. Every colour
/// used for text reads against the background it is drawn on at WCAG AA (4.5:1). A plain value.
struct ThemeColors
{
    static ThemeColors of(const QPalette &palette);

    bool dark = false;

    // Text
    QColor text;   ///< the palette's text
    QColor muted;  ///< secondary text (captions, times, arguments) on a card
    QColor accent; ///< the palette's highlight: running state, links in the conversation

    // Surfaces, back to front
    QColor canvas;          ///< behind the conversation's items
    QColor userBubble;      ///< the user's messages
    QColor assistantBubble; ///< the assistant's text
    QColor cardBackground;  ///< tool cards, notes of a compaction or rewind
    QColor cardBorder;
    QColor codeBackground; ///< tool output, code blocks, inline code

    // Diffs: lines, the words changed in them, and the counts (+3 −1) as text
    QColor addedBackground;
    QColor removedBackground;
    QColor addedWord;
    QColor removedWord;
    QColor addedText;
    QColor removedText;
    QColor hunk;           ///< "@@ -7,7 +7,10 @@" as text
    QColor hunkBackground; ///< the hunk header's line in a review

    // States, as text or marks on a card
    QColor success;
    QColor error;
    QColor warning;   ///< orange: a risk the user should weigh (a command's risky parts)
    QColor attention; ///< amber: waits for the user, nothing failed (a session's review)

    // Bars over the window and in the status bar
    QColor noticeBackground; ///< amber: something waits for the user (sandbox off, interrupted)
    QColor noticeBorder;
    QColor noticeText;
    QColor dangerBackground; ///< red: the agent has more rights than usual (root, bypass)
    QColor dangerText;

    /// a and b mixed, t = 0 gives a.
    static QColor mix(const QColor &a, const QColor &b, qreal t);
    /// The WCAG 2 contrast ratio of two opaque colours, 1 to 21.
    static qreal contrast(const QColor &a, const QColor &b);
    /// \a color, darkened on a light \a background or lightened on a dark one until the two
    /// reach \a ratio: the hue stays, the text reads.
    static QColor readable(const QColor &color, const QColor &background, qreal ratio = 4.5);
};

} // namespace Ui
