#include <testmain.h>
#include <tools/toollogdirectory.h>

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace AgentCore;

namespace tst_toollogdirectory {

namespace {

// A process id that no process has any more.
qint64 deadPid()
{
    QProcess process;
    process.start(QStringLiteral("true"), QStringList());
    if (!process.waitForStarted())
        return 0;
    const qint64 pid = process.processId(); // 0 once it has ended
    process.waitForFinished();
    return pid;
}

int modeOf(const QString &path)
{
    struct stat info;
    return ::stat(QFile::encodeName(path).constData(), &info) == 0 ? int(info.st_mode & 07777) : -1;
}

} // namespace

class tst_ToolLogDirectory : public QObject
{
    Q_OBJECT

private slots:
    void processDirectoryIsPrivate()
    {
        const QString directory = ToolLogDirectory::processDirectory();
        QVERIFY(!directory.isEmpty());
        QCOMPARE(ToolLogDirectory::processDirectory(), directory); // one per process
        QCOMPARE(modeOf(directory), 0700);
        QCOMPARE(QFileInfo(directory).path(), QFileInfo(QDir::tempPath()).absoluteFilePath());
        // The process id for the stale cleanup, then a part nobody can guess.
        const QRegularExpression name(QStringLiteral("agentdesk-tool-logs-%1-[A-Za-z0-9]{6}")
                                          .arg(QCoreApplication::applicationPid()));
        QVERIFY2(name.match(QFileInfo(directory).fileName()).hasMatch(), qPrintable(directory));
    }

    void removeStale()
    {
        QTemporaryDir temp;
        QVERIFY(temp.isValid());
        const qint64 dead = deadPid();
        QVERIFY(dead > 0);
        const qint64 self = QCoreApplication::applicationPid();
        const QString prefix = temp.path() + QStringLiteral("/agentdesk-tool-logs-");
        const QString own = prefix + QString::number(self) + QStringLiteral("-Own123");
        const QStringList gone{prefix + QString::number(dead),               // old style
                               prefix + QString::number(dead) + "-aB3dE9",   // empty
                               prefix + QString::number(self) + "-Earlier"}; // pid reused
        const QStringList kept{own,
                               prefix + QString::number(::getppid()) + "-Alive1", // still runs
                               temp.path() + "/agentdesk-tool-logs-notapid",
                               temp.path() + "/other-" + QString::number(dead)};
        for (const QString &directory : gone + kept)
            QVERIFY(QDir().mkpath(directory));
        QVERIFY(QFile(gone.first() + "/bash-XXXXXX.log").open(QIODevice::WriteOnly));
        // A link is never followed, even when named like a stale folder.
        const QString target = temp.path() + "/target";
        QVERIFY(QDir().mkpath(target));
        const QString link = prefix + QString::number(dead) + "-link";
        QVERIFY(QFile::link(target, link));

        QStringList removed = ToolLogDirectory::removeStale(temp.path(), own);
        removed.sort();
        QStringList expected = gone;
        expected.sort();
        QCOMPARE(removed, expected);
        for (const QString &directory : gone)
            QVERIFY2(!QFileInfo::exists(directory), qPrintable(directory));
        for (const QString &directory : kept)
            QVERIFY2(QFileInfo::exists(directory), qPrintable(directory));
        QVERIFY(QFileInfo(link).isSymLink());
        QVERIFY(QFileInfo::exists(target));
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_ToolLogDirectory)

} // namespace tst_toollogdirectory

#include "tst_toollogdirectory.moc"
