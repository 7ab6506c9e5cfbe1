#include "../tools/toolstest.h"

#include <permissions/partialchange.h>
#include <testmain.h>
#include <tools/codingtools.h>

#include <QTest>

using namespace AgentCore;

namespace tst_partialchange {

namespace {

// Lines first..last ("line N"), the \a changed ones upper-cased, each ending as \a eolOf says.
QByteArray lines(int first,
                 int last,
                 const QList<int> &changed = {},
                 const std::function<QByteArray(int)> &eolOf = {})
{
    QByteArray text;
    for (int i = first; i <= last; ++i)
        text += (changed.contains(i) ? "LINE " : "line ") + QByteArray::number(i)
                + (eolOf ? eolOf(i) : QByteArray("\n"));
    return text;
}

} // namespace

/// A reviewer who keeps only some hunks gets exactly the file they kept, or nothing: when the
/// tool cannot write the kept hunks byte for byte (line endings it would normalise, bytes that
/// are not UTF-8), the partial change is refused and the file is left as it was.
class TestPartialChange : public QObject
{
    Q_OBJECT
private slots:
    void partialWriteIsRefusedWhereTheToolCannotWriteTheKeptBytes_data();
    void partialWriteIsRefusedWhereTheToolCannotWriteTheKeptBytes();
    void partialWriteOfAPlainFileGoesThrough();

private:
    struct Attempt
    {
        QByteArray before;
        PartialChange::Rewrite rewrite;
    };
    static Attempt rejectSecondHunk(const ToolsTest::Repo &repo, const QByteArray &file);
};

TestPartialChange::Attempt TestPartialChange::rejectSecondHunk(const ToolsTest::Repo &repo,
                                                               const QByteArray &file)
{
    Attempt attempt;
    attempt.before = file;
    if (!repo.write(QStringLiteral("t.txt"), file))
        return attempt;
    // The tools change only files read in this session.
    for (const AgentToolPtr &tool : CodingTools::create(repo.workspace())) {
        if (tool->kind() == ToolKind::Read)
            ToolsTest::call(*tool, {{"file_path", "t.txt"}});
    }
    // What the reviewer saw: the file's text with LF line ends, and the model's new content.
    const QString oldText = QString::fromUtf8(file).replace(QLatin1String("\r\n"),
                                                            QLatin1String("\n"));
    QString newText = oldText;
    newText.replace(QLatin1String("line 2\n"), QLatin1String("LINE 2\n"));
    newText.replace(QLatin1String("line 8\n"), QLatin1String("LINE 8\n"));

    PermissionRequest request;
    request.toolName = QStringLiteral("Write");
    request.arguments = {{"file_path", "t.txt"}, {"content", newText}};
    request.filePath = repo.path(QStringLiteral("t.txt"));
    request.displayPath = QStringLiteral("t.txt");
    request.oldText = oldText;
    request.newText = newText;
    request.diff = UnifiedDiff::compute(oldText, newText, 0);
    PermissionAnswer answer;
    answer.choice = PermissionAnswer::Choice::AllowOnce;
    answer.rejectedHunks = {1};
    attempt.rewrite = PartialChange::of(request, answer).rewrite(*repo.workspace());
    return attempt;
}

void TestPartialChange::partialWriteIsRefusedWhereTheToolCannotWriteTheKeptBytes_data()
{
    QTest::addColumn<QByteArray>("file");
    QTest::newRow("mixed line endings")
        << lines(1, 10, {}, [](int i) { return i % 2 ? QByteArray("\r\n") : QByteArray("\n"); });
    QByteArray latin1 = lines(1, 10);
    latin1.replace("line 3\n", "caf\xe9 3\n"); // Latin-1, not UTF-8, next to a changed line
    QTest::newRow("not UTF-8") << latin1;
}

void TestPartialChange::partialWriteIsRefusedWhereTheToolCannotWriteTheKeptBytes()
{
    QFETCH(QByteArray, file);
    ToolsTest::Repo repo;
    QVERIFY(repo.isValid());
    const Attempt attempt = rejectSecondHunk(repo, file);
    QVERIFY2(attempt.rewrite.refused, "a partial change the tool cannot write exactly went on");
    const QString text = attempt.rewrite.refused->text();
    QVERIFY(attempt.rewrite.refused->isError);
    QVERIFY2(text.contains(QLatin1String("t.txt")), qPrintable(text));
    QVERIFY2(text.startsWith(QLatin1String("Nothing was written")), qPrintable(text));
    QVERIFY2(text.contains(QLatin1String("has mixed line endings or bytes that are not UTF-8")),
             qPrintable(text));
    QCOMPARE(repo.read(QStringLiteral("t.txt")), attempt.before);
}

void TestPartialChange::partialWriteOfAPlainFileGoesThrough()
{
    ToolsTest::Repo repo;
    QVERIFY(repo.isValid());
    const Attempt attempt = rejectSecondHunk(repo, lines(1, 10));
    QVERIFY2(!attempt.rewrite.refused,
             qPrintable(attempt.rewrite.refused.value_or(ToolResult()).text()));
    QCOMPARE(attempt.rewrite.arguments.value(QLatin1String("content")).toString(),
             QString::fromUtf8(lines(1, 10, {2})));
}

AGENTDESK_GUILESS_TEST_MAIN(TestPartialChange)

} // namespace tst_partialchange

#include "tst_partialchange.moc"
