#pragma once

#include <QColor>
#include <QList>
#include <QRect>
#include <QString>

#include <memory>

QT_BEGIN_NAMESPACE
class QFont;
class QSyntaxHighlighter;
class QPainter;
class QTextDocument;
QT_END_NAMESPACE

namespace Ui {

struct ConversationStyle;

/// One QTextDocument of a RenderedText: a run of whole markdown blocks (or plain lines),
/// code blocks shaded and, with KSyntaxHighlighting, coloured. UI thread only.
class RenderedPiece
{
public:
    enum class Format { Markdown, Plain };

    RenderedPiece();
    ~RenderedPiece();
    RenderedPiece(const RenderedPiece &) = delete;
    RenderedPiece &operator=(const RenderedPiece &) = delete;

    /// Fills the document with text (a no-op if it shows that text already) and lays it out
    /// at width; returns whether anything changed.
    bool render(const QString &text,
                Format format,
                int width,
                const QFont &font,
                const ConversationStyle &style);
    /// The text changed without changing its length: the next render() fills the document.
    void invalidate() { m_length = -1; }
    bool isRendered() const { return m_document != nullptr; }

    int height() const { return m_height; }
    /// The margins above the first and below the last block, not part of height(): where two
    /// pieces meet, the larger of the two is the space between them, as inside one document.
    qreal topMargin() const { return m_topMargin; }
    qreal bottomMargin() const { return m_bottomMargin; }

    /// Draws at the painter's origin; clip is in the piece's coordinates.
    void draw(QPainter *painter, const QRectF &clip, const QColor &color) const;
    int idealWidth() const;
    QString plainText() const;
    /// One line per block: its kind (heading level, list item number, task checkbox, code
    /// block, quote level, table header or cell) and its text. What a reader sees, for tests.
    QStringList structure() const;

private:
    void styleBlocks(const ConversationStyle &style);
    void styleTables(const ConversationStyle &style);
    void measure();

    std::unique_ptr<QTextDocument> m_document;
    qsizetype m_length = -1; ///< size of the text the document shows
    int m_width = -1;
    int m_height = 0;
    qreal m_topMargin = 0;
    qreal m_bottomMargin = 0;
    bool m_markdown = true;
    QSyntaxHighlighter *m_highlighter = nullptr; ///< owned by m_document
    QList<QRect> m_codeRuns; ///< shaded boxes behind code blocks, painted under the text
    QColor m_codeBackground;
    QList<QRect> m_quoteBars; ///< the bar left of each run of quoted blocks
    QColor m_quoteColor;
    struct Task
    {
        QRectF box;
        bool checked = false;
    };
    QList<Task> m_tasks; ///< task list checkboxes, painted over the text
};

} // namespace Ui
