#pragma once

#include <QList>
#include <QProcessEnvironment>
#include <QString>

namespace App {

struct CommandLine;

/// One thing AgentDesk relies on, as `agentdesk --doctor` found it.
struct DoctorCheck
{
    enum class Status {
        Ok,
        Missing, ///< needed and not there (or not working): the exit code is 1
        Warning, ///< not needed: AgentDesk does without it, with less
    };

    QString name; ///< "bubblewrap", "git", ...
    Status status = Status::Ok;
    QString detail;  ///< what was found, or why it is missing
    QString install; ///< for what is missing: the command that installs it here, else empty
};

/// The Linux distribution's package manager, from /etc/os-release (ID and ID_LIKE).
struct PackageManager
{
    enum class Kind { Unknown, Apt, Dnf, Pacman };
    Kind kind = Kind::Unknown;
    QString distribution; ///< PRETTY_NAME, for the report's first line

    /// Reads \a osRelease (the text of /etc/os-release). Pure.
    static PackageManager fromOsRelease(const QByteArray &osRelease);
    /// "sudo apt-get install bubblewrap"; "install the package bubblewrap" where unknown.
    /// \a packages by kind: {apt, dnf, pacman}.
    QString installCommand(const QString &apt, const QString &dnf, const QString &pacman) const;
};

/// `agentdesk --doctor`: checks what AgentDesk relies on, here, and prints each check's result
/// with, for what is missing, the command that installs it: bubblewrap and whether it works (and
/// the overlay the shell-writes review needs), git, ripgrep, the keyring (Secret Service on the
/// session bus), fonts for the UI language, the configured provider (one GET of its models
/// endpoint, never a completion) and the commands of the MCP servers configured for the
/// repository and the user. Needs a QCoreApplication; blocks (a terminal command, no window).
class Doctor final
{
public:
    Doctor(const CommandLine &commandLine, QProcessEnvironment environment);

    QList<DoctorCheck> run() const;
    /// Prints the checks to stdout; 0 when no needed check failed, else 1.
    static int runAndPrint(const CommandLine &commandLine);

private:
    DoctorCheck bubblewrap() const;
    DoctorCheck shellOverlay() const;
    DoctorCheck program(const QString &name,
                        const QString &executable,
                        bool needed,
                        const QString &package,
                        const QString &why) const;
    DoctorCheck keyring() const;
    DoctorCheck fonts() const;
    DoctorCheck provider() const;
    QList<DoctorCheck> mcpServers() const;

    const CommandLine &m_commandLine;
    QProcessEnvironment m_environment;
    PackageManager m_packages;
};

} // namespace App
