#include "modelresolver.h"

#include "keys/keystore.h"

#include <ai/demomodelclient.h>

#include <QTimer>

namespace Ui {

ModelResolver::ModelResolver(KeyStore *keys, QProcessEnvironment environment, QObject *parent)
    : QObject(parent)
    , m_keys(keys)
    , m_environment(std::move(environment))
{}

ModelResolver::~ModelResolver() = default;

ModelChoice ModelResolver::pending(const ModelSelection &selection)
{
    ModelChoice choice;
    choice.label = selection.label();
    choice.pending = true;
    choice.selection = selection;
    return choice;
}

ModelChoice ModelResolver::demo()
{
    // Stateless: one client serves every conversation of the process.
    static const auto client = std::make_shared<AgentCore::DemoModelClient>();
    ModelChoice choice;
    choice.label = AgentCore::DemoModelClient::label();
    choice.client = client;
    choice.isDemo = true;
    return choice;
}

void ModelResolver::resolve(const std::optional<ModelSelection> &selection,
                            QObject *context,
                            std::function<void(const ModelChoice &)> done)
{
    if (!selection) {
        QTimer::singleShot(0, context, [done = std::move(done)] { done(demo()); });
        return;
    }
    m_keys->readKey(selection->keyAccount(),
                    context,
                    [this, selection = *selection, done = std::move(done)](
                        const KeyResult &result) { done(withKey(selection, result)); });
}

ModelChoice ModelResolver::withKey(const ModelSelection &selection, const KeyResult &stored) const
{
    ModelChoice choice;
    choice.label = selection.label();
    choice.selection = selection;
    QString key = stored.succeeded() ? stored.key : QString();
    const QString variable = selection.keyVariable();
    if (key.isEmpty() && !variable.isEmpty())
        key = m_environment.value(variable);
    if (key.isEmpty() && selection.needsKey()) {
        QString problem = variable.isEmpty()
                              ? tr("No API key for %1. Add it in Settings (Ctrl+,).")
                                    .arg(selection.label())
                              : tr("No API key for %1. Add it in Settings (Ctrl+,), or set %2 "
                                   "and start AgentDesk again.")
                                    .arg(selection.label(), variable);
        if (stored.status == KeyResult::Status::Failed)
            problem = stored.error + u' ' + problem;
        choice.problem = problem;
        return choice;
    }
    choice.provider = selection.providerConfig(key);
    return choice;
}

} // namespace Ui

#include "moc_modelresolver.cpp"
