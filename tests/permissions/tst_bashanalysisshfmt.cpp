// The Bash command analysis with shfmt, a program of its own: where it is missing, fails, prints
// garbage or hangs, the built-in parser takes over (and the failure is not remembered); a command
// is parsed once for the permission check and the checkpoints. Fake shfmt scripts play the
// failures; the real one (when on PATH) the rest. The analysis itself: tst_bashanalysis.cpp.

#include "bashanalysischeck.h"

#include <permissions/bashanalysis.h>
#include <permissions/shfmtparser.h>
#include <testmain.h>

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace AgentCore;
namespace tst_bashanalysisshfmt {

using TestSupport::commandTexts;
using TestSupport::riskCodes;

class tst_BashAnalysisShfmt : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();

    void fallsBackWhenShfmtCannotRun_data();
    void fallsBackWhenShfmtCannotRun();
    void shfmtSyntaxErrorIsNotUnderstood();
    void shfmtTimeoutFallsBack();
    void shfmtParsesACommandOnce();
    void shfmtFailureIsNotRemembered();

private:
    QString fakeShfmt(const QByteArray &script);

    QTemporaryDir m_repository;
    QTemporaryDir m_elsewhere;
    QTemporaryDir m_tools;
    QString m_root;
    QString m_shfmt;
};

void tst_BashAnalysisShfmt::initTestCase()
{
    QVERIFY(m_repository.isValid() && m_elsewhere.isValid() && m_tools.isValid());
    m_root = QFileInfo(m_repository.path()).canonicalFilePath();
    m_shfmt = BashAnalyzer::findShfmt();
}

QString tst_BashAnalysisShfmt::fakeShfmt(const QByteArray &script)
{
    static int count = 0;
    const QString path = m_tools.filePath(QStringLiteral("shfmt%1").arg(++count));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write("#!/bin/sh\n" + script) < 0)
        return {};
    file.close();
    file.setPermissions(file.permissions() | QFile::ExeOwner);
    return path;
}

void tst_BashAnalysisShfmt::fallsBackWhenShfmtCannotRun_data()
{
    QTest::addColumn<QByteArray>("script");

    QTest::newRow("missing") << QByteArray();
    QTest::newRow("garbage output") << QByteArray("echo 'not json'\n");
    QTest::newRow("other json") << QByteArray("echo '{\"Type\": \"Nope\"}'\n");
    QTest::newRow("unknown flag") << QByteArray(
        "echo 'flag provided but not defined' >&2\nexit 2\n");
    QTest::newRow("crash") << QByteArray("kill -9 $$\n");
}

void tst_BashAnalysisShfmt::fallsBackWhenShfmtCannotRun()
{
    QFETCH(QByteArray, script);
    const QString shfmt = script.isEmpty() ? m_tools.filePath(QStringLiteral("missing-shfmt"))
                                           : fakeShfmt(script);
    QVERIFY(!shfmt.isEmpty());
    const BashAnalyzer analyzer(m_root, shfmt);
    QVERIFY(analyzer.usesShfmt());
    const BashAnalysis analysis = analyzer.analyze(QStringLiteral("git status; rm -rf x"));
    QCOMPARE(analysis.parser, QStringLiteral("builtin"));
    QVERIFY(analysis.understood);
    QCOMPARE(commandTexts(analysis), (QStringList{"git status", "rm -rf x"}));
    QCOMPARE(riskCodes(analysis), QStringLiteral("deletes@1"));
}

void tst_BashAnalysisShfmt::shfmtSyntaxErrorIsNotUnderstood()
{
    if (m_shfmt.isEmpty())
        QSKIP("shfmt is not on PATH");
    const BashAnalysis analysis = BashAnalyzer(m_root, m_shfmt).analyze(QStringLiteral("ls &&"));
    QCOMPARE(analysis.parser, QStringLiteral("shfmt"));
    QVERIFY(!analysis.understood);
    QVERIFY2(analysis.problem.contains(QStringLiteral("line 1")), qPrintable(analysis.problem));

    // Unsupported constructs still list what runs inside, for the review.
    const BashAnalysis loop = BashAnalyzer(m_root, m_shfmt)
                                  .analyze(QStringLiteral("for f in *; do rm \"$f\"; done"));
    QVERIFY(!loop.understood);
    QVERIFY2(loop.problem.contains(QStringLiteral("for/while")), qPrintable(loop.problem));
    QCOMPARE(commandTexts(loop), QStringList{QStringLiteral("rm \"$f\"")});
    QCOMPARE(riskCodes(loop), QStringLiteral("deletes@0 writes@0")); // "$f" may be anywhere
}

void tst_BashAnalysisShfmt::shfmtTimeoutFallsBack()
{
    const QString shfmt = fakeShfmt("exec sleep 20\n");
    QVERIFY(!shfmt.isEmpty());
    QElapsedTimer timer;
    timer.start();
    QVERIFY(!ShfmtParser::parse(shfmt, QStringLiteral("ls"), 300).has_value());
    QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed())));
}

// A tool call is analysed by the permission check and again by the checkpoints: shfmt (a
// process start each time) parses a command once; the classification still looks at the
// file system as it is now.
void tst_BashAnalysisShfmt::shfmtParsesACommandOnce()
{
    if (m_shfmt.isEmpty())
        QSKIP("shfmt is not on PATH");
    const QString runs = m_tools.filePath(QStringLiteral("runs.txt"));
    const QString shfmt = fakeShfmt(QByteArray("echo run >> '") + runs.toUtf8() + "'\nexec '"
                                    + m_shfmt.toUtf8() + "' \"$@\"\n");
    QVERIFY(!shfmt.isEmpty());
    const auto count = [&runs] {
        QFile file(runs);
        return file.open(QIODevice::ReadOnly) ? file.readAll().count("run") : 0;
    };
    const BashAnalyzer analyzer(m_root, shfmt);
    const BashAnalyzer copy = analyzer; // the checkpoints hold the same analyzer
    const QString command = QStringLiteral("git diff --stat && echo done > later/out.txt");
    const BashAnalysis first = analyzer.analyze(command);
    QCOMPARE(first.parser, QStringLiteral("shfmt"));
    QVERIFY(first.understood);
    QVERIFY(first.risks.isEmpty());
    QCOMPARE(count(), 1);

    // later/ becomes a link out of the repository: the same text, another verdict, no parse.
    const QString later = m_root + QStringLiteral("/later");
    QVERIFY(QFile::link(m_elsewhere.path(), later));
    const BashAnalysis second = copy.analyze(command);
    QFile::remove(later);
    QCOMPARE(second.parser, QStringLiteral("shfmt"));
    QCOMPARE(commandTexts(second), commandTexts(first));
    QCOMPARE(riskCodes(second), QStringLiteral("writes@1"));
    QCOMPARE(count(), 1);

    QCOMPARE(commandTexts(analyzer.analyze(QStringLiteral("ls -la"))), QStringList{"ls -la"});
    QCOMPARE(count(), 2);
}

// A shfmt that failed is asked again next time (it may have been a passing hiccup).
void tst_BashAnalysisShfmt::shfmtFailureIsNotRemembered()
{
    const QString runs = m_tools.filePath(QStringLiteral("failed-runs.txt"));
    const QString shfmt = fakeShfmt(QByteArray("echo run >> '") + runs.toUtf8()
                                    + "'\necho 'not json'\n");
    QVERIFY(!shfmt.isEmpty());
    const BashAnalyzer analyzer(m_root, shfmt);
    QCOMPARE(analyzer.analyze(QStringLiteral("ls")).parser, QStringLiteral("builtin"));
    QCOMPARE(analyzer.analyze(QStringLiteral("ls")).parser, QStringLiteral("builtin"));
    QFile file(runs);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll().count("run"), 2);
}

AGENTDESK_GUILESS_TEST_MAIN(tst_BashAnalysisShfmt)

} // namespace tst_bashanalysisshfmt

#include "tst_bashanalysisshfmt.moc"
