#pragma once

#include <QString>
#include <QStringList>

namespace App {

/// What the command line asked for. Parsed before any QApplication exists, so that
/// --version and --help work without a display.
struct CommandLine
{
    enum class Action { Run, ShowVersion, ShowHelp, Fail };

    Action action = Action::Run;
    QString repository;     ///< the directory to open (default: the current directory)
    QString screenshotPath; ///< save the first painted window there, then quit
    QString output;         ///< text for --version/--help, or the error for Fail

    static CommandLine parse(const QStringList &arguments);
};

} // namespace App
