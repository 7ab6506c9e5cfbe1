#pragma once

#include "agentsession.h"

#include <QElapsedTimer>
#include <QStatusBar>
#include <QTimer>

QT_BEGIN_NAMESPACE
class QComboBox;
class QLabel;
QT_END_NAMESPACE

namespace Ui {

/// The window's status bar: what the agent is doing (and for how long), the model it talks
/// to, and the permission mode, which the user switches here at any time. Transient messages
/// (showMessage) still appear on the left.
class AgentStatusBar final : public QStatusBar
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AgentStatusBar)
public:
    explicit AgentStatusBar(QWidget *parent = nullptr);
    ~AgentStatusBar() override;

    void setModel(const ModelChoice &model);
    void setPermissionMode(AgentCore::PermissionMode mode);
    AgentCore::PermissionMode permissionMode() const;
    void setRunState(AgentSession::State state);
    void setPendingReviews(int count);

    QString runStateText() const;
    QString modelText() const;

signals:
    void permissionModeChosen(AgentCore::PermissionMode mode);

private:
    void updateRunState();

    QLabel *m_runState;
    QLabel *m_model;
    QComboBox *m_mode;
    QTimer m_clock; // the elapsed time of a run, once a second
    QElapsedTimer m_runTime;
    AgentSession::State m_state = AgentSession::State::Preparing;
    int m_pendingReviews = 0;
};

} // namespace Ui
