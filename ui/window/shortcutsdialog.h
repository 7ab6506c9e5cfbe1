#pragma once

#include <QDialog>

QT_BEGIN_NAMESPACE
class QTreeWidget;
QT_END_NAMESPACE

namespace Ui {

/// Help > Keyboard Shortcuts: every row of the shortcut table (common/shortcuts.h), grouped by
/// where the keys work, as the app shows the keys.
class ShortcutsDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ShortcutsDialog)
public:
    explicit ShortcutsDialog(QWidget *parent = nullptr);

    /// The list: one top-level row per place, the shortcuts below it (keys, what they do).
    QTreeWidget *list() const { return m_list; }

private:
    QTreeWidget *m_list;
};

} // namespace Ui
