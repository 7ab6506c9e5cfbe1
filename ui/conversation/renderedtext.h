#pragma once

#include <QColor>
#include <QList>
#include <QPoint>
#include <QRect>
#include <QString>

#include <memory>

QT_BEGIN_NAMESPACE
class QFont;
class QFontMetrics;
class QPainter;
class QTextDocument;
QT_END_NAMESPACE

namespace Ui {

struct ConversationStyle;

/// Text of one bubble, laid out for painting: markdown (code blocks shaded and, with
/// KSyntaxHighlighting, coloured) or plain. The QTextDocument is built on the first layout()
/// and freed by release(); setting new text keeps it and re-renders only this text.
class RenderedText
{
public:
    enum class Format { Markdown, Plain };

    RenderedText();
    ~RenderedText();
    RenderedText(const RenderedText &) = delete;
    RenderedText &operator=(const RenderedText &) = delete;

    void setText(const QString &text, Format format);
    void append(const QString &text);
    const QString &text() const { return m_text; }
    bool isEmpty() const { return m_text.isEmpty(); }

    /// Builds or refreshes the document at width; returns its height.
    int layout(int width, const QFont &font, const ConversationStyle &style);
    /// Draws at topLeft; clip is in the painter's coordinates.
    void draw(QPainter *painter, QPoint topLeft, const QRect &clip, const QColor &color) const;
    void release();
    /// The width the laid-out text needs without wrapping, up to the layout width.
    int idealWidth() const;
    /// What the laid-out document shows (the source text before the first layout).
    QString renderedText() const;

    /// A cheap height guess for text at width, without a document.
    static int estimateHeight(const QString &text, int width, const QFontMetrics &metrics);

private:
    void styleBlocks(const ConversationStyle &style);
    void findCodeRuns();

    QString m_text;
    Format m_format = Format::Markdown;
    std::unique_ptr<QTextDocument> m_document;
    bool m_stale = true;     ///< m_text changed since the document was filled
    QList<QRect> m_codeRuns; ///< shaded boxes behind code blocks, painted under the text
    QColor m_codeBackground;
};

} // namespace Ui
