#include "welcomeview.h"

#include <coding/repository.h>

#include <QComboBox>
#include <QDir>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
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

    m_offers = new QWidget(this);
    m_offers->setObjectName(QStringLiteral("modelOffers"));
    auto offersLayout = new QVBoxLayout(m_offers);
    offersLayout->setContentsMargins(0, 8, 0, 0);
    // Its text comes with the first offer (setOffers): an empty window has nothing to head.
    auto heading = new QLabel(m_offers);
    heading->setObjectName(QStringLiteral("modelOffersHeading"));
    heading->setAlignment(Qt::AlignHCenter);
    offersLayout->addWidget(heading);
    m_offerRows = new QVBoxLayout;
    offersLayout->addLayout(m_offerRows);
    m_offers->hide();
    layout->addWidget(m_offers, 0, Qt::AlignHCenter);
    layout->addStretch(3);
}

void WelcomeView::setDemo(bool demo)
{
    m_isDemo = demo;
    m_demo->setVisible(demo);
    updateOffersVisible();
}

void WelcomeView::updateOffersVisible()
{
    m_offers->setVisible(m_isDemo && !m_offerList.isEmpty());
}

void WelcomeView::setOffers(const QList<ModelOffer> &offers)
{
    if (offers == m_offerList)
        return;
    m_offerList = offers;
    //: The welcome page, above the models found on this computer
    m_offers->findChild<QLabel *>(QStringLiteral("modelOffersHeading"))
        ->setText(offers.isEmpty() ? QString() : tr("Found on this computer, ready to use:"));
    while (QLayoutItem *item = m_offerRows->takeAt(0)) {
        if (QWidget *row = item->widget())
            row->deleteLater();
        delete item;
    }
    for (const ModelOffer &offer : offers) {
        auto row = new QWidget(m_offers);
        row->setObjectName(QStringLiteral("modelOffer"));
        auto rowLayout = new QHBoxLayout(row);
        rowLayout->setContentsMargins(0, 0, 0, 0);
        auto label = new QLabel(offer.text(), row);
        label->setObjectName(QStringLiteral("modelOfferText"));
        label->setTextFormat(Qt::PlainText);
        rowLayout->addWidget(label, 1);
        QComboBox *models = nullptr;
        if (offer.models.size() > 1) {
            models = new QComboBox(row);
            models->setObjectName(QStringLiteral("modelOfferModels"));
            //: The welcome page: which of the models found to use
            models->setAccessibleName(tr("Model of %1").arg(offer.name));
            // Ids come from a server: shown as text, never longer than the row.
            models->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
            models->setMinimumContentsLength(18);
            models->addItems(offer.models);
            models->setCurrentText(offer.selection.model);
            rowLayout->addWidget(models);
        }
        auto use = new QPushButton(row);
        use->setObjectName(QStringLiteral("useModelOffer"));
        //: The welcome page: sets up the model offered beside it
        use->setText(tr("Use"));
        use->setAccessibleName(tr("Use %1").arg(offer.text()));
        connect(use, &QPushButton::clicked, this, [this, offer, models] {
            emit modelChosen(offer.withModel(models ? models->currentText() : QString()));
        });
        rowLayout->addWidget(use);
        m_offerRows->addWidget(row);
    }
    updateOffersVisible();
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
