#pragma once

#include <session/sessiontree.h>

#include <QDialog>

QT_BEGIN_NAMESPACE
class QTreeWidget;
class QTreeWidgetItem;
QT_END_NAMESPACE

namespace Ui {

/// The tree view of a session's branches ("Show branches…"): one row per stretch of the
/// conversation that no branch parts in, named by its first words, under the row it follows;
/// the active branch's rows in bold, the row it ends in marked as the current one and picked.
/// Enter (or a double click, or Go to Branch) on a row goes on with the latest branch through
/// it: branchChosen(). UI thread.
class BranchTreeDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BranchTreeDialog)
public:
    BranchTreeDialog(const AgentCore::SessionTree &tree,
                     const QString &activeLeaf,
                     QWidget *parent = nullptr);

    QTreeWidget *tree() const { return m_tree; }
    /// The leaf the row \a item goes to.
    static QString leafOf(const QTreeWidgetItem *item);

signals:
    void branchChosen(const QString &leaf);

private:
    void addStretch(QTreeWidgetItem *parent, const QString &first);
    void choose(const QTreeWidgetItem *item);

    AgentCore::SessionTree m_branches;
    QStringList m_activePath;
    QString m_activeLeaf;
    QTreeWidget *m_tree;
};

} // namespace Ui
