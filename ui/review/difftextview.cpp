#include "difftextview.h"

#include "common/themecolors.h"

#include <QFontDatabase>
#include <QHelpEvent>
#include <QPainter>
#include <QScrollBar>
#include <QTextBlock>
#include <QToolTip>

namespace Ui {

DiffTextView::DiffTextView(QWidget *parent)
    : QPlainTextEdit(parent)
    , m_colors(DiffColors::fromPalette(palette()))
{
    setReadOnly(true);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setFrameShape(QFrame::NoFrame);
    m_highlighter.setColors(m_colors);
}

void DiffTextView::setPane(DiffPane pane)
{
    m_pane = std::move(pane);
    m_formatted = QList<bool>(m_pane.lines.size(), false);
    setPlainText(m_pane.text);
}

void DiffTextView::setRejectedHunks(const QSet<int> &hunks)
{
    m_rejected = hunks;
    viewport()->update();
}

void DiffTextView::scrollToHunk(int hunk)
{
    if (hunk < 0 || hunk >= m_pane.hunkLines.size())
        return;
    verticalScrollBar()->setValue(m_pane.hunkLines.at(hunk));
}

void DiffTextView::setProblems(const QList<AgentCore::ProposalProblem> &problems)
{
    m_problems.clear();
    for (const AgentCore::ProposalProblem &problem : problems)
        m_problems[problem.line].append(problem);
    viewport()->update();
}

bool DiffTextView::scrollToNewLine(int line)
{
    for (qsizetype i = 0; i < m_pane.lines.size(); ++i) {
        if (m_pane.lines.at(i).newLine == line) {
            // A few lines of context above it.
            verticalScrollBar()->setValue(int(std::max<qsizetype>(0, i - 3)));
            return true;
        }
    }
    return false;
}

QColor DiffTextView::backgroundOf(const DiffLine &line) const
{
    if (line.kind == DiffLine::Kind::HunkHeader)
        return m_colors.header;
    if (line.kind == DiffLine::Kind::Filler)
        return m_colors.filler;
    const bool changed = line.kind == DiffLine::Kind::Added || line.kind == DiffLine::Kind::Removed;
    if (changed && m_rejected.contains(line.hunk))
        return m_colors.rejectedLine;
    if (line.kind == DiffLine::Kind::Added)
        return m_colors.addedLine;
    if (line.kind == DiffLine::Kind::Removed)
        return m_colors.removedLine;
    return {};
}

// Formatting all lines up front costs a layout per line; a 10,000-line diff would open
// slowly. QTextLayout::setFormats relayouts the block, before the base class draws it.
void DiffTextView::formatVisibleLines()
{
    const QPointF offset = contentOffset();
    for (QTextBlock block = firstVisibleBlock(); block.isValid(); block = block.next()) {
        if (blockBoundingGeometry(block).translated(offset).top() > viewport()->height())
            break;
        const int number = block.blockNumber();
        if (number >= m_formatted.size() || m_formatted.at(number))
            continue;
        m_formatted[number] = true;
        block.layout()->setFormats(
            m_highlighter.formats(m_pane.lines.at(number), int(block.text().size())));
    }
}

void DiffTextView::paintEvent(QPaintEvent *event)
{
    formatVisibleLines();
    {
        QPainter painter(viewport());
        const qreal width = viewport()->width();
        const QPointF offset = contentOffset();
        for (QTextBlock block = firstVisibleBlock(); block.isValid(); block = block.next()) {
            const QRectF rect = blockBoundingGeometry(block).translated(offset);
            if (rect.top() > viewport()->height())
                break;
            const int number = block.blockNumber();
            if (number >= m_pane.lines.size())
                break;
            const DiffLine &line = m_pane.lines.at(number);
            const QColor color = backgroundOf(line);
            if (color.isValid())
                painter.fillRect(QRectF(0, rect.top(), width, rect.height()), color);
            if (const auto it = m_problems.constFind(line.newLine);
                line.newLine > 0 && it != m_problems.cend()) {
                const bool error = std::any_of(it->cbegin(), it->cend(), [](const auto &problem) {
                    return problem.isError;
                });
                const ThemeColors colors = ThemeColors::of(palette());
                painter.fillRect(QRectF(0, rect.top(), 4, rect.height()),
                                 error ? colors.error : colors.warning);
            }
        }
    }
    QPlainTextEdit::paintEvent(event);
}

bool DiffTextView::viewportEvent(QEvent *event)
{
    if (event->type() == QEvent::ToolTip && !m_problems.isEmpty()) {
        const auto help = static_cast<QHelpEvent *>(event);
        const int number = cursorForPosition(help->pos()).blockNumber();
        const int line = number < m_pane.lines.size() ? m_pane.lines.at(number).newLine : 0;
        QStringList texts;
        for (const AgentCore::ProposalProblem &problem : m_problems.value(line))
            texts.append(problem.message);
        if (line > 0 && !texts.isEmpty()) {
            QToolTip::showText(help->globalPos(), texts.join(u'\n'), viewport());
            return true;
        }
    }
    return QPlainTextEdit::viewportEvent(event);
}

void DiffTextView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange) {
        m_colors = DiffColors::fromPalette(palette());
        m_highlighter.setColors(m_colors);
        m_formatted.fill(false);
        viewport()->update();
    }
    QPlainTextEdit::changeEvent(event);
}

} // namespace Ui

#include "moc_difftextview.cpp"
