#include "projecttrustdialog.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

namespace Ui {

ProjectTrustDialog::ProjectTrustDialog(const QString &repository,
                                       const QStringList &grants,
                                       QWidget *parent)
    : ProjectTrustDialog(Subject::Settings, repository, grants, parent)
{}

ProjectTrustDialog::ProjectTrustDialog(Subject subject,
                                       const QString &repository,
                                       const QStringList &grants,
                                       QWidget *parent)
    : QDialog(parent)
    , m_grants(grants)
    , m_list(new QListWidget(this))
{
    const bool mcp = subject == Subject::McpServers;
    setObjectName(mcp ? QStringLiteral("mcpTrustDialog") : QStringLiteral("projectTrustDialog"));
    setWindowTitle(mcp ? tr("Start this repository's MCP servers?")
                       : tr("Trust this repository's settings?"));
    auto intro = new QLabel(
        mcp ? tr("The file .mcp.json in %1 names MCP servers: programs AgentDesk would start on "
                 "this computer, with your rights, to give the agent their tools. Anyone who "
                 "can commit to the repository may have written it, so none of them runs until "
                 "you trust it:")
                  .arg(QDir::toNativeSeparators(repository))
            : tr("The settings files in %1 (.agentdesk/settings.json and settings.local.json, "
                 ".claude/settings.json and settings.local.json) ask for more than your own "
                 "settings allow; a hook is a command run on your behalf, outside the sandbox. "
                 "Anyone who can commit to the repository, or a tool run in it, may have written "
                 "them, so AgentDesk has not applied this:")
                  .arg(QDir::toNativeSeparators(repository)),
        this);
    intro->setWordWrap(true);
    m_list->setObjectName(QStringLiteral("grants"));
    m_list->addItems(grants);
    m_list->setSelectionMode(QAbstractItemView::NoSelection);
    // As tall as its few entries (a long list scrolls), not a mostly empty box.
    m_list->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    if (mcp) {
        // A server's command line can be as long as a path into node_modules: elided in the
        // middle (whole in its tooltip), the dialog stays a dialog's width.
        m_list->setSizeAdjustPolicy(QAbstractScrollArea::AdjustIgnored);
        m_list->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        m_list->setTextElideMode(Qt::ElideMiddle);
        for (int i = 0; i < m_list->count(); ++i)
            m_list->item(i)->setToolTip(m_list->item(i)->text());
        const int rows = std::clamp(int(m_list->count()), 1, 8);
        const int row = std::max(m_list->sizeHintForRow(0), fontMetrics().lineSpacing() + 4);
        m_list->setFixedHeight(rows * row + 2 * m_list->frameWidth() + 4);
        setMinimumWidth(600);
    }
    auto outro = new QLabel(mcp ? tr("Trusting is remembered for this repository and exactly "
                                     "this file: when .mcp.json changes, AgentDesk asks again. "
                                     "Their tools still ask before each call unless they are "
                                     "read-only or a rule allows them.")
                                : tr("Their deny and ask rules apply either way. Trusting is "
                                     "remembered for exactly these entries; anything added to "
                                     "the files later is asked about again."),
                            this);
    outro->setWordWrap(true);

    auto buttons = new QDialogButtonBox(this);
    m_trust = buttons->addButton(mcp ? tr("&Trust and start") : tr("&Trust"),
                                 QDialogButtonBox::AcceptRole);
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

#include "moc_projecttrustdialog.cpp"
