#pragma once

// A git repository whose configuration names a command for every key by which git runs one,
// for the tests of "opening a repository runs nothing of it" (GitProcess). Each command, should
// it run, writes its environment to a marker file named after it in markers(): a test checks
// that the folder stays empty (ran()) after AgentDesk's own git did its work there.

#include <QString>
#include <QStringList>
#include <QTemporaryDir>

namespace TestSupport {

class HostileRepository
{
public:
    /// Makes \a root (made if missing; a git repository or not yet one) hostile: its files
    /// committed with attributes naming filter and diff drivers, then the configuration
    /// (.git/config, a file it includes and one it includes by includeIf) written, then the
    /// filtered files changed at the same size so that `git status` must read them again.
    explicit HostileRepository(const QString &root);

    bool isValid() const { return m_ok; }
    /// What went wrong while making it, for a failure message.
    QString error() const { return m_error; }
    QString root() const { return m_root; }
    QString markers() const { return m_dir.filePath(QStringLiteral("markers")); }
    /// The names of the commands that ran (their marker files), sorted; empty: none did.
    QStringList ran() const;
    /// The configuration keys set to a command (for the documentation and the messages).
    static QStringList keys();

private:
    bool git(const QStringList &args);

    QString m_root;
    QTemporaryDir m_dir; ///< markers/ and commands/ (the scripts, hooks, included files)
    bool m_ok = false;
    QString m_error;
};

} // namespace TestSupport
