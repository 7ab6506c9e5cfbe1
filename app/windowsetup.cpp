#include "windowsetup.h"
#include "translation.h"

#include "modelstate.h"

#include <coding/codingsession.h>
#include <keys/filekeystore.h>
#include <settings/providerpresets.h>

#include <QCoreApplication>
#include <QDir>
#include <QSettings>
#include <QStandardPaths>

namespace App {

using Ui::AgentSetup; // unqualified below: lupdate misreads a qualified return type

Ui::ModelSelection modelSelectionOf(const PrintOptions &options)
{
    Ui::ModelSelection selection;
    if (options.provider == QLatin1String("anthropic"))
        selection.provider = Ui::ProviderKind::Anthropic;
    else if (options.provider == QLatin1String("openai-responses"))
        selection.provider = Ui::ProviderKind::OpenAiResponses;
    else
        selection.provider = Ui::ProviderKind::OpenAi;
    const QString baseUrl = options.baseUrl.toString();
    if (baseUrl != Ui::defaultBaseUrl(selection.provider)) {
        if (selection.provider == Ui::ProviderKind::OpenAi)
            selection.provider = Ui::ProviderKind::OpenAiCompatible;
        selection.baseUrl = baseUrl;
    }
    selection.model = options.model;
    if (selection.provider == Ui::ProviderKind::OpenAiCompatible)
        selection.serverProfile = options.serverProfile;
    return selection;
}

QJsonValue modelStateOf(const PrintOptions &options)
{
    return modelSelectionOf(options).toJson();
}

AgentSetup windowAgentSetup(const PrintOptions &options, const QProcessEnvironment &environment)
{
    AgentSetup setup;
    setup.environment = environment;
    if (options.modelGiven) {
        QString error;
        if (const auto provider = options.providerConfig(environment, &error)) {
            setup.model.provider = *provider;
            setup.options.provider = *provider;
        } else {
            setup.model.problem = AppTr::tr("%1 Then start AgentDesk again (for example: agentdesk "
                                            "--provider anthropic).")
                                      .arg(error);
        }
        setup.model.selection = modelSelectionOf(options);
        // The label the settings and the model menu give the same endpoint.
        setup.model.label = setup.model.selection->label();
        setup.commandLineModel = true;
    } else {
        // The settings' model, or the offline demo when none is configured.
        setup.modelFromSettings = true;
    }
    // Every session's defaults (protected and hidden paths, audit log, checkpoints, shell
    // writes), the same as a headless run's; then what the command line says.
    AgentCore::ProviderConfig provider = setup.options.provider;
    setup.options = AgentCore::CodingSession::defaultOptions();
    setup.options.provider = provider;
    setup.options.permissions.mode = options.permissionMode;
    setup.options.permissions.allowRules = options.allowedTools;
    setup.options.permissions.trustProjectSettings = options.trustProjectSettings;
    setup.options.tools.builtIn = options.tools;
    setup.options.maxTurns = options.maxTurns;
    setup.options.commandEnvironment = options.commandEnvironment(environment);
    // The mode and network come from the settings, unless the command line gives them.
    setup.sandboxMode = options.sandboxMode;
    setup.sandboxNetwork = options.sandboxNetwork;
    // The window's file key store, beside the app's settings (already hidden as a folder).
    setup.options.sandbox.hiddenPaths << Ui::FileKeyStore::defaultPath();
    return setup;
}

} // namespace App
