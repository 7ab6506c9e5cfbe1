#include "diffhighlighter.h"

#include "common/themecolors.h"

#include <QPalette>

namespace Ui {

DiffColors DiffColors::fromPalette(const QPalette &palette)
{
    const ThemeColors theme = ThemeColors::of(palette);
    const QColor base = palette.color(QPalette::Base);
    DiffColors colors;
    colors.addedLine = theme.addedBackground;
    colors.addedWord = theme.addedWord;
    colors.removedLine = theme.removedBackground;
    colors.removedWord = theme.removedWord;
    colors.header = theme.hunkBackground;
    colors.headerText = ThemeColors::readable(theme.hunk, theme.hunkBackground);
    colors.filler = ThemeColors::mix(base, theme.text, 0.05);
    colors.gutterText = ThemeColors::readable(theme.muted, theme.addedBackground);
    colors.rejectedLine = ThemeColors::mix(base, theme.text, 0.08);
    return colors;
}

QList<QTextLayout::FormatRange> DiffHighlighter::formats(const DiffLine &line, int textLength) const
{
    QList<QTextLayout::FormatRange> ranges;
    if (line.kind == DiffLine::Kind::HunkHeader) {
        QTextCharFormat format;
        format.setForeground(m_colors.headerText);
        ranges.append({0, textLength, format});
        return ranges;
    }
    if (line.codeStart > 0) {
        QTextCharFormat gutter;
        gutter.setForeground(m_colors.gutterText);
        ranges.append({0, line.codeStart, gutter});
    }
    for (const SyntaxColorizer::Span &span : line.syntax)
        ranges.append({line.codeStart + span.start, span.length, span.format});
    QTextCharFormat word;
    word.setBackground(line.kind == DiffLine::Kind::Added ? m_colors.addedWord
                                                          : m_colors.removedWord);
    for (const WordDiff::Range &range : line.changed)
        ranges.append({line.codeStart + range.start, range.length, word});
    return ranges;
}

} // namespace Ui
