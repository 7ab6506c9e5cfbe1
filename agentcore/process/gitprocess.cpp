#include "gitprocess.h"

#include "childgroupguard.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <QLoggingCategory>
#include <QProcess>
#include <QSet>
#include <QThread>

#include <algorithm>
#include <csignal>
#include <unistd.h>

namespace AgentCore {

namespace {

Q_LOGGING_CATEGORY(uiThreadLog, "agentdesk.uithread")

// The UI thread owns widgets only (docs/architecture.md): git run there holds the window for
// as long as git takes. Said when a window's application runs git on its own thread; agentcore
// knows no QtGui, so the application is recognised by its class name.
void warnOnUiThread(const QStringList &args)
{
    const QCoreApplication *application = QCoreApplication::instance();
    if (!application || QThread::currentThread() != application->thread()
        || !application->inherits("QGuiApplication")) {
        return;
    }
    qCWarning(uiThreadLog,
              "git %s runs on the UI thread and holds the window until it ends: run it with "
              "runInBackground() (ui/common/background.h)",
              qPrintable(args.value(0)));
}

// git's global options that take their value as the next argument.
bool takesValue(const QString &option)
{
    static const QSet<QString> options{QStringLiteral("-c"),
                                       QStringLiteral("-C"),
                                       QStringLiteral("--git-dir"),
                                       QStringLiteral("--work-tree"),
                                       QStringLiteral("--namespace"),
                                       QStringLiteral("--config-env")};
    return options.contains(option);
}

// \a args with what makes \a its subcommand run nothing: no external diff or textconv program
// where it diffs, no submodule (whose own configuration names its own commands) where it
// looks at the work tree of a user's repository.
QStringList hardenedArguments(const QStringList &args, bool ownConfiguration)
{
    static const QSet<QString> diffing{QStringLiteral("diff"),
                                       QStringLiteral("diff-files"),
                                       QStringLiteral("diff-index"),
                                       QStringLiteral("diff-tree"),
                                       QStringLiteral("log"),
                                       QStringLiteral("show"),
                                       QStringLiteral("whatchanged"),
                                       QStringLiteral("format-patch")};
    static const QSet<QString> lookingAtSubmodules{QStringLiteral("status"),
                                                   QStringLiteral("diff"),
                                                   QStringLiteral("diff-files"),
                                                   QStringLiteral("diff-index")};
    QStringList all{QStringLiteral("--no-pager")};
    all.reserve(args.size() + 4);
    qsizetype i = 0;
    while (i < args.size() && args.at(i).startsWith(QLatin1Char('-')))
        i += takesValue(args.at(i)) ? 2 : 1;
    if (i >= args.size())
        return all + args;
    const QString &command = args.at(i);
    all += args.mid(0, i + 1);
    if (diffing.contains(command))
        all << QStringLiteral("--no-ext-diff") << QStringLiteral("--no-textconv");
    else if (command == QLatin1String("blame") || command == QLatin1String("annotate"))
        all << QStringLiteral("--no-textconv");
    if (!ownConfiguration && lookingAtSubmodules.contains(command))
        all << QStringLiteral("--ignore-submodules=all");
    all += args.mid(i + 1);
    return all;
}

// One git process: in a group of its own that the guard ends should AgentDesk die.
GitProcess::Result launch(const QStringList &args,
                          const QString &workingDirectory,
                          const QProcessEnvironment &environment,
                          const QByteArray &input,
                          int timeoutMs)
{
    GitProcess::Result result;
    ChildGroupGuard &guard = ChildGroupGuard::instance();
    const int announce = guard.announceDescriptor();
    QProcess process;
    process.setProcessEnvironment(environment);
    process.setWorkingDirectory(QDir(workingDirectory).exists() ? workingDirectory
                                                                : QDir::rootPath());
    if (input.isEmpty())
        process.setStandardInputFile(QProcess::nullDevice());
    // In the forked child: async-signal-safe calls only.
    process.setChildProcessModifier([announce] {
        ::setsid();
        ChildGroupGuard::announceFromChild(announce);
    });
    process.start(QStringLiteral("git"), args);
    if (!process.waitForStarted()) {
        result.startError = QStringLiteral("could not start git: %1").arg(process.errorString());
        return result;
    }
    const qint64 group = process.processId();
    if (!input.isEmpty())
        process.write(input);
    process.closeWriteChannel();
    if (!process.waitForFinished(timeoutMs)) {
        ::kill(-pid_t(group), SIGKILL); // git and whatever it started
        process.kill();
        process.waitForFinished();
        guard.release(group);
        result.startError = QStringLiteral("git did not finish in time");
        return result;
    }
    guard.release(group);
    result.out = process.readAllStandardOutput();
    result.err = process.readAllStandardError();
    if (process.exitStatus() != QProcess::NormalExit) {
        result.startError = QStringLiteral("git crashed");
        return result;
    }
    result.exitCode = process.exitCode();
    return result;
}

} // namespace

QString GitProcess::Result::problem() const
{
    if (!startError.isEmpty())
        return startError;
    QString text = QString::fromUtf8(err).trimmed();
    const QStringList lines = text.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    if (lines.size() > 3)
        text = lines.mid(lines.size() - 3).join(QLatin1Char('\n'));
    return text.isEmpty() ? QStringLiteral("git exited with code %1").arg(exitCode) : text;
}

QProcessEnvironment GitProcess::environment()
{
    // Read at each run (microseconds beside git's start): what AgentDesk's environment holds
    // now, filtered.
    static const QSet<QString> allowed{QStringLiteral("PATH"),
                                       QStringLiteral("HOME"),
                                       QStringLiteral("USER"),
                                       QStringLiteral("LOGNAME"),
                                       QStringLiteral("LANG"),
                                       QStringLiteral("TZ"),
                                       QStringLiteral("TMPDIR"),
                                       QStringLiteral("XDG_CONFIG_HOME"),
                                       QStringLiteral("EMAIL")};
    QProcessEnvironment e;
    const QProcessEnvironment system = QProcessEnvironment::systemEnvironment();
    for (const QString &key : system.keys()) {
        if (allowed.contains(key) || key.startsWith(QLatin1String("LC_")))
            e.insert(key, system.value(key));
    }
    e.insert(QStringLiteral("LC_ALL"), QStringLiteral("C"));
    e.insert(QStringLiteral("GIT_CONFIG_NOSYSTEM"), QStringLiteral("1"));
    e.insert(QStringLiteral("GIT_TERMINAL_PROMPT"), QStringLiteral("0"));
    e.insert(QStringLiteral("GIT_OPTIONAL_LOCKS"), QStringLiteral("0"));
    e.insert(QStringLiteral("GIT_PAGER"), QStringLiteral("cat"));
    e.insert(QStringLiteral("PAGER"), QStringLiteral("cat"));
    e.insert(QStringLiteral("GIT_EDITOR"), QStringLiteral(":"));
    e.insert(QStringLiteral("GIT_SEQUENCE_EDITOR"), QStringLiteral(":"));
    e.insert(QStringLiteral("GIT_NO_LAZY_FETCH"), QStringLiteral("1"));
    e.insert(QStringLiteral("GIT_PROTOCOL_FROM_USER"), QStringLiteral("0"));
    return e;
}

QList<std::pair<QString, QString>> GitProcess::lockedConfig()
{
    // Every key whose value git runs as a command on the way of what AgentDesk asks of it.
    // Transports are off altogether (protocol.allow), so remote.*.uploadpack, ssh and
    // credentials never come into play; a signature is neither made nor checked.
    static const QList<std::pair<QString, QString>> fixed{
        {QStringLiteral("core.fsmonitor"), QStringLiteral("false")},
        {QStringLiteral("core.hooksPath"), QStringLiteral("/dev/null")},
        {QStringLiteral("core.pager"), QStringLiteral("cat")},
        {QStringLiteral("core.editor"), QStringLiteral(":")},
        {QStringLiteral("sequence.editor"), QStringLiteral(":")},
        {QStringLiteral("core.sshCommand"), QString()},
        {QStringLiteral("core.askPass"), QString()},
        {QStringLiteral("core.alternateRefsCommand"), QString()},
        {QStringLiteral("diff.external"), QString()},
        {QStringLiteral("credential.helper"), QString()},
        {QStringLiteral("protocol.allow"), QStringLiteral("never")},
        {QStringLiteral("gpg.program"), QString()},
        {QStringLiteral("gpg.openpgp.program"), QString()},
        {QStringLiteral("gpg.x509.program"), QString()},
        {QStringLiteral("gpg.ssh.program"), QString()},
        {QStringLiteral("gpg.ssh.defaultKeyCommand"), QString()},
        {QStringLiteral("commit.gpgSign"), QStringLiteral("false")},
        {QStringLiteral("tag.gpgSign"), QStringLiteral("false")},
        {QStringLiteral("log.showSignature"), QStringLiteral("false")},
        {QStringLiteral("gc.auto"), QStringLiteral("0")},
        {QStringLiteral("maintenance.auto"), QStringLiteral("false")},
        {QStringLiteral("submodule.recurse"), QStringLiteral("false")},
        {QStringLiteral("status.submoduleSummary"), QStringLiteral("false")},
    };
    return fixed;
}

QList<std::pair<QString, QString>> GitProcess::filterSettings(const QString &workingDirectory,
                                                              const QProcessEnvironment &environment)
{
    // The filter drivers and the includes of the configuration git reads here, then of every
    // file an include names, whatever its condition: an includeIf that does not apply here
    // may apply to the git a command starts elsewhere (`worktree add` checks out in the new
    // worktree, whose git folder and branch are others), so what it names is blanked too.
    // What the user's own global configuration (and what it includes) says of a driver is
    // theirs, not the repository's: Git LFS's smudge still fills a session worktree, even
    // where the repository's configuration names the same driver.
    struct Pending
    {
        QString file; ///< empty: what git reads in the working directory
        bool usersOwn = false;
    };
    QStringList drivers;
    QHash<QString, QString> usersOwn; // filter.<driver>.<key> -> the user's value
    QSet<QString> repositorys;        // the keys the repository's configuration sets
    QStringList files;
    QList<Pending> pending{Pending{}};
    const QDir base(QDir(workingDirectory).exists() ? workingDirectory : QDir::rootPath());
    while (!pending.isEmpty() && files.size() < 64) {
        const Pending next = pending.takeFirst();
        QStringList args{QStringLiteral("--no-pager"), QStringLiteral("config")};
        if (!next.file.isEmpty())
            args << QStringLiteral("--file") << next.file;
        args << QStringLiteral("-z") << QStringLiteral("--show-scope")
             << QStringLiteral("--show-origin") << QStringLiteral("--get-regexp")
             << QStringLiteral("^(filter\\.|include)");
        const Result listed = launch(args, workingDirectory, environment, {}, 30000);
        // scope NUL origin NUL key LF value NUL, per entry
        const QList<QByteArray> parts = listed.out.split('\0');
        for (qsizetype i = 0; i + 2 < parts.size(); i += 3) {
            const bool fromTheUser = next.file.isEmpty() ? parts.at(i) == "global" : next.usersOwn;
            const QString origin = QString::fromUtf8(parts.at(i + 1));
            const QByteArray &entry = parts.at(i + 2);
            const qsizetype newline = entry.indexOf('\n');
            const QByteArray key = entry.left(newline < 0 ? entry.size() : newline);
            const QString value = newline < 0 ? QString()
                                              : QString::fromUtf8(entry.mid(newline + 1));
            if (key.startsWith("filter.")) {
                // filter.<driver>.<key>; the driver's name may hold dots itself.
                const qsizetype last = key.lastIndexOf('.');
                const QString driver = QString::fromUtf8(key.mid(7, last - 7));
                if (last > 7 && !drivers.contains(driver))
                    drivers.append(driver);
                if (fromTheUser)
                    usersOwn.insert(QString::fromUtf8(key), value); // the last one wins, as in git
                else
                    repositorys.insert(QString::fromUtf8(key));
                continue;
            }
            if (!key.endsWith(".path") || value.isEmpty()
                || !origin.startsWith(QLatin1String("file:")))
                continue;
            // A relative include is relative to the file that names it.
            QString path = value;
            if (path.startsWith(QLatin1String("~/")))
                path = environment.value(QStringLiteral("HOME")) + path.mid(1);
            const QString including = base.absoluteFilePath(origin.mid(5));
            path = QDir::cleanPath(QFileInfo(including).dir().absoluteFilePath(path));
            if (!files.contains(path)) {
                files.append(path);
                pending.append(Pending{path, fromTheUser});
            }
        }
    }
    QList<std::pair<QString, QString>> settings;
    for (const QString &driver : std::as_const(drivers)) {
        const QString prefix = QStringLiteral("filter.") + driver + QLatin1Char('.');
        const QString process = prefix + QStringLiteral("process");
        const QString required = prefix + QStringLiteral("required");
        const bool usersDriver = std::any_of(usersOwn.keyBegin(),
                                             usersOwn.keyEnd(),
                                             [&prefix](const QString &key) {
                                                 return key.startsWith(prefix);
                                             });
        for (const char *name : {"clean", "smudge"}) {
            const QString key = prefix + QLatin1String(name);
            settings.append({key, usersOwn.value(key)});
        }
        // An empty clean or smudge runs nothing; an empty process, though, also stops the
        // clean and smudge beside it (git tries no other command of a driver that has one).
        // So the repository's process gives way to the user's, or to none at all; only a
        // driver whose commands still run may stay required.
        bool usersCommandsRun = usersDriver;
        if (usersOwn.contains(process)) {
            settings.append({process, usersOwn.value(process)});
        } else if (!usersDriver || repositorys.contains(process)) {
            settings.append({process, QString()});
            usersCommandsRun = false;
        }
        settings.append({required,
                         usersCommandsRun ? usersOwn.value(required, QStringLiteral("false"))
                                          : QStringLiteral("false")});
    }
    return settings;
}

GitProcess::Result GitProcess::run(const QStringList &args,
                                   const QString &workingDirectory,
                                   int timeoutMs)
{
    Options options;
    options.timeoutMs = timeoutMs;
    return run(args, workingDirectory, options);
}

GitProcess::Result GitProcess::run(const QStringList &args,
                                   const QString &workingDirectory,
                                   const Options &options)
{
    QProcessEnvironment environment = GitProcess::environment();
    for (const QString &key : options.environment.keys())
        environment.insert(key, options.environment.value(key));
    // In the command scope (as -c): the last word over the repository's configuration.
    const auto putConfig = [&environment](const QList<std::pair<QString, QString>> &settings) {
        environment.insert(QStringLiteral("GIT_CONFIG_COUNT"), QString::number(settings.size()));
        for (qsizetype i = 0; i < settings.size(); ++i) {
            environment.insert(QStringLiteral("GIT_CONFIG_KEY_%1").arg(i), settings.at(i).first);
            environment.insert(QStringLiteral("GIT_CONFIG_VALUE_%1").arg(i), settings.at(i).second);
        }
    };
    warnOnUiThread(args);
    QList<std::pair<QString, QString>> settings = lockedConfig();
    if (!options.ownConfiguration)
        settings += filterSettings(workingDirectory, environment);
    putConfig(settings);
    return launch(hardenedArguments(args, options.ownConfiguration),
                  workingDirectory,
                  environment,
                  options.input,
                  options.timeoutMs);
}

} // namespace AgentCore
