#include "sessionshortcuts.h"

#include "agentsession/agentsession.h"
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
    m_next->setObjectName(QStringLiteral("nextSessionAction"));
    m_next->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Tab));
    connect(m_next, &QAction::triggered, this, &SessionShortcuts::next);
    m_previous->setObjectName(QStringLiteral("previousSessionAction"));
    // Shift+Tab arrives as Backtab; the shortcut map tries Tab with Shift too.
    m_previous->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Tab));
    connect(m_previous, &QAction::triggered, this, &SessionShortcuts::previous);
    menu->addAction(m_next);
    menu->addAction(m_previous);
    window->addAction(m_next);
    window->addAction(m_previous);
    for (int n = 1; n <= 9; ++n) {
        auto action = new QAction(tr("Session %1").arg(n), this);
        action->setObjectName(QStringLiteral("sessionAction%1").arg(n));
        action->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_0 + n)));
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
