#include "agentstatusbar.h"

#include "common/usagelabel.h"
#include "modelbutton.h"

#include "common/noticeframe.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPainter>
#include <QPushButton>
#include <QStyle>
#include <QStyleOption>

namespace Ui {

using AgentCore::PermissionMode;

AgentStatusBar::AgentStatusBar(QWidget *parent)
    : QStatusBar(parent)
    , m_runState(new QLabel(this))
    , m_usage(new UsageLabel(this))
    , m_model(new ModelButton(this))
    , m_thinking(new QComboBox(this))
    , m_mode(new QComboBox(this))
    , m_bypassWarning(new NoticeFrame(NoticeFrame::Tone::Danger, NoticeFrame::Shape::Pill, this))
{
    setObjectName(QStringLiteral("statusBar"));
    m_runState->setObjectName(QStringLiteral("runState"));
    connect(m_model, &ModelButton::selectionChosen, this, &AgentStatusBar::modelSelectionChosen);
    connect(m_model, &ModelButton::settingsRequested, this, &AgentStatusBar::settingsRequested);

    m_thinking->setObjectName(QStringLiteral("thinkingLevel"));
    m_thinking->setFocusPolicy(Qt::TabFocus); // by keyboard; a click leaves the composer focused
    m_thinking->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    for (const ThinkingLevel level :
         {ThinkingLevel::Off, ThinkingLevel::Low, ThinkingLevel::Medium, ThinkingLevel::High}) {
        m_thinking->addItem(tr("Thinking: %1").arg(thinkingLevelName(level)), int(level));
    }
    connect(m_thinking, &QComboBox::activated, this, [this](int index) {
        emit thinkingLevelChosen(ThinkingLevel(m_thinking->itemData(index).toInt()));
    });
    m_mode->setObjectName(QStringLiteral("permissionMode"));
    m_mode->setFocusPolicy(Qt::TabFocus); // a click must not take the focus from the composer
    m_mode->setSizeAdjustPolicy(QComboBox::AdjustToContents);

    const struct
    {
        PermissionMode mode;
        QString text;
        QString tip;
    } modes[] = {
        {PermissionMode::Default,
         permissionModeTitle(PermissionMode::Default),
         tr("Reads run freely; every edit, write and command that changes something is reviewed.")},
        {PermissionMode::AcceptEdits,
         permissionModeTitle(PermissionMode::AcceptEdits),
         tr("Edits and writes inside the repository are applied without review, except "
            "AgentDesk's own settings; commands still ask.")},
        {PermissionMode::Plan,
         permissionModeTitle(PermissionMode::Plan),
         tr("The agent may only read: edits and writes are not offered to the model, and only "
            "read-only commands run.")},
        {PermissionMode::Bypass,
         permissionModeTitle(PermissionMode::Bypass),
         tr("Skips the questions, not the limits: everything runs without asking, except deny "
            "rules and changes to AgentDesk's own settings (.agentdesk/, .mcp.json, your "
            "config folder), which still ask. Writes outside the repository stay impossible, "
            "also for commands (a command AgentDesk cannot analyse is not checked).")},
    };
    for (const auto &entry : modes) {
        m_mode->addItem(entry.text, int(entry.mode));
        m_mode->setItemData(m_mode->count() - 1, entry.tip, Qt::ToolTipRole);
    }
    connect(m_mode, &QComboBox::activated, this, [this](int index) {
        chooseMode(PermissionMode(m_mode->itemData(index).toInt()));
    });

    // While bypass is on, nothing asks: that must not go unnoticed, nor be forgotten later.
    m_bypassWarning->setObjectName(QStringLiteral("bypassWarning"));
    auto *icon = new QLabel(m_bypassWarning);
    const int iconSize = fontMetrics().height();
    icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(iconSize));
    auto *warningText = new QLabel(tr("Bypass on: runs unasked"), m_bypassWarning);
    warningText->setObjectName(QStringLiteral("bypassWarningText"));
    QFont bold = warningText->font();
    bold.setBold(true);
    warningText->setFont(bold);
    auto *warningLayout = new QHBoxLayout(m_bypassWarning);
    warningLayout->setContentsMargins(6, 1, 8, 1);
    warningLayout->setSpacing(4);
    warningLayout->addWidget(icon);
    warningLayout->addWidget(warningText);
    const QString bypassTip = m_mode
                                  ->itemData(m_mode->findData(int(PermissionMode::Bypass)),
                                             Qt::ToolTipRole)
                                  .toString();
    // QToolTip asks the widget under the mouse first: each part says it.
    for (QWidget *part : {static_cast<QWidget *>(m_bypassWarning),
                          static_cast<QWidget *>(icon),
                          static_cast<QWidget *>(warningText)})
        part->setToolTip(bypassTip);
    m_bypassWarning->hide();

    addPermanentWidget(m_runState);
    addPermanentWidget(m_usage);
    connect(m_usage, &UsageLabel::contextViewRequested, this, &AgentStatusBar::contextViewRequested);
    addPermanentWidget(m_model);
    addPermanentWidget(m_thinking);
    addPermanentWidget(m_bypassWarning);
    addPermanentWidget(m_mode);

    // A message cut to the room left is whole in the tooltip.
    connect(this, &QStatusBar::messageChanged, this, [this](const QString &message) {
        setToolTip(message);
    });

    m_clock.setInterval(1000);
    connect(&m_clock, &QTimer::timeout, this, &AgentStatusBar::updateRunState);
    updateRunState();
    setModel({});
    setModelSelection(std::nullopt);
    updateSwitching();
}

AgentStatusBar::~AgentStatusBar() = default;

QRect AgentStatusBar::messageRect() const
{
    constexpr int gap = 12;
    int right = width() - gap;
    const QList<QWidget *> children = findChildren<QWidget *>(Qt::FindDirectChildrenOnly);
    for (const QWidget *child : children) {
        if (child->isVisible() && !child->isWindow())
            right = qMin(right, child->x() - gap);
    }
    return QRect(6, 0, qMax(0, right - 6), height());
}

QString AgentStatusBar::shownMessage() const
{
    return fontMetrics().elidedText(currentMessage(), Qt::ElideRight, messageRect().width());
}

// As QStatusBar paints itself, but a long message (the keyring's notice) ends with "…" before
// the permanent widgets instead of running into the first of them.
void AgentStatusBar::paintEvent(QPaintEvent *event)
{
    if (currentMessage().isEmpty()) {
        QStatusBar::paintEvent(event);
        return;
    }
    QPainter painter(this);
    QStyleOption option;
    option.initFrom(this);
    style()->drawPrimitive(QStyle::PE_PanelStatusBar, &option, &painter, this);
    painter.setPen(palette().color(QPalette::WindowText));
    painter.drawText(messageRect(),
                     Qt::AlignLeading | Qt::AlignVCenter | Qt::TextSingleLine,
                     shownMessage());
}

void AgentStatusBar::setModel(const ModelChoice &model)
{
    if (!model.problem.isEmpty())
        m_model->setLabel(tr("No model"), model.problem);
    else
        m_model->setLabel(model.label.isEmpty() ? tr("No model") : model.label);
    m_demo = model.isDemo;
    m_model->setDemo(m_demo);
    setUsage(m_usageSummary);
}

void AgentStatusBar::setModelSelection(const std::optional<ModelSelection> &current,
                                       const QList<ModelSelection> &recent)
{
    m_model->setSelection(current, recent);
    m_thinking->setVisible(current.has_value());
    if (current)
        m_thinking->setCurrentIndex(m_thinking->findData(int(current->thinking)));
}

void AgentStatusBar::setUsage(const UsageSummary &usage)
{
    m_usageSummary = usage;
    m_usage->setUsage(usage, m_demo); // the demo's window and price mean nothing
}

void AgentStatusBar::setPermissionMode(PermissionMode mode)
{
    m_shownMode = mode;
    const int index = m_mode->findData(int(mode));
    if (index >= 0)
        m_mode->setCurrentIndex(index);
    m_mode->setToolTip(m_mode->itemData(index, Qt::ToolTipRole).toString());
    if (mode == PermissionMode::Bypass)
        m_bypassConfirmed = true;
    m_bypassWarning->setVisible(mode == PermissionMode::Bypass);
}

PermissionMode AgentStatusBar::permissionMode() const
{
    return PermissionMode(m_mode->currentData().toInt());
}

void AgentStatusBar::resetBypassConfirmation()
{
    m_bypassConfirmed = false;
}

void AgentStatusBar::chooseMode(PermissionMode mode)
{
    if (mode != PermissionMode::Bypass || m_bypassConfirmed || m_shownMode == mode) {
        setPermissionMode(mode); // also before a session exists, when nobody calls back
        emit permissionModeChosen(mode);
        return;
    }
    // The switch shows the mode in force until the user confirms (and after Cancel).
    setPermissionMode(m_shownMode);
    confirmBypass();
}

void AgentStatusBar::confirmBypass()
{
    if (QMessageBox *box = makeBypassQuestion())
        box->open();
}

QMessageBox *AgentStatusBar::makeBypassQuestion()
{
    if (m_bypassQuestion)
        return nullptr;
    auto *box = new QMessageBox(QMessageBox::Warning,
                                tr("Turn on bypass permissions?"),
                                tr("The agent will edit files and run commands without asking "
                                   "you, until you switch back."),
                                QMessageBox::NoButton,
                                this);
    box->setObjectName(QStringLiteral("bypassConfirmation"));
    box->setInformativeText(
        m_mode->itemData(m_mode->findData(int(PermissionMode::Bypass)), Qt::ToolTipRole).toString());
    QPushButton *turnOn = box->addButton(tr("Turn on bypass"), QMessageBox::AcceptRole);
    turnOn->setObjectName(QStringLiteral("confirmBypassButton"));
    QPushButton *cancel = box->addButton(QMessageBox::Cancel);
    // Turning the questions off is never what a stray Enter does.
    box->setDefaultButton(cancel);
    box->setEscapeButton(cancel);
    box->setWindowModality(Qt::WindowModal);
    box->setAttribute(Qt::WA_DeleteOnClose);
    m_bypassQuestion = box;
    connect(box, &QMessageBox::finished, this, [this, box, turnOn] {
        m_bypassQuestion = nullptr; // deleted later
        if (box->clickedButton() != turnOn) {
            emit bypassDeclined();
            return;
        }
        setPermissionMode(PermissionMode::Bypass);
        emit permissionModeChosen(PermissionMode::Bypass);
    });
    return box;
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
    updateSwitching();
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
    return m_model->label();
}

QString AgentStatusBar::usageText() const
{
    return m_usage->text();
}

// A turn's requests all go to one model: switching waits until the turn is over.
void AgentStatusBar::updateSwitching()
{
    const bool busy = m_state == AgentSession::State::Running
                      || m_state == AgentSession::State::Stopping;
    m_model->setSwitchingBlocked(busy);
    m_thinking->setEnabled(!busy);
    m_thinking->setToolTip(
        busy ? tr("The thinking level can be switched between turns: wait until the agent is "
                  "done, or stop it.")
             : tr("How much the model thinks before it answers. More thinking takes longer and "
                  "costs more."));
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

#include "moc_agentstatusbar.cpp"
