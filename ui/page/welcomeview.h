#pragma once

#include "settings/modeldiscovery.h"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QLabel;
class QVBoxLayout;
QT_END_NAMESPACE

namespace AgentCore {
struct Repository;
}

namespace Ui {

/// What the window shows before a conversation starts: which repository AgentDesk is on.
class WelcomeView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WelcomeView)
public:
    explicit WelcomeView(QWidget *parent = nullptr);

    void setRepository(const AgentCore::Repository &repository);
    /// Says that the offline demo answers (no model is configured), and how to change that;
    /// with the demo, the models found on this computer are offered too.
    void setDemo(bool demo);
    /// The models ModelDiscovery found, each with a button that sets it up (a local server's
    /// with its list of models); shown while the demo answers. Empty: the demo alone.
    void setOffers(const QList<ModelOffer> &offers);
    QList<ModelOffer> offers() const { return m_offerList; }

signals:
    /// The user clicked an offer's button: this model is to be set up.
    void modelChosen(const Ui::ModelSelection &selection);

private:
    void updateOffersVisible();

    QLabel *m_name = nullptr;
    QLabel *m_head = nullptr;
    QLabel *m_path = nullptr;
    QLabel *m_hint = nullptr;
    QLabel *m_demo = nullptr;
    QWidget *m_offers = nullptr; ///< the heading and one row per offer
    QVBoxLayout *m_offerRows = nullptr;
    QList<ModelOffer> m_offerList;
    bool m_isDemo = false;
};

} // namespace Ui
