#include "sessionitemdelegate.h"

#include "conversation/conversationstyle.h"
#include "opensessions.h"

#include <QApplication>
#include <QPainter>

namespace Ui {

namespace {
constexpr int padding = 6;
constexpr int lineGap = 2;
constexpr int accentWidth = 3;
constexpr int badgeGap = 5;

int badgeSize(const QFontMetrics &title)
{
    return qMax(7, title.height() / 2);
}

QFont detailFont(const QFont &base)
{
    QFont font = base;
    font.setPointSizeF(base.pointSizeF() * 0.88);
    return font;
}
} // namespace

QColor SessionItemDelegate::badgeColor(int activity, const QPalette &palette)
{
    const ConversationStyle style(palette, QFont());
    switch (SessionActivity(activity)) {
    case SessionActivity::Running:
        return style.accent;
    case SessionActivity::Waiting:
        return style.attention; // wants the user, but is not an error
    case SessionActivity::Failed:
        return style.error;
    case SessionActivity::Unseen:
        return style.success;
    case SessionActivity::None:
        break;
    }
    return {};
}

QString SessionItemDelegate::badgeText(int activity)
{
    switch (SessionActivity(activity)) {
    case SessionActivity::Running:
        return tr("Running");
    case SessionActivity::Waiting:
        return tr("Waiting for approval");
    case SessionActivity::Failed:
        return tr("Failed");
    case SessionActivity::Unseen:
        //: Sessions list: its task finished while another session was shown
        return tr("Done, not seen yet");
    case SessionActivity::None:
        break;
    }
    return {};
}

QString SessionItemDelegate::detailText(const QModelIndex &index)
{
    const int activity = index.data(ActivityRole).toInt();
    const QString words = badgeText(activity);
    // Its file is written at each task and at its end: while it runs, the count and the time
    // of the last write say "1 message · just now" about a task of minutes and many calls.
    if (SessionActivity(activity) == SessionActivity::Running
        || SessionActivity(activity) == SessionActivity::Waiting)
        return words;
    const QString detail = index.data(DetailRole).toString();
    //: Sessions list: "Done, not seen yet · 12 messages · 2 h ago"
    return words.isEmpty() ? detail : tr("%1 · %2").arg(words, detail);
}

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
    const QFontMetrics titleMetrics(titleFont);
    QRect titleRect(area.left(), area.top(), area.width(), titleMetrics.height());
    const int activity = index.data(ActivityRole).toInt();
    const QColor badge = badgeColor(activity, palette);
    if (badge.isValid()) {
        // A dot before the title; on a selected row, ringed so it shows on the highlight.
        const int size = badgeSize(titleMetrics);
        const QRectF dot(titleRect.left() + 0.5,
                         titleRect.center().y() - size / 2.0 + 1,
                         size - 1,
                         size - 1);
        painter->setRenderHint(QPainter::Antialiasing);
        painter->setPen(selected ? QPen(palette.color(QPalette::HighlightedText), 1.5)
                                 : QPen(Qt::NoPen));
        painter->setBrush(badge);
        if (SessionActivity(activity) == SessionActivity::Waiting) {
            // A diamond: set apart from the round ones by its shape too.
            const QPointF c = dot.center();
            const qreal r = dot.width() / 2 + 0.5;
            painter->drawPolygon(QPolygonF({QPointF(c.x(), c.y() - r),
                                            QPointF(c.x() + r, c.y()),
                                            QPointF(c.x(), c.y() + r),
                                            QPointF(c.x() - r, c.y())}));
        } else {
            painter->drawEllipse(dot);
        }
        titleRect.setLeft(titleRect.left() + size + badgeGap);
    }
    painter->setPen(palette.color(selected ? QPalette::HighlightedText : QPalette::Text));
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
    QRect detailRect(area.left(),
                     titleRect.bottom() + 1 + lineGap,
                     area.width(),
                     detailMetrics.height());
    const QString shortcut = index.data(ShortcutRole).toString();
    if (!shortcut.isEmpty()) {
        // The key that shows this open session, at the right, never elided.
        painter->drawText(detailRect, Qt::AlignRight | Qt::AlignVCenter, shortcut);
        detailRect.setRight(detailRect.right() - detailMetrics.horizontalAdvance(shortcut)
                            - badgeGap);
    }
    const QString detail = detailText(index);
    if (badge.isValid() && !selected)
        painter->setPen(badge);
    painter->drawText(detailRect,
                      Qt::AlignLeft | Qt::AlignVCenter,
                      detailMetrics.elidedText(detail, Qt::ElideRight, detailRect.width()));
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

#include "moc_sessionitemdelegate.cpp"
