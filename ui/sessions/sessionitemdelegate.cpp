#include "sessionitemdelegate.h"

#include "conversation/conversationstyle.h"

#include <QApplication>
#include <QPainter>

namespace Ui {

namespace {
constexpr int padding = 6;
constexpr int lineGap = 2;
constexpr int accentWidth = 3;

QFont detailFont(const QFont &base)
{
    QFont font = base;
    font.setPointSizeF(base.pointSizeF() * 0.88);
    return font;
}
} // namespace

QSize SessionItemDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &) const
{
    const QFontMetrics title(option.font);
    const QFontMetrics detail(detailFont(option.font));
    return {option.rect.width(), padding * 2 + title.height() + lineGap + detail.height()};
}

void SessionItemDelegate::paint(QPainter *painter,
                                const QStyleOptionViewItem &option,
                                const QModelIndex &index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QString title = opt.text;
    opt.text.clear(); // the background, selection and focus come from the style
    const QWidget *widget = option.widget;
    QStyle *style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);

    const bool current = index.data(CurrentRole).toBool();
    const bool broken = index.data(ErrorRole).toBool();
    const bool selected = opt.state & QStyle::State_Selected;
    const QPalette &palette = opt.palette;

    painter->save();
    const QRect area = opt.rect.adjusted(padding + accentWidth, padding, -padding, -padding);
    if (current) {
        painter->fillRect(QRect(opt.rect.left(),
                                opt.rect.top() + 3,
                                accentWidth,
                                opt.rect.height() - 6),
                          palette.color(QPalette::Highlight));
    }
    QFont titleFont = opt.font;
    titleFont.setBold(current);
    painter->setFont(titleFont);
    painter->setPen(palette.color(selected ? QPalette::HighlightedText : QPalette::Text));
    const QFontMetrics titleMetrics(titleFont);
    const QRect titleRect(area.left(), area.top(), area.width(), titleMetrics.height());
    painter->drawText(titleRect,
                      Qt::AlignLeft | Qt::AlignVCenter,
                      titleMetrics.elidedText(title, Qt::ElideRight, titleRect.width()));

    const QFont small = detailFont(opt.font);
    painter->setFont(small);
    QColor detailColor = palette.color(selected ? QPalette::HighlightedText
                                                : QPalette::PlaceholderText);
    if (broken && !selected)
        detailColor = ConversationStyle(palette, opt.font).error; // as errors in the conversation
    painter->setPen(detailColor);
    const QFontMetrics detailMetrics(small);
    const QRect detailRect(area.left(),
                           titleRect.bottom() + 1 + lineGap,
                           area.width(),
                           detailMetrics.height());
    painter->drawText(detailRect,
                      Qt::AlignLeft | Qt::AlignVCenter,
                      detailMetrics.elidedText(index.data(DetailRole).toString(),
                                               Qt::ElideRight,
                                               detailRect.width()));
    painter->restore();
}

void SessionItemDelegate::updateEditorGeometry(QWidget *editor,
                                               const QStyleOptionViewItem &option,
                                               const QModelIndex &) const
{
    // Over the title line only, so the detail stays visible while renaming.
    const QFontMetrics metrics(option.font);
    editor->setGeometry(option.rect.left() + accentWidth,
                        option.rect.top() + padding - 3,
                        option.rect.width() - accentWidth - padding,
                        metrics.height() + 6);
}

} // namespace Ui
