#include "approvalinboxdialog.h"

#include "agentsession/agentsession.h"
#include "approvalinbox.h"
#include "opensessions.h"

#include <common/shortcuts.h>
#include <common/tabchain.h>
#include <review/reviewanswerbar.h>
#include <review/reviewviews.h>

#include <QAction>
#include <QApplication>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QMainWindow>
#include <QMenu>
#include <QPushButton>
#include <QShortcut>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace Ui {

namespace {

enum Column { SessionColumn, ToolColumn, TargetColumn, RiskColumn };
constexpr int RequestIdRole = Qt::UserRole;
constexpr int SessionRole = Qt::UserRole + 1;

const AgentSession *sessionOf(const QTreeWidgetItem *item)
{
    return reinterpret_cast<const AgentSession *>(item->data(0, SessionRole).value<quintptr>());
}

} // namespace

// Rows and items go in the same order, but while a row is being removed its item has gone
// already: look the request up by what the row holds.
int ApprovalInboxDialog::inboxIndex(const QTreeWidgetItem *item) const
{
    return item ? m_inbox->indexOf(sessionOf(item), item->data(0, RequestIdRole).toULongLong())
                : -1;
}

ApprovalInboxDialog::ApprovalInboxDialog(OpenSessions *sessions, QMainWindow *window, QMenu *menu)
    : QDialog(window)
    , m_sessions(sessions)
    , m_inbox(new ApprovalInbox(sessions, this))
    , m_openAction(new QAction(tr("&Approvals…"), this))
    , m_statusButton(new QToolButton(window))
    , m_header(new QLabel(this))
    , m_list(new QTreeWidget(this))
    , m_reviews(new QStackedWidget(this))
    , m_empty(new QLabel(tr("No tool call is waiting for your approval."), this))
    , m_approveSimilar(new QPushButton(this))
    , m_showSession(new QPushButton(tr("Show in &Session"), this))
{
    setObjectName(QStringLiteral("approvalInbox"));
    setWindowTitle(tr("Approvals"));
    resize(960, 660);

    Shortcuts::apply(m_openAction, Shortcut::ApprovalInbox);
    m_openAction->setToolTip(tr("Every review waiting in any session, answered in one place"));
    connect(m_openAction, &QAction::triggered, this, &ApprovalInboxDialog::showInbox);
    window->addAction(m_openAction);
    menu->addAction(m_openAction);
    window->statusBar()->addPermanentWidget(m_statusButton);

    m_statusButton->setObjectName(QStringLiteral("approvalInboxButton"));
    m_statusButton->setAutoRaise(true);
    m_statusButton->setToolTip(tr("Open the approvals inbox (Ctrl+Shift+A)"));
    m_statusButton->setIcon(style()->standardIcon(QStyle::SP_MessageBoxQuestion));
    m_statusButton->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    connect(m_statusButton, &QToolButton::clicked, this, &ApprovalInboxDialog::showInbox);

    QFont headerFont = m_header->font();
    headerFont.setBold(true);
    m_header->setFont(headerFont);
    auto keys = new QLabel(tr("Enter allow once · Ctrl+Shift+Enter allow for the session · "
                              "Delete deny · ↑↓ move · Tab into the review"),
                           this);
    keys->setForegroundRole(QPalette::PlaceholderText);

    m_list->setObjectName(QStringLiteral("approvalList"));
    m_list->setAccessibleName(tr("Waiting approvals"));
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setAllColumnsShowFocus(true);
    m_list->setHeaderLabels({tr("Session"), tr("Tool"), tr("Command or path"), tr("Risk")});
    m_list->header()->setStretchLastSection(false);
    m_list->header()->setSectionResizeMode(TargetColumn, QHeaderView::Stretch);
    m_list->setColumnWidth(SessionColumn, 200);
    m_list->setColumnWidth(ToolColumn, 70);
    m_list->setColumnWidth(RiskColumn, 190);
    m_list->installEventFilter(this);

    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setForegroundRole(QPalette::PlaceholderText);
    m_reviews->addWidget(m_empty);

    auto splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_list);
    splitter->addWidget(m_reviews);
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({160, 440});
    splitter->setChildrenCollapsible(false);

    m_approveSimilar->setObjectName(QStringLiteral("approveSimilarButton"));
    m_approveSimilar->setToolTip(tr("Allow once every low-risk request identical to this one, "
                                    "in any session (Alt+Enter)"));
    m_approveSimilar->setFocusPolicy(Qt::TabFocus);
    connect(m_approveSimilar, &QPushButton::clicked, this, &ApprovalInboxDialog::approveSimilar);
    m_showSession->setObjectName(QStringLiteral("showSessionButton"));
    m_showSession->setToolTip(tr("Show this request's session in the window"));
    connect(m_showSession, &QPushButton::clicked, this, [this] {
        const int index = inboxIndex(m_list->currentItem());
        if (index < 0)
            return;
        m_sessions->setCurrent(m_inbox->items().at(index).session);
        parentWidget()->activateWindow();
    });
    auto buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    // Enter belongs to the list (allow once), never to a default button.
    for (QAbstractButton *button : buttons->buttons()) {
        if (auto push = qobject_cast<QPushButton *>(button))
            push->setAutoDefault(false);
    }
    m_approveSimilar->setAutoDefault(false);
    m_showSession->setAutoDefault(false);
    auto bottom = new QHBoxLayout;
    bottom->addWidget(m_approveSimilar);
    bottom->addWidget(m_showSession);
    bottom->addStretch();
    bottom->addWidget(buttons);

    auto layout = new QVBoxLayout(this);
    layout->addWidget(m_header);
    layout->addWidget(keys);
    layout->addWidget(splitter, 1);
    layout->addLayout(bottom);

    // Also from inside the review (its own keys answer it there).
    for (const QKeySequence &keys : Shortcuts::keys(Shortcut::InboxApproveSimilar)) {
        auto shortcut = new QShortcut(keys, this);
        connect(shortcut, &QShortcut::activated, this, &ApprovalInboxDialog::approveSimilar);
    }

    connect(m_list, &QTreeWidget::currentItemChanged, this, &ApprovalInboxDialog::showCurrent);
    connect(m_inbox, &ApprovalInbox::added, this, &ApprovalInboxDialog::addRow);
    connect(m_inbox, &ApprovalInbox::removed, this, &ApprovalInboxDialog::removeRow);
    connect(m_inbox, &ApprovalInbox::countChanged, this, &ApprovalInboxDialog::updateCount);
    for (int i = 0; i < m_inbox->count(); ++i)
        addRow(i);
    updateCount();
    showCurrent();
}

ApprovalInboxDialog::~ApprovalInboxDialog() = default;

void ApprovalInboxDialog::showInbox()
{
    if (!m_list->currentItem() && m_list->topLevelItemCount() > 0)
        m_list->setCurrentItem(m_list->topLevelItem(0));
    show();
    raise();
    activateWindow();
    m_list->setFocus(Qt::ShortcutFocusReason);
}

QWidget *ApprovalInboxDialog::currentView() const
{
    return m_reviews->currentWidget() == m_empty ? nullptr : m_reviews->currentWidget();
}

int ApprovalInboxDialog::currentRow() const
{
    QTreeWidgetItem *item = m_list->currentItem();
    return item ? m_list->indexOfTopLevelItem(item) : -1;
}

bool ApprovalInboxDialog::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_list && event->type() == QEvent::KeyPress) {
        const auto key = static_cast<QKeyEvent *>(event);
        const Qt::KeyboardModifiers modifiers = key->modifiers() & ~Qt::KeypadModifier;
        const bool enter = key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter;
        if (enter
            && (modifiers == Qt::NoModifier || modifiers == Qt::ControlModifier
                || modifiers == (Qt::ControlModifier | Qt::ShiftModifier))) {
            answerCurrent(key->key(), modifiers | Qt::ControlModifier);
            return true;
        }
        if (key->key() == Qt::Key_Delete && modifiers == Qt::NoModifier) {
            denyCurrent();
            return true;
        }
    }
    return QDialog::eventFilter(watched, event);
}

void ApprovalInboxDialog::keyPressEvent(QKeyEvent *event)
{
    // A dialog would click its default button on an Enter nobody took, and every review's
    // "Allow once" is one: Enter in the feedback field denies that request, and must not
    // then allow the next one. Enter answers only where the review or the list says so.
    if (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) {
        event->accept();
        return;
    }
    QDialog::keyPressEvent(event);
}

void ApprovalInboxDialog::addRow(int index)
{
    const ApprovalInbox::Item &entry = m_inbox->items().at(index);
    const AgentCore::PermissionRequest &request = entry.request;
    auto item = new QTreeWidgetItem;
    //: The inbox's Session column for a subagent's call: "Fix the parser › explore: Find it"
    item->setText(SessionColumn,
                  request.subagent.isEmpty()
                      ? ApprovalInbox::sessionName(entry.session)
                      : tr("%1 › %2").arg(ApprovalInbox::sessionName(entry.session),
                                          request.subagent));
    if (!request.subagent.isEmpty())
        item->setToolTip(SessionColumn, tr("Asked by subagent %1").arg(request.subagent));
    item->setText(ToolColumn, request.toolName);
    item->setText(TargetColumn, ApprovalInbox::target(request));
    item->setText(RiskColumn, ApprovalInbox::riskText(request));
    item->setToolTip(TargetColumn, request.reason);
    item->setData(0, RequestIdRole, request.id);
    item->setData(0, SessionRole, QVariant::fromValue(quintptr(entry.session.data())));
    switch (ApprovalInbox::risk(request)) {
    case ApprovalRisk::High:
        item->setIcon(RiskColumn, style()->standardIcon(QStyle::SP_MessageBoxWarning));
        break;
    case ApprovalRisk::Medium:
        item->setIcon(RiskColumn, style()->standardIcon(QStyle::SP_MessageBoxInformation));
        break;
    case ApprovalRisk::Low:
        break;
    }
    m_list->insertTopLevelItem(index, item);
    // The first request becomes current; later ones wait their turn below it.
    if (!m_list->currentItem())
        m_list->setCurrentItem(item);
    else
        showCurrent(); // the number of similar requests may have changed
}

void ApprovalInboxDialog::removeRow(const AgentSession *session, quint64 requestId)
{
    for (int row = 0; row < m_list->topLevelItemCount(); ++row) {
        QTreeWidgetItem *item = m_list->topLevelItem(row);
        if (sessionOf(item) != session || item->data(0, RequestIdRole).toULongLong() != requestId)
            continue;
        const bool hadFocus = isAncestorOf(QApplication::focusWidget()) && !m_list->hasFocus()
                              && m_views.value(item)
                              && m_views.value(item)->isAncestorOf(QApplication::focusWidget());
        // The next request becomes current (the previous one after the last).
        if (m_list->currentItem() == item) {
            QTreeWidgetItem *next = m_list->topLevelItem(row + 1);
            if (!next)
                next = m_list->topLevelItem(row - 1);
            m_list->setCurrentItem(next);
        }
        if (QPointer<QWidget> view = m_views.take(item)) {
            m_reviews->removeWidget(view);
            view->deleteLater(); // it may be the one emitting the answer
        }
        delete item;
        showCurrent();
        // Answered from inside the review: the keyboard goes on with the list.
        if (hadFocus || (isActiveWindow() && !QApplication::focusWidget()))
            m_list->setFocus(Qt::OtherFocusReason);
        return;
    }
}

void ApprovalInboxDialog::showCurrent()
{
    QTreeWidgetItem *item = m_list->currentItem();
    const int index = inboxIndex(item);
    if (index < 0) {
        m_reviews->setCurrentWidget(m_empty);
        m_approveSimilar->hide();
        m_showSession->setEnabled(false);
        return;
    }
    const ApprovalInbox::Item &entry = m_inbox->items().at(index);
    QPointer<QWidget> &view = m_views[item];
    if (!view) {
        const QPointer<AgentSession> session = entry.session;
        view = createReviewView(entry.request,
                                m_reviews,
                                [this, session](quint64 id,
                                                const AgentCore::PermissionAnswer &answer,
                                                const QList<int> &rejectedHunks) {
                                    AgentCore::PermissionAnswer withHunks = answer;
                                    withHunks.rejectedHunks = rejectedHunks;
                                    m_inbox->answer(session, id, withHunks);
                                });
        m_reviews->addWidget(view);
    }
    // Tab goes from the list into the current review, then to the buttons below it (each
    // review's widgets joined the focus chain at its end when it was made).
    chainTabOrder(QList<QWidget *>{m_list} + tabReachable(view)
                  + QList<QWidget *>{m_approveSimilar, m_showSession});
    m_reviews->setCurrentWidget(view);
    const int similar = int(m_inbox->similarTo(index).size());
    m_approveSimilar->setText(tr("Approve All %1 Like This").arg(similar));
    m_approveSimilar->setVisible(similar > 1);
    m_showSession->setEnabled(true);
}

void ApprovalInboxDialog::updateCount()
{
    const int count = m_inbox->count();
    m_header->setText(count == 0 ? tr("No approvals waiting")
                                 : tr("Waiting for your answer: %1").arg(count));
    setWindowTitle(count == 0 ? tr("Approvals") : tr("Approvals (%1)").arg(count));
    m_statusButton->setText(tr("%1 to approve").arg(count));
    m_statusButton->setVisible(count > 0);
    m_openAction->setText(count == 0 ? tr("&Approvals…") : tr("&Approvals (%1)…").arg(count));
}

void ApprovalInboxDialog::approveSimilar()
{
    const int index = inboxIndex(m_list->currentItem());
    if (index < 0 || m_inbox->similarTo(index).size() < 2)
        return;
    m_inbox->approveSimilar(index);
}

void ApprovalInboxDialog::answerCurrent(int key, Qt::KeyboardModifiers modifiers)
{
    // The review's own keys (ReviewAnswerBar): what it allows by key (e.g. not while no hunk
    // of a change is checked) is allowed here too.
    ReviewAnswerBar *answers = reviewAnswerBar(currentView());
    if (!answers)
        return;
    const QKeyEvent press(QEvent::KeyPress, key, modifiers);
    answers->handleShortcutKey(&press);
}

void ApprovalInboxDialog::denyCurrent()
{
    if (ReviewAnswerBar *answers = reviewAnswerBar(currentView()))
        answers->answer(AgentCore::PermissionAnswer::Choice::Deny);
}

} // namespace Ui

#include "moc_approvalinboxdialog.cpp"
