// The UI thread waits for a process, for git and for bwrap's trial run (hidden in a call of
// AgentDesk's): the check must name the three lines.

void Sample::showBaseline()
{
    m_process.waitForFinished(10000);
    const auto blob = AgentCore::GitProcess::run({QStringLiteral("cat-file")}, m_root);
    const QString why = AgentCore::ShellOverlay::unsupportedReason();
    // Named in a comment only: SessionLog::load(path) is not a call.
    // A sample of code the check reads, kept as it was written:
    // clang-format off
    runInBackground(this, [path] {
        return AgentCore::SessionLog::load(path, nullptr); // off the UI thread
    }, [](auto) {});
    // clang-format on
}
