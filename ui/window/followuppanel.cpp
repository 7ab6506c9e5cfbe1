#include "followuppanel.h"

#include <common/shortcuts.h>

#include <loop/agent.h>

#include <QAbstractItemDelegate>
#include <QAction>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QStackedWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace Ui {

namespace {

constexpr int ShownIndexRole = Qt::UserRole + 1; // the item's message in m_shown

/// \a original with its text replaced by \a text; other blocks (images) stay.
AgentCore::Message withText(const AgentCore::Message &original, const QString &text)
{
    AgentCore::Message edited = original;
    edited.content.removeIf([](const AgentCore::ContentBlock &block) { return block.isText(); });
    edited.content = AgentCore::Message::makeUser(text).content + edited.content;
    return edited;
}

QToolButton *makeButton(QAction *action, QWidget *parent)
{
    auto button = new QToolButton(parent);
    button->setDefaultAction(action);
    button->setToolButtonStyle(Qt::ToolButtonTextOnly);
    button->setAutoRaise(true);
    return button;
}

} // namespace

FollowUpPanel::FollowUpPanel(QWidget *parent)
    : QWidget(parent)
    , m_title(new QLabel(this))
    , m_stack(new QStackedWidget(this))
    , m_list(new QListWidget(this))
    , m_empty(new QLabel(this))
{
    setObjectName(QStringLiteral("followUpPanel"));
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    m_title->setFont(titleFont);

    m_list->setObjectName(QStringLiteral("followUpList"));
    m_list->setDragDropMode(QAbstractItemView::InternalMove);
    m_list->setDefaultDropAction(Qt::MoveAction);
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    m_list->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    m_list->setWordWrap(true);
    m_list->setTextElideMode(Qt::ElideRight);
    m_list->setAlternatingRowColors(true);
    m_list->setSpacing(3);
    m_list->setContextMenuPolicy(Qt::ActionsContextMenu);

    m_empty->setObjectName(QStringLiteral("followUpEmpty"));
    m_empty->setText(tr("No follow-ups queued.\n\nWhile the agent works, press Alt+Enter in the "
                        "message box to queue a message for when the current task ends."));
    m_empty->setWordWrap(true);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setForegroundRole(QPalette::PlaceholderText);
    m_empty->setMargin(12);
    m_stack->addWidget(m_empty);
    m_stack->addWidget(m_list);

    m_editAction = new QAction(tr("Edit"), this);
    Shortcuts::apply(m_editAction, Shortcut::EditFollowUp);
    m_editAction->setShortcutContext(Qt::WidgetShortcut);
    connect(m_editAction, &QAction::triggered, this, [this] {
        if (QListWidgetItem *item = m_list->currentItem())
            m_list->editItem(item);
    });
    m_sendNowAction = new QAction(tr("Send Now"), this);
    m_sendNowAction->setToolTip(
        tr("Send this follow-up now: it steers the running task, or starts one "
           "when the agent is idle"));
    connect(m_sendNowAction, &QAction::triggered, this, [this] { sendNow(currentRow()); });
    m_deleteAction = new QAction(tr("Delete"), this);
    Shortcuts::apply(m_deleteAction, Shortcut::DeleteFollowUp);
    m_deleteAction->setShortcutContext(Qt::WidgetShortcut);
    connect(m_deleteAction, &QAction::triggered, this, [this] { remove(currentRow()); });
    m_list->addActions({m_editAction, m_sendNowAction, m_deleteAction});

    auto pauseAction = new QAction(tr("Pause"), this);
    pauseAction->setCheckable(true);
    pauseAction->setToolTip(tr("Hold the queue: the current task ends without taking follow-ups"));
    connect(pauseAction, &QAction::toggled, this, &FollowUpPanel::setPaused);

    m_sendNowButton = makeButton(m_sendNowAction, this);
    m_deleteButton = makeButton(m_deleteAction, this);
    m_pauseButton = makeButton(pauseAction, this);
    m_sendNowButton->setObjectName(QStringLiteral("sendNowButton"));
    m_deleteButton->setObjectName(QStringLiteral("deleteButton"));
    m_pauseButton->setObjectName(QStringLiteral("pauseButton"));

    auto header = new QHBoxLayout;
    header->addWidget(m_title, 1);
    header->addWidget(m_pauseButton);
    auto buttons = new QHBoxLayout;
    buttons->addWidget(m_sendNowButton);
    buttons->addWidget(m_deleteButton);
    buttons->addStretch(1);
    auto layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->setSpacing(4);
    layout->addLayout(header);
    layout->addWidget(m_stack, 1);
    layout->addLayout(buttons);

    QAbstractItemModel *model = m_list->model();
    connect(model, &QAbstractItemModel::rowsMoved, this, &FollowUpPanel::scheduleWriteBack);
    // A drop may arrive as an insertion plus a removal.
    connect(model, &QAbstractItemModel::rowsRemoved, this, &FollowUpPanel::scheduleWriteBack);
    connect(m_list, &QListWidget::itemChanged, this, &FollowUpPanel::scheduleWriteBack);
    connect(m_list->itemDelegate(), &QAbstractItemDelegate::closeEditor, this, [this] {
        if (std::exchange(m_refreshPending, false))
            QMetaObject::invokeMethod(this, &FollowUpPanel::refresh, Qt::QueuedConnection);
    });
    connect(m_list, &QListWidget::currentRowChanged, this, &FollowUpPanel::updateState);

    refresh();
}

FollowUpPanel::~FollowUpPanel() = default;

void FollowUpPanel::setAgent(AgentCore::Agent *agent)
{
    if (m_agent)
        disconnect(m_agent, nullptr, this, nullptr);
    m_agent = agent;
    if (m_agent) {
        connect(m_agent, &AgentCore::Agent::queuesChanged, this, &FollowUpPanel::refresh);
        const QSignalBlocker blocker(m_pauseButton->defaultAction());
        m_pauseButton->defaultAction()->setChecked(m_agent->followUpsPaused());
    }
    refresh();
}

AgentCore::Agent *FollowUpPanel::agent() const
{
    return m_agent;
}

QStringList FollowUpPanel::texts() const
{
    QStringList out;
    for (int row = 0; row < m_list->count(); ++row)
        out.append(m_list->item(row)->text());
    return out;
}

bool FollowUpPanel::sendNow(int row)
{
    if (!m_agent || row < 0 || row >= m_list->count())
        return false;
    writeBack(); // the agent's queue is what the user sees, edits included
    if (row >= m_list->count())
        return false;
    const int index = m_list->item(row)->data(ShownIndexRole).toInt();
    return m_agent->sendNow(m_agent->followUpQueue().indexOf(m_shown.value(index)));
}

bool FollowUpPanel::remove(int row)
{
    if (row < 0 || row >= m_list->count())
        return false;
    delete m_list->takeItem(row); // rowsRemoved writes the queue back
    return true;
}

void FollowUpPanel::setPaused(bool paused)
{
    QAction *toggle = m_pauseButton->defaultAction();
    if (toggle->isChecked() != paused) {
        toggle->setChecked(paused); // comes back here through toggled
        return;
    }
    if (m_agent)
        m_agent->setFollowUpsPaused(paused);
    updateState();
}

bool FollowUpPanel::isPaused() const
{
    return m_pauseButton->defaultAction()->isChecked();
}

void FollowUpPanel::refresh()
{
    if (m_writeBackPending)
        return; // the write-back refreshes; rebuilding now would throw the user's change away
    if (isEditing()) {
        m_refreshPending = true; // likewise
        return;
    }
    const int row = currentRow();
    m_shown = m_agent ? m_agent->followUpQueue() : QList<AgentCore::Message>();
    m_updating = true;
    m_list->clear();
    for (qsizetype i = 0; i < m_shown.size(); ++i) {
        auto item = new QListWidgetItem(m_shown.at(i).text().trimmed());
        item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled | Qt::ItemIsEditable
                       | Qt::ItemIsDragEnabled);
        item->setToolTip(m_shown.at(i).text());
        item->setData(ShownIndexRole, int(i));
        m_list->addItem(item);
    }
    if (m_list->count() > 0)
        m_list->setCurrentRow(std::clamp(row, 0, m_list->count() - 1));
    m_updating = false;
    updateState();
}

void FollowUpPanel::scheduleWriteBack()
{
    if (m_updating || m_writeBackPending)
        return;
    // After the drop or edit that changed the list has finished with it.
    m_writeBackPending = true;
    QMetaObject::invokeMethod(this, &FollowUpPanel::writeBack, Qt::QueuedConnection);
}

void FollowUpPanel::writeBack()
{
    m_writeBackPending = false;
    if (!m_agent)
        return;
    // The loop may have taken a follow-up since the list was built: leave it out, and keep
    // what was queued since at the end.
    const QList<AgentCore::Message> current = m_agent->followUpQueue();
    QList<AgentCore::Message> queue;
    for (int row = 0; row < m_list->count(); ++row) {
        const QListWidgetItem *item = m_list->item(row);
        const AgentCore::Message original = m_shown.value(item->data(ShownIndexRole).toInt());
        if (!current.contains(original))
            continue;
        const QString text = item->text().trimmed();
        if (text.isEmpty())
            continue; // emptied in place: deleted
        queue.append(text == original.text().trimmed() ? original : withText(original, text));
    }
    for (const AgentCore::Message &message : current) {
        if (!m_shown.contains(message))
            queue.append(message);
    }
    if (queue != current)
        m_agent->setFollowUpQueue(queue);
    refresh();
}

void FollowUpPanel::updateState()
{
    const int count = m_list->count();
    m_stack->setCurrentWidget(count > 0 ? static_cast<QWidget *>(m_list) : m_empty);
    const QString title = count > 0 ? tr("Follow-ups (%1)").arg(count) : tr("Follow-ups");
    m_title->setText(isPaused() ? tr("%1 · paused").arg(title) : title);
    const bool hasCurrent = currentRow() >= 0;
    m_sendNowAction->setEnabled(hasCurrent && m_agent);
    m_deleteAction->setEnabled(hasCurrent);
    m_editAction->setEnabled(hasCurrent);
    m_pauseButton->setEnabled(m_agent);
}

bool FollowUpPanel::isEditing() const
{
    // An open editor is the index widget of its row.
    for (int row = 0; row < m_list->count(); ++row) {
        if (m_list->indexWidget(m_list->model()->index(row, 0)))
            return true;
    }
    return false;
}

int FollowUpPanel::currentRow() const
{
    return m_list->currentRow();
}

} // namespace Ui

#include "moc_followuppanel.cpp"
