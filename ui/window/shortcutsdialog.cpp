#include "shortcutsdialog.h"

#include <common/shortcuts.h>

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace Ui {

ShortcutsDialog::ShortcutsDialog(QWidget *parent)
    : QDialog(parent)
    , m_list(new QTreeWidget(this))
{
    setObjectName(QStringLiteral("shortcutsDialog"));
    setWindowTitle(tr("Keyboard Shortcuts"));
    resize(820, 660);

    m_list->setObjectName(QStringLiteral("shortcutList"));
    m_list->setAccessibleName(tr("Keyboard shortcuts"));
    m_list->setHeaderLabels({tr("Keys"), tr("What they do")});
    m_list->setRootIsDecorated(false);
    m_list->setItemsExpandable(false);
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    m_list->setAllColumnsShowFocus(true);
    m_list->setWordWrap(true);
    m_list->header()->setStretchLastSection(true);

    QTreeWidgetItem *group = nullptr;
    QString groupName;
    for (const Shortcuts::Entry &entry : Shortcuts::table()) {
        if (!group || entry.whereText() != groupName) {
            groupName = entry.whereText();
            group = new QTreeWidgetItem(m_list, {groupName});
            group->setFirstColumnSpanned(true);
            group->setFlags(Qt::ItemIsEnabled);
            QFont bold = group->font(0);
            bold.setBold(true);
            group->setFont(0, bold);
        }
        auto row = new QTreeWidgetItem(group, {entry.keysText(), entry.whatText()});
        row->setToolTip(1, entry.whatText());
    }
    m_list->expandAll();
    m_list->setCurrentItem(nullptr);
    m_list->resizeColumnToContents(0);
    m_list->setColumnWidth(0, m_list->columnWidth(0) + 24);

    auto note = new QLabel(tr("Help > User Guide (F1) says more about each."), this);
    note->setForegroundRole(QPalette::PlaceholderText);
    auto buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto layout = new QVBoxLayout(this);
    layout->addWidget(m_list, 1);
    layout->addWidget(note);
    layout->addWidget(buttons);
}

} // namespace Ui

#include "moc_shortcutsdialog.cpp"
