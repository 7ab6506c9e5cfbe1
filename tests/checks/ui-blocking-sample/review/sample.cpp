// The UI thread waits for git and reads a session file: the check must name both lines.

void Sample::showBaseline()
{
    m_process.waitForFinished(10000);
    const auto blob = AgentCore::GitProcess::run({QStringLiteral("cat-file")}, m_root);
    // Named in a comment only: SessionLog::load(path) is not a call.
    runInBackground(this, [path] {
        return AgentCore::SessionLog::load(path, nullptr); // off the UI thread
    }, [](auto) {});
}
