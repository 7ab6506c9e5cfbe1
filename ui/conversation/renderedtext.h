#pragma once

#include "blocksplitter.h"
#include "renderedpiece.h"

#include <QColor>
#include <QFont>
#include <QList>
#include <QPoint>
#include <QRect>
#include <QString>

#include <memory>
#include <vector>

QT_BEGIN_NAMESPACE
class QFontMetrics;
class QPainter;
QT_END_NAMESPACE

namespace Ui {

struct ConversationStyle;

/// Text of one bubble, laid out for painting: markdown (code blocks shaded and, with
/// KSyntaxHighlighting, coloured) or plain. The text is cut into pieces of whole blocks
/// (BlockSplitter), each its own document stacked under the previous one, so that a streamed
/// reply re-renders only its last, growing piece per frame: a finished piece is rendered once.
/// Documents are built on the first layout() and freed by release().
class RenderedText
{
public:
    enum class Format { Markdown, Plain };

    RenderedText();
    ~RenderedText();
    RenderedText(const RenderedText &) = delete;
    RenderedText &operator=(const RenderedText &) = delete;

    /// Replaces the text. Pieces the new text still starts with are kept (a streamed reply
    /// ending with the text it streamed keeps all of them); the rest is rendered again.
    void setText(const QString &text, Format format);
    void append(const QString &text);
    /// While streaming, a markdown text is shown without an unfinished construct at its end
    /// (a code span not closed yet, a table row or a header row without its delimiter row),
    /// which would show as raw backticks and pipes until the rest arrives. When the stream
    /// ends, everything shows.
    void setStreaming(bool streaming);
    const QString &text() const { return m_text; }
    bool isEmpty() const { return m_text.isEmpty(); }

    /// Builds or refreshes the documents at width; returns the height.
    int layout(int width, const QFont &font, const ConversationStyle &style);
    /// Draws at topLeft; clip is in the painter's coordinates. Only visible pieces paint.
    void draw(QPainter *painter, QPoint topLeft, const QRect &clip, const QColor &color) const;
    void release();
    /// The width the laid-out text needs without wrapping, up to the layout width.
    int idealWidth() const;
    /// What the laid-out documents show (the source text before the first layout).
    QString renderedText() const;
    /// The blocks of the laid-out documents, one after the other (RenderedPiece::structure()):
    /// what the text renders to, lists with their numbers, code blocks; for tests.
    QStringList structure() const;
    /// How many documents the text is cut into (after layout()); for tests and benchmarks.
    int pieceCount() const { return int(m_pieces.size()); }

    /// A cheap height guess for text at width, without a document.
    static int estimateHeight(const QString &text, int width, const QFontMetrics &metrics);

private:
    struct Piece
    {
        qsizetype start = 0;
        qsizetype end = 0; ///< m_text.size() for the last piece, which grows
        int top = 0;
        RenderedPiece rendered;
    };

    void restartAt(qsizetype position);
    void cutPieces();
    QString pieceText(const Piece &piece, bool closed) const;

    QString m_text;
    Format m_format = Format::Markdown;
    BlockSplitter m_splitter;
    std::vector<std::unique_ptr<Piece>> m_pieces; ///< the last one is open: it grows
    size_t m_firstDirty = 0; ///< pieces before it are rendered and placed at m_width
    int m_width = -1;
    QFont m_font;
    int m_height = 0;
    bool m_laidOut = false; ///< every piece shows its current text
    bool m_streaming = false;
};

} // namespace Ui
