#include "commandline.h"
#include "doctor.h"
#include "headlessrewind.h"
#include "headlessrun.h"
#include "windowsetup.h"

#include <coding/repository.h>
#include <files/privatefiles.h>
#include <i18n/translations.h>
#include <settings/appsettings.h>
#include <settings/theme.h>
#include <window/mainwindow.h>
#include <window/rootuserbar.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QIcon>
#include <QSettings>
#include <QStandardPaths>
#include <QTimer>

#include <cstdio>

#include <unistd.h>

namespace {

QStringList argumentsOf(int argc, char **argv)
{
    QStringList arguments;
    arguments.reserve(argc);
    for (int i = 0; i < argc; ++i)
        arguments.append(QString::fromLocal8Bit(argv[i]));
    return arguments;
}

void print(FILE *stream, const QString &text)
{
    const QByteArray bytes = text.toLocal8Bit();
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stream);
    if (!bytes.endsWith('\n'))
        std::fputc('\n', stream);
}

bool haveDisplay()
{
    return !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")
           || !qEnvironmentVariableIsEmpty("DISPLAY")
           || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY");
}

// ---- AGENTDESK_REPORT_FIRST_PAINT (tests/bench/bench_ui coldstart) ----------------------
// Started during static initialisation, before main(), so it covers everything after the
// dynamic loader. When the variable is set, the first paint of the main window (or a child)
// prints "first-paint <ms>" to stderr and quits the app with 0.
const QElapsedTimer processClock = [] {
    QElapsedTimer clock;
    clock.start();
    return clock;
}();

class FirstPaintReporter final : public QObject
{
public:
    explicit FirstPaintReporter(QWidget *window)
        : QObject(window)
        , m_window(window)
    {}
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        auto widget = qobject_cast<QWidget *>(watched);
        if (event->type() == QEvent::Paint && widget && widget->window() == m_window) {
            QCoreApplication::instance()->removeEventFilter(this);
            // After this paint round (every widget of the window, and the flush) is done.
            QTimer::singleShot(0, [] {
                std::fprintf(stderr,
                             "first-paint %.1f\n",
                             double(processClock.nsecsElapsed()) / 1e6);
                QCoreApplication::exit(0);
            });
        }
        return false;
    }

private:
    QWidget *m_window;
};

void reportFirstPaintIfAsked(QWidget *window)
{
    if (qEnvironmentVariableIsSet("AGENTDESK_REPORT_FIRST_PAINT"))
        QCoreApplication::instance()->installEventFilter(new FirstPaintReporter(window));
}
// ---- end of AGENTDESK_REPORT_FIRST_PAINT ------------------------------------------------

/// AgentDesk's data folder (sessions, audit logs, checkpoint stores, worktrees) and its config
/// folders are the user's alone: made 0700 when new, and tightened once, everything in them,
/// when an older AgentDesk left them readable to others (folders 0755, files 0644). What is
/// written in them from now on is made private where it is written (AgentCore::PrivateFiles).
void securePrivateFolders()
{
    for (const QStandardPaths::StandardLocation location : {QStandardPaths::AppLocalDataLocation,
                                                            QStandardPaths::AppDataLocation,
                                                            QStandardPaths::AppConfigLocation}) {
        AgentCore::PrivateFiles::secureFolder(QStandardPaths::writableLocation(location));
    }
    // AgentCore::ProjectTrust's store and the user's permission settings.
    AgentCore::PrivateFiles::secureFolder(
        QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation)
        + QStringLiteral("/agentdesk"));
    if (const QString settings = QSettings().fileName(); QFileInfo::exists(settings))
        AgentCore::PrivateFiles::restrict(settings);
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication::setOrganizationName(QStringLiteral("AgentDesk"));
    QCoreApplication::setApplicationName(QStringLiteral("agentdesk"));
    QCoreApplication::setApplicationVersion(QStringLiteral(AGENTDESK_VERSION));

    const App::CommandLine commandLine = App::CommandLine::parse(argumentsOf(argc, argv));
    switch (commandLine.action) {
    case App::CommandLine::Action::ShowHelp:
    case App::CommandLine::Action::ShowVersion:
        print(stdout, commandLine.output);
        return 0;
    case App::CommandLine::Action::Fail:
        print(stderr, QStringLiteral("agentdesk: ") + commandLine.output);
        return int(App::HeadlessExit::Usage);
    case App::CommandLine::Action::Print: {
        // No window and no display: QCoreApplication only.
        QCoreApplication app(argc, argv);
        securePrivateFolders();
        return App::HeadlessRun::run(commandLine);
    }
    case App::CommandLine::Action::Doctor: {
        QCoreApplication app(argc, argv);
        return App::Doctor::runAndPrint(commandLine);
    }
    case App::CommandLine::Action::Rewind: {
        QCoreApplication app(argc, argv);
        securePrivateFolders();
        return App::runRewind(commandLine);
    }
    case App::CommandLine::Action::Run:
        break;
    }

    // Checked before any window exists, so a wrong path is an error on the terminal.
    QString error;
    if (!AgentCore::Repository::open(commandLine.repository, &error)) {
        print(stderr, QStringLiteral("agentdesk: ") + error);
        return 1;
    }

    if (!haveDisplay()) {
        print(stderr,
              QStringLiteral("agentdesk: no display (DISPLAY and WAYLAND_DISPLAY are unset). "
                             "Run it under Xvfb, or set QT_QPA_PLATFORM=offscreen."));
        return 1;
    }

    QApplication app(argc, argv);
    securePrivateFolders();
    QApplication::setApplicationDisplayName(QStringLiteral("AgentDesk"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/agentdesk.svg")));
    // Wayland matches the window to its launcher entry (name and icon) by this id.
    QGuiApplication::setDesktopFileName(QStringLiteral("io.github.agentdesk.AgentDesk"));
    const Ui::AppSettings settings = Ui::AppSettings::load(QSettings());
    Ui::Translations::install(settings.language); // before any widget exists
    Ui::applyTheme(settings.theme);

    Ui::MainWindow window(
        App::windowAgentSetup(commandLine.print, QProcessEnvironment::systemEnvironment()));
    // Started as root, everything the agent writes belongs to root: never silently.
    Ui::RootUserBar::addTo(&window, ::geteuid());
    window.openRepository(commandLine.repository);
    reportFirstPaintIfAsked(&window); // AGENTDESK_REPORT_FIRST_PAINT, see above
    window.show();

    if (!commandLine.screenshotPath.isEmpty()) {
        QTimer::singleShot(0, &window, [&window, path = commandLine.screenshotPath] {
            const bool saved = window.grab().save(path);
            if (!saved)
                print(stderr, QStringLiteral("agentdesk: cannot write the screenshot to ") + path);
            QCoreApplication::exit(saved ? 0 : 1);
        });
    }
    return app.exec();
}
