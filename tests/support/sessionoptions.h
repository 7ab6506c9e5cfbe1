#pragma once

#include <coding/codingagentoptions.h>

#include <QString>

namespace TestSupport {

/// A session's defaults (CodingSession::defaultOptions) kept inside a test's folders: the
/// repository \a repository; checkpoints and shell writes below \a data; nothing of the user's
/// (no settings file, trust store or audit log); the sandbox off and edits accepted. What a
/// test needs beyond that it sets on the value returned.
AgentCore::CodingAgentOptions sessionOptionsIn(const QString &repository, const QString &data);

} // namespace TestSupport
