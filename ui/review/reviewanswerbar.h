#pragma once

#include <permissions/permissionrequest.h>

#include <QWidget>

QT_BEGIN_NAMESPACE
class QComboBox;
class QKeyEvent;
class QLabel;
class QLineEdit;
class QPushButton;
QT_END_NAMESPACE

namespace Ui {

/// The answer row shared by the review views: Allow once, Allow for this session, Always
/// allow (with the rule it writes, chosen from the request's suggestions) and Deny with
/// feedback for the model. Emits at most what the user clicked; never answers by itself.
class ReviewAnswerBar final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ReviewAnswerBar)
public:
    explicit ReviewAnswerBar(QWidget *parent = nullptr);

    /// The rules to offer; without any, the session and always buttons are disabled.
    void setRequest(const AgentCore::PermissionRequest &request);
    /// Disables the allow buttons with \a reason as their tooltip (e.g. no hunk checked).
    void setAllowEnabled(bool enabled, const QString &reason = {});
    /// For the review of what a command wrote: "Apply checked" and "Reject all", no rules
    /// (nothing is remembered), the feedback goes with either answer.
    void setWritesReview();
    /// Ctrl+Enter (allow once), Ctrl+Shift+Enter (allow for this session), Esc (deny feedback),
    /// active while the focus is inside \a scope: a request never catches keys typed elsewhere.
    void addShortcuts(QWidget *scope);
    /// The same keys pressed outside the scope (the window forwards them while the review
    /// waits, e.g. from the composer): acts and returns true if \a event is one of them.
    bool handleShortcutKey(const QKeyEvent *event);
    void focusFeedback();

    void answer(AgentCore::PermissionAnswer::Choice choice);

signals:
    void answered(const AgentCore::PermissionAnswer &answer);

private:
    void updateButtons();
    void allowOnceByKey();
    void allowSessionByKey();

    QComboBox *m_rules;
    QLabel *m_ruleLabel;
    QLineEdit *m_feedback;
    QPushButton *m_allowOnce;
    QPushButton *m_allowSession;
    QPushButton *m_allowAlways;
    QPushButton *m_deny;
    QList<AgentCore::PermissionRule> m_ruleChoices; ///< parallel to m_rules; see setRequest
    bool m_perCommandDefault = false;
    bool m_allowEnabled = true;
    bool m_writesReview = false;
    QString m_allowDisabledReason;
};

} // namespace Ui
