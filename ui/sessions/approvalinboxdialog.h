#pragma once

#include <QDialog>
#include <QHash>
#include <QPointer>

QT_BEGIN_NAMESPACE
class QAction;
class QKeyEvent;
class QLabel;
class QMainWindow;
class QMenu;
class QPushButton;
class QStackedWidget;
class QToolButton;
class QTreeWidget;
class QTreeWidgetItem;
QT_END_NAMESPACE

namespace Ui {

class AgentSession;
class ApprovalInbox;
class OpenSessions;

/// The window's approvals inbox: every review waiting in any open session in one list (the
/// session, the tool, its command or path, the risk), the current one's review below it, the
/// same view its page shows (createReviewView). Answered with the keyboard in order without
/// switching sessions: Enter or Ctrl+Enter allows the current request once, Ctrl+Shift+Enter
/// for the session, Delete denies, the arrows move, and the next request becomes current;
/// Alt+Enter allows every low-risk request like the current one (ApprovalInbox::similarTo).
/// Tab goes into the review (hunks, rules, feedback). Opened with Ctrl+Shift+A (openAction())
/// or from the status bar's count (statusButton()). Non-modal; the sessions go on meanwhile.
class ApprovalInboxDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ApprovalInboxDialog)
public:
    /// Follows \a sessions (an ApprovalInbox of its own); adds openAction() to \a window
    /// (a window-wide key) and to \a menu, statusButton() to the window's status bar.
    ApprovalInboxDialog(OpenSessions *sessions, QMainWindow *window, QMenu *menu);
    ~ApprovalInboxDialog() override;

    /// Shows, raises and focuses the list, on the first request when none is current.
    void showInbox();

    ApprovalInbox *inbox() const { return m_inbox; }
    QAction *openAction() const { return m_openAction; }
    /// "3 approvals": hidden while none waits; a click opens the inbox.
    QToolButton *statusButton() const { return m_statusButton; }
    QTreeWidget *list() const { return m_list; }
    /// Null when the inbox is empty.
    QWidget *currentView() const;
    int currentRow() const;
    QPushButton *approveSimilarButton() const { return m_approveSimilar; }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;

private:
    int inboxIndex(const QTreeWidgetItem *item) const;
    void addRow(int index);
    void removeRow(const AgentSession *session, quint64 requestId);
    void showCurrent();
    void updateCount();
    void approveSimilar();
    void answerCurrent(int key, Qt::KeyboardModifiers modifiers);
    void denyCurrent();

    OpenSessions *m_sessions;
    ApprovalInbox *m_inbox;
    QAction *m_openAction;
    QToolButton *m_statusButton;
    QLabel *m_header;
    QTreeWidget *m_list;
    QStackedWidget *m_reviews;
    QLabel *m_empty;
    QPushButton *m_approveSimilar;
    QPushButton *m_showSession;
    QHash<QTreeWidgetItem *, QPointer<QWidget>> m_views; ///< made when a row becomes current
};

} // namespace Ui
