#include "elidedlabel.h"

#include <QEvent>
#include <QHelpEvent>
#include <QPainter>
#include <QStyle>
#include <QToolTip>

namespace Ui {

namespace {
// Never cut below a few characters: "Review what…" still says what it is.
constexpr int minimumCharacters = 14;
} // namespace

ElidedLabel::ElidedLabel(QWidget *parent)
    : QLabel(parent)
{
    setTextFormat(Qt::PlainText);
    setWordWrap(false);
}

void ElidedLabel::setElideMode(Qt::TextElideMode mode)
{
    m_mode = mode;
    update();
}

QString ElidedLabel::shownText() const
{
    // One line: a command's newlines would make the label as tall as the command.
    QString line = text();
    line.replace(QLatin1Char('\n'), QLatin1Char(' '));
    return fontMetrics().elidedText(line, m_mode, qMax(0, contentsRect().width() - 2 * margin()));
}

QSize ElidedLabel::minimumSizeHint() const
{
    const QSize whole = QLabel::minimumSizeHint();
    const QMargins margins = contentsMargins();
    const int few = fontMetrics().averageCharWidth() * minimumCharacters + margins.left()
                    + margins.right() + 2 * margin();
    return {qMin(whole.width(), few), whole.height()};
}

void ElidedLabel::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    drawFrame(&painter);
    const QRect area = contentsRect().adjusted(margin(), margin(), -margin(), -margin());
    style()->drawItemText(&painter,
                          area,
                          QStyle::visualAlignment(layoutDirection(), alignment())
                              | Qt::TextSingleLine,
                          palette(),
                          isEnabled(),
                          shownText(),
                          foregroundRole());
}

bool ElidedLabel::event(QEvent *event)
{
    // The whole text as the tooltip, only while it is cut; a tooltip of its own comes first.
    if (event->type() == QEvent::ToolTip && toolTip().isEmpty()) {
        const QString shown = shownText();
        if (shown != text()) {
            QToolTip::showText(static_cast<QHelpEvent *>(event)->globalPos(), text(), this);
            return true;
        }
    }
    return QLabel::event(event);
}

} // namespace Ui

#include "moc_elidedlabel.cpp"
