#include "testpaths.h"

namespace TestSupport {

QString sourcePath(const QString &relative)
{
    return QStringLiteral(AGENTDESK_SOURCE_DIR "/") + relative;
}

QString fixturesDir()
{
    return QStringLiteral(AGENTDESK_FIXTURES_DIR);
}

QString mcpServersDir()
{
    return QStringLiteral(AGENTDESK_MCP_SERVERS_DIR);
}

} // namespace TestSupport
