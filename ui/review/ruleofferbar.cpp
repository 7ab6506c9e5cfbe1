#include "ruleofferbar.h"

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace Ui {

RuleOfferBar::RuleOfferBar(QWidget *parent)
    : QFrame(parent)
    , m_question(new QLabel(this))
    , m_rule(new QLabel(this))
    , m_explanation(new QLabel(this))
    , m_error(new QLabel(this))
    , m_add(new QPushButton(tr("Add &Rule"), this))
    , m_notNow(new QPushButton(tr("Not Now"), this))
{
    setObjectName(QStringLiteral("ruleOffer"));
    setAccessibleName(tr("Allow rule offer"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::AlternateBase);
    m_question->setObjectName(QStringLiteral("ruleOfferQuestion"));
    m_rule->setObjectName(QStringLiteral("ruleOfferRule"));
    m_explanation->setObjectName(QStringLiteral("ruleOfferExplanation"));
    m_error->setObjectName(QStringLiteral("ruleOfferError"));
    m_add->setObjectName(QStringLiteral("addRuleButton"));
    m_notNow->setObjectName(QStringLiteral("notNowButton"));
    for (QLabel *label : {m_question, m_rule, m_explanation, m_error}) {
        label->setTextFormat(Qt::PlainText); // commands and paths are the model's text
        label->setWordWrap(true);
    }
    QFont bold = m_question->font();
    bold.setBold(true);
    m_question->setFont(bold);
    // The exact text written to the settings file: fixed width, selectable to copy.
    m_rule->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_rule->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_explanation->setForegroundRole(QPalette::PlaceholderText);
    m_error->hide();
    m_add->setToolTip(tr("Write this rule to the project's local settings, as Always allow does; "
                         "Settings lists it with the other permission rules"));
    m_notNow->setToolTip(tr("Keep asking; this rule is not offered again in this session"));
    for (QPushButton *button : {m_add, m_notNow})
        button->setAutoDefault(false);

    auto text = new QVBoxLayout;
    text->setSpacing(2);
    text->addWidget(m_question);
    text->addWidget(m_rule);
    text->addWidget(m_explanation);
    text->addWidget(m_error);
    auto layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 6, 8, 6);
    layout->addLayout(text, 1);
    layout->addWidget(m_add, 0, Qt::AlignVCenter);
    layout->addWidget(m_notNow, 0, Qt::AlignVCenter);
    setTabOrder(m_add, m_notNow);

    connect(m_add, &QPushButton::clicked, this, [this] { emit addRequested(m_offer.rule); });
    connect(m_notNow, &QPushButton::clicked, this, &RuleOfferBar::decline);
    hide();
}

RuleOfferBar::~RuleOfferBar() = default;

void RuleOfferBar::showOffer(const AgentCore::ApprovalHabits::Offer &offer)
{
    m_offer = offer;
    // Offered after ApprovalHabits::offerAfter (3) approvals: always a plural.
    //: %1 is a shell command or a file; %2 how many times the user allowed it once (3 or more)
    m_question->setText(tr("You approved “%1” %2 times. Allow it from now on?")
                            .arg(offer.approved, QString::number(offer.approvals)));
    m_rule->setText(offer.rule.toString());
    m_explanation->setText(offer.explanation);
    m_error->hide();
    show();
}

void RuleOfferBar::showError(const QString &error)
{
    //: Below the rule the user tried to add after repeated approvals
    m_error->setText(tr("Not saved: %1").arg(error));
    m_error->show();
}

void RuleOfferBar::clear()
{
    hide();
    m_offer = {};
}

QList<QWidget *> RuleOfferBar::buttons() const
{
    return {m_add, m_notNow};
}

void RuleOfferBar::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Escape && isAncestorOf(focusWidget())) {
        decline();
        event->accept();
        return;
    }
    QFrame::keyPressEvent(event);
}

void RuleOfferBar::decline()
{
    const AgentCore::PermissionRule rule = m_offer.rule;
    emit declined(rule); // still shown: the page can tell whether it had the focus
    clear();
}

} // namespace Ui

#include "moc_ruleofferbar.cpp"
