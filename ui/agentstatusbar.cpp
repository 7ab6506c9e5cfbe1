#include "agentstatusbar.h"

#include <QComboBox>
#include <QLabel>

namespace Ui {

using AgentCore::PermissionMode;

AgentStatusBar::AgentStatusBar(QWidget *parent)
    : QStatusBar(parent)
    , m_runState(new QLabel(this))
    , m_model(new QLabel(this))
    , m_mode(new QComboBox(this))
{
    setObjectName(QStringLiteral("statusBar"));
    m_runState->setObjectName(QStringLiteral("runState"));
    m_model->setObjectName(QStringLiteral("modelLabel"));
    m_mode->setObjectName(QStringLiteral("permissionMode"));
    m_mode->setFocusPolicy(Qt::NoFocus); // switching the mode must not leave the composer
    m_mode->setSizeAdjustPolicy(QComboBox::AdjustToContents);

    const struct
    {
        PermissionMode mode;
        QString text;
        QString tip;
    } modes[] = {
        {PermissionMode::Default,
         tr("Ask before changes"),
         tr("Reads run freely; every edit, write and command that changes something is reviewed.")},
        {PermissionMode::AcceptEdits,
         tr("Accept edits"),
         tr("Edits and writes inside the repository are applied without review; commands still "
            "ask.")},
        {PermissionMode::Plan,
         tr("Plan (read-only)"),
         tr("The agent may only read: edits, writes and commands are not offered to the model.")},
        {PermissionMode::Bypass,
         tr("Bypass permissions"),
         tr("Everything runs without asking, except deny rules. Writes outside the repository "
            "stay impossible.")},
    };
    for (const auto &entry : modes) {
        m_mode->addItem(entry.text, int(entry.mode));
        m_mode->setItemData(m_mode->count() - 1, entry.tip, Qt::ToolTipRole);
    }
    connect(m_mode, &QComboBox::activated, this, [this](int index) {
        emit permissionModeChosen(PermissionMode(m_mode->itemData(index).toInt()));
    });

    addPermanentWidget(m_runState);
    addPermanentWidget(m_model);
    addPermanentWidget(m_mode);

    m_clock.setInterval(1000);
    connect(&m_clock, &QTimer::timeout, this, &AgentStatusBar::updateRunState);
    updateRunState();
    setModel({});
}

AgentStatusBar::~AgentStatusBar() = default;

void AgentStatusBar::setModel(const ModelChoice &model)
{
    if (!model.problem.isEmpty()) {
        m_model->setText(tr("No model"));
        m_model->setToolTip(model.problem);
        m_model->setStyleSheet(QStringLiteral("color: palette(link)"));
        return;
    }
    m_model->setStyleSheet({});
    m_model->setText(model.label.isEmpty() ? tr("No model") : model.label);
    m_model->setToolTip(tr("The model the agent talks to"));
}

void AgentStatusBar::setPermissionMode(PermissionMode mode)
{
    const int index = m_mode->findData(int(mode));
    if (index >= 0)
        m_mode->setCurrentIndex(index);
    m_mode->setToolTip(m_mode->itemData(index, Qt::ToolTipRole).toString());
}

PermissionMode AgentStatusBar::permissionMode() const
{
    return PermissionMode(m_mode->currentData().toInt());
}

void AgentStatusBar::setRunState(AgentSession::State state)
{
    const bool wasRunning = m_state == AgentSession::State::Running
                            || m_state == AgentSession::State::Stopping;
    m_state = state;
    const bool running = state == AgentSession::State::Running
                         || state == AgentSession::State::Stopping;
    if (running && !wasRunning) {
        m_runTime.start();
        m_clock.start();
    } else if (!running) {
        m_clock.stop();
    }
    updateRunState();
}

void AgentStatusBar::setPendingReviews(int count)
{
    m_pendingReviews = count;
    updateRunState();
}

QString AgentStatusBar::runStateText() const
{
    return m_runState->text();
}

QString AgentStatusBar::modelText() const
{
    return m_model->text();
}

void AgentStatusBar::updateRunState()
{
    const qint64 seconds = m_runTime.isValid() ? m_runTime.elapsed() / 1000 : 0;
    const QString elapsed = seconds < 60 ? tr("%1 s").arg(seconds)
                                         : tr("%1 min %2 s").arg(seconds / 60).arg(seconds % 60);
    QString text;
    switch (m_state) {
    case AgentSession::State::Preparing:
        text = tr("Preparing…");
        break;
    case AgentSession::State::Idle:
        text = tr("Ready");
        break;
    case AgentSession::State::Running:
        text = m_pendingReviews > 0
                   ? tr("Waiting for your review (%1) · %2").arg(m_pendingReviews).arg(elapsed)
                   : tr("Working · %1").arg(elapsed);
        break;
    case AgentSession::State::Stopping:
        text = tr("Stopping…");
        break;
    }
    m_runState->setText(text);
}

} // namespace Ui
