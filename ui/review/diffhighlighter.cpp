#include "diffhighlighter.h"

#include <QPalette>

namespace Ui {

namespace {

QColor mix(const QColor &base, const QColor &tint, qreal amount)
{
    return QColor::fromRgbF(base.redF() + (tint.redF() - base.redF()) * amount,
                            base.greenF() + (tint.greenF() - base.greenF()) * amount,
                            base.blueF() + (tint.blueF() - base.blueF()) * amount);
}

} // namespace

DiffColors DiffColors::fromPalette(const QPalette &palette)
{
    const QColor base = palette.color(QPalette::Base);
    const QColor text = palette.color(QPalette::Text);
    const bool dark = base.lightnessF() < 0.5;
    const QColor green = dark ? QColor(0x3f, 0xb9, 0x50) : QColor(0x2d, 0xa4, 0x4e);
    const QColor red = dark ? QColor(0xf8, 0x51, 0x49) : QColor(0xcf, 0x22, 0x2e);
    const QColor blue = dark ? QColor(0x58, 0xa6, 0xff) : QColor(0x09, 0x69, 0xda);
    DiffColors colors;
    colors.addedLine = mix(base, green, dark ? 0.18 : 0.12);
    colors.addedWord = mix(base, green, dark ? 0.42 : 0.35);
    colors.removedLine = mix(base, red, dark ? 0.18 : 0.10);
    colors.removedWord = mix(base, red, dark ? 0.42 : 0.30);
    colors.header = mix(base, blue, dark ? 0.16 : 0.08);
    colors.headerText = mix(text, blue, 0.6);
    colors.filler = mix(base, text, 0.05);
    colors.gutterText = mix(base, text, 0.45);
    colors.rejectedLine = mix(base, text, 0.08);
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
