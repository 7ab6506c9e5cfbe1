#include <coding/codingagent.h>
#include <coding/systemprompt.h>
#include <testmain.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace AgentCore;

namespace tst_systemprompt {

namespace {

bool writeFile(const QString &path, const QByteArray &content)
{
    if (!QDir().mkpath(QFileInfo(path).absolutePath()))
        return false;
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate)
           && file.write(content) == content.size();
}

bool runGit(const QString &directory, const QStringList &arguments)
{
    QProcess git;
    git.setWorkingDirectory(directory);
    git.start(QStringLiteral("git"), arguments);
    return git.waitForFinished(30000) && git.exitStatus() == QProcess::NormalExit
           && git.exitCode() == 0;
}

PromptEnvironment sampleEnvironment()
{
    PromptEnvironment environment;
    environment.operatingSystem = QStringLiteral("Debian GNU/Linux 13 (trixie)");
    environment.today = QDate(2025, 3, 14);
    environment.repositoryRoot = QStringLiteral("/src/calc");
    environment.isGit = true;
    environment.gitHead = QStringLiteral("main");
    return environment;
}

QStringList statusLines(int count)
{
    QStringList lines;
    for (int i = 0; i < count; ++i)
        lines.append(QStringLiteral(" M src/file%1.cpp").arg(i));
    return lines;
}

} // namespace

class tst_SystemPrompt : public QObject
{
    Q_OBJECT

private slots:
    void statesEnvironment()
    {
        const QString prompt = formatSystemPrompt(sampleEnvironment());
        QVERIFY(prompt.startsWith(QStringLiteral("You are AgentDesk, a coding agent.")));
        QVERIFY(prompt.contains(QStringLiteral("\n# Environment\n"
                                               "- Operating system: Debian GNU/Linux 13 (trixie)\n"
                                               "- Today's date: 2025-03-14\n"
                                               "- Repository root: /src/calc (relative paths are "
                                               "relative to it)\n"
                                               "- Git branch: main\n"
                                               "- Git status: clean\n")));
        QVERIFY(prompt.endsWith(QStringLiteral("- Git status: clean\n")));
        QVERIFY(!prompt.contains(QStringLiteral("# Project instructions")));
    }

    void teachesTheTools_data()
    {
        QTest::addColumn<QString>("advice");
        QTest::newRow("read before edit")
            << QStringLiteral("Read a file before you change it: edits are accepted only for "
                              "files read in this session");
        QTest::newRow("edit over write") << QStringLiteral("Prefer Edit to Write");
        QTest::newRow("search tools") << QStringLiteral("with Grep, Glob and LS");
        QTest::newRow("parallel reads") << QStringLiteral("read-only tools run in parallel");
        QTest::newRow("tests with bash")
            << QStringLiteral("Use Bash for builds, tests, git and other command-line tools, and "
                              "Read, Edit, Write, Grep, Glob and LS rather than cat, sed, echo >, "
                              "grep, find, ls.");
        QTest::newRow("no invention") << QStringLiteral("Never invent file contents");
        QTest::newRow("ask when unsure") << QStringLiteral("ask the user rather than guess");
        QTest::newRow("concise") << QStringLiteral("Be concise");
    }

    void teachesTheTools()
    {
        QFETCH(QString, advice);
        QVERIFY2(formatSystemPrompt(sampleEnvironment()).contains(advice), qPrintable(advice));
    }

    // With --tools the model is offered fewer tools: the prompt must not send it looking for
    // one it does not have, nor spend bytes on advice about them.
    void namesOnlyTheToolsOffered()
    {
        PromptEnvironment environment = sampleEnvironment();
        environment.tools = {ToolKind::Read, ToolKind::Grep, ToolKind::Edit, ToolKind::Bash};
        const QString prompt = formatSystemPrompt(environment);
        QVERIFY(prompt.contains(QStringLiteral("find the relevant code with Grep and read")));
        QVERIFY(prompt.contains(QStringLiteral(", and Read, Edit and Grep rather than cat, sed, "
                                               "grep.")));
        for (const char *absent : {"Glob", "LS", "Write", "echo >", ", find", "Prefer Edit"})
            QVERIFY2(!prompt.contains(QLatin1String(absent)), absent);
        QVERIFY(prompt.size() < formatSystemPrompt(sampleEnvironment()).size());

        environment.tools = {ToolKind::Read};
        const QString readOnly = formatSystemPrompt(environment);
        QVERIFY(readOnly.contains(QStringLiteral("find the relevant code and read the files")));
        for (const char *absent : {"Bash", "Grep", "Edit", "edits are accepted"})
            QVERIFY2(!readOnly.contains(QLatin1String(absent)), absent);
    }

    void gitStatusCapped_data()
    {
        QTest::addColumn<int>("lines");
        QTest::addColumn<int>("shown");
        QTest::addColumn<QString>("more");
        QTest::newRow("one") << 1 << 1 << QString();
        QTest::newRow("exactly the cap") << 30 << 30 << QString();
        QTest::newRow("one over") << 31 << 30 << QStringLiteral("    ... and 1 more\n");
        QTest::newRow("many") << 500 << 30 << QStringLiteral("    ... and 470 more\n");
    }

    void gitStatusCapped()
    {
        QFETCH(int, lines);
        QFETCH(int, shown);
        QFETCH(QString, more);
        PromptEnvironment environment = sampleEnvironment();
        environment.gitStatus = statusLines(lines);
        const QString prompt = formatSystemPrompt(environment);

        QString expected = QStringLiteral(
            "- Git status (git status --short, at the start of the session):\n");
        for (const QString &line : statusLines(shown))
            expected += QStringLiteral("    ") + line + u'\n';
        expected += more;
        QVERIFY2(prompt.endsWith(expected), qPrintable(prompt.right(400)));
        QCOMPARE(prompt.count(QStringLiteral(" M src/file")), shown);
    }

    void notGit()
    {
        PromptEnvironment environment = sampleEnvironment();
        environment.isGit = false;
        environment.gitHead.clear();
        const QString prompt = formatSystemPrompt(environment);
        QVERIFY(prompt.endsWith(QStringLiteral("- Git: not a git repository\n")));
        QVERIFY(!prompt.contains(QStringLiteral("Git branch")));
    }

    void instructionsLabelledNearestLast()
    {
        PromptEnvironment environment = sampleEnvironment();
        environment.instructions = {
            {QStringLiteral("/src/AGENTS.md"), QStringLiteral("Use tabs."), false},
            {QStringLiteral("/src/calc/CLAUDE.md"), QStringLiteral("Use spaces.\n"), true},
        };
        const QString prompt = formatSystemPrompt(environment);
        const QString expected = QStringLiteral(
            "\n## /src/AGENTS.md\n\nUse tabs.\n"
            "\n## /src/calc/CLAUDE.md\n\nUse spaces.\n"
            "[... the rest of /src/calc/CLAUDE.md was left out: it is too long]\n"
            "\n# Environment\n");
        QVERIFY2(prompt.contains(expected), qPrintable(prompt));
        QVERIFY(prompt.indexOf(QStringLiteral("# Project instructions"))
                < prompt.indexOf(QStringLiteral("## /src/AGENTS.md")));
    }

    void findsFilesFromTopToRepository()
    {
        QTemporaryDir dir;
        const QString top = QFileInfo(dir.path()).canonicalFilePath();
        QVERIFY(writeFile(top + QStringLiteral("/AGENTS.md"), "top rules\n"));
        QVERIFY(writeFile(top + QStringLiteral("/work/CLAUDE.md"), "work rules\n"));
        QVERIFY(writeFile(top + QStringLiteral("/work/calc/AGENTS.md"), "calc agents\n"));
        QVERIFY(writeFile(top + QStringLiteral("/work/calc/CLAUDE.md"), "calc claude\n"));
        QVERIFY(writeFile(top + QStringLiteral("/work/calc/src/AGENTS.md"), "below: not read\n"));
        QVERIFY(writeFile(top + QStringLiteral("/work/other/AGENTS.md"), "sibling: not read\n"));

        const QList<InstructionFile> files = findInstructionFiles(top + QStringLiteral("/work/calc"),
                                                                  top);
        const QList<InstructionFile> expected{
            {top + QStringLiteral("/AGENTS.md"), QStringLiteral("top rules\n"), false},
            {top + QStringLiteral("/work/CLAUDE.md"), QStringLiteral("work rules\n"), false},
            {top + QStringLiteral("/work/calc/AGENTS.md"), QStringLiteral("calc agents\n"), false},
            {top + QStringLiteral("/work/calc/CLAUDE.md"), QStringLiteral("calc claude\n"), false},
        };
        QCOMPARE(files, expected);
    }

    void sameFileTakenOnce()
    {
        QTemporaryDir dir;
        const QString root = QFileInfo(dir.path()).canonicalFilePath();
        QVERIFY(writeFile(root + QStringLiteral("/AGENTS.md"), "one set of rules\n"));
        QVERIFY(
            QFile::link(root + QStringLiteral("/AGENTS.md"), root + QStringLiteral("/CLAUDE.md")));
        QVERIFY(writeFile(root + QStringLiteral("/sub/AGENTS.md"), "one set of rules\n"));
        QVERIFY(writeFile(root + QStringLiteral("/sub/CLAUDE.md"), "   \n"));

        const QList<InstructionFile> files = findInstructionFiles(root + QStringLiteral("/sub"),
                                                                  root);
        QCOMPARE(files.size(), 1);
        QCOMPARE(files.first().path, root + QStringLiteral("/AGENTS.md"));
    }

    void longFileCutAtLineEnd()
    {
        QTemporaryDir dir;
        const QString root = QFileInfo(dir.path()).canonicalFilePath();
        const QByteArray line(99, 'x');
        QByteArray content;
        while (content.size() <= maxInstructionFileBytes)
            content += line + '\n';
        QVERIFY(writeFile(root + QStringLiteral("/AGENTS.md"), content));

        const QList<InstructionFile> files = findInstructionFiles(root, root);
        QCOMPARE(files.size(), 1);
        QVERIFY(files.first().truncated);
        QVERIFY(files.first().text.size() <= maxInstructionFileBytes);
        QVERIFY(files.first().text.size() > maxInstructionFileBytes - 100);
        QVERIFY(files.first().text.endsWith(QLatin1String(line) + u'\n'));
    }

    void farthestLeftOutOverTotal()
    {
        QTemporaryDir dir;
        const QString top = QFileInfo(dir.path()).canonicalFilePath();
        // Each under the per-file cap; two fit in the total, three do not.
        const QByteArray big(maxInstructionBytes * 2 / 5, 'a');
        QVERIFY(writeFile(top + QStringLiteral("/AGENTS.md"), "far " + big));
        QVERIFY(writeFile(top + QStringLiteral("/a/AGENTS.md"), "middle " + big));
        QVERIFY(writeFile(top + QStringLiteral("/a/b/AGENTS.md"), "near " + big));

        const QList<InstructionFile> files = findInstructionFiles(top + QStringLiteral("/a/b"), top);
        QStringList paths;
        for (const InstructionFile &file : files)
            paths.append(file.path);
        QCOMPARE(paths,
                 (QStringList{top + QStringLiteral("/a/AGENTS.md"),
                              top + QStringLiteral("/a/b/AGENTS.md")}));
    }

    void gathersFromARealRepository()
    {
        QTemporaryDir dir;
        const QString root = QFileInfo(dir.path()).canonicalFilePath();
        QVERIFY(runGit(root,
                       {QStringLiteral("init"),
                        QStringLiteral("-q"),
                        QStringLiteral("-b"),
                        QStringLiteral("trunk")}));
        QVERIFY(writeFile(root + QStringLiteral("/AGENTS.md"), "Run ctest before you finish.\n"));
        QVERIFY(writeFile(root + QStringLiteral("/main.c"), "int main(void) { return 0; }\n"));

        const PromptEnvironment environment = gatherPromptEnvironment(root);
        QCOMPARE(environment.repositoryRoot, root);
        QVERIFY(environment.isGit);
        QCOMPARE(environment.gitHead, QStringLiteral("trunk"));
        QCOMPARE(environment.gitStatus,
                 (QStringList{QStringLiteral("?? AGENTS.md"), QStringLiteral("?? main.c")}));
        QCOMPARE(environment.today, QDate::currentDate());
        QVERIFY(!environment.operatingSystem.isEmpty());
        QVERIFY(!environment.instructions.isEmpty());
        QCOMPARE(environment.instructions.last().path, root + QStringLiteral("/AGENTS.md"));

        const QString prompt = buildSystemPrompt(root);
        QVERIFY(prompt.contains(QStringLiteral("Run ctest before you finish.")));
        QVERIFY(prompt.contains(QStringLiteral("    ?? main.c\n")));
    }

    // The context view shows the instruction files apart from the prompt that holds them.
    void assembledAgentNamesItsInstructions()
    {
        QTemporaryDir dir;
        const QString root = QFileInfo(dir.path()).canonicalFilePath();
        QVERIFY(writeFile(root + QStringLiteral("/CLAUDE.md"), "Never push to main.\n"));
        CodingAgentOptions options;
        options.repositoryRoot = root;
        const CodingAgent parts = CodingAgent::assemble(options);
        QCOMPARE(parts.instructions.size(), 1);
        QCOMPARE(parts.instructions.first().path, root + QStringLiteral("/CLAUDE.md"));
        QCOMPARE(parts.instructions.first().text, QStringLiteral("Never push to main.\n"));
        QVERIFY(parts.config.systemPrompt.contains(parts.instructions.first().text));

        // A prompt given instead: no file of it is known.
        options.systemPrompt = QStringLiteral("You are tested.");
        QVERIFY(CodingAgent::assemble(options).instructions.isEmpty());
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_SystemPrompt)

} // namespace tst_systemprompt

#include "tst_systemprompt.moc"
