#include "projecttrustdialog.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace Ui {

ProjectTrustDialog::ProjectTrustDialog(const QString &repository,
                                       const QStringList &grants,
                                       QWidget *parent)
    : QDialog(parent)
    , m_grants(grants)
    , m_list(new QListWidget(this))
{
    setObjectName(QStringLiteral("projectTrustDialog"));
    setWindowTitle(tr("Trust this repository's settings?"));
    auto intro = new QLabel(
        tr("The settings files in %1 (.agentdesk/settings.json and settings.local.json) ask for "
           "more than your own settings allow. Anyone who can commit to the repository, or a "
           "tool run in it, may have written them, so AgentDesk has not applied this:")
            .arg(QDir::toNativeSeparators(repository)),
        this);
    intro->setWordWrap(true);
    m_list->setObjectName(QStringLiteral("grants"));
    m_list->addItems(grants);
    m_list->setSelectionMode(QAbstractItemView::NoSelection);
    // As tall as its few entries (a long list scrolls), not a mostly empty box.
    m_list->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    auto outro = new QLabel(tr("Their deny and ask rules apply either way. Trusting is "
                               "remembered for exactly these entries; anything added to the "
                               "files later is asked about again."),
                            this);
    outro->setWordWrap(true);

    auto buttons = new QDialogButtonBox(this);
    m_trust = buttons->addButton(tr("&Trust"), QDialogButtonBox::AcceptRole);
    m_distrust = buttons->addButton(tr("&Don't trust"), QDialogButtonBox::RejectRole);
    m_trust->setObjectName(QStringLiteral("trustButton"));
    m_distrust->setObjectName(QStringLiteral("distrustButton"));
    // Trusting widens what the agent may do: never the answer a stray Enter gives.
    m_distrust->setDefault(true);
    m_distrust->setFocus(); // Enter and Space answer the safe way; Tab reaches Trust
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_list);
    layout->addWidget(outro);
    layout->addWidget(buttons);
}

} // namespace Ui
