#pragma once

#include "agentsession/agentsession.h"
#include "common/usagesummary.h"
#include "settings/modelselection.h"

#include <QElapsedTimer>
#include <QPointer>
#include <QStatusBar>
#include <QTimer>

QT_BEGIN_NAMESPACE
class QComboBox;
class QLabel;
class QMessageBox;
QT_END_NAMESPACE

namespace Ui {

class ModelButton;
class NoticeFrame;
class UsageLabel;

/// The window's status bar: what the agent is doing (and for how long), what the conversation
/// used (context, tokens, cost), the model it talks to and its thinking level, which the user
/// switches here between turns, and the permission mode, which the user switches at any time.
/// Transient messages (showMessage) still appear on the left. Choosing only emits a signal:
/// the owner switches and calls the setters back (the mode switch shows its choice itself;
/// bypass asks first, see permissionModeChosen). UI thread.
class AgentStatusBar final : public QStatusBar
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AgentStatusBar)
public:
    explicit AgentStatusBar(QWidget *parent = nullptr);
    ~AgentStatusBar() override;

    /// The model button's label (and problem, shown as its tool tip), and whether the offline
    /// demo is in use (ModelChoice::isDemo: its menu entry checked, usage in tokens only).
    void setModel(const ModelChoice &model);
    /// What the model menu and the thinking control offer. \a current nullopt: the offline
    /// demo or a model from the command line; neither has a thinking control. \a recent:
    /// recently used selections, most recent first.
    void setModelSelection(const std::optional<ModelSelection> &current,
                           const QList<ModelSelection> &recent = {});
    void setUsage(const UsageSummary &usage);
    /// The mode in force. Bypass shows a warning next to the switch (its tool tip says what
    /// still holds) and counts as confirmed for the session: the user chose it elsewhere (the
    /// command line, trusted project settings) or confirmed it here. A resumed session's
    /// bypass is not set here before it was confirmed (makeBypassQuestion).
    void setPermissionMode(AgentCore::PermissionMode mode);
    AgentCore::PermissionMode permissionMode() const;
    /// A new session starts: choosing bypass in the switch asks once again. Call before
    /// setPermissionMode with the session's mode.
    void resetBypassConfirmation();
    /// The question choosing bypass in the switch asks (window-modal, deleted on close), made
    /// and connected but not opened, for a resumed session whose file is in bypass: the window
    /// opens it in turn with its other questions. permissionModeChosen(Bypass) when confirmed,
    /// bypassDeclined when not. Null while the question is open already.
    QMessageBox *makeBypassQuestion();
    bool isBypassConfirmed() const { return m_bypassConfirmed; }
    void setRunState(AgentSession::State state);
    void setPendingReviews(int count);

    QString runStateText() const;
    QString modelText() const;
    QString usageText() const;
    UsageLabel *usageLabel() const { return m_usage; }

    /// Where a temporary message (showMessage) is drawn: left of the first widget shown, with a
    /// gap. It is cut there with "…", whole in the tooltip.
    QRect messageRect() const;
    QString shownMessage() const;

signals:
    /// Bypass only once the user confirmed it (asked once per session, window-modal: the
    /// switch keeps showing the previous mode meanwhile, and after Cancel).
    void permissionModeChosen(AgentCore::PermissionMode mode);
    /// The question about bypass was answered with Cancel (or closed).
    void bypassDeclined();
    /// From the model menu; nullopt: the offline demo.
    void modelSelectionChosen(const std::optional<Ui::ModelSelection> &selection);
    void thinkingLevelChosen(Ui::ThinkingLevel level);
    /// "Settings…" in the model menu.
    void settingsRequested();
    /// The context figure was clicked.
    void contextViewRequested();

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    void updateRunState();
    void updateSwitching();
    void chooseMode(AgentCore::PermissionMode mode);
    void confirmBypass();

    QLabel *m_runState;
    UsageLabel *m_usage;
    ModelButton *m_model;
    QComboBox *m_thinking;
    QComboBox *m_mode;
    NoticeFrame *m_bypassWarning;
    QPointer<QMessageBox> m_bypassQuestion; // while it is open
    AgentCore::PermissionMode m_shownMode = AgentCore::PermissionMode::Default;
    bool m_bypassConfirmed = false;
    UsageSummary m_usageSummary;
    bool m_demo = false;
    QTimer m_clock; // the elapsed time of a run, once a second
    QElapsedTimer m_runTime;
    AgentSession::State m_state = AgentSession::State::Preparing;
    int m_pendingReviews = 0;
};

} // namespace Ui
