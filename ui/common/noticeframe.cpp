#include "noticeframe.h"

#include "themecolors.h"

#include <QEvent>
#include <QPainter>

namespace Ui {

NoticeFrame::NoticeFrame(Tone tone, Shape shape, QWidget *parent)
    : QFrame(parent)
    , m_tone(tone)
    , m_shape(shape)
{
    takeTextColour();
}

QColor NoticeFrame::background() const
{
    const ThemeColors colors = ThemeColors::of(palette());
    return m_tone == Tone::Notice ? colors.noticeBackground : colors.dangerBackground;
}

void NoticeFrame::paintEvent(QPaintEvent *)
{
    const ThemeColors colors = ThemeColors::of(palette());
    QPainter painter(this);
    if (m_shape == Shape::Pill) {
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setPen(Qt::NoPen);
        painter.setBrush(background());
        painter.drawRoundedRect(QRectF(rect()), 4, 4);
        return;
    }
    painter.fillRect(rect(), background());
    if (m_tone == Tone::Notice)
        painter.fillRect(QRect(0, height() - 1, width(), 1), colors.noticeBorder);
}

void NoticeFrame::changeEvent(QEvent *event)
{
    QFrame::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        takeTextColour(); // a new theme: setting the same colour again sends no further change
}

void NoticeFrame::takeTextColour()
{
    // The roles ThemeColors reads (base, text, highlight) are the theme's, never set here.
    const ThemeColors colors = ThemeColors::of(palette());
    QPalette own = palette();
    own.setColor(QPalette::WindowText,
                 m_tone == Tone::Notice ? colors.noticeText : colors.dangerText);
    setPalette(own);
}

} // namespace Ui

#include "moc_noticeframe.cpp"
