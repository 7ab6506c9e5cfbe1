#include "welcomeview.h"

#include <coding/repository.h>

#include <QDir>
#include <QLabel>
#include <QVBoxLayout>

namespace Ui {

WelcomeView::WelcomeView(QWidget *parent)
    : QWidget(parent)
    , m_name(new QLabel(this))
    , m_head(new QLabel(this))
    , m_path(new QLabel(this))
    , m_hint(new QLabel(this))
    , m_demo(new QLabel(this))
{
    QFont nameFont = m_name->font();
    nameFont.setPointSizeF(nameFont.pointSizeF() * 2.0);
    nameFont.setBold(true);
    m_name->setFont(nameFont);
    m_name->setObjectName(QStringLiteral("repositoryName"));
    m_head->setObjectName(QStringLiteral("repositoryHead"));
    m_path->setObjectName(QStringLiteral("repositoryPath"));
    m_path->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_path->setForegroundRole(QPalette::PlaceholderText);

    m_hint->setObjectName(QStringLiteral("welcomeHint"));
    m_hint->setText(tr("Describe a task in the box below and press Enter.\n"
                       "Every edit is shown as a diff and every command before it runs.\n"
                       "While the agent works, Enter steers it and Alt+Enter queues a follow-up."));
    m_hint->setWordWrap(true);

    auto layout = new QVBoxLayout(this);
    layout->addStretch(2);
    for (QLabel *label : {m_name, m_head, m_path}) {
        label->setAlignment(Qt::AlignHCenter);
        layout->addWidget(label);
    }
    layout->addSpacing(24);
    m_hint->setAlignment(Qt::AlignHCenter);
    layout->addWidget(m_hint);

    m_demo->setObjectName(QStringLiteral("demoNote"));
    m_demo->setText(tr("No model is set up yet, so the offline demo answers: a scripted model "
                       "that shows the whole flow on this repository (it lists and reads files, "
                       "proposes an edit for your review and runs a command).\n"
                       "To work with a real model, open Settings (Ctrl+,)."));
    m_demo->setWordWrap(true);
    m_demo->setAlignment(Qt::AlignHCenter);
    m_demo->setForegroundRole(QPalette::PlaceholderText);
    m_demo->setVisible(false);
    layout->addSpacing(16);
    layout->addWidget(m_demo);
    layout->addStretch(3);
}

void WelcomeView::setDemo(bool demo)
{
    m_demo->setVisible(demo);
}

void WelcomeView::setRepository(const AgentCore::Repository &repository)
{
    m_name->setText(repository.name());
    m_head->setText(repository.isGit()
                        ? tr("Branch: %1").arg(repository.headDescription())
                        : tr("Not a git repository: changes cannot be reviewed against git."));
    m_path->setText(QDir::toNativeSeparators(repository.root));
}

} // namespace Ui

#include "moc_welcomeview.cpp"
