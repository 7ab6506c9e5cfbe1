#pragma once

#include <QByteArray>
#include <QTemporaryDir>

namespace TestSupport {

/// While it lives, `git` found through PATH is a script that waits \a delayMs and then runs
/// the real git: a test can show that the window goes on handling events while AgentDesk's
/// git runs (GitProcess starts "git" through PATH). Restores PATH when it goes.
class SlowGit
{
public:
    explicit SlowGit(int delayMs);
    ~SlowGit();
    SlowGit(const SlowGit &) = delete;
    SlowGit &operator=(const SlowGit &) = delete;

    /// The script is in place (the real git was found).
    bool isValid() const { return m_valid; }

private:
    QTemporaryDir m_bin;
    QByteArray m_path;
    bool m_valid = false;
};

} // namespace TestSupport
