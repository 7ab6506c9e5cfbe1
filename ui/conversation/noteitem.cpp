#include "noteitem.h"

#include "conversationstyle.h"

#include <QPainter>

namespace Ui {

static constexpr int Flags = Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap;

NoteItem::NoteItem(const QString &text, Tone tone)
    : m_text(text)
    , m_tone(tone)
{}

int NoteItem::estimateHeight(int width, const ConversationStyle &style) const
{
    return style.smallMetrics
        .boundingRect(QRect(0, 0, width - 4 * style.padding, 10000), Flags, m_text)
        .height();
}

int NoteItem::doLayout(int width, const ConversationStyle &style)
{
    m_width = width;
    return estimateHeight(width, style);
}

void NoteItem::paint(QPainter *painter,
                     const QRect &clip,
                     const ConversationStyle &style,
                     qint64 nowMs) const
{
    Q_UNUSED(clip)
    Q_UNUSED(nowMs)
    QFont font = style.small;
    font.setItalic(m_tone == Tone::Info);
    painter->setFont(font);
    painter->setPen(m_tone == Tone::Error ? style.error : style.muted);
    painter->drawText(QRect(2 * style.padding, 0, m_width - 4 * style.padding, 10000),
                      Flags,
                      m_text);
}

} // namespace Ui
