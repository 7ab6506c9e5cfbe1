#include "renderedpiece.h"

#include "codeblockhighlighter.h"
#include "conversationstyle.h"

#include <QAbstractTextDocumentLayout>
#include <QPainter>
#include <QSyntaxHighlighter>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextList>
#include <QTextTable>
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

RenderedPiece::RenderedPiece() = default;
RenderedPiece::~RenderedPiece() = default;

bool RenderedPiece::render(const QString &text,
                           Format format,
                           int width,
                           const QFont &font,
                           const ConversationStyle &style)
{
    const bool markdown = format == Format::Markdown;
    bool changed = false;
    bool created = false; // a highlighter made now
    if (!m_document) {
        m_document = std::make_unique<QTextDocument>();
        m_document->setUndoRedoEnabled(false);
        m_document->setDocumentMargin(0);
        m_length = -1;
        m_highlighter = nullptr;
    }
    if (m_document->defaultFont() != font) {
        m_document->setDefaultFont(font);
        m_width = -1;
    }
    if (m_length != text.size() || m_markdown != markdown) {
#ifdef AGENTDESK_HAVE_SYNTAX_HIGHLIGHTING
        // Only pieces with a fence need one; most pieces are prose.
        if (markdown && !m_highlighter
            && (text.contains(QLatin1String("```")) || text.contains(QLatin1String("~~~")))) {
            m_highlighter = new CodeBlockHighlighter(m_document.get(), style.dark);
            created = true;
        }
#endif
        // A document with a page size lays itself out after every edit: each styled code line,
        // each block the highlighter colours. Without one it waits for setTextWidth() below.
        m_document->setPageSize(QSizeF(0, 0));
        if (markdown) {
            m_document->setMarkdown(text, QTextDocument::MarkdownDialectGitHub);
            styleBlocks(style);
            // A new highlighter colours only at the next turn of the event loop: colour now,
            // so that this frame is measured and painted with its colours.
            if (created)
                m_highlighter->rehighlight();
        } else {
            m_document->setPlainText(text);
        }
        m_length = text.size();
        m_markdown = markdown;
        m_width = -1;
        changed = true;
    }
    if (m_width != width) {
        m_document->setTextWidth(width);
        m_width = width;
        measure();
        changed = true;
    }
    return changed;
}

void RenderedPiece::measure()
{
    m_height = qCeil(m_document->size().height());
    m_topMargin = m_document->begin().blockFormat().topMargin();
    m_bottomMargin = m_document->lastBlock().blockFormat().bottomMargin();
    m_codeRuns.clear();
    if (!m_markdown)
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
        box = QRect(0, box.y(), m_width, box.height()).adjusted(0, -2, 0, 2);
}

// Code blocks and inline code get a shaded background; the markdown importer only switches
// them to a fixed-pitch font.
void RenderedPiece::styleBlocks(const ConversationStyle &style)
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

void RenderedPiece::draw(QPainter *painter, const QRectF &clip, const QColor &color) const
{
    if (!m_document)
        return;
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(Qt::NoPen);
    painter->setBrush(m_codeBackground);
    for (const QRect &box : m_codeRuns)
        painter->drawRoundedRect(box, 4, 4);
    QAbstractTextDocumentLayout::PaintContext context;
    context.palette.setColor(QPalette::Text, color);
    context.clip = clip;
    m_document->documentLayout()->draw(painter, context);
}

int RenderedPiece::idealWidth() const
{
    return m_document ? qCeil(m_document->idealWidth()) : 0;
}

QString RenderedPiece::plainText() const
{
    return m_document ? m_document->toPlainText() : QString();
}

QStringList RenderedPiece::structure() const
{
    QStringList lines;
    if (!m_document)
        return lines;
    for (QTextBlock block = m_document->begin(); block.isValid(); block = block.next()) {
        const QTextBlockFormat format = block.blockFormat();
        QString kind;
        if (format.headingLevel() > 0)
            kind += QStringLiteral("h%1 ").arg(format.headingLevel());
        if (const QTextList *list = block.textList())
            kind += QStringLiteral("item %1 ").arg(list->itemText(block));
        if (isCodeBlock(block))
            kind += QStringLiteral("code ");
        if (const int quote = format.intProperty(QTextFormat::BlockQuoteLevel))
            kind += QStringLiteral("quote %1 ").arg(quote);
        if (QTextCursor(block).currentTable())
            kind += QStringLiteral("cell ");
        lines << QStringLiteral("[%1] %2").arg(kind.trimmed(), block.text());
    }
    return lines;
}

} // namespace Ui
