// The language-server client against the real servers (Debian's clangd and python3-pylsp): an
// edit that introduces an error gets it back, with what was there before; a killed server is
// reported once and started again; a server that never answers is ended; no server, no wait.

#include <lsp/lsphost.h>
#include <testmain.h>
#include <testpaths.h>

#include <QDir>
#include <QElapsedTimer>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace AgentCore;

namespace tst_lspservers {

namespace {

constexpr int firstAnswerMs = 60'000; // a cold server on a loaded 2-core machine
constexpr int answerMs = 30'000;

LspServerConfig server(const QString &name)
{
    const QList<LspServerConfig> found
        = LspServerConfig::available(LspServerConfig::defaults(),
                                     QProcessEnvironment::systemEnvironment());
    for (const LspServerConfig &config : found) {
        if (config.name == name)
            return config;
    }
    return {};
}

LspClientOptions options(const QTemporaryDir &repository)
{
    LspClientOptions options;
    options.rootPath = repository.path();
    options.environment = QProcessEnvironment::systemEnvironment();
    return options;
}

// tests/lsp/fakeserver.py in \a mode ("hang", "pull"), for .py files.
LspServerConfig fakeServer(const QString &mode)
{
    return {QStringLiteral("fake-") + mode,
            QStandardPaths::findExecutable(QStringLiteral("python3")),
            {TestSupport::sourcePath(QStringLiteral("tests/lsp/fakeserver.py")), mode},
            {QStringLiteral("py")}};
}

bool processExists(qint64 pid)
{
    return pid > 0 && ::kill(pid_t(pid), 0) == 0;
}

QStringList texts(const QList<LspDiagnostic> &diagnostics)
{
    QStringList list;
    for (const LspDiagnostic &diagnostic : diagnostics)
        list.append(diagnostic.toText());
    return list;
}

} // namespace

class tst_LspServers : public QObject
{
    Q_OBJECT

private slots:
    void clangdReportsTheErrorAnEditIntroduced()
    {
        const LspServerConfig clangd = server(QStringLiteral("clangd"));
        if (!clangd.isValid())
            QFAIL("clangd is not installed (scripts/lib/*-packages.txt installs it)");
        QTemporaryDir repository;
        LspHost host({clangd}, options(repository));
        const QString path = repository.filePath(QStringLiteral("main.cpp"));
        const std::shared_ptr<LspClient> client = host.clientFor(path);
        QVERIFY(client);
        QVERIFY(!host.clientFor(repository.filePath(QStringLiteral("notes.txt"))));

        const QString good = QStringLiteral("int twice(int x)\n{\n    return 2 * x;\n}\n");
        LspFileDiagnostics first = client->diagnose(path, good, firstAnswerMs);
        QVERIFY2(first.ok, qPrintable(first.error));
        QVERIFY2(first.diagnostics.isEmpty(), qPrintable(texts(first.diagnostics).join('\n')));
        QVERIFY(!first.before); // opened now: nothing to compare with

        const QString bad = QStringLiteral(
            "int twice(int x)\n{\n    int y = \"two\";\n    return 2 * x;\n}\n");
        const LspFileDiagnostics second = client->diagnose(path, bad, answerMs);
        QVERIFY2(second.ok, qPrintable(second.error));
        QVERIFY(second.before);
        const QList<LspDiagnostic> introduced = introducedDiagnostics(*second.before,
                                                                      second.diagnostics);
        QVERIFY2(!introduced.isEmpty(), qPrintable(texts(second.diagnostics).join('\n')));
        const LspDiagnostic &error = introduced.first();
        QCOMPARE(error.severity, LspDiagnostic::Severity::Error);
        QCOMPARE(error.line, 3);
        QVERIFY2(error.message.contains(QStringLiteral("cannot initialize"), Qt::CaseInsensitive),
                 qPrintable(error.message));

        // The same text again: answered from what the server said, without a new wait.
        QElapsedTimer timer;
        timer.start();
        const LspFileDiagnostics again = client->diagnose(path, bad, answerMs);
        QVERIFY(again.ok);
        QCOMPARE(again.diagnostics, second.diagnostics);
        QVERIFY(timer.elapsed() < 1000);
        QCOMPARE(client->lastDiagnostics(path).value_or(QList<LspDiagnostic>()), second.diagnostics);
    }

    void pylspReportsAnUndefinedName()
    {
        const LspServerConfig pylsp = server(QStringLiteral("pylsp"));
        if (!pylsp.isValid())
            QFAIL("pylsp is not installed (scripts/lib/*-packages.txt installs python3-pylsp)");
        QTemporaryDir repository;
        LspHost host({pylsp}, options(repository));
        const QString path = repository.filePath(QStringLiteral("tool.py"));
        const std::shared_ptr<LspClient> client = host.clientFor(path);
        QVERIFY(client);
        const QString good = QStringLiteral("def twice(x):\n    return 2 * x\n");
        const LspFileDiagnostics first = client->diagnose(path, good, firstAnswerMs);
        QVERIFY2(first.ok, qPrintable(first.error));
        const QString bad = QStringLiteral("def twice(x):\n    return 2 * y\n");
        const LspFileDiagnostics second = client->diagnose(path, bad, answerMs);
        QVERIFY2(second.ok, qPrintable(second.error));
        QVERIFY(second.before);
        const QList<LspDiagnostic> introduced = introducedDiagnostics(*second.before,
                                                                      second.diagnostics);
        QVERIFY2(introduced.size() == 1, qPrintable(texts(second.diagnostics).join('\n')));
        QCOMPARE(introduced.first().line, 2);
        QVERIFY2(introduced.first().message.contains(QStringLiteral("undefined name 'y'")),
                 qPrintable(introduced.first().message));
    }

    void aKilledServerIsReportedOnceAndStartedAgain()
    {
        const LspServerConfig pylsp = server(QStringLiteral("pylsp"));
        if (!pylsp.isValid())
            QFAIL("pylsp is not installed");
        QTemporaryDir repository;
        LspHost host({pylsp}, options(repository));
        const QString path = repository.filePath(QStringLiteral("a.py"));
        const std::shared_ptr<LspClient> client = host.clientFor(path);
        QVERIFY(client->diagnose(path, QStringLiteral("x = 1\n"), firstAnswerMs).ok);
        const qint64 pid = client->processId();
        QVERIFY(processExists(pid));
        QCOMPARE(::kill(pid_t(pid), SIGKILL), 0);
        QTRY_VERIFY(client->processId() == 0);

        // The next use starts it again and says once what happened.
        const LspFileDiagnostics next = client->diagnose(path,
                                                         QStringLiteral("x = 2\n"),
                                                         firstAnswerMs);
        QVERIFY2(next.ok, qPrintable(next.error));
        QVERIFY2(next.notice.contains(QStringLiteral("had stopped")), qPrintable(next.notice));
        QVERIFY(next.notice.contains(QStringLiteral("pylsp")));
        QVERIFY(processExists(client->processId()));
        QVERIFY(client->processId() != pid);
        const LspFileDiagnostics after = client->diagnose(path, QStringLiteral("x = 3\n"), answerMs);
        QVERIFY(after.ok);
        QVERIFY(after.notice.isEmpty());
    }

    void aServerThatNeverAnswersIsEnded()
    {
        QTemporaryDir repository;
        LspServerConfig silent{QStringLiteral("silent"),
                               QStandardPaths::findExecutable(QStringLiteral("sleep")),
                               {QStringLiteral("600")},
                               {QStringLiteral("py")}};
        LspClientOptions quick = options(repository);
        quick.initializeTimeoutMs = 1000;
        LspHost host({silent}, quick);
        const QString path = repository.filePath(QStringLiteral("a.py"));
        const std::shared_ptr<LspClient> client = host.clientFor(path);
        QElapsedTimer timer;
        timer.start();
        const LspFileDiagnostics result = client->diagnose(path, QStringLiteral("x = 1\n"), 5000);
        QVERIFY(!result.ok);
        QVERIFY2(result.error.contains(QStringLiteral("did not answer initialize")),
                 qPrintable(result.error));
        QVERIFY(result.error.contains(QStringLiteral("silent")));
        QVERIFY(timer.elapsed() < 4000);
        QCOMPARE(client->processId(), 0);
    }

    // The window drops a session's host on its UI thread: ending a server that does not answer
    // shutdown takes seconds, which must not be the window's. The server still ends.
    void endingTheHostDoesNotWaitForAServerThatHangs()
    {
        QTemporaryDir repository;
        const LspServerConfig hanging = fakeServer(QStringLiteral("hang"));
        auto host = std::make_unique<LspHost>(QList{hanging}, options(repository));
        const QString path = repository.filePath(QStringLiteral("a.py"));
        std::shared_ptr<LspClient> client = host->clientFor(path);
        // Started and ready: it answered initialize; it offers nothing, so it is not asked.
        const LspAnswer answer = client->ask(path,
                                             QStringLiteral("x = 1\n"),
                                             QStringLiteral("textDocument/definition"),
                                             QStringLiteral("definitionProvider"),
                                             1,
                                             1,
                                             {},
                                             20'000);
        QVERIFY(!answer.ok);
        QVERIFY2(answer.error.contains(QStringLiteral("does not offer")), qPrintable(answer.error));
        const qint64 pid = client->processId();
        QVERIFY(processExists(pid));
        client.reset();
        QElapsedTimer timer;
        timer.start();
        host.reset();
        // Closing it waits 500 ms for shutdown's answer, then as long for its exit.
        QVERIFY2(timer.elapsed() < 400, qPrintable(QString::number(timer.elapsed())));
        QTRY_VERIFY_WITH_TIMEOUT(!processExists(pid), 10'000);
    }

    // A server that is asked for its diagnostics (LSP 3.17) and never publishes them.
    void aServerThatIsAskedGivesItsDiagnostics()
    {
        QTemporaryDir repository;
        LspHost host({fakeServer(QStringLiteral("pull"))}, options(repository));
        const QString path = repository.filePath(QStringLiteral("a.py"));
        const std::shared_ptr<LspClient> client = host.clientFor(path);
        const LspFileDiagnostics clean = client->diagnose(path, QStringLiteral("good\n"), answerMs);
        QVERIFY2(clean.ok, qPrintable(clean.error));
        QVERIFY(clean.diagnostics.isEmpty());
        const LspFileDiagnostics broken = client->diagnose(path,
                                                           QStringLiteral("good\nso bad\n"),
                                                           answerMs);
        QVERIFY2(broken.ok, qPrintable(broken.error));
        QCOMPARE(broken.diagnostics.size(), 1);
        QCOMPARE(broken.diagnostics.first().line, 2);
        QCOMPARE(broken.diagnostics.first().column, 4);
        QCOMPARE(broken.diagnostics.first().message, QStringLiteral("bad word"));
        QVERIFY(broken.before);
        QCOMPARE(introducedDiagnostics(*broken.before, broken.diagnostics).size(), 1);
    }

    void noServerForALanguageMeansNoClientAndNoWait()
    {
        QProcessEnvironment nothing;
        nothing.insert(QStringLiteral("PATH"), QStringLiteral("/nonexistent"));
        QTemporaryDir repository;
        LspHost host(LspServerConfig::available(LspServerConfig::defaults(), nothing),
                     options(repository));
        QVERIFY(!host.handles(repository.filePath(QStringLiteral("main.cpp"))));
        QVERIFY(!host.clientFor(repository.filePath(QStringLiteral("main.cpp"))));
        QVERIFY(host.clients().isEmpty());
    }

    void stoppingTheHostEndsItsServers()
    {
        const LspServerConfig pylsp = server(QStringLiteral("pylsp"));
        if (!pylsp.isValid())
            QFAIL("pylsp is not installed");
        QTemporaryDir repository;
        std::shared_ptr<LspClient> client;
        qint64 pid = 0;
        {
            LspHost host({pylsp}, options(repository));
            const QString path = repository.filePath(QStringLiteral("a.py"));
            client = host.clientFor(path);
            QVERIFY(client->diagnose(path, QStringLiteral("x = 1\n"), firstAnswerMs).ok);
            pid = client->processId();
            QVERIFY(processExists(pid));
        }
        QTRY_VERIFY(!processExists(pid));
        // Held past its host: fails at once.
        const LspFileDiagnostics late = client->diagnose(repository.filePath(
                                                             QStringLiteral("a.py")),
                                                         QStringLiteral("x = 2\n"),
                                                         answerMs);
        QVERIFY(!late.ok);
        QVERIFY2(late.error.contains(QStringLiteral("stopped")), qPrintable(late.error));
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_LspServers)

} // namespace tst_lspservers

#include "tst_lspservers.moc"
