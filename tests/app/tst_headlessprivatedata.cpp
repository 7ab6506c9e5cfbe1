// Issue #31, item 10: AgentDesk's data is the user's alone. After a headless run that records a
// session, an audit log and checkpoints (of a repository with a secrets file), every folder
// under the data folder is 0700 and every file has no group or other bits (0600, git's
// read-only objects 0400); a data folder an older AgentDesk left 0755 / 0644 is tightened at the
// next start. The harness is tests/support/headlessrun.h.

#include "headlessrun.h"
#include "httptestserver.h"
#include "modelreplies.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QTest>
#include <testmain.h>

#include <sys/stat.h>

using namespace TestSupport;

namespace tst_headlessprivatedata {

namespace {

const ReplyApi api = ReplyApi::OpenAiChat;

int modeOf(const QString &path)
{
    struct stat info
    {};
    return ::lstat(QFile::encodeName(path).constData(), &info) == 0 ? int(info.st_mode) : -1;
}

/// Every entry under \a root (itself included) whose mode gives anything to group or others,
/// or a folder that is not 0700, as "path 0755"; and how many entries were looked at.
QStringList openEntries(const QString &root, int *seen)
{
    QStringList open;
    *seen = 0;
    const auto check = [&](const QString &path) {
        ++*seen;
        const int mode = modeOf(path);
        if (S_ISLNK(mode))
            return;
        const bool folder = S_ISDIR(mode);
        if ((folder && (mode & 0777) != 0700) || (!folder && (mode & 077) != 0))
            open.append(QStringLiteral("%1 %2").arg(path, QString::number(mode & 07777, 8)));
    };
    check(root);
    QDirIterator it(root,
                    QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext())
        check(it.next());
    return open;
}

bool setMode(const QString &path, int mode)
{
    return ::chmod(QFile::encodeName(path).constData(), mode_t(mode)) == 0;
}

} // namespace

class tst_HeadlessPrivateData : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(agentdeskBinary()).isExecutable(), qPrintable(agentdeskBinary()));
    }

    void everythingInTheDataFolderIsPrivate();
    void anOpenDataFolderIsTightened();

private:
    static QString dataFolder(const HeadlessSandbox &sandbox)
    {
        return sandbox.home() + QStringLiteral("/.local/share/AgentDesk/agentdesk");
    }

    /// A run that writes with Bash (checkpoints before and after it), recorded as a session.
    static bool runWithCheckpoints(const HeadlessSandbox &sandbox, QString *report)
    {
        HttpTestServer server;
        server.enqueue(
            scriptedReply(api, {}, {headlessBashCall(QStringLiteral("printf made > made.txt"))}));
        server.enqueue(scriptedReply(api, QStringLiteral("Done.")));
        HeadlessRun run(sandbox,
                        server,
                        api,
                        headlessBypass(
                            {QStringLiteral("--output-format"), QStringLiteral("stream-json")}));
        run.start();
        const bool ok = run.finish() && run.exitCode() == 0;
        *report = run.report();
        return ok && run.out.contains("\"type\":\"checkpoint\"");
    }
};

void tst_HeadlessPrivateData::everythingInTheDataFolderIsPrivate()
{
    HeadlessSandbox sandbox;
    QVERIFY(sandbox.isValid());
    // The secret is tracked: the checkpoint store keeps its content.
    QVERIFY(sandbox.write(QStringLiteral("secrets.env"), "API_TOKEN=s3cr3t\n"));
    QString report;
    QVERIFY2(runWithCheckpoints(sandbox, &report), qPrintable(report));
    QCOMPARE(sandbox.read(QStringLiteral("made.txt")), QByteArray("made"));

    const QString data = dataFolder(sandbox);
    for (const char *folder : {"sessions", "audit", "checkpoints"})
        QVERIFY2(QFileInfo(data + u'/' + QLatin1String(folder)).isDir(), folder);
    int seen = 0;
    const QStringList open = openEntries(data, &seen);
    QVERIFY2(open.isEmpty(), qPrintable(open.join(u'\n')));
    QVERIFY2(seen > 20, qPrintable(QString::number(seen))); // git's objects, refs, the session...
    // The files AgentDesk writes in the repository keep the user's umask: only its own are
    // private.
    QCOMPARE(modeOf(sandbox.root() + QStringLiteral("/made.txt")) & 077,
             modeOf(sandbox.root() + QStringLiteral("/notes.txt")) & 077);
}

void tst_HeadlessPrivateData::anOpenDataFolderIsTightened()
{
    HeadlessSandbox sandbox;
    QVERIFY(sandbox.isValid());
    // What an older AgentDesk left: folders 0755, a session 0644, a store object 0444.
    const QString data = dataFolder(sandbox);
    const QString session = data + QStringLiteral("/sessions/old-0123456789ab/20250101-old.jsonl");
    const QString object = data + QStringLiteral("/checkpoints/old.git/objects/ab/cdef");
    for (const QString &file : {session, object}) {
        QVERIFY(QDir().mkpath(QFileInfo(file).absolutePath()));
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write("{}\n");
    }
    QVERIFY(setMode(session, 0644));
    QVERIFY(setMode(object, 0444));
    QDirIterator folders(data, QDir::Dirs | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (folders.hasNext())
        QVERIFY(setMode(folders.next(), 0755));
    QVERIFY(setMode(data, 0755));
    int seen = 0;
    QVERIFY(!openEntries(data, &seen).isEmpty());

    QString report;
    QVERIFY2(runWithCheckpoints(sandbox, &report), qPrintable(report));
    const QStringList open = openEntries(data, &seen);
    QVERIFY2(open.isEmpty(), qPrintable(open.join(u'\n')));
    QCOMPARE(modeOf(session) & 0777, 0600);
    QCOMPARE(modeOf(object) & 0777, 0400); // read-only stays read-only
}

AGENTDESK_GUILESS_TEST_MAIN(tst_HeadlessPrivateData)

} // namespace tst_headlessprivatedata

#include "tst_headlessprivatedata.moc"
