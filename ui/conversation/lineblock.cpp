#include "lineblock.h"
#include "common/translation.h"

#include "common/syntaxcolorizer.h"
#include "conversationstyle.h"

#include <QCoreApplication>
#include <QLocale>
#include <QPainter>

#include <algorithm>

namespace Ui {

// Longer lines are cut before eliding: eliding measures the whole string.
static constexpr qsizetype MaxPaintedLineLength = 400;

struct LineBlock::CodeLine
{
    qsizetype codeStart = -1;           ///< after the line number and its tab; -1: not a code line
    QList<SyntaxColorizer::Span> spans; ///< in the code with its tabs expanded
};

LineBlock::LineBlock() = default;
LineBlock::~LineBlock() = default;

static QString expandTabs(QStringView text)
{
    return text.toString().replace(QLatin1Char('\t'), QStringLiteral("    "));
}

void LineBlock::setCodeFileName(const QString &fileName)
{
    m_codeFileName = fileName;
    m_codeLines.clear();
}

void LineBlock::setNoteLines(int leading, int trailing)
{
    m_leadingNotes = leading;
    m_trailingNotes = trailing;
}

void LineBlock::colorize(const ConversationStyle &style) const
{
    if (m_codeFileName.isEmpty() || m_style != Style::Output || !m_codeLines.empty())
        return;
    SyntaxColorizer colorizer(style.palette);
    colorizer.setLanguageForFileName(m_codeFileName);
    if (!colorizer.isActive())
        return;
    m_codeLines.resize(size_t(m_lineCount));
    SyntaxColorizer::State state = SyntaxColorizer::initialState;
    for (int i = 0; i < m_lineCount; ++i) {
        const QStringView text = line(i);
        const qsizetype tab = text.indexOf(QLatin1Char('\t'));
        // Only "  12<tab>": Read's own notes ("[File has 300 more lines]") stay plain.
        if (tab <= 0 || !text.first(tab).trimmed().toString().toInt())
            continue;
        CodeLine &code = m_codeLines[size_t(i)];
        code.codeStart = tab + 1;
        state = colorizer.colorize(expandTabs(text.mid(tab + 1)), state, code.spans);
    }
}

void LineBlock::setText(const QString &text)
{
    m_codeLines.clear();
    // Shares the tool result's string: chopping the trailing newlines would copy 100 KB
    // outputs (and fault in fresh pages for each copy).
    m_text = text;
    m_size = text.size();
    while (m_size > 0 && text.at(m_size - 1) == QLatin1Char('\n'))
        --m_size;
    m_lineCount = m_size == 0 ? 0 : int(this->text().count(QLatin1Char('\n'))) + 1;
    m_starts = {}; // clear() would keep the capacity: a 100 KB output's index, under a preview
}

void LineBlock::setCap(int head, int tail)
{
    m_head = head;
    m_tail = tail;
}

int LineBlock::rowCount() const
{
    if (!isCapped())
        return m_lineCount;
    if (isPaged() && !m_expanded)
        return std::min(m_head, m_lineCount) + 1;
    return m_expanded ? m_lineCount + 1 : m_head + 1 + m_tail;
}

int LineBlock::toggleRow() const
{
    if (!isCapped())
        return -1;
    if (isPaged() && !m_expanded)
        return std::min(m_head, m_lineCount);
    return m_expanded ? m_lineCount : m_head;
}

int LineBlock::lineOfRow(int row) const
{
    if (!isCapped() || m_expanded || isPaged())
        return row;
    return row < m_head ? row : m_lineCount - (m_head + 1 + m_tail - row);
}

QStringView LineBlock::line(int index) const
{
    const QStringView all = text();
    if (m_starts.isEmpty()) {
        m_starts.reserve(m_lineCount);
        m_starts.append(0);
        for (qsizetype i = all.indexOf(QLatin1Char('\n')); i >= 0;
             i = all.indexOf(QLatin1Char('\n'), i + 1))
            m_starts.append(i + 1);
    }
    const qsizetype start = m_starts.value(index, all.size());
    const qsizetype end = index + 1 < m_starts.size() ? m_starts.at(index + 1) - 1 : all.size();
    return all.mid(start, end - start);
}

QString LineBlock::toggleLabel() const
{
    if (isPaged() && !m_expanded)
        return m_pagedLabel;
    if (m_expanded)
        return UiTr::tr("Show fewer lines");
    const int hidden = m_lineCount - m_head - m_tail;
    const int all = std::max(0, m_lineCount - m_leadingNotes - m_trailingNotes);
    return UiTr::tr("⋯ %1 more lines (show all %2)")
        .arg(QLocale().toString(hidden), QLocale().toString(all));
}

int LineBlock::height(const ConversationStyle &style) const
{
    return rowCount() * style.monoMetrics.lineSpacing();
}

QRect LineBlock::toggleRect(const QRect &rect, const ConversationStyle &style) const
{
    const int row = toggleRow();
    if (row < 0)
        return {};
    const int lineHeight = style.monoMetrics.lineSpacing();
    return QRect(rect.x(), rect.y() + row * lineHeight, rect.width(), lineHeight);
}

void LineBlock::paint(QPainter *painter,
                      const QRect &rect,
                      const QRect &clip,
                      const ConversationStyle &style) const
{
    const int lineHeight = style.monoMetrics.lineSpacing();
    const int rows = rowCount();
    const int first = qBound(0, (clip.top() - rect.top()) / lineHeight, rows);
    const int last = qBound(0, (clip.bottom() - rect.top()) / lineHeight + 1, rows);
    const int toggle = toggleRow();
    colorize(style);
    for (int row = first; row < last; ++row) {
        const QRect rowRect(rect.x(), rect.y() + row * lineHeight, rect.width(), lineHeight);
        if (row == toggle) {
            painter->setFont(style.small);
            painter->setPen(style.accent);
            painter->drawText(rowRect.adjusted(4, 0, 0, 0),
                              Qt::AlignLeft | Qt::AlignVCenter,
                              toggleLabel());
            continue;
        }
        const QStringView text = line(lineOfRow(row));
        QColor color = m_style == Style::Error ? style.error : style.text;
        if (m_style == Style::Diff) {
            const bool header = text.startsWith(u"+++") || text.startsWith(u"---");
            if (text.startsWith(u"@@") || header) {
                color = header ? style.muted : style.hunk;
            } else if (text.startsWith(u'+')) {
                painter->fillRect(rowRect, style.addedBackground);
            } else if (text.startsWith(u'-')) {
                painter->fillRect(rowRect, style.removedBackground);
            }
        }
        painter->setFont(style.mono);
        const int index = lineOfRow(row);
        if (size_t(index) < m_codeLines.size() && m_codeLines[size_t(index)].codeStart > 0) {
            paintCode(painter, rowRect, text, m_codeLines[size_t(index)], style);
            continue;
        }
        painter->setPen(color);
        const QString shown = style.monoMetrics.elidedText(text.left(MaxPaintedLineLength)
                                                               .toString()
                                                               .replace(QLatin1Char('\t'),
                                                                        QStringLiteral("    ")),
                                                           Qt::ElideRight,
                                                           rowRect.width() - 8);
        painter->drawText(rowRect.adjusted(4, 0, -4, 0), Qt::AlignLeft | Qt::AlignVCenter, shown);
    }
}

// The line number muted, then the code in runs of its syntax colours, cut at the right edge.
void LineBlock::paintCode(QPainter *painter,
                          const QRect &rowRect,
                          QStringView text,
                          const CodeLine &code,
                          const ConversationStyle &style) const
{
    const QRect area = rowRect.adjusted(4, 0, -4, 0);
    painter->save();
    painter->setClipRect(area, Qt::IntersectClip);
    const QString number = text.first(code.codeStart - 1).toString();
    painter->setPen(style.muted);
    painter->drawText(area, Qt::AlignLeft | Qt::AlignVCenter, number);
    // Read's numbers are right-aligned in six columns and a tab: the code starts after them.
    const int codeX = area.x() + style.monoMetrics.horizontalAdvance(QStringLiteral("000000  "));
    const QString source = expandTabs(text.mid(code.codeStart).left(MaxPaintedLineLength));
    int x = codeX;
    qsizetype at = 0;
    const auto drawRun = [&](qsizetype end, const QColor &color, const QFont &font) {
        if (end <= at || x > area.right())
            return;
        const QString run = source.mid(at, end - at);
        painter->setPen(color);
        painter->setFont(font);
        painter->drawText(QRect(x, area.y(), area.right() - x + 1, area.height()),
                          Qt::AlignLeft | Qt::AlignVCenter,
                          run);
        x += QFontMetrics(font).horizontalAdvance(run);
        at = end;
    };
    for (const SyntaxColorizer::Span &span : code.spans) {
        const qsizetype start = std::min<qsizetype>(span.start, source.size());
        const qsizetype end = std::min<qsizetype>(span.start + span.length, source.size());
        drawRun(start, style.text, style.mono);
        QFont font = style.mono;
        if (span.format.hasProperty(QTextFormat::FontWeight))
            font.setWeight(QFont::Weight(span.format.fontWeight()));
        font.setItalic(span.format.fontItalic());
        drawRun(end,
                span.format.hasProperty(QTextFormat::ForegroundBrush)
                    ? span.format.foreground().color()
                    : style.text,
                font);
    }
    drawRun(source.size(), style.text, style.mono);
    painter->restore();
}

QString LineBlock::visibleText() const
{
    QStringList rows;
    for (int row = 0; row < rowCount(); ++row)
        rows << (row == toggleRow() ? toggleLabel() : line(lineOfRow(row)).toString());
    return rows.join(QLatin1Char('\n'));
}

void LineBlock::release()
{
    m_codeLines.clear();
    m_codeLines.shrink_to_fit();
    m_starts.clear();
    m_starts.squeeze();
}

} // namespace Ui
