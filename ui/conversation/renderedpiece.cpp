#include "renderedpiece.h"

#include "common/codehighlighter.h"
#include "conversationstyle.h"

#include <QAbstractTextDocumentLayout>
#include <QPainter>
#include <QPainterPath>
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
/// A task list item ("- [ ]", "- [x]"): its QTextBlockFormat::MarkerType as an int. The
/// document's own checkbox is replaced by one painted here: Qt's draws "- [x]" unchecked.
static constexpr int TaskProperty = QTextFormat::UserProperty + 2;
static constexpr int QuoteBarWidth = 3;

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
        // Only pieces with a fence need one; most pieces are prose.
        if (SyntaxColorizer::isAvailable && markdown && !m_highlighter
            && (text.contains(QLatin1String("```")) || text.contains(QLatin1String("~~~")))) {
            m_highlighter = new CodeHighlighter(style.palette, m_document.get());
            created = true;
        }
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
    m_quoteBars.clear();
    m_tasks.clear();
    if (!m_markdown)
        return;
    const auto layout = m_document->documentLayout();
    QRectF run;
    QRectF quote;
    const auto flushQuote = [&] {
        if (quote.isNull())
            return;
        m_quoteBars << QRect(qRound(quote.left()) - 2 * QuoteBarWidth - 4,
                             qRound(quote.top()),
                             QuoteBarWidth,
                             qRound(quote.height()));
        quote = {};
    };
    for (QTextBlock block = m_document->begin(); block.isValid(); block = block.next()) {
        const QRectF bounds = layout->blockBoundingRect(block);
        const QTextBlockFormat format = block.blockFormat();
        if (format.hasProperty(TaskProperty) && block.layout()->lineCount() > 0) {
            // In the indentation, where the list's bullet would be, centred on the first line.
            const QTextLine line = block.layout()->lineAt(0);
            const qreal size = qRound(QFontMetricsF(block.charFormat().font()).ascent() * 0.8);
            const QPointF origin = block.layout()->position() + line.position();
            m_tasks.append(
                {QRectF(origin.x() - size - 6, origin.y() + (line.height() - size) / 2, size, size),
                 format.intProperty(TaskProperty) == int(QTextBlockFormat::MarkerType::Checked)});
        }
        // One bar per run of quoted blocks, left of the outermost quote's text.
        if (format.intProperty(QTextFormat::BlockQuoteLevel) > 0) {
            QRectF text = bounds;
            if (block.layout()->lineCount() > 0)
                text.setLeft(block.layout()->position().x() + block.layout()->lineAt(0).x());
            quote = quote.isNull() ? text : quote | text;
        } else {
            flushQuote();
        }
        if (isCodeBlock(block)) {
            run |= bounds;
            continue;
        }
        if (!run.isNull())
            m_codeRuns << run.toAlignedRect();
        run = {};
    }
    if (!run.isNull())
        m_codeRuns << run.toAlignedRect();
    flushQuote();
    for (QRect &box : m_codeRuns)
        box = QRect(0, box.y(), m_width, box.height()).adjusted(0, -2, 0, 2);
}

// Tables: the importer gives them no border and no header; after a fenced code block it
// also puts an empty paragraph into the first header cell and loses that cell's bold.
void RenderedPiece::styleTables(const ConversationStyle &style)
{
    QList<QTextTable *> tables;
    for (QTextBlock block = m_document->begin(); block.isValid(); block = block.next()) {
        QTextTable *table = QTextCursor(block).currentTable();
        if (table && !tables.contains(table))
            tables << table;
    }
    QTextCharFormat header;
    header.setFontWeight(QFont::DemiBold);
    QTextTableCellFormat bordered;
    bordered.setBorder(1);
    bordered.setBorderStyle(QTextFrameFormat::BorderStyle_Solid);
    bordered.setBorderBrush(style.cardBorder);
    QTextTableCellFormat headerCell = bordered;
    headerCell.setBackground(style.codeBackground);
    for (QTextTable *table : std::as_const(tables)) {
        QTextTableFormat format = table->format();
        format.setBorder(1);
        format.setBorderStyle(QTextFrameFormat::BorderStyle_Solid);
        format.setBorderBrush(style.cardBorder);
        format.setBorderCollapse(true); // one line between cells, drawn by the cells' borders
        format.setCellSpacing(0);
        format.setCellPadding(4);
        format.setHeaderRowCount(1);
        table->setFormat(format);
        for (int row = 0; row < table->rows(); ++row) {
            for (int column = 0; column < table->columns(); ++column) {
                const QTextTableCell cell = table->cellAt(row, column);
                QTextCursor cursor = cell.firstCursorPosition();
                // An empty paragraph before the cell's text (see above) goes.
                while (cursor.block().text().isEmpty()
                       && cursor.block().position() + cursor.block().length()
                              <= cell.lastCursorPosition().position()) {
                    cursor.deleteChar();
                }
                QTextTableCellFormat cellFormat = cell.format().toTableCellFormat();
                cellFormat.merge(row == 0 ? headerCell : bordered);
                table->cellAt(row, column).setFormat(cellFormat);
                if (row > 0)
                    continue;
                cursor.setPosition(cell.lastCursorPosition().position(), QTextCursor::KeepAnchor);
                cursor.mergeCharFormat(header);
            }
        }
    }
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
    m_quoteColor = style.cardBorder;
    styleTables(style);
    QTextCharFormat inlineCode;
    inlineCode.setBackground(style.codeBackground);
    for (QTextBlock block = m_document->begin(); block.isValid(); block = block.next()) {
        QTextCursor cursor(block);
        if (isCodeBlock(block)) {
            cursor.mergeBlockFormat(codeBlock);
            continue;
        }
        const QTextBlockFormat format = block.blockFormat();
        // The importer leaves the marker of a task item on the blocks after it: only a list
        // item is a task.
        if (format.marker() != QTextBlockFormat::MarkerType::NoMarker && !block.textList()) {
            QTextBlockFormat plain;
            plain.setMarker(QTextBlockFormat::MarkerType::NoMarker);
            cursor.mergeBlockFormat(plain);
        } else if (format.marker() != QTextBlockFormat::MarkerType::NoMarker) {
            // The list draws no bullet for a task list (measure() places the box instead).
            QTextBlockFormat task;
            task.setProperty(TaskProperty, int(format.marker()));
            task.setMarker(QTextBlockFormat::MarkerType::NoMarker);
            cursor.mergeBlockFormat(task);
            if (QTextList *list = block.textList()) {
                QTextListFormat listFormat = list->format();
                if (listFormat.style() != QTextListFormat::ListStyleUndefined) {
                    listFormat.setStyle(QTextListFormat::ListStyleUndefined);
                    list->setFormat(listFormat);
                }
            }
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
    painter->setBrush(m_quoteColor);
    for (const QRect &bar : m_quoteBars)
        painter->drawRoundedRect(bar, 1, 1);
    QAbstractTextDocumentLayout::PaintContext context;
    context.palette.setColor(QPalette::Text, color);
    context.clip = clip;
    m_document->documentLayout()->draw(painter, context);
    for (const Task &task : m_tasks) {
        painter->setBrush(Qt::NoBrush);
        painter->setPen(QPen(color, 1.2));
        painter->drawRoundedRect(task.box, 2, 2);
        if (!task.checked)
            continue;
        const QRectF box = task.box;
        QPainterPath tick;
        tick.moveTo(box.left() + box.width() * 0.22, box.top() + box.height() * 0.52);
        tick.lineTo(box.left() + box.width() * 0.42, box.top() + box.height() * 0.72);
        tick.lineTo(box.left() + box.width() * 0.78, box.top() + box.height() * 0.28);
        painter->setPen(QPen(color, 1.8, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
        painter->drawPath(tick);
    }
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
        if (format.hasProperty(TaskProperty)) {
            kind += format.intProperty(TaskProperty) == int(QTextBlockFormat::MarkerType::Checked)
                        ? QStringLiteral("task [x] ")
                        : QStringLiteral("task [ ] ");
        } else if (const QTextList *list = block.textList()) {
            kind += QStringLiteral("item %1 ").arg(list->itemText(block));
        }
        if (isCodeBlock(block))
            kind += QStringLiteral("code ");
        if (const int quote = format.intProperty(QTextFormat::BlockQuoteLevel))
            kind += QStringLiteral("quote %1 ").arg(quote);
        if (const QTextTable *table = QTextCursor(block).currentTable()) {
            const int row = table->cellAt(block.position()).row();
            const QTextCharFormat text = block.begin().atEnd()
                                             ? block.charFormat()
                                             : block.begin().fragment().charFormat();
            kind += row < table->format().headerRowCount() && text.fontWeight() > QFont::Normal
                        ? QStringLiteral("header ")
                        : QStringLiteral("cell ");
        }
        lines << QStringLiteral("[%1] %2").arg(kind.trimmed(), block.text());
    }
    return lines;
}

} // namespace Ui
