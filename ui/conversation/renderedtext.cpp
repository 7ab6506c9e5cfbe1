#include "renderedtext.h"

#include <QFontMetrics>
#include <QPainter>
#include <QtMath>

#include <algorithm>

namespace Ui {

// Finished blocks are grouped into documents of at least this many characters: fewer
// documents for a long reply, while the open piece re-rendered per frame stays small.
static constexpr qsizetype MinPieceChars = 1024;

static BlockSplitter::Mode splitterMode(RenderedText::Format format)
{
    return format == RenderedText::Format::Markdown ? BlockSplitter::Mode::Markdown
                                                    : BlockSplitter::Mode::Lines;
}

static bool isTableLine(QStringView line)
{
    return line.trimmed().startsWith(QLatin1Char('|'));
}

/// The start of the line that ends at lineStart - 1 (lineStart > 0 starts a line).
static qsizetype lineStartBefore(QStringView text, qsizetype lineStart)
{
    return lineStart >= 2 ? text.lastIndexOf(QLatin1Char('\n'), lineStart - 2) + 1 : 0;
}

/// Where text ends without an unfinished markdown construct at its end, one that would render
/// as raw markup until the rest arrives: a code span (or fence) opened in the last line and
/// not closed, an unfinished table row, a table header row without its delimiter row yet.
/// inFence: the last line is inside a fenced code block, where nothing is markup.
static qsizetype completeMarkdownEnd(QStringView text, bool inFence)
{
    if (inFence)
        return text.size();
    const qsizetype lineStart = text.lastIndexOf(QLatin1Char('\n')) + 1;
    const QStringView last = text.mid(lineStart);
    qsizetype end = text.size();
    if (isTableLine(last)) {
        end = lineStart;
    } else {
        // A backtick run opens a code span that only a run of the same length closes.
        qsizetype open = -1;
        qsizetype openLength = 0;
        for (qsizetype i = 0; i < last.size();) {
            if (last[i] != QLatin1Char('`')) {
                ++i;
                continue;
            }
            qsizetype j = i;
            while (j < last.size() && last[j] == QLatin1Char('`'))
                ++j;
            if (open < 0) {
                open = i;
                openLength = j - i;
            } else if (j - i == openLength) {
                open = -1;
            }
            i = j;
        }
        if (open >= 0)
            end = lineStart + open;
    }
    if (end == lineStart && lineStart > 0) {
        const qsizetype previousStart = lineStartBefore(text, lineStart);
        const QStringView previous = text.mid(previousStart, lineStart - 1 - previousStart);
        QStringView before;
        if (previousStart > 0) {
            const qsizetype beforeStart = lineStartBefore(text, previousStart);
            before = text.mid(beforeStart, previousStart - 1 - beforeStart);
        }
        if (isTableLine(previous) && !isTableLine(before))
            end = previousStart; // a header row whose delimiter row has not come yet
    }
    return end;
}

RenderedText::RenderedText()
{
    restartAt(0);
}

RenderedText::~RenderedText() = default;

void RenderedText::restartAt(qsizetype position)
{
    m_splitter.restart(position);
    auto open = std::make_unique<Piece>();
    open->start = position;
    open->end = m_text.size();
    m_pieces.push_back(std::move(open));
    m_firstDirty = std::min(m_firstDirty, m_pieces.size() - 1);
    m_laidOut = false;
}

void RenderedText::setText(const QString &text, Format format)
{
    if (format != m_format) {
        m_format = format;
        m_splitter = BlockSplitter(splitterMode(format));
        m_text = text;
        m_pieces.clear();
        restartAt(0);
        return;
    }
    if (text == m_text)
        return;
    const qsizetype limit = std::min(text.size(), m_text.size());
    qsizetype common = 0;
    while (common < limit && text.at(common) == m_text.at(common))
        ++common;
    // A closed piece stays if its text and the line after it, which decided the cut, are
    // unchanged.
    size_t keep = 0;
    while (keep + 1 < m_pieces.size()) {
        const qsizetype end = m_pieces[keep]->end;
        const qsizetype lineEnd = text.indexOf(QLatin1Char('\n'), end);
        if (end > common || lineEnd < 0 || lineEnd >= common)
            break;
        ++keep;
    }
    m_text = text;
    m_pieces.resize(keep);
    restartAt(keep > 0 ? m_pieces.back()->end : 0);
}

void RenderedText::append(const QString &text)
{
    m_text += text;
    m_laidOut = false;
}

void RenderedText::setStreaming(bool streaming)
{
    if (streaming == m_streaming)
        return;
    m_streaming = streaming;
    m_firstDirty = std::min(m_firstDirty, m_pieces.size() - 1);
    m_laidOut = false;
}

void RenderedText::cutPieces()
{
    for (const qsizetype cut : m_splitter.scan(m_text)) {
        if (cut - m_pieces.back()->start < MinPieceChars)
            continue;
        m_pieces.back()->end = cut;
        auto open = std::make_unique<Piece>();
        open->start = cut;
        m_pieces.push_back(std::move(open));
    }
    m_pieces.back()->end = m_text.size();
}

QString RenderedText::pieceText(const Piece &piece, bool closed) const
{
    // A plain piece ends with the line break before the next piece: that break is between
    // the two, not an empty last line of this one.
    qsizetype end = piece.end - (closed && m_format == Format::Plain ? 1 : 0);
    if (!closed && m_streaming && m_format == Format::Markdown) {
        end = std::max(piece.start,
                       completeMarkdownEnd(QStringView(m_text).first(end), m_splitter.inFence()));
    }
    return m_text.mid(piece.start, end - piece.start);
}

int RenderedText::layout(int width, const QFont &font, const ConversationStyle &style)
{
    if (width != m_width || font != m_font) {
        m_width = width;
        m_font = font;
        m_firstDirty = 0;
    }
    cutPieces();
    const auto format = m_format == Format::Markdown ? RenderedPiece::Format::Markdown
                                                     : RenderedPiece::Format::Plain;
    for (size_t i = m_firstDirty; i < m_pieces.size(); ++i) {
        Piece &piece = *m_pieces[i];
        piece.rendered.render(pieceText(piece, i + 1 < m_pieces.size()), format, width, font, style);
        if (i == 0) {
            piece.top = 0;
            continue;
        }
        // A document's height leaves out the outer margins of its first and last block;
        // between two blocks inside one document the larger of their margins is the space.
        const Piece &above = *m_pieces[i - 1];
        const qreal gap = std::max(above.rendered.bottomMargin(), piece.rendered.topMargin());
        piece.top = above.top + above.rendered.height() + qRound(gap);
    }
    m_firstDirty = m_pieces.size() - 1;
    m_laidOut = true;
    const Piece &last = *m_pieces.back();
    return last.top + last.rendered.height();
}

void RenderedText::draw(QPainter *painter,
                        QPoint topLeft,
                        const QRect &clip,
                        const QColor &color) const
{
    const QRect local = clip.translated(-topLeft);
    auto it = std::partition_point(m_pieces.cbegin(), m_pieces.cend(), [&](const auto &piece) {
        return piece->top + piece->rendered.height() <= local.top();
    });
    for (; it != m_pieces.cend() && (*it)->top <= local.bottom(); ++it) {
        const Piece &piece = **it;
        painter->save();
        painter->translate(topLeft + QPoint(0, piece.top));
        piece.rendered.draw(painter, QRectF(local.translated(0, -piece.top)), color);
        painter->restore();
    }
}

void RenderedText::release()
{
    m_pieces.clear();
    m_firstDirty = 0;
    m_width = -1;
    restartAt(0);
}

int RenderedText::idealWidth() const
{
    int width = 0;
    for (const auto &piece : m_pieces)
        width = std::max(width, piece->rendered.idealWidth());
    return width;
}

QString RenderedText::renderedText() const
{
    if (!m_laidOut)
        return m_text;
    QStringList texts;
    texts.reserve(qsizetype(m_pieces.size()));
    for (const auto &piece : m_pieces)
        texts << piece->rendered.plainText();
    return texts.join(QLatin1Char('\n'));
}

QStringList RenderedText::structure() const
{
    QStringList lines;
    for (const auto &piece : m_pieces)
        lines += piece->rendered.structure();
    return lines;
}

int RenderedText::estimateHeight(const QString &text, int width, const QFontMetrics &metrics)
{
    if (text.isEmpty())
        return 0;
    const int charsPerLine = qMax(1, width / qMax(1, metrics.averageCharWidth()));
    int lines = 0;
    qsizetype start = 0;
    while (start <= text.size()) {
        qsizetype end = text.indexOf(QLatin1Char('\n'), start);
        if (end < 0)
            end = text.size();
        lines += 1 + int((end - start) / charsPerLine);
        start = end + 1;
    }
    return lines * metrics.lineSpacing();
}

} // namespace Ui
