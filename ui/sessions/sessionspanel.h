#pragma once

#include "opensessions.h"

#include <session/sessionstore.h>

#include <QHash>

#include <QWidget>

QT_BEGIN_NAMESPACE
class QAction;
class QLabel;
class QListWidget;
class QListWidgetItem;
class QToolButton;
QT_END_NAMESPACE

namespace Ui {

/// The sessions of the repository, newest first, left of the conversation: New, Resume
/// (double-click or Enter), Rename (F2, edited in place) and Delete (Del, after asking).
/// The current conversation is marked; before its first message it is shown as a new,
/// not yet saved conversation at the top. Sessions open in the window carry a badge of what
/// they do (running, waiting for approval, failed, finished unseen) and their Ctrl+N key. A session whose file cannot be read is listed with
/// the reason and cannot be resumed. The panel only asks; the window decides. Text typed
/// in the list is not a search: it is handed on (textTyped), meant for the message box.
class SessionsPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SessionsPanel)
public:
    explicit SessionsPanel(QWidget *parent = nullptr);
    ~SessionsPanel() override;

    /// \a currentPath: the file of the conversation in the window (it may not exist yet).
    void setSessions(const QList<AgentCore::SessionInfo> &sessions, const QString &currentPath);
    /// Marks \a path's row as the conversation in the window, without reading the sessions
    /// again (switching between open sessions). false when the list must be rebuilt with
    /// setSessions: \a path has no row, or a conversation not saved yet has one.
    bool setCurrentPath(const QString &path);
    /// Shows \a session's row as given at the top of the list (the newest), made when it has
    /// none; the other rows stay as they are (a session that recorded something, without
    /// reading the others again).
    void updateSession(const AgentCore::SessionInfo &session);
    /// Removes the row of \a path (deleted), unless it is the unsaved conversation's.
    void removeSession(const QString &path);
    /// The sessions open in the window (in Ctrl+1...9 order) and what each does; updates the
    /// rows in place.
    void setOpenSessions(const QStringList &paths,
                         const QHash<QString, SessionActivity> &activities);
    SessionActivity activity(const QString &path) const { return m_activities.value(path); }

    QListWidget *list() const { return m_list; }
    /// The titles as listed, the current one included ("Fix the parser").
    QStringList titles() const;
    QString currentPath() const { return m_currentPath; }

    /// Whether "New session in a worktree…" (the New button's menu) can be chosen: empty
    /// \a reason enables it; otherwise it is disabled and says why (not a git repository...,
    /// SessionWorktrees::unavailableReason).
    void setWorktreeUnavailableReason(const QString &reason);
    QAction *newInWorktreeAction() const { return m_newInWorktree; }
    /// The window's actions on the conversation in it ("Bring Back Changes…"), offered in
    /// the context menu of its row; the window enables them.
    void setCurrentSessionActions(const QList<QAction *> &actions) { m_currentActions = actions; }

    /// For tests and the context menu: asks to rename the session at \a row (in place).
    void editTitle(int row);
    /// Asks the user to confirm, then emits deleteRequested.
    void confirmDelete(int row);

signals:
    void newRequested();
    /// "New session in a worktree…": a session on a git worktree and branch of its own.
    void newInWorktreeRequested();
    void resumeRequested(const QString &path);
    void renameRequested(const QString &path, const QString &title);
    void deleteRequested(const QString &path);
    /// Printable text typed while the list had the focus (not while renaming).
    void textTyped(const QString &text);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void activate(QListWidgetItem *item);
    void itemEdited(QListWidgetItem *item);
    void showContextMenu(const QPoint &position);
    QString pathAt(int row) const;
    QListWidgetItem *itemOf(const QString &path) const;
    /// \a item's title, details and tooltip from \a session (m_currentPath marks it current).
    void fill(QListWidgetItem *item, const AgentCore::SessionInfo &session) const;
    /// The badge and the open session's key of \a item, from m_openPaths and m_activities.
    void decorate(QListWidgetItem *item) const;

    QLabel *m_title;
    QToolButton *m_new;
    QAction *m_newInWorktree;
    QList<QAction *> m_currentActions;
    QListWidget *m_list;
    QString m_currentPath;
    bool m_listsUnsaved = false; // a row for the conversation before its file exists
    QStringList m_openPaths;
    QHash<QString, SessionActivity> m_activities;
    bool m_updating = false; // the list is being rebuilt: its signals are not edits
};

} // namespace Ui
