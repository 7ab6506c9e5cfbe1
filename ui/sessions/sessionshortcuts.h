#pragma once

#include <QList>
#include <QObject>

QT_BEGIN_NAMESPACE
class QAction;
class QMenu;
class QWidget;
QT_END_NAMESPACE

namespace Ui {

class AgentSession;
class OpenSessions;

/// The keys between open sessions: Ctrl+1...9 show the Nth (in the order they were opened),
/// Ctrl+Tab and Ctrl+Shift+Tab the next and previous, round. Window-wide actions, so they
/// work from the message box, the conversation and the lists alike.
class SessionShortcuts final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SessionShortcuts)
public:
    /// Adds the actions to \a window; next() and previous() also go into \a menu.
    SessionShortcuts(OpenSessions *sessions, QWidget *window, QMenu *menu);

    void goTo(int index);
    void next() { cycle(1); }
    void previous() { cycle(-1); }

    QAction *nextAction() const { return m_next; }
    QAction *previousAction() const { return m_previous; }

signals:
    /// The user switched to \a session with a key.
    void switched(Ui::AgentSession *session);

private:
    void cycle(int step);
    void updateEnabled();

    OpenSessions *m_sessions;
    QAction *m_next;
    QAction *m_previous;
    QList<QAction *> m_numbers;
};

} // namespace Ui
