#pragma once

#include <QString>

/// Where the tests find what lies outside the build: the checkout's files, the recorded provider
/// streams, the reference MCP servers and the built program. Only testpaths.cpp knows the paths
/// (compile definitions of that one file), so the tests' own objects do not depend on where the
/// checkout is and ccache shares them between clones.
namespace TestSupport {

/// \a relative under the checkout, e.g. sourcePath(QStringLiteral("tests/mcp/fakeserver.py")).
QString sourcePath(const QString &relative);

/// The recorded provider streams (shared/fixtures beside the checkout; never copied into it).
QString fixturesDir();

/// The reference MCP servers that tests/mcp/install-servers.sh installs into the build.
QString mcpServersDir();

} // namespace TestSupport
