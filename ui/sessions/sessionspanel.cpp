#include "sessionspanel.h"

#include "sessionitemdelegate.h"

#include <common/shortcuts.h>

#include <QDateTime>
#include <QDir>
#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollBar>
#include <QToolButton>
#include <QVBoxLayout>

namespace Ui {

namespace {

/// The row's tooltip without its badge line (decorate() puts that first).
constexpr int baseToolTipRole = Qt::UserRole + 100;

QString ago(const QDateTime &when)
{
    const qint64 seconds = when.secsTo(QDateTime::currentDateTime());
    if (seconds < 60)
        return SessionsPanel::tr("just now");
    if (seconds < 3600)
        return SessionsPanel::tr("%n min ago", nullptr, int(seconds / 60));
    if (seconds < 24 * 3600)
        return SessionsPanel::tr("%n h ago", nullptr, int(seconds / 3600));
    if (seconds < 7 * 24 * 3600)
        return SessionsPanel::tr("%n day(s) ago", nullptr, int(seconds / (24 * 3600)));
    return QLocale().toString(when.date(), QLocale::ShortFormat);
}

} // namespace

SessionsPanel::SessionsPanel(QWidget *parent)
    : QWidget(parent)
    , m_title(new QLabel(tr("Sessions"), this))
    , m_new(new QToolButton(this))
    , m_newInWorktree(new QAction(tr("New Session in a &Worktree…"), this))
    , m_list(new QListWidget(this))
{
    setObjectName(QStringLiteral("sessionsPanel"));
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    m_title->setFont(titleFont);

    m_new->setObjectName(QStringLiteral("newSessionButton"));
    m_new->setText(tr("New"));
    m_new->setIcon(QIcon::fromTheme(QStringLiteral("document-new")));
    m_new->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_new->setAutoRaise(true);
    m_new->setToolTip(tr("Start a new conversation (Ctrl+N)"));
    connect(m_new, &QToolButton::clicked, this, &SessionsPanel::newRequested);
    // Two agents never edit the same files: the session gets a worktree and branch of its own.
    m_newInWorktree->setObjectName(QStringLiteral("newWorktreeSessionAction"));
    m_newInWorktree->setEnabled(false); // until the window says the repository allows it
    connect(m_newInWorktree, &QAction::triggered, this, &SessionsPanel::newInWorktreeRequested);
    auto newMenu = new QMenu(m_new);
    newMenu->setToolTipsVisible(true);
    newMenu->addAction(m_newInWorktree);
    m_new->setMenu(newMenu);
    m_new->setPopupMode(QToolButton::MenuButtonPopup);

    m_list->setObjectName(QStringLiteral("sessionsList"));
    m_list->setItemDelegate(new SessionItemDelegate(m_list));
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    m_list->setEditTriggers(QAbstractItemView::EditKeyPressed); // F2; double-click resumes
    m_list->setContextMenuPolicy(Qt::CustomContextMenu);
    m_list->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    m_list->installEventFilter(this);
    connect(m_list, &QListWidget::itemActivated, this, &SessionsPanel::activate);
    connect(m_list, &QListWidget::itemChanged, this, &SessionsPanel::itemEdited);
    connect(m_list, &QWidget::customContextMenuRequested, this, &SessionsPanel::showContextMenu);

    auto header = new QHBoxLayout;
    header->setContentsMargins(0, 0, 0, 0);
    header->addWidget(m_title, 1);
    header->addWidget(m_new);
    auto layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 6, 6, 6);
    layout->setSpacing(4);
    layout->addLayout(header);
    layout->addWidget(m_list, 1);
}

SessionsPanel::~SessionsPanel() = default;

void SessionsPanel::setSessions(const QList<AgentCore::SessionInfo> &sessions,
                                const QString &currentPath)
{
    m_updating = true;
    const QString previousCurrent = m_currentPath;
    m_currentPath = currentPath;
    // The rows are made again: the row the user selected stays selected, the view where it was.
    const QString selected
        = m_list->currentItem()
              ? m_list->currentItem()->data(SessionItemDelegate::PathRole).toString()
              : QString();
    const int scrolled = m_list->verticalScrollBar()->value();
    m_list->clear();
    bool currentListed = false;
    for (const AgentCore::SessionInfo &session : sessions)
        currentListed = currentListed || session.path == currentPath;
    m_listsUnsaved = !currentListed && !currentPath.isEmpty();
    if (m_listsUnsaved) {
        // The conversation in the window, before its first message reached the disk.
        auto item = new QListWidgetItem(tr("New conversation"), m_list);
        item->setData(SessionItemDelegate::PathRole, currentPath);
        item->setData(SessionItemDelegate::DetailRole, tr("Not saved until the first task"));
        item->setData(SessionItemDelegate::CurrentRole, true);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
        decorate(item);
    }
    for (const AgentCore::SessionInfo &session : sessions) {
        auto item = new QListWidgetItem(m_list);
        fill(item, session);
        decorate(item);
    }
    // The selection follows the conversation in the window, unless the user moved it to
    // another row (to delete or rename it): that row stays selected.
    const bool following = selected.isEmpty() || selected == previousCurrent;
    if (QListWidgetItem *item = itemOf(following ? currentPath : selected))
        m_list->setCurrentItem(item);
    m_list->verticalScrollBar()->setValue(scrolled);
    m_updating = false;
}

void SessionsPanel::fill(QListWidgetItem *item, const AgentCore::SessionInfo &session) const
{
    const bool readable = session.error.isEmpty();
    item->setText(readable ? session.title : QFileInfo(session.path).fileName());
    item->setData(SessionItemDelegate::PathRole, session.path);
    item->setData(SessionItemDelegate::CurrentRole, session.path == m_currentPath);
    item->setData(SessionItemDelegate::ErrorRole, !readable);
    //: Sessions list: "12 messages · 2 h ago"
    item->setData(SessionItemDelegate::DetailRole,
                  readable ? tr("%n message(s) · %1", nullptr, session.messageCount)
                                 .arg(ago(session.modified))
                           : session.error);
    item->setData(baseToolTipRole,
                  readable ? tr("%1\nStarted %2\n%3")
                                 .arg(session.title,
                                      QLocale().toString(session.created, QLocale::ShortFormat),
                                      QDir::toNativeSeparators(session.path))
                           : tr("This session cannot be resumed: %1\n%2")
                                 .arg(session.error, QDir::toNativeSeparators(session.path)));
    Qt::ItemFlags flags = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (readable)
        flags |= Qt::ItemIsEditable;
    item->setFlags(flags);
}

QListWidgetItem *SessionsPanel::itemOf(const QString &path) const
{
    for (int row = 0; row < m_list->count(); ++row) {
        if (m_list->item(row)->data(SessionItemDelegate::PathRole).toString() == path)
            return m_list->item(row);
    }
    return nullptr;
}

void SessionsPanel::updateSession(const AgentCore::SessionInfo &session)
{
    const bool updating = m_updating;
    m_updating = true; // setData emits itemChanged: not a rename
    QListWidgetItem *item = itemOf(session.path);
    if (item && m_listsUnsaved && session.path == m_currentPath)
        m_listsUnsaved = false; // its file was written: a session like the others now
    // The newest goes first, as the list orders them (below a conversation not yet saved).
    const int top = m_listsUnsaved ? 1 : 0;
    if (!item) {
        item = new QListWidgetItem;
        m_list->insertItem(top, item);
    } else if (const int row = m_list->row(item); row > top) {
        const bool wasCurrent = m_list->currentItem() == item;
        m_list->takeItem(row);
        m_list->insertItem(top, item);
        if (wasCurrent)
            m_list->setCurrentItem(item);
    }
    fill(item, session);
    decorate(item);
    m_updating = updating;
}

void SessionsPanel::removeSession(const QString &path)
{
    if (path == m_currentPath && m_listsUnsaved)
        return; // the conversation in the window keeps its row until it is replaced
    delete itemOf(path);
}

void SessionsPanel::setOpenSessions(const QStringList &paths,
                                    const QHash<QString, SessionActivity> &activities)
{
    m_openPaths = paths;
    m_activities = activities;
    const bool updating = m_updating;
    m_updating = true; // setData emits itemChanged: not a rename
    for (int row = 0; row < m_list->count(); ++row)
        decorate(m_list->item(row));
    m_updating = updating;
}

bool SessionsPanel::setCurrentPath(const QString &path)
{
    if (m_listsUnsaved)
        return false;
    QListWidgetItem *current = itemOf(path);
    if (!current)
        return false;
    m_updating = true;
    for (int row = 0; row < m_list->count(); ++row) {
        QListWidgetItem *item = m_list->item(row);
        const bool isCurrent = item == current;
        if (item->data(SessionItemDelegate::CurrentRole).toBool() != isCurrent)
            item->setData(SessionItemDelegate::CurrentRole, isCurrent);
    }
    m_currentPath = path;
    // The selected row is the open session's: Enter, F2 and Delete act on what is shown.
    m_list->setCurrentItem(current);
    m_updating = false;
    return true;
}

void SessionsPanel::decorate(QListWidgetItem *item) const
{
    const QString path = item->data(SessionItemDelegate::PathRole).toString();
    const int index = m_openPaths.indexOf(path);
    const int activity = int(m_activities.value(path, SessionActivity::None));
    if (item->data(SessionItemDelegate::ActivityRole).toInt() != activity)
        item->setData(SessionItemDelegate::ActivityRole, activity);
    //: Sessions list: the key that shows this open session
    const QString shortcut = index >= 0 && index < 9
                                 ? QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + index))
                                       .toString(QKeySequence::NativeText)
                                 : QString();
    if (item->data(SessionItemDelegate::ShortcutRole).toString() != shortcut)
        item->setData(SessionItemDelegate::ShortcutRole, shortcut);
    // The badge in words, for those who cannot tell the colours apart, and the key.
    QString badge = SessionItemDelegate::badgeText(activity);
    if (!shortcut.isEmpty())
        badge = badge.isEmpty() ? tr("Open (%1)").arg(shortcut)
                                : tr("%1 (%2)").arg(badge, shortcut);
    const QString base = item->data(baseToolTipRole).toString();
    item->setToolTip(badge.isEmpty()  ? base
                     : base.isEmpty() ? badge
                                      : badge + QLatin1Char('\n') + base);
}

void SessionsPanel::setWorktreeUnavailableReason(const QString &reason)
{
    m_newInWorktree->setEnabled(reason.isEmpty());
    m_newInWorktree->setToolTip(reason.isEmpty()
                                    ? tr("Start a conversation on a new branch in a git worktree "
                                         "of its own; its changes come back through a review")
                                    : reason);
}

QStringList SessionsPanel::titles() const
{
    QStringList titles;
    for (int row = 0; row < m_list->count(); ++row)
        titles.append(m_list->item(row)->text());
    return titles;
}

QString SessionsPanel::pathAt(int row) const
{
    const QListWidgetItem *item = m_list->item(row);
    return item ? item->data(SessionItemDelegate::PathRole).toString() : QString();
}

void SessionsPanel::activate(QListWidgetItem *item)
{
    const QString path = item->data(SessionItemDelegate::PathRole).toString();
    if (path == m_currentPath)
        return;
    emit resumeRequested(path);
}

void SessionsPanel::itemEdited(QListWidgetItem *item)
{
    if (m_updating)
        return;
    const QString title = item->text().simplified();
    if (title.isEmpty())
        return; // the window refreshes the list, which brings the old name back
    emit renameRequested(item->data(SessionItemDelegate::PathRole).toString(), title);
}

void SessionsPanel::editTitle(int row)
{
    QListWidgetItem *item = m_list->item(row);
    if (!item || !(item->flags() & Qt::ItemIsEditable))
        return;
    m_list->setCurrentItem(item);
    m_list->editItem(item);
}

void SessionsPanel::confirmDelete(int row)
{
    QListWidgetItem *item = m_list->item(row);
    if (!item)
        return;
    const QString path = pathAt(row);
    const bool current = path == m_currentPath;
    const SessionActivity activity = m_activities.value(path, SessionActivity::None);
    const bool running = activity == SessionActivity::Running
                         || activity == SessionActivity::Waiting;
    QMessageBox box(QMessageBox::Question,
                    tr("Delete Session"),
                    tr("Delete \"%1\"?").arg(item->text()),
                    QMessageBox::Cancel,
                    this);
    box.setObjectName(QStringLiteral("deleteSessionBox"));
    box.setInformativeText(running   ? tr("Its task is still running: it is stopped, and the "
                                          "conversation is removed from disk. This cannot be "
                                          "undone.")
                           : current ? tr("This is the conversation in the window: a new one "
                                          "starts in its place. This cannot be undone.")
                                     : tr("The conversation and its follow-up queue are removed "
                                          "from disk. This cannot be undone."));
    QPushButton *remove = box.addButton(tr("Delete"), QMessageBox::DestructiveRole);
    box.setDefaultButton(QMessageBox::Cancel);
    box.exec();
    if (box.clickedButton() == remove)
        emit deleteRequested(path);
}

void SessionsPanel::showContextMenu(const QPoint &position)
{
    QListWidgetItem *item = m_list->itemAt(position);
    QMenu menu(this);
    if (item) {
        const int row = m_list->row(item);
        const bool current = pathAt(row) == m_currentPath;
        const bool readable = !item->data(SessionItemDelegate::ErrorRole).toBool();
        QAction *resume = menu.addAction(tr("Resume"), this, [this, item] { activate(item); });
        resume->setEnabled(!current && readable);
        QAction *rename = menu.addAction(tr("Rename"), this, [this, row] { editTitle(row); });
        rename->setShortcuts(Shortcuts::keys(Shortcut::RenameSession));
        rename->setEnabled(bool(item->flags() & Qt::ItemIsEditable));
        QAction *remove = menu.addAction(tr("Delete…"), this, [this, row] { confirmDelete(row); });
        remove->setShortcuts(Shortcuts::keys(Shortcut::DeleteSession));

        if (current && !m_currentActions.isEmpty()) {
            menu.addSeparator();
            menu.addActions(m_currentActions);
        }
        menu.addSeparator();
    }
    menu.addAction(tr("New Conversation"), this, &SessionsPanel::newRequested);
    menu.exec(m_list->viewport()->mapToGlobal(position));
}

bool SessionsPanel::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_list && event->type() == QEvent::KeyPress) {
        const auto key = static_cast<QKeyEvent *>(event);
        // While renaming, keys go to the editor, not to the list.
        if (key->matches(QKeySequence::Delete) && m_list->currentRow() >= 0) {
            confirmDelete(m_list->currentRow());
            return true;
        }
        // The list's type-ahead would swallow the first letters of a task typed after
        // clicking a session; Space still selects.
        const Qt::KeyboardModifiers modifiers = key->modifiers()
                                                & ~(Qt::ShiftModifier | Qt::KeypadModifier);
        const QString text = key->text();
        if (modifiers == Qt::NoModifier && !text.isEmpty() && text.at(0).isPrint()
            && !text.at(0).isSpace()) {
            emit textTyped(text);
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace Ui

#include "moc_sessionspanel.cpp"
