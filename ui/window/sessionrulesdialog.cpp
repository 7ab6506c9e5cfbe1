#include "sessionrulesdialog.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

namespace Ui {

SessionRulesDialog::SessionRulesDialog(const QString &session,
                                       const QStringList &rules,
                                       QWidget *parent)
    : QDialog(parent)
    , m_rules(rules)
    , m_list(new QListWidget(this))
{
    setObjectName(QStringLiteral("sessionRulesDialog"));
    setWindowTitle(tr("Keep this session's permissions?"));
    auto intro = new QLabel(session.isEmpty()
                                ? tr("The session you resumed allows these without asking:")
                                : tr("The session \"%1\" you resumed allows these without asking:")
                                      .arg(session),
                            this);
    intro->setWordWrap(true);
    m_list->setObjectName(QStringLiteral("sessionRules"));
    m_list->addItems(rules);
    m_list->setSelectionMode(QAbstractItemView::NoSelection);
    // As tall as its few entries (a long list scrolls), not a mostly empty box.
    const int rows = std::clamp(int(m_list->count()), 1, 8);
    const int row = std::max(m_list->sizeHintForRow(0), fontMetrics().lineSpacing() + 4);
    m_list->setFixedHeight(rows * row + 2 * m_list->frameWidth() + 4);
    auto outro = new QLabel(tr("They come from the session's file, which any program on this "
                               "computer may have changed, so none applies until you keep "
                               "them. Dropped, each asks again when the agent needs it."),
                            this);
    outro->setWordWrap(true);

    auto buttons = new QDialogButtonBox(this);
    m_keep = buttons->addButton(tr("&Keep for this session"), QDialogButtonBox::AcceptRole);
    m_drop = buttons->addButton(tr("&Drop"), QDialogButtonBox::RejectRole);
    m_keep->setObjectName(QStringLiteral("keepButton"));
    m_drop->setObjectName(QStringLiteral("dropButton"));
    // Keeping widens what the agent may do: never the answer a stray Enter gives.
    m_keep->setAutoDefault(false);
    m_drop->setDefault(true);
    m_drop->setFocus();
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_list);
    layout->addWidget(outro);
    layout->addWidget(buttons);
    setMinimumWidth(460);
}

} // namespace Ui

#include "moc_sessionrulesdialog.cpp"
