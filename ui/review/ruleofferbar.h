#pragma once

#include <permissions/approvalhabits.h>

#include <QFrame>

QT_BEGIN_NAMESPACE
class QLabel;
class QPushButton;
QT_END_NAMESPACE

namespace Ui {

/// Above the composer, after the person approved the same call several times
/// (AgentCore::ApprovalHabits): "You approved `npm test` 3 times. Allow it from now on?",
/// the exact rule it would add and what that rule allows, with Add Rule and Not Now (Tab
/// reaches both; Esc in the bar is Not Now). Non-modal; it never takes the focus when it
/// appears and never adds anything by itself: Add Rule only signals, the page adds the rule.
/// Hidden while there is no offer.
class RuleOfferBar final : public QFrame
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RuleOfferBar)
public:
    explicit RuleOfferBar(QWidget *parent = nullptr);
    ~RuleOfferBar() override;

    /// Shows \a offer (replacing one still shown).
    void showOffer(const AgentCore::ApprovalHabits::Offer &offer);
    /// The rule could not be saved: says why and keeps the offer, so the person can retry.
    void showError(const QString &error);
    /// Hides the bar without an answer (the page showed another session).
    void clear();

    const AgentCore::PermissionRule &rule() const { return m_offer.rule; }
    /// Add Rule, Not Now: in the order Tab goes through them.
    QList<QWidget *> buttons() const;

signals:
    /// Add Rule: the page adds exactly \a rule as "Always allow" does. The bar stays until
    /// the page calls clear() (or showError()).
    void addRequested(const AgentCore::PermissionRule &rule);
    /// Not Now (or Esc in the bar): hidden; the rule is not offered again in this session.
    void declined(const AgentCore::PermissionRule &rule);

protected:
    void keyPressEvent(QKeyEvent *event) override;

private:
    void decline();

    AgentCore::ApprovalHabits::Offer m_offer;
    QLabel *m_question;
    QLabel *m_rule;
    QLabel *m_explanation;
    QLabel *m_error;
    QPushButton *m_add;
    QPushButton *m_notNow;
};

} // namespace Ui
