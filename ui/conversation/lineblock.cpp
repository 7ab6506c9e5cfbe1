#include "lineblock.h"

#include "conversationstyle.h"

#include <QCoreApplication>
#include <QLocale>
#include <QPainter>

namespace Ui {

namespace {
struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(Ui::LineBlock)
};
} // namespace

// Longer lines are cut before eliding: eliding measures the whole string.
static constexpr qsizetype MaxPaintedLineLength = 400;

void LineBlock::setText(const QString &text)
{
    // Shares the tool result's string: chopping the trailing newlines would copy 100 KB
    // outputs (and fault in fresh pages for each copy).
    m_text = text;
    m_size = text.size();
    while (m_size > 0 && text.at(m_size - 1) == QLatin1Char('\n'))
        --m_size;
    m_lineCount = m_size == 0 ? 0 : int(this->text().count(QLatin1Char('\n'))) + 1;
    m_starts.clear();
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
    return m_expanded ? m_lineCount + 1 : m_head + 1 + m_tail;
}

int LineBlock::toggleRow() const
{
    if (!isCapped())
        return -1;
    return m_expanded ? m_lineCount : m_head;
}

int LineBlock::lineOfRow(int row) const
{
    if (!isCapped() || m_expanded)
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
    if (m_expanded)
        return Tr::tr("Show fewer lines");
    const int hidden = m_lineCount - m_head - m_tail;
    return Tr::tr("⋯ %1 more lines (show all %2)")
        .arg(QLocale().toString(hidden), QLocale().toString(m_lineCount));
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

QString LineBlock::visibleText() const
{
    QStringList rows;
    for (int row = 0; row < rowCount(); ++row)
        rows << (row == toggleRow() ? toggleLabel() : line(lineOfRow(row)).toString());
    return rows.join(QLatin1Char('\n'));
}

void LineBlock::release()
{
    m_starts.clear();
    m_starts.squeeze();
}

} // namespace Ui
