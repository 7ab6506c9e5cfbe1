#include "sessionshortcuts.h"

#include "agentsession/agentsession.h"
#include "common/shortcuts.h"
#include "opensessions.h"

#include <QAction>
#include <QKeySequence>
#include <QMenu>
#include <QWidget>

namespace Ui {

SessionShortcuts::SessionShortcuts(OpenSessions *sessions, QWidget *window, QMenu *menu)
    : QObject(window)
    , m_sessions(sessions)
    , m_next(new QAction(tr("&Next Session"), this))
    , m_previous(new QAction(tr("&Previous Session"), this))
{
    Shortcuts::apply(m_next, Shortcut::NextSession);
    connect(m_next, &QAction::triggered, this, &SessionShortcuts::next);
    Shortcuts::apply(m_previous, Shortcut::PreviousSession);
    connect(m_previous, &QAction::triggered, this, &SessionShortcuts::previous);
    menu->addAction(m_next);
    menu->addAction(m_previous);
    window->addAction(m_next);
    window->addAction(m_previous);
    const Shortcuts::Entry &numbers = Shortcuts::entry(Shortcut::SessionByNumber);
    for (int n = 1; n <= numbers.keys.size(); ++n) {
        auto action = new QAction(tr("Session %1").arg(n), this);
        action->setObjectName(numbers.actionName + QString::number(n));
        action->setShortcut(numbers.keys.at(n - 1));
        connect(action, &QAction::triggered, this, [this, n] { goTo(n - 1); });
        window->addAction(action);
        m_numbers.append(action);
    }
    connect(sessions, &OpenSessions::added, this, &SessionShortcuts::updateEnabled);
    connect(sessions, &OpenSessions::removed, this, [this] {
        // Still counted until deleted.
        QMetaObject::invokeMethod(this, &SessionShortcuts::updateEnabled, Qt::QueuedConnection);
    });
    updateEnabled();
}

void SessionShortcuts::goTo(int index)
{
    const QList<AgentSession *> open = m_sessions->sessions();
    if (index < 0 || index >= open.size())
        return;
    m_sessions->setCurrent(open.at(index));
    emit switched(open.at(index));
}

void SessionShortcuts::cycle(int step)
{
    const int count = m_sessions->count();
    if (count < 2)
        return;
    const int index = m_sessions->indexOf(m_sessions->current());
    goTo(((index < 0 ? 0 : index + step) % count + count) % count);
}

void SessionShortcuts::updateEnabled()
{
    const int count = m_sessions->count();
    m_next->setEnabled(count > 1);
    m_previous->setEnabled(count > 1);
    for (int i = 0; i < m_numbers.size(); ++i)
        m_numbers.at(i)->setEnabled(i < count);
}

} // namespace Ui

#include "moc_sessionshortcuts.cpp"
