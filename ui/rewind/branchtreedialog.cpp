#include "branchtreedialog.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace Ui {

namespace {

constexpr int leafRole = Qt::UserRole + 1;

// The first words of a stretch: its first user message's, else its first message's.
QString firstWords(const QList<AgentCore::Message> &messages)
{
    QString text;
    for (const AgentCore::Message &message : messages) {
        if (message.isUser() && !message.text().trimmed().isEmpty()) {
            text = message.text();
            break;
        }
    }
    if (text.isEmpty() && !messages.isEmpty())
        text = messages.first().text();
    text = text.simplified();
    return text.size() > 70 ? text.left(69) + QChar(0x2026) : text;
}

} // namespace

BranchTreeDialog::BranchTreeDialog(const AgentCore::SessionTree &tree,
                                   const QString &activeLeaf,
                                   QWidget *parent)
    : QDialog(parent)
    , m_branches(tree)
    , m_activePath(tree.pathTo(activeLeaf))
    , m_activeLeaf(activeLeaf)
    , m_tree(new QTreeWidget(this))
{
    setObjectName(QStringLiteral("branchTreeDialog"));
    //: The tree view of a conversation's branches
    setWindowTitle(tr("Branches of the Conversation"));
    auto intro = new QLabel(tr("Every branch of this conversation. Enter goes on with the "
                               "branch picked; the others stay."),
                            this);
    intro->setWordWrap(true);
    m_tree->setObjectName(QStringLiteral("branchTree"));
    m_tree->setColumnCount(2);
    m_tree->setHeaderLabels({tr("Branch"), tr("Messages")});
    m_tree->setRootIsDecorated(true);
    m_tree->setUniformRowHeights(true);
    m_tree->header()->setStretchLastSection(false);
    m_tree->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_tree->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_tree->setAccessibleName(tr("Branches"));
    for (const QString &root : tree.children({}))
        addStretch(nullptr, root);
    m_tree->expandAll();
    connect(m_tree, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem *item) {
        choose(item);
    });
    auto buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton *go = buttons->addButton(tr("Go to Branch"), QDialogButtonBox::AcceptRole);
    go->setObjectName(QStringLiteral("goToBranchButton"));
    go->setDefault(true);
    connect(go, &QPushButton::clicked, this, [this] { choose(m_tree->currentItem()); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_tree, 1);
    layout->addWidget(buttons);
    resize(560, 360);
    m_tree->setFocus();
}

QString BranchTreeDialog::leafOf(const QTreeWidgetItem *item)
{
    return item ? item->data(0, leafRole).toString() : QString();
}

// One row: from \a first down the messages no branch parts in, then a row for each branch
// that parts after it.
void BranchTreeDialog::addStretch(QTreeWidgetItem *parent, const QString &first)
{
    QList<AgentCore::Message> messages;
    QString last = first;
    bool active = false;
    for (QString at = first;;) {
        messages.append(m_branches.entry(at)->message);
        active = active || at == m_activeLeaf;
        last = at;
        const QStringList next = m_branches.children(at);
        if (next.size() != 1)
            break;
        at = next.constFirst();
    }
    auto item = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(m_tree);
    QString label = firstWords(messages);
    if (label.isEmpty())
        label = tr("(no text)");
    //: A row of the branch tree: the one the conversation is on now (a dot before its words)
    item->setText(0, active ? tr("● %1").arg(label) : label);
    item->setText(1, QString::number(messages.size()));
    item->setData(0, leafRole, m_branches.latestLeafUnder(last));
    item->setToolTip(0, active ? tr("The branch the conversation is on: %1").arg(label) : label);
    if (m_activePath.contains(first)) {
        QFont bold = item->font(0);
        bold.setBold(true);
        item->setFont(0, bold);
        item->setFont(1, bold);
    }
    if (active)
        m_tree->setCurrentItem(item);
    for (const QString &child : m_branches.children(last))
        addStretch(item, child);
}

void BranchTreeDialog::choose(const QTreeWidgetItem *item)
{
    const QString leaf = leafOf(item);
    if (leaf.isEmpty())
        return;
    emit branchChosen(leaf);
    accept();
}

} // namespace Ui

#include "moc_branchtreedialog.cpp"
