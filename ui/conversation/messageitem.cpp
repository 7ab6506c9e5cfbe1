#include "messageitem.h"
#include "common/translation.h"

#include "conversationstyle.h"

#include "common/picturecodec.h"

#include <QCoreApplication>
#include <QPainter>
#include <QPainterPath>

namespace Ui {

MessageItem::MessageItem(Kind kind)
    : m_kind(kind)
{
    m_body.setText({},
                   kind == Kind::User ? RenderedText::Format::Plain
                                      : RenderedText::Format::Markdown);
    m_thinking.setText({}, RenderedText::Format::Plain);
}

QString MessageItem::plainText() const
{
    QString text = m_body.renderedText();
    for (const QString &picture : m_pictureNames)
        text += (text.isEmpty() ? QString() : QStringLiteral("\n"))
                + UiTr::tr("[picture: %1]").arg(picture);
    return text;
}

void MessageItem::setMessage(const AgentCore::Message &message)
{
    QString text;
    QString thinking;
    m_pictures.clear();
    m_pictureNames.clear();
    for (const AgentCore::ContentBlock &block : message.content) {
        QString &target = block.isThinking() ? thinking : text;
        if (block.isImage()) {
            // Decoded at the size shown (a 5 MB screenshot is never held whole).
            const QImage image = PictureCodec::decode(block, maxPictureSize);
            m_pictures.append(image);
            m_pictureNames.append(image.isNull() ? UiTr::tr("%1, unreadable").arg(block.mimeType)
                                                 : block.mimeType);
            continue;
        }
        if (block.isToolCall() || (block.isThinking() && block.redacted))
            continue;
        if (!target.isEmpty() && !block.text.isEmpty())
            target += QStringLiteral("\n\n");
        target += block.text;
    }
    if (message.isAssistant() && !message.refusal.isEmpty())
        text += (text.isEmpty() ? QString() : QStringLiteral("\n\n")) + message.refusal;
    m_body.setText(text,
                   m_kind == Kind::User ? RenderedText::Format::Plain
                                        : RenderedText::Format::Markdown);
    m_thinking.setText(thinking, RenderedText::Format::Plain);
    m_lastTextIndex = m_lastThinkingIndex = -1;
    invalidate();
}

void MessageItem::appendText(int contentIndex, const QString &delta)
{
    if (contentIndex != m_lastTextIndex && !m_body.isEmpty())
        m_body.append(QStringLiteral("\n\n"));
    m_lastTextIndex = contentIndex;
    m_body.append(delta);
    invalidate();
}

void MessageItem::appendThinking(int contentIndex, const QString &delta)
{
    if (contentIndex != m_lastThinkingIndex && !m_thinking.isEmpty())
        m_thinking.append(QStringLiteral("\n\n"));
    m_lastThinkingIndex = contentIndex;
    m_thinking.append(delta);
    invalidate();
}

void MessageItem::setStreaming(bool streaming)
{
    if (m_streaming == streaming)
        return;
    m_streaming = streaming;
    m_body.setStreaming(streaming);
    invalidate();
}

void MessageItem::setThinkingExpanded(bool expanded)
{
    if (m_thinkingExpanded == expanded)
        return;
    m_thinkingExpanded = expanded;
    invalidate();
}

QString MessageItem::thinkingSummary() const
{
    // While the model thinks, its latest line says what it is doing; afterwards the first one
    // says what it set out to do.
    const QStringList lines = m_thinking.text().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    if (lines.isEmpty())
        return {};
    return (m_streaming ? lines.last() : lines.first()).trimmed();
}

bool MessageItem::isEmpty() const
{
    return m_body.isEmpty() && m_thinking.isEmpty() && !m_streaming && m_pictures.isEmpty();
}

// The pictures' row: each at its shown size, side by side, wrapped at \a width.
static QList<QRect> pictureRects(const QList<QImage> &pictures, int width, int spacing)
{
    QList<QRect> rects;
    int x = 0;
    int y = 0;
    int rowHeight = 0;
    for (const QImage &picture : pictures) {
        const QSize size = picture.isNull() ? QSize(120, 40) : picture.size();
        if (x > 0 && x + size.width() > width) {
            x = 0;
            y += rowHeight + spacing;
            rowHeight = 0;
        }
        rects.append(QRect(QPoint(x, y), size));
        x += size.width() + spacing;
        rowHeight = std::max(rowHeight, size.height());
    }
    return rects;
}

static QRect boundsOf(const QList<QRect> &rects)
{
    QRect bounds;
    for (const QRect &rect : rects)
        bounds = bounds.united(rect);
    return bounds;
}

int MessageItem::thinkingHeaderHeight(const ConversationStyle &style) const
{
    return m_thinking.isEmpty() ? 0 : style.smallMetrics.height() + style.spacing;
}

void MessageItem::setCaption(const QString &caption)
{
    if (caption == m_caption)
        return;
    m_caption = caption;
    invalidate();
}

int MessageItem::captionHeight(const ConversationStyle &style) const
{
    return m_caption.isEmpty() && !hasBranches() ? 0
                                                 : style.smallMetrics.height() + style.spacing / 2;
}

void MessageItem::setBranch(qsizetype messageIndex, int position, int count)
{
    if (messageIndex == m_branchIndex && position == m_branchPosition && count == m_branchCount)
        return;
    m_branchIndex = messageIndex;
    m_branchPosition = position;
    m_branchCount = count;
    invalidate();
}

QString MessageItem::branchLabel() const
{
    //: The branch switcher on a message: this is branch 2 of 3 at this point
    return hasBranches() ? UiTr::tr("‹  %1 / %2  ›").arg(m_branchPosition).arg(m_branchCount)
                         : QString();
}

int MessageItem::branchStepAt(QPoint pos) const
{
    if (!hasBranches() || !m_switcher.adjusted(0, -3, 0, 3).contains(pos))
        return 0;
    // The arrows are the switcher's thirds: small targets made wider.
    if (pos.x() < m_switcher.left() + m_switcher.width() / 3)
        return -1;
    if (pos.x() > m_switcher.right() - m_switcher.width() / 3)
        return 1;
    return 0;
}

int MessageItem::bubbleWidth(int width) const
{
    return m_kind == Kind::User ? width * 4 / 5 : width;
}

int MessageItem::estimateHeight(int width, const ConversationStyle &style) const
{
    if (isEmpty())
        return 0;
    const int inner = bubbleWidth(width) - 2 * style.padding;
    int height = captionHeight(style) + 2 * style.padding + thinkingHeaderHeight(style);
    if (m_thinkingExpanded)
        height += RenderedText::estimateHeight(m_thinking.text(), inner, style.smallMetrics);
    if (!m_pictures.isEmpty())
        height += boundsOf(pictureRects(m_pictures, inner, style.spacing)).height()
                  + (m_body.isEmpty() ? 0 : style.spacing);
    if (m_body.isEmpty())
        return height + (m_pictures.isEmpty() ? style.bodyMetrics.height() : 0);
    return height + RenderedText::estimateHeight(m_body.text(), inner, style.bodyMetrics);
}

int MessageItem::doLayout(int width, const ConversationStyle &style)
{
    if (isEmpty()) {
        m_bubble = {};
        return 0;
    }
    const int maxInner = bubbleWidth(width) - 2 * style.padding;
    const int top = captionHeight(style);
    int y = top + style.padding;
    m_thinkingHeader = {};
    if (!m_thinking.isEmpty()) {
        m_thinkingHeader = QRect(style.padding, y, maxInner, style.smallMetrics.height());
        y += thinkingHeaderHeight(style);
        if (m_thinkingExpanded) {
            QFont font = style.small;
            font.setItalic(true);
            m_thinkingOrigin = QPoint(style.padding + style.padding, y);
            y += m_thinking.layout(maxInner - style.padding, font, style) + style.spacing;
        } else {
            m_thinking.release();
        }
    }
    // The pictures first, as the model gets them: above the text.
    m_pictureRects = pictureRects(m_pictures, maxInner, style.spacing);
    const QRect pictures = boundsOf(m_pictureRects);
    for (QRect &rect : m_pictureRects)
        rect.translate(style.padding, y);
    if (!m_pictureRects.isEmpty())
        y += pictures.height() + (m_body.isEmpty() ? 0 : style.spacing);
    // The "…" of a reply that has not started; nothing under pictures alone.
    int bodyHeight = m_pictures.isEmpty() ? style.bodyMetrics.height() : 0;
    int inner = m_pictures.isEmpty() ? maxInner : pictures.width();
    if (!m_body.isEmpty()) {
        bodyHeight = m_body.layout(maxInner, style.body, style);
        if (m_kind == Kind::User)
            inner = qMax(qMax(m_body.idealWidth(), style.bodyMetrics.averageCharWidth() * 4),
                         pictures.width());
    }
    m_bodyOrigin = QPoint(style.padding, y);
    y += bodyHeight + style.padding;
    const int bubbleWidth = inner + 2 * style.padding;
    m_bubble = QRect(width - bubbleWidth, top, bubbleWidth, y - top);
    if (m_kind == Kind::User) { // right-aligned: move the text along with the bubble
        m_bodyOrigin.rx() += m_bubble.x();
        for (QRect &rect : m_pictureRects)
            rect.translate(m_bubble.x(), 0);
    }
    m_switcher = {};
    if (hasBranches()) {
        // On the bubble's outer edge (a user's right, the agent's left); a caption takes the
        // other end.
        const int switcherWidth = style.smallMetrics.horizontalAdvance(branchLabel())
                                  + style.padding;
        m_switcher = QRect(m_kind == Kind::User ? width - switcherWidth : m_bubble.x(),
                           0,
                           switcherWidth,
                           style.smallMetrics.height());
    }
    return y;
}

void MessageItem::releaseLayout()
{
    m_body.release();
    m_thinking.release();
}

void MessageItem::paint(QPainter *painter,
                        const QRect &clip,
                        const ConversationStyle &style,
                        qint64 nowMs) const
{
    Q_UNUSED(nowMs)
    if (m_bubble.isEmpty())
        return;
    painter->setRenderHint(QPainter::Antialiasing);
    QPainterPath path;
    path.addRoundedRect(QRectF(m_bubble).adjusted(0.5, 0.5, -0.5, -0.5), style.radius, style.radius);
    painter->fillPath(path, m_kind == Kind::User ? style.userBubble : style.assistantBubble);
    if (!m_caption.isEmpty()) {
        painter->setFont(style.small);
        painter->setPen(style.muted);
        const bool right = (m_kind == Kind::User) != hasBranches(); // the switcher's other end
        const QRect caption(m_bubble.x(), 0, m_bubble.width(), style.smallMetrics.height());
        painter->drawText(caption,
                          (right ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter,
                          m_caption);
    }
    if (hasBranches()) {
        painter->setFont(style.small);
        painter->setPen(style.text);
        QPainterPath frame;
        frame.addRoundedRect(QRectF(m_switcher).adjusted(0.5, 0.5, -0.5, -0.5), 4, 4);
        painter->setPen(style.cardBorder);
        painter->drawPath(frame);
        painter->setPen(style.muted);
        painter->drawText(m_switcher, Qt::AlignCenter, branchLabel());
    }

    if (!m_thinkingHeader.isEmpty()) {
        painter->setFont(style.small);
        painter->setPen(style.muted);
        const QString chevron = m_thinkingExpanded ? QStringLiteral("▾ ") : QStringLiteral("▸ ");
        const QString label = chevron
                              + (m_streaming && m_body.isEmpty() ? UiTr::tr("Thinking…")
                                                                 : UiTr::tr("Thinking"));
        painter->drawText(m_thinkingHeader, Qt::AlignLeft | Qt::AlignVCenter, label);
        if (!m_thinkingExpanded) {
            const int labelWidth = style.smallMetrics.horizontalAdvance(label + QLatin1Char(' '));
            QRect summary = m_thinkingHeader.adjusted(labelWidth, 0, 0, 0);
            QFont italic = style.small;
            italic.setItalic(true);
            painter->setFont(italic);
            painter->drawText(summary,
                              Qt::AlignLeft | Qt::AlignVCenter,
                              QFontMetrics(italic).elidedText(thinkingSummary(),
                                                              Qt::ElideRight,
                                                              summary.width()));
        } else {
            painter->setPen(QPen(style.cardBorder, 2));
            painter->drawLine(m_thinkingOrigin.x() - style.padding / 2,
                              m_thinkingOrigin.y(),
                              m_thinkingOrigin.x() - style.padding / 2,
                              m_bodyOrigin.y() - style.spacing);
            m_thinking.draw(painter, m_thinkingOrigin, clip, style.muted);
        }
    }
    for (qsizetype i = 0; i < m_pictureRects.size() && i < m_pictures.size(); ++i) {
        const QRect &rect = m_pictureRects.at(i);
        if (m_pictures.at(i).isNull()) {
            painter->setFont(style.small);
            painter->setPen(style.muted);
            painter->drawText(rect, Qt::AlignCenter | Qt::TextWordWrap, m_pictureNames.at(i));
        } else {
            painter->drawImage(rect, m_pictures.at(i));
        }
    }
    if (m_body.isEmpty() && !m_pictures.isEmpty())
        return;
    if (m_body.isEmpty()) {
        painter->setFont(style.body);
        painter->setPen(style.muted);
        painter->drawText(QRect(m_bodyOrigin, QSize(m_bubble.width(), style.bodyMetrics.height())),
                          Qt::AlignLeft | Qt::AlignVCenter,
                          QStringLiteral("…"));
        return;
    }
    m_body.draw(painter, m_bodyOrigin, clip, style.text);
}

bool MessageItem::isClickable(QPoint pos) const
{
    return m_thinkingHeader.adjusted(0, -4, 0, 4).contains(pos) || branchStepAt(pos) != 0;
}

bool MessageItem::click(QPoint pos)
{
    if (!m_thinkingHeader.adjusted(0, -4, 0, 4).contains(pos))
        return false;
    setThinkingExpanded(!m_thinkingExpanded);
    return true;
}

} // namespace Ui
