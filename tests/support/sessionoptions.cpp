#include "sessionoptions.h"

#include <coding/codingsession.h>

#include <QDir>

namespace TestSupport {

AgentCore::CodingAgentOptions sessionOptionsIn(const QString &repository, const QString &data)
{
    AgentCore::CodingAgentOptions options = AgentCore::CodingSession::defaultOptions();
    options.repositoryRoot = repository;
    options.permissions.userSettingsPath.clear();
    options.permissions.projectTrustPath.clear();
    options.permissions.auditLogPath.clear();
    const QDir folder(data);
    options.checkpoints.storeRoot = folder.filePath(QStringLiteral("checkpoints"));
    options.checkpoints.prune = false;
    options.shellWrites.folder = folder.filePath(QStringLiteral("shell-writes"));
    options.sandbox.mode = AgentCore::SandboxMode::Off;
    options.permissions.mode = AgentCore::PermissionMode::AcceptEdits;
    return options;
}

} // namespace TestSupport
