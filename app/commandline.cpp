#include "commandline.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace App {

namespace {
struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(App::CommandLine)
};
} // namespace

CommandLine CommandLine::parse(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        Tr::tr("AgentDesk, a desktop coding agent: review every edit before it is applied."));
    const QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help")},
                                  Tr::tr("Show this help and exit."));
    const QCommandLineOption version({QStringLiteral("v"), QStringLiteral("version")},
                                     Tr::tr("Show the version and exit."));
    QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                  Tr::tr("Save the window to FILE once shown, then quit."),
                                  Tr::tr("FILE"));
    screenshot.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOption(help);
    parser.addOption(version);
    parser.addOption(screenshot);
    parser.addPositionalArgument(QStringLiteral("repository"),
                                 Tr::tr("The repository to work on (default: the current "
                                        "directory)."),
                                 QStringLiteral("[repository]"));

    CommandLine result;
    if (!parser.parse(arguments)) {
        result.action = Action::Fail;
        result.output = parser.errorText();
        return result;
    }
    if (parser.isSet(help)) {
        result.action = Action::ShowHelp;
        // Without a QCoreApplication the parser cannot know the program's name.
        const QString program = QFileInfo(arguments.value(0, QStringLiteral("agentdesk"))).fileName();
        result.output = parser.helpText().replace(QStringLiteral("<executable_name>"), program);
        return result;
    }
    if (parser.isSet(version)) {
        result.action = Action::ShowVersion;
        result.output = QStringLiteral("agentdesk " AGENTDESK_VERSION "\n");
        return result;
    }
    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1) {
        result.action = Action::Fail;
        result.output = Tr::tr("Only one repository can be opened, got %1.").arg(positional.size());
        return result;
    }
    result.repository = positional.isEmpty() ? QDir::currentPath() : positional.first();
    result.screenshotPath = parser.value(screenshot);
    return result;
}

} // namespace App
