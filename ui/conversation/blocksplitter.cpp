#include "blocksplitter.h"

namespace Ui {

namespace {

bool isBlank(QStringView line)
{
    for (const QChar c : line) {
        if (c != QLatin1Char(' ') && c != QLatin1Char('\t'))
            return false;
    }
    return true;
}

qsizetype indentation(QStringView line)
{
    qsizetype i = 0;
    while (i < line.size() && (line[i] == QLatin1Char(' ') || line[i] == QLatin1Char('\t')))
        ++i;
    return i;
}

bool isSpaceOrEnd(QStringView line, qsizetype at)
{
    return at >= line.size() || line[at] == QLatin1Char(' ') || line[at] == QLatin1Char('\t');
}

/// "- x", "* x", "+ x", "1. x", "12) x", or a bare marker.
bool isListItem(QStringView line)
{
    const qsizetype start = indentation(line);
    if (start >= line.size())
        return false;
    const QChar first = line[start];
    if (first == QLatin1Char('-') || first == QLatin1Char('*') || first == QLatin1Char('+'))
        return isSpaceOrEnd(line, start + 1);
    qsizetype i = start;
    while (i < line.size() && i - start < 9 && line[i].isDigit())
        ++i;
    if (i == start || i >= line.size())
        return false;
    return (line[i] == QLatin1Char('.') || line[i] == QLatin1Char(')'))
           && isSpaceOrEnd(line, i + 1);
}

/// The length of the run of fence characters that opens or closes a fence, 0 if none.
qsizetype fenceRun(QStringView line, QChar *fenceChar)
{
    const qsizetype start = indentation(line);
    if (start >= line.size())
        return 0;
    const QChar c = line[start];
    if (c != QLatin1Char('`') && c != QLatin1Char('~'))
        return 0;
    qsizetype end = start;
    while (end < line.size() && line[end] == c)
        ++end;
    if (end - start < 3)
        return 0;
    if (c == QLatin1Char('`') && line.mid(end).contains(QLatin1Char('`')))
        return 0; // inline code, not a fence
    *fenceChar = c;
    return end - start;
}

} // namespace

BlockSplitter::BlockSplitter(Mode mode)
    : m_mode(mode)
{}

void BlockSplitter::restart(qsizetype position)
{
    m_position = position;
    m_hasContent = false;
    m_afterBlank = false;
    m_inList = false;
    m_fence = QChar();
    m_fenceLength = 0;
}

QList<qsizetype> BlockSplitter::scan(QStringView text)
{
    QList<qsizetype> boundaries;
    while (m_position < text.size()) {
        const qsizetype end = text.indexOf(QLatin1Char('\n'), m_position);
        if (end < 0)
            break;
        QStringView line = text.mid(m_position, end - m_position);
        if (line.endsWith(QLatin1Char('\r')))
            line.chop(1);
        if (m_hasContent && isBoundary(line))
            boundaries << m_position;
        track(line);
        m_position = end + 1;
    }
    return boundaries;
}

bool BlockSplitter::isBoundary(QStringView line) const
{
    if (m_mode == Mode::Lines)
        return true;
    if (!m_fence.isNull() || !m_afterBlank || isBlank(line))
        return false;
    // An indented line continues a list item or an indented code block; a list item after a
    // list continues the list (its numbering); a table row may need the block before it.
    if (indentation(line) > 0 || line.startsWith(QLatin1Char('|')))
        return false;
    return !(m_inList && isListItem(line));
}

void BlockSplitter::track(QStringView line)
{
    if (m_mode == Mode::Lines) {
        m_hasContent = true;
        return;
    }
    if (!m_fence.isNull()) {
        QChar c;
        const qsizetype run = fenceRun(line, &c);
        if (c == m_fence && run >= m_fenceLength && isBlank(line.mid(indentation(line) + run)))
            m_fence = QChar();
        return;
    }
    if (isBlank(line)) {
        m_afterBlank = true;
        return;
    }
    m_hasContent = true;
    if (indentation(line) == 0) {
        if (isListItem(line))
            m_inList = true;
        else if (m_afterBlank)
            m_inList = false;
    }
    m_afterBlank = false;
    QChar c;
    if (const qsizetype run = fenceRun(line, &c)) {
        m_fence = c;
        m_fenceLength = run;
    }
}

} // namespace Ui
