#pragma once

#include <QStyledItemDelegate>

QT_BEGIN_NAMESPACE
class QColor;
class QPalette;
QT_END_NAMESPACE

namespace Ui {

/// Paints a session of the sessions list on two lines: its title (bold when it is the
/// conversation in the window, with an accent bar) and a smaller detail line (how many
/// messages and when, or why it cannot be read). An open session's activity is a coloured dot
/// before the title and words in front of the detail ("Done, not seen yet · 4 messages"); a
/// running (or waiting) row says only that, since its count and time change by the second.
/// Editing renames it as a plain line edit.
class SessionItemDelegate final : public QStyledItemDelegate
{
    Q_OBJECT
public:
    enum Role {
        PathRole = Qt::UserRole + 1,
        DetailRole,
        CurrentRole,
        ErrorRole,
        ActivityRole, ///< SessionActivity, as int: the badge
        /// Set on open sessions: "Ctrl+2" (the key that shows it), at the right of the detail.
        ShortcutRole,
    };
    /// The badge's colour and what it says, for \a activity (SessionActivity); nothing for
    /// None.
    static QColor badgeColor(int activity, const QPalette &palette);
    static QString badgeText(int activity);
    /// The row's detail line as painted (before eliding): DetailRole with the badge's words.
    static QString detailText(const QModelIndex &index);

    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter *painter,
               const QStyleOptionViewItem &option,
               const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    void updateEditorGeometry(QWidget *editor,
                              const QStyleOptionViewItem &option,
                              const QModelIndex &index) const override;
};

} // namespace Ui
