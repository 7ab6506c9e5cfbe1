#pragma once

#include <QStyledItemDelegate>

namespace Ui {

/// Paints a session of the sessions list on two lines: its title (bold when it is the
/// conversation in the window, with an accent bar) and a smaller detail line (how many
/// messages and when, or why it cannot be read). Editing renames it as a plain line edit.
class SessionItemDelegate final : public QStyledItemDelegate
{
    Q_OBJECT
public:
    enum Role {
        PathRole = Qt::UserRole + 1,
        DetailRole,
        CurrentRole,
        ErrorRole,
    };

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
