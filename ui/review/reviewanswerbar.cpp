#include "reviewanswerbar.h"

#include <common/shortcuts.h>

#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QPushButton>
#include <QShortcut>
#include <QVBoxLayout>

namespace Ui {

using Choice = AgentCore::PermissionAnswer::Choice;

namespace {

/// The review's primary button. Drawn as the default button, which some styles (Fusion) draw
/// the same with the keyboard focus as without: Tab stopped on it and nothing showed. A ring
/// in the highlight colour shows the focus when the keyboard brought it.
class PrimaryButton final : public QPushButton
{
public:
    using QPushButton::QPushButton;

protected:
    void paintEvent(QPaintEvent *event) override
    {
        QPushButton::paintEvent(event);
        if (!hasFocus() || !window()->testAttribute(Qt::WA_KeyboardFocusChange))
            return;
        QPainter painter(this);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setPen(QPen(palette().color(QPalette::Highlight), 2));
        painter.setBrush(Qt::NoBrush);
        painter.drawRoundedRect(QRectF(rect()).adjusted(2, 2, -2, -2), 3, 3);
    }
};

} // namespace

ReviewAnswerBar::ReviewAnswerBar(QWidget *parent)
    : QWidget(parent)
    , m_rules(new QComboBox(this))
    , m_ruleLabel(new QLabel(tr("Rule to allow:"), this))
    , m_feedback(new QLineEdit(this))
    , m_allowOnce(new PrimaryButton(tr("&Allow once"), this))
    , m_allowSession(new QPushButton(tr("Allow for this &session"), this))
    , m_allowAlways(new QPushButton(tr("Al&ways allow"), this))
    , m_deny(new QPushButton(tr("&Deny"), this))
{
    m_rules->setObjectName(QStringLiteral("ruleChoice"));
    m_rules->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_rules->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_ruleLabel->setBuddy(m_rules);
    m_feedback->setObjectName(QStringLiteral("denyFeedback"));
    m_feedback->setPlaceholderText(
        tr("Why not, or what to do instead (sent to the agent with Deny)"));
    m_feedback->setToolTip(m_feedback->placeholderText()); // whole, should the field be narrow
    m_feedback->setClearButtonEnabled(true);
    m_allowOnce->setObjectName(QStringLiteral("allowOnceButton"));
    m_allowSession->setObjectName(QStringLiteral("allowSessionButton"));
    m_allowAlways->setObjectName(QStringLiteral("allowAlwaysButton"));
    m_deny->setObjectName(QStringLiteral("denyButton"));
    m_allowOnce->setToolTip(tr("Allow this call only (Ctrl+Enter)"));
    m_deny->setToolTip(tr("Refuse the call; the agent sees your feedback (Enter in the field)"));
    // Primary action: drawn as the default button, but never triggered by a bare Enter.
    m_allowOnce->setDefault(true);
    for (QPushButton *button : {m_allowOnce, m_allowSession, m_allowAlways, m_deny})
        button->setAutoDefault(false);

    auto ruleRow = new QHBoxLayout;
    ruleRow->addWidget(m_ruleLabel);
    ruleRow->addWidget(m_rules);
    ruleRow->addStretch();

    // The feedback field gets a row of its own with Deny: beside four buttons, a window of
    // 1000 pixels left it a few characters wide and its placeholder cut off.
    auto denyRow = new QHBoxLayout;
    denyRow->addWidget(m_feedback, 1);
    denyRow->addWidget(m_deny);

    auto buttonRow = new QHBoxLayout;
    buttonRow->addStretch();
    buttonRow->addWidget(m_allowSession);
    buttonRow->addWidget(m_allowAlways);
    buttonRow->addWidget(m_allowOnce);

    auto layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(ruleRow);
    layout->addLayout(denyRow);
    layout->addLayout(buttonRow);
    // Tab follows the rows.
    setTabOrder(m_rules, m_feedback);
    setTabOrder(m_feedback, m_deny);
    setTabOrder(m_deny, m_allowSession);
    setTabOrder(m_allowSession, m_allowAlways);
    setTabOrder(m_allowAlways, m_allowOnce);

    connect(m_allowOnce, &QPushButton::clicked, this, [this] { answer(Choice::AllowOnce); });
    connect(m_allowSession, &QPushButton::clicked, this, [this] { answer(Choice::AllowSession); });
    connect(m_allowAlways, &QPushButton::clicked, this, [this] { answer(Choice::AllowAlways); });
    connect(m_deny, &QPushButton::clicked, this, [this] { answer(Choice::Deny); });
    connect(m_feedback, &QLineEdit::returnPressed, this, [this] { answer(Choice::Deny); });
    connect(m_rules, &QComboBox::currentIndexChanged, this, &ReviewAnswerBar::updateButtons);
}

void ReviewAnswerBar::setRequest(const AgentCore::PermissionRequest &request)
{
    m_rules->clear();
    m_ruleChoices.clear();
    // A compound command needs a rule per part to pass next time; the core writes those
    // when the answer names no rule, so that is the first choice here.
    m_perCommandDefault = request.bash && request.bash->commands.size() > 1
                          && request.suggestedRules.size() > 1;
    if (m_perCommandDefault) {
        m_rules->addItem(tr("One rule for each command"));
        QStringList all;
        for (const AgentCore::PermissionRule &rule : request.suggestedRules)
            all.append(rule.toString());
        m_rules->setItemData(0,
                             tr("Rules are written for every simple command; suggestions:\n%1")
                                 .arg(all.join(QLatin1Char('\n'))),
                             Qt::ToolTipRole);
        m_ruleChoices.append(AgentCore::PermissionRule());
    }
    for (const AgentCore::PermissionRule &rule : request.suggestedRules) {
        m_rules->addItem(rule.toString());
        m_ruleChoices.append(rule);
    }
    if (m_ruleChoices.isEmpty())
        m_rules->addItem(tr("No rule can cover this call"));
    m_rules->setEnabled(m_ruleChoices.size() > 1);
    updateButtons();
}

void ReviewAnswerBar::setAllowEnabled(bool enabled, const QString &reason)
{
    m_allowEnabled = enabled;
    m_allowDisabledReason = reason;
    updateButtons();
}

void ReviewAnswerBar::setWritesReview()
{
    m_writesReview = true;
    m_allowOnce->setText(tr("&Apply checked"));
    m_deny->setText(tr("&Reject all"));
    m_deny->setToolTip(tr("Leave the repository as it was; the agent sees your feedback"));
    m_feedback->setPlaceholderText(tr("Feedback for the agent (sent with either answer)"));
    for (QWidget *widget :
         std::initializer_list<QWidget *>{m_rules, m_ruleLabel, m_allowSession, m_allowAlways})
        widget->hide();
    updateButtons();
}

void ReviewAnswerBar::updateButtons()
{
    const bool hasRule = !m_ruleChoices.isEmpty();
    m_allowOnce->setEnabled(m_allowEnabled);
    m_allowSession->setEnabled(m_allowEnabled && hasRule);
    m_allowAlways->setEnabled(m_allowEnabled && hasRule);
    const QString rule = m_rules->currentText();
    if (!m_allowEnabled) {
        for (QPushButton *button : {m_allowSession, m_allowAlways})
            button->setToolTip(m_allowDisabledReason);
        m_allowOnce->setToolTip(m_allowDisabledReason);
        return;
    }
    m_allowOnce->setToolTip(m_writesReview
                                ? tr("Write the checked changes to the repository (Ctrl+Enter)")
                                : tr("Allow this call only (Ctrl+Enter)"));
    if (!hasRule) {
        const QString why = tr("Only calls that are fully understood can be allowed by a rule.");
        m_allowSession->setToolTip(why);
        m_allowAlways->setToolTip(why);
        return;
    }
    m_allowSession->setToolTip(
        tr("Allow, and allow calls matching %1 until AgentDesk closes (Ctrl+Shift+Enter)").arg(rule));
    m_allowAlways->setToolTip(tr("Allow, and write %1 to this project's local settings").arg(rule));
}

void ReviewAnswerBar::addShortcuts(QWidget *scope)
{
    const auto add = [scope](const QKeySequence &keys, auto slot) {
        auto shortcut = new QShortcut(keys, scope);
        shortcut->setContext(Qt::WidgetWithChildrenShortcut);
        connect(shortcut, &QShortcut::activated, scope, slot);
    };
    for (const QKeySequence &keys : Shortcuts::keys(Shortcut::AllowOnce))
        add(keys, [this] { allowOnceByKey(); });
    for (const QKeySequence &keys : Shortcuts::keys(Shortcut::AllowForSession))
        add(keys, [this] { allowSessionByKey(); });
    for (const QKeySequence &keys : Shortcuts::keys(Shortcut::DenyWithFeedback))
        add(keys, [this] { focusFeedback(); });
}

bool ReviewAnswerBar::handleShortcutKey(const QKeyEvent *event)
{
    const Qt::KeyboardModifiers modifiers = event->modifiers() & ~Qt::KeypadModifier;
    const bool enter = event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter;
    if (enter && modifiers == Qt::ControlModifier) {
        allowOnceByKey();
        return true;
    }
    if (enter && modifiers == (Qt::ControlModifier | Qt::ShiftModifier)) {
        allowSessionByKey();
        return true;
    }
    if (event->key() == Qt::Key_Escape && modifiers == Qt::NoModifier) {
        focusFeedback();
        return true;
    }
    return false;
}

void ReviewAnswerBar::allowOnceByKey()
{
    if (m_allowOnce->isEnabled())
        answer(Choice::AllowOnce);
}

void ReviewAnswerBar::allowSessionByKey()
{
    if (m_allowSession->isEnabled())
        answer(Choice::AllowSession);
}

void ReviewAnswerBar::focusFeedback()
{
    m_feedback->setFocus(Qt::ShortcutFocusReason);
    m_feedback->selectAll();
}

void ReviewAnswerBar::answer(Choice choice)
{
    AgentCore::PermissionAnswer result;
    result.choice = choice;
    if (choice == Choice::Deny || m_writesReview)
        result.feedback = m_feedback->text().trimmed();
    if (choice != Choice::Deny && choice != Choice::AllowOnce) {
        const int index = m_rules->currentIndex();
        if (index >= 0 && index < m_ruleChoices.size() && !(m_perCommandDefault && index == 0)) {
            AgentCore::PermissionRule rule = m_ruleChoices.at(index);
            rule.behavior = AgentCore::PermissionBehavior::Allow;
            result.rule = rule;
        }
    }
    emit answered(result);
}

} // namespace Ui

#include "moc_reviewanswerbar.cpp"
