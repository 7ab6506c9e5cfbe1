#include "windowsetup.h"

#include <core/auditlog.h>
#include <permissions/permissionsettings.h>

#include <QCoreApplication>

namespace App {

namespace {
struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(App::WindowSetup)
};
} // namespace

Ui::AgentSetup windowAgentSetup(const PrintOptions &options, const QProcessEnvironment &environment)
{
    Ui::AgentSetup setup;
    QString error;
    if (const auto provider = options.providerConfig(environment, &error)) {
        setup.options.provider = *provider;
    } else {
        setup.model.problem = Tr::tr("%1 Then start AgentDesk again (for example: agentdesk "
                                     "--provider anthropic).")
                                  .arg(error);
    }
    //: Status bar: model (provider)
    setup.model.label = Tr::tr("%1 (%2)").arg(options.model, options.provider);
    setup.options.permissionMode = options.permissionMode;
    setup.options.allowRules = options.allowedTools;
    setup.options.maxTurns = options.maxTurns;
    setup.options.userSettingsPath = AgentCore::PermissionSettings::userSettingsPath();
    setup.options.auditLogPath = AgentCore::AuditLog::newDefaultPath();
    return setup;
}

} // namespace App
