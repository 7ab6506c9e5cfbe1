#include "windowsetup.h"

#include <checkpoint/checkpointstore.h>
#include <coding/auditlog.h>
#include <keys/filekeystore.h>
#include <permissions/permissionsettings.h>
#include <permissions/projecttrust.h>
#include <settings/providerpresets.h>
#include <tools/sandboxcaches.h>

#include <QCoreApplication>
#include <QDir>
#include <QSettings>
#include <QStandardPaths>

namespace App {

using Ui::AgentSetup; // unqualified below: lupdate misreads a qualified return type

namespace {
struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(App::WindowSetup)
};

} // namespace

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
    return selection;
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
            setup.model.problem = Tr::tr("%1 Then start AgentDesk again (for example: agentdesk "
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
    setup.options.permissionMode = options.permissionMode;
    setup.options.allowRules = options.allowedTools;
    setup.options.tools = options.tools;
    setup.options.maxTurns = options.maxTurns;
    setup.options.commandEnvironment = options.commandEnvironment(environment);
    setup.options.userSettingsPath = AgentCore::PermissionSettings::userSettingsPath();
    setup.options.projectTrustPath = AgentCore::ProjectTrust::defaultStorePath();
    setup.options.trustProjectSettings = options.trustProjectSettings;
    // AgentDesk's own files outside the repository: the app's settings, sessions, audit logs.
    setup.options.protectedPaths
        = {QSettings().fileName(),
           QStandardPaths::writableLocation(QStandardPaths::AppDataLocation),
           QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation)};
    setup.options.auditLogPath = AgentCore::AuditLog::newDefaultPath();
    // The mode and network come from the settings, unless the command line gives them.
    setup.sandboxMode = options.sandboxMode;
    setup.sandboxNetwork = options.sandboxNetwork;
    setup.options.sandbox.hiddenPaths = AgentCore::SandboxPolicy::defaultHiddenPaths(
        QDir::homePath());
    setup.options.sandbox.hiddenPaths
        << QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation)
        << Ui::FileKeyStore::defaultPath();
    // npm, pip and cargo write their caches: privately, so they work and nothing leaks out.
    setup.options.sandbox.privatePaths = AgentCore::SandboxCaches::defaultPaths(QDir::homePath());
    setup.options.shellWritesFolder = QStandardPaths::writableLocation(
                                          QStandardPaths::AppLocalDataLocation)
                                      + QStringLiteral("/shell-writes");
    setup.options.checkpointStoreRoot = AgentCore::CheckpointStore::defaultStoreRoot();
    setup.options.pruneCheckpoints = true;
    return setup;
}

} // namespace App
