#pragma once

#include <ai/types.h>

#include <QPointer>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QAction;
class QLabel;
class QListWidget;
class QStackedWidget;
class QToolButton;
QT_END_NAMESPACE

namespace AgentCore {
class Agent;
}

namespace Ui {

/// The side panel of queued follow-ups, in the order they will run, bound to an Agent.
///
/// The user edits one in place (double-click or F2), deletes it (Del or the button), drags it
/// to another place, sends it now (it becomes steering: Agent::sendNow), or pauses the queue
/// (Agent::setFollowUpsPaused). Every change is written back to the Agent at once; a follow-up
/// the loop took in the meantime is not put back. Never blocks on the agent.
class FollowUpPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FollowUpPanel)
public:
    explicit FollowUpPanel(QWidget *parent = nullptr);
    ~FollowUpPanel() override;

    /// Shows \a agent's follow-ups (not owned; may be nullptr). The pause toggle takes the
    /// agent's state.
    void setAgent(AgentCore::Agent *agent);
    AgentCore::Agent *agent() const;

    /// The follow-ups as shown, top to bottom.
    QStringList texts() const;
    QListWidget *listWidget() const { return m_list; }

    /// Sends the follow-up in \a row now. false when there is no such row or no agent.
    bool sendNow(int row);
    /// Deletes the follow-up in \a row.
    bool remove(int row);
    void setPaused(bool paused);
    bool isPaused() const;

private:
    void refresh();
    void scheduleWriteBack();
    void writeBack();
    void updateState();
    bool isEditing() const;
    int currentRow() const;

    QPointer<AgentCore::Agent> m_agent;
    QList<AgentCore::Message> m_shown; // the queue as last read; items keep an index into it
    QLabel *m_title = nullptr;
    QStackedWidget *m_stack = nullptr;
    QListWidget *m_list = nullptr;
    QLabel *m_empty = nullptr;
    QToolButton *m_sendNowButton = nullptr;
    QToolButton *m_deleteButton = nullptr;
    QToolButton *m_pauseButton = nullptr;
    QAction *m_sendNowAction = nullptr;
    QAction *m_deleteAction = nullptr;
    QAction *m_editAction = nullptr;
    bool m_updating = false; // the list is being rebuilt: its signals are not edits
    bool m_writeBackPending = false;
    bool m_refreshPending = false; // the queue changed while an item was being edited
};

} // namespace Ui
