// The home inside the sandbox: the package managers' caches privately writable (npm, pip and
// cargo work), the rest of the home read-only, the secrets still hidden; and the notice given
// when bwrap cannot run, with what to do about it. The real bwrap.

#include "sandboxtest.h"
#include "toolstest.h"

#include <testmain.h>
#include <tools/bashtool.h>
#include <tools/bwrapcommand.h>
#include <tools/sandboxcaches.h>
#include <tools/sandboxnotice.h>
#include <tools/sandboxpolicy.h>
#include <tools/sandboxprobe.h>
#include <tools/shelloverlay.h>

#include <QCoreApplication>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

using namespace AgentCore;
namespace tst_sandboxhome {

using TestSupport::OutsideDir;
using TestSupport::sandboxed;
using ToolsTest::call;

namespace {

// HOME for the commands run while it lives (`~` and `npm config get cache` follow it).
class HomeVariable
{
public:
    explicit HomeVariable(const QString &home)
        : m_saved(qgetenv("HOME"))
    {
        qputenv("HOME", home.toUtf8());
    }
    ~HomeVariable() { qputenv("HOME", m_saved); }

private:
    QByteArray m_saved;
};

} // namespace

class tst_SandboxHome : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        const SandboxProbe::Result probe = SandboxProbe::probe();
        QVERIFY2(probe.available, qPrintable(probe.error));
    }

    // What npm does on `npm install` (write its cache, ~/.npm/_cacache) works in the sandbox
    // and the cache's old content is there; a write anywhere else in the home fails; ~/.ssh
    // stays unreadable, also as ~/.cache/... hidden inside a cache; nothing the command wrote
    // reaches the real home.
    void cachesArePrivatelyWritable()
    {
        ToolsTest::Repo repo;
        OutsideDir home;
        QVERIFY(home.write(QStringLiteral(".npm/_cacache/index-v5/old"), "CACHED"));
        QVERIFY(home.write(QStringLiteral(".cache/pip/http/old"), "PIP"));
        QVERIFY(home.write(QStringLiteral(".cache/secret-token"), "CACHE-SECRET"));
        QVERIFY(home.write(QStringLiteral(".ssh/id_ed25519"), "PRIVATE-SSH-KEY"));
        QVERIFY(home.write(QStringLiteral(".bashrc"), "# mine\n"));
        const HomeVariable variable(home.path());
        SandboxPolicy sandbox;
        sandbox.mode = SandboxMode::On;
        sandbox.hiddenPaths = SandboxPolicy::defaultHiddenPaths(home.path());
        sandbox.hiddenPaths.append(home.file(QStringLiteral(".cache/secret-token")));
        sandbox.privatePaths = SandboxCaches::defaultPaths(home.path());
        repo.workspace()->setSandboxPolicy(sandbox);
        BashTool tool(repo.workspace());

        const ToolResult cache
            = call(tool,
                   {{"command",
                     QStringLiteral(
                         "{ cat ~/.npm/_cacache/index-v5/old 2>/dev/null || true; } && mkdir -p "
                         "~/.npm/_cacache/tmp "
                         "&& echo fresh > ~/.npm/_cacache/tmp/new && cat "
                         "~/.npm/_cacache/tmp/new && mkdir -p ~/.cache/pip/http && echo wheel > "
                         "~/.cache/pip/http/new && "
                         "echo cache-ok")}});
        QVERIFY(sandboxed(cache));
        QVERIFY2(!cache.isError, qPrintable(cache.text()));
        const bool overlay = ShellOverlay::mount() == BwrapCommand::OverlayMount::Bwrap;
        QCOMPARE(cache.text(),
                 overlay ? QStringLiteral("CACHEDfresh\ncache-ok")
                         : QStringLiteral("fresh\ncache-ok"));

        const ToolResult elsewhere = call(tool,
                                          {{"command",
                                            QStringLiteral("echo x >> ~/.bashrc; echo y > "
                                                           "~/planted; echo z > ~/.ssh/config")}});
        QVERIFY(sandboxed(elsewhere));
        QVERIFY(elsewhere.isError);
        QCOMPARE(elsewhere.text().count(QLatin1String("Read-only file system")), 3);

        const ToolResult secrets = call(tool,
                                        {{"command",
                                          QStringLiteral("ls -A ~/.ssh | wc -l; cat "
                                                         "~/.ssh/id_ed25519 ~/.cache/secret-token; "
                                                         "echo done")}});
        QVERIFY(sandboxed(secrets));
        QVERIFY2(secrets.text().startsWith(QLatin1String("0\n")), qPrintable(secrets.text()));
        QVERIFY2(secrets.text().endsWith(QLatin1String("done")), qPrintable(secrets.text()));
        QVERIFY2(!secrets.text().contains(QLatin1String("PRIVATE-SSH-KEY")),
                 qPrintable(secrets.text()));
        QVERIFY2(!secrets.text().contains(QLatin1String("CACHE-SECRET")),
                 qPrintable(secrets.text()));

        // Nothing leaked out: the real caches and home are as they were.
        QVERIFY(!QFile::exists(home.file(QStringLiteral(".npm/_cacache/tmp/new"))));
        QVERIFY(!QFile::exists(home.file(QStringLiteral(".cache/pip/http/new"))));
        QVERIFY(!QFile::exists(home.file(QStringLiteral("planted"))));
        QCOMPARE(home.read(QStringLiteral(".npm/_cacache/index-v5/old")), QByteArray("CACHED"));
        QCOMPARE(home.read(QStringLiteral(".bashrc")), QByteArray("# mine\n"));
    }

    // Without the private caches (the policy of before), npm's cache write fails: the reason
    // for the feature.
    void withoutThemTheCacheIsReadOnly()
    {
        ToolsTest::Repo repo;
        OutsideDir home;
        QVERIFY(home.write(QStringLiteral(".npm/_cacache/index-v5/old"), "CACHED"));
        const HomeVariable variable(home.path());
        SandboxPolicy sandbox;
        sandbox.mode = SandboxMode::On;
        repo.workspace()->setSandboxPolicy(sandbox);
        BashTool tool(repo.workspace());
        const ToolResult result = call(tool,
                                       {{"command",
                                         QStringLiteral("echo x > ~/.npm/_cacache/new")}});
        QVERIFY(sandboxed(result));
        QVERIFY(result.isError);
        QVERIFY2(result.text().contains(QLatin1String("Read-only file system")),
                 qPrintable(result.text()));
    }

    // Both ways of making a cache private, run by the real bwrap: an overlay keeps what is
    // cached (offline builds still find it), a tmpfs starts empty; neither writes through.
    void overlayAndTmpfs_data()
    {
        QTest::addColumn<bool>("overlay");
        QTest::newRow("overlay") << true;
        QTest::newRow("tmpfs") << false;
    }
    void overlayAndTmpfs()
    {
        QFETCH(bool, overlay);
        if (overlay && ShellOverlay::mount() != BwrapCommand::OverlayMount::Bwrap)
            QSKIP("this bwrap cannot mount overlays");
        OutsideDir home;
        QVERIFY(home.write(QStringLiteral(".cargo/registry/index/old"), "INDEX"));
        QVERIFY(home.write(QStringLiteral(".cargo/bin/cargo"), "binary"));
        const QString registry = home.file(QStringLiteral(".cargo/registry"));
        const QStringList mounts = SandboxCaches::arguments({registry},
                                                            QStringLiteral("/nowhere"),
                                                            overlay);
        QCOMPARE(mounts,
                 overlay ? QStringList({QStringLiteral("--overlay-src"),
                                        registry,
                                        QStringLiteral("--tmp-overlay"),
                                        registry})
                         : QStringList({QStringLiteral("--tmpfs"), registry}));
        QProcess bwrap;
        bwrap.setProcessChannelMode(QProcess::MergedChannels);
        bwrap.start(SandboxProbe::probe().bwrapPath,
                    QStringList{QStringLiteral("--ro-bind"),
                                QStringLiteral("/"),
                                QStringLiteral("/"),
                                QStringLiteral("--dev"),
                                QStringLiteral("/dev"),
                                QStringLiteral("--proc"),
                                QStringLiteral("/proc")}
                        + mounts
                        + QStringList{QStringLiteral("--"),
                                      QStringLiteral("/bin/sh"),
                                      QStringLiteral("-c"),
                                      QStringLiteral("cat %1/index/old; echo; mkdir -p %1/index && "
                                                     "echo new > %1/index/new && cat "
                                                     "%1/index/new")
                                          .arg(registry)});
        QVERIFY(bwrap.waitForFinished(20000));
        const QString output = QString::fromUtf8(bwrap.readAll());
        QVERIFY2(bwrap.exitCode() == 0 || !overlay, qPrintable(output));
        if (overlay)
            QCOMPARE(output, QStringLiteral("INDEX\nnew\n"));
        else
            QVERIFY2(!output.contains(QLatin1String("INDEX")) && output.endsWith("new\n"),
                     qPrintable(output));
        QVERIFY(!QFile::exists(registry + QStringLiteral("/index/new")));
        QCOMPARE(home.read(QStringLiteral(".cargo/bin/cargo")), QByteArray("binary"));
    }

    // A cache folder that holds the repository, or lies in it, is left alone: the repository
    // is bound as it is. Folders that do not exist are skipped (bwrap could not make them).
    void foldersAroundTheRepositoryAreSkipped()
    {
        OutsideDir home;
        QVERIFY(home.write(QStringLiteral(".cache/checkout/repo/file"), "x"));
        QVERIFY(home.write(QStringLiteral(".npm/x"), "x"));
        const QString root = home.file(QStringLiteral(".cache/checkout/repo"));
        QCOMPARE(SandboxCaches::arguments(SandboxCaches::defaultPaths(home.path()), root, false),
                 QStringList({QStringLiteral("--tmpfs"), home.file(QStringLiteral(".npm"))}));
        QCOMPARE(SandboxCaches::arguments({home.path()}, home.path(), false), QStringList());
        QCOMPARE(SandboxCaches::arguments({root + QStringLiteral("/node_modules/.cache")},
                                          root,
                                          false),
                 QStringList());

        // In the whole command line: after the repository and before the secrets.
        SandboxPolicy sandbox;
        sandbox.mode = SandboxMode::On;
        sandbox.privatePaths = SandboxCaches::defaultPaths(home.path());
        QVERIFY(home.write(QStringLiteral(".npm/.npmrc"), "token"));
        sandbox.hiddenPaths = {home.file(QStringLiteral(".npm/.npmrc"))};
        const QString line = BwrapCommand(QStringLiteral("/usr/bin/bwrap"),
                                          QStringLiteral("/srv/repo"),
                                          sandbox)
                                 .arguments({QStringLiteral("true")})
                                 .join(QLatin1Char(' '));
        const qsizetype cache = line.indexOf(home.file(QStringLiteral(".npm")) + QLatin1Char(' '));
        QVERIFY2(cache > line.indexOf(QLatin1String("--bind /srv/repo")), qPrintable(line));
        QVERIFY2(cache < line.indexOf(QLatin1String("/dev/null ") + home.file(".npm/.npmrc")),
                 qPrintable(line));
    }

    // The defaults are caches only: no settings or credentials among them.
    void defaultsAreCachesOnly()
    {
        const QStringList paths = SandboxCaches::defaultPaths(QStringLiteral("/home/u"));
        QVERIFY(paths.contains(QStringLiteral("/home/u/.cache")));
        QVERIFY(paths.contains(QStringLiteral("/home/u/.npm")));
        QVERIFY(paths.contains(QStringLiteral("/home/u/.cargo/registry")));
        const QStringList hidden = SandboxPolicy::defaultHiddenPaths(QStringLiteral("/home/u"));
        for (const QString &path : paths) {
            QVERIFY2(!path.contains(QLatin1String("config")), qPrintable(path));
            for (const QString &secret : hidden)
                QVERIFY2(!secret.startsWith(path + QLatin1Char('/')) && secret != path
                             && !path.startsWith(secret + QLatin1Char('/')),
                         qPrintable(path + QStringLiteral(" / ") + secret));
        }
        QVERIFY(hidden.contains(QStringLiteral("/home/u/.cargo/credentials.toml")));
        QVERIFY(SandboxCaches::defaultPaths(QString()).isEmpty());
    }

    // The notice names what happens now, why, and the switch that fixes it here.
    void noticeSaysWhatToDo_data()
    {
        QTest::addColumn<QString>("setting");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("advice");
        QTest::newRow("ubuntu apparmor")
            << "kernel/apparmor_restrict_unprivileged_userns"
            << "1"
            << "sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0";
        QTest::newRow("debian clone switch") << "kernel/unprivileged_userns_clone"
                                             << "0"
                                             << "sudo sysctl -w kernel.unprivileged_userns_clone=1";
        QTest::newRow("no namespaces") << "user/max_user_namespaces"
                                       << "0"
                                       << "user.max_user_namespaces";
        QTest::newRow("unknown") << "kernel/unprivileged_userns_clone"
                                 << "1"
                                 << "in a container";
    }
    void noticeSaysWhatToDo()
    {
        QFETCH(QString, setting);
        QFETCH(QString, value);
        QFETCH(QString, advice);
        QTemporaryDir procSys;
        QDir().mkpath(QFileInfo(procSys.filePath(setting)).path());
        QFile file(procSys.filePath(setting));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(value.toUtf8() + '\n');
        file.close();

        SandboxDecision decision;
        decision.outcome = SandboxDecision::Outcome::Unavailable;
        decision.reason = QStringLiteral("bubblewrap cannot create its namespaces here "
                                         "(bwrap: setting up uid map: Permission denied).");
        const QString on = SandboxNotice::text(decision, {}, procSys.path());
        QVERIFY2(on.contains(QLatin1String("commands run without it")), qPrintable(on));
        QVERIFY2(on.contains(QLatin1String("setting up uid map")), qPrintable(on));
        QVERIFY2(on.contains(advice), qPrintable(on));
        QVERIFY2(on.contains(QLatin1String("set Sandbox to Required")), qPrintable(on));
        QVERIFY(!on.contains(QLatin1Char('\n')));

        decision.outcome = SandboxDecision::Outcome::Refused;
        const QString required = SandboxNotice::text(decision, {}, procSys.path());
        QVERIFY2(required.contains(QLatin1String("commands are refused")), qPrintable(required));
        QVERIFY2(required.contains(advice), qPrintable(required));
        decision.outcome = SandboxDecision::Outcome::Sandboxed;
        QVERIFY(SandboxNotice::text(decision).isEmpty());
    }

    void noticeForMissingBwrap()
    {
        SandboxPolicy sandbox;
        sandbox.mode = SandboxMode::On;
        sandbox.bwrapPath = QCoreApplication::applicationDirPath() + QStringLiteral("/no-bwrap");
        const SandboxDecision decision = sandbox.decide();
        const QString text = SandboxNotice::text(decision, sandbox.bwrapPath);
        QVERIFY2(text.contains(QLatin1String("install bubblewrap")), qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("no-bwrap")), qPrintable(text));
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_SandboxHome)

} // namespace tst_sandboxhome

#include "tst_sandboxhome.moc"
