#include "renderedtext.h"

#include "codeblockhighlighter.h"
#include "conversationstyle.h"

#include <QAbstractTextDocumentLayout>
#include <QPainter>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QtMath>

namespace Ui {

static constexpr int CodePadding = 8;
static constexpr int CodeBlockProperty = QTextFormat::UserProperty + 1;

static bool isCodeBlock(const QTextBlock &block)
{
    const QTextBlockFormat format = block.blockFormat();
    return format.hasProperty(QTextFormat::BlockCodeFence) || format.nonBreakableLines()
           || format.boolProperty(CodeBlockProperty);
}

RenderedText::RenderedText() = default;
RenderedText::~RenderedText() = default;

void RenderedText::setText(const QString &text, Format format)
{
    m_text = text;
    m_format = format;
    m_stale = true;
}

void RenderedText::append(const QString &text)
{
    m_text += text;
    m_stale = true;
}

int RenderedText::layout(int width, const QFont &font, const ConversationStyle &style)
{
    if (!m_document) {
        m_document = std::make_unique<QTextDocument>();
        m_document->setUndoRedoEnabled(false);
        m_document->setDocumentMargin(0);
#ifdef AGENTDESK_HAVE_SYNTAX_HIGHLIGHTING
        if (m_format == Format::Markdown)
            new CodeBlockHighlighter(m_document.get(), style.dark);
#endif
        m_stale = true;
    }
    if (m_document->defaultFont() != font)
        m_document->setDefaultFont(font);
    if (m_stale) {
        if (m_format == Format::Markdown) {
            m_document->setMarkdown(m_text, QTextDocument::MarkdownDialectGitHub);
            styleBlocks(style);
        } else {
            m_document->setPlainText(m_text);
        }
        m_stale = false;
    }
    m_document->setTextWidth(width);
    findCodeRuns();
    return qCeil(m_document->size().height());
}

void RenderedText::findCodeRuns()
{
    m_codeRuns.clear();
    if (m_format != Format::Markdown)
        return;
    const auto layout = m_document->documentLayout();
    QRectF run;
    for (QTextBlock block = m_document->begin(); block.isValid(); block = block.next()) {
        if (isCodeBlock(block)) {
            run |= layout->blockBoundingRect(block);
            continue;
        }
        if (!run.isNull())
            m_codeRuns << run.toAlignedRect();
        run = {};
    }
    if (!run.isNull())
        m_codeRuns << run.toAlignedRect();
    for (QRect &box : m_codeRuns)
        box = QRect(0, box.y(), qCeil(m_document->textWidth()), box.height()).adjusted(0, -2, 0, 2);
}

// Code blocks and inline code get a shaded background; the markdown importer only switches
// them to a fixed-pitch font.
void RenderedText::styleBlocks(const ConversationStyle &style)
{
    // A block background would hug the text; the shaded box is painted with padding instead.
    QTextBlockFormat codeBlock;
    codeBlock.setNonBreakableLines(false); // wrap long lines rather than overflow the bubble
    codeBlock.setLeftMargin(CodePadding);
    codeBlock.setRightMargin(CodePadding);
    codeBlock.setProperty(CodeBlockProperty, true);
    m_codeBackground = style.codeBackground;
    QTextCharFormat inlineCode;
    inlineCode.setBackground(style.codeBackground);
    for (QTextBlock block = m_document->begin(); block.isValid(); block = block.next()) {
        QTextCursor cursor(block);
        if (isCodeBlock(block)) {
            cursor.mergeBlockFormat(codeBlock);
            continue;
        }
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            if (!fragment.charFormat().fontFixedPitch())
                continue;
            cursor.setPosition(fragment.position());
            cursor.setPosition(fragment.position() + fragment.length(), QTextCursor::KeepAnchor);
            cursor.mergeCharFormat(inlineCode);
        }
    }
}

void RenderedText::draw(QPainter *painter,
                        QPoint topLeft,
                        const QRect &clip,
                        const QColor &color) const
{
    if (!m_document)
        return;
    painter->save();
    painter->translate(topLeft);
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(Qt::NoPen);
    painter->setBrush(m_codeBackground);
    for (const QRect &box : m_codeRuns)
        painter->drawRoundedRect(box, 4, 4);
    QAbstractTextDocumentLayout::PaintContext context;
    context.palette.setColor(QPalette::Text, color);
    context.clip = QRectF(clip.translated(-topLeft));
    m_document->documentLayout()->draw(painter, context);
    painter->restore();
}

void RenderedText::release()
{
    m_document.reset();
    m_codeRuns.clear();
    m_stale = true;
}

int RenderedText::idealWidth() const
{
    return m_document ? qCeil(m_document->idealWidth()) : 0;
}

QString RenderedText::renderedText() const
{
    return m_document && !m_stale ? m_document->toPlainText() : m_text;
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
