#include <tools/unifieddiff.h>

#include <QElapsedTimer>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTest>

using AgentCore::UnifiedDiff;

namespace {

// Applies a unified diff to \a old the way patch does (strictly: context must match).
// Returns the new text, or "<reject>" when the diff does not apply.
QString apply(const QString &old, const QString &diff)
{
    QStringList oldLines = old.split(QLatin1Char('\n'));
    bool oldMissingNewline = !old.isEmpty() && !old.endsWith(QLatin1Char('\n'));
    if (!old.isEmpty() && !oldMissingNewline)
        oldLines.removeLast();
    if (old.isEmpty())
        oldLines.clear();
    QStringList out;
    bool newMissingNewline = oldMissingNewline;
    qsizetype position = 0; // next old line to copy
    const QStringList lines = diff.split(QLatin1Char('\n'));
    static const QRegularExpression header(
        QStringLiteral("^@@ -(\\d+)(?:,(\\d+))? \\+(\\d+)(?:,(\\d+))? @@$"));
    QChar lastKind;
    for (qsizetype i = 2; i < lines.size(); ++i) {
        const QString &line = lines[i];
        if (line.isEmpty() && i == lines.size() - 1)
            break;
        const QRegularExpressionMatch match = header.match(line);
        if (match.hasMatch()) {
            const qsizetype start = match.captured(1).toLongLong();
            const qsizetype count = match.captured(2).isEmpty() ? 1
                                                                : match.captured(2).toLongLong();
            const qsizetype first = count == 0 ? start : start - 1;
            if (first < position)
                return QStringLiteral("<reject>");
            while (position < first)
                out.append(oldLines.value(position++));
            continue;
        }
        if (line == QLatin1String("\\ No newline at end of file")) {
            if (lastKind == QLatin1Char('+') || lastKind == QLatin1Char(' '))
                newMissingNewline = true;
            continue;
        }
        lastKind = line.at(0);
        const QString text = line.mid(1);
        if (lastKind == QLatin1Char(' ') || lastKind == QLatin1Char('-')) {
            if (position >= oldLines.size() || oldLines[position] != text)
                return QStringLiteral("<reject>");
            ++position;
            if (lastKind == QLatin1Char(' '))
                out.append(text);
            if (lastKind == QLatin1Char('-') && position == oldLines.size())
                newMissingNewline = false;
        } else if (lastKind == QLatin1Char('+')) {
            out.append(text);
            newMissingNewline = false;
        }
    }
    while (position < oldLines.size())
        out.append(oldLines.value(position++));
    if (position == oldLines.size() && lastKind == QLatin1Char(' ')) {
        // unchanged tail keeps the old ending
    }
    QString result = out.join(QLatin1Char('\n'));
    if (!out.isEmpty() && !newMissingNewline)
        result += QLatin1Char('\n');
    return result;
}

QString randomText(QRandomGenerator &random, int lines, int vocabulary)
{
    QString text;
    for (int i = 0; i < lines; ++i)
        text += QStringLiteral("line %1\n").arg(random.bounded(vocabulary));
    return text;
}

QString mutate(QRandomGenerator &random, const QString &text, int edits)
{
    QStringList lines = text.split(QLatin1Char('\n'));
    lines.removeLast();
    for (int e = 0; e < edits; ++e) {
        const int at = lines.isEmpty() ? 0 : int(random.bounded(int(lines.size())));
        switch (random.bounded(3)) {
        case 0:
            lines.insert(at, QStringLiteral("new %1").arg(e));
            break;
        case 1:
            if (!lines.isEmpty())
                lines.removeAt(at);
            break;
        default:
            if (!lines.isEmpty())
                lines[at] = QStringLiteral("changed %1").arg(e);
        }
    }
    return lines.isEmpty() ? QString() : lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

} // namespace

class tst_UnifiedDiff : public QObject
{
    Q_OBJECT

private slots:
    void format_data()
    {
        QTest::addColumn<QString>("oldText");
        QTest::addColumn<QString>("newText");
        QTest::addColumn<QString>("expected");

        QTest::newRow("equal") << "a\nb\n"
                               << "a\nb\n"
                               << "";
        QTest::newRow("one line changed") << "a\nb\nc\n"
                                          << "a\nB\nc\n"
                                          << "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n";
        QTest::newRow("single line file") << "x\n"
                                          << "y\n"
                                          << "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-x\n+y\n";
        QTest::newRow("created") << ""
                                 << "a\nb\n"
                                 << "--- a/f\n+++ b/f\n@@ -0,0 +1,2 @@\n+a\n+b\n";
        QTest::newRow("emptied") << "a\n"
                                 << ""
                                 << "--- a/f\n+++ b/f\n@@ -1 +0,0 @@\n-a\n";
        QTest::newRow("newline added at end")
            << "a\nb"
            << "a\nb\n"
            << "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n";
        QTest::newRow("newline removed at end")
            << "a\nb\n"
            << "a\nb"
            << "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+b\n\\ No newline at end of file\n";
        QTest::newRow("both without newline, context")
            << "a\nb\nc"
            << "A\nb\nc"
            << "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n-a\n+A\n b\n c\n\\ No newline at end of file\n";
        QTest::newRow("insert after line 2, context 3")
            << "1\n2\n3\n4\n5\n6\n7\n8\n"
            << "1\n2\nx\n3\n4\n5\n6\n7\n8\n"
            << "--- a/f\n+++ b/f\n@@ -1,5 +1,6 @@\n 1\n 2\n+x\n 3\n 4\n 5\n";
        QTest::newRow("insertion into empty side mid-file")
            << "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"
            << "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n"
            << "--- a/f\n+++ b/f\n@@ -8,3 +8,4 @@\n 8\n 9\n 10\n+11\n";
        QTest::newRow("two hunks") << "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n"
                                   << "X\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\nY\n"
                                   << "--- a/f\n+++ b/f\n@@ -1,4 +1,4 @@\n-1\n+X\n 2\n 3\n 4\n"
                                      "@@ -12,4 +12,4 @@\n 12\n 13\n 14\n-15\n+Y\n";
        QTest::newRow("hunks 6 lines apart merge")
            << "1\n2\n3\n4\n5\n6\n7\n8\n"
            << "X\n2\n3\n4\n5\n6\n7\nY\n"
            << "--- a/f\n+++ b/f\n@@ -1,8 +1,8 @@\n-1\n+X\n 2\n 3\n 4\n 5\n 6\n 7\n-8\n+Y\n";
    }

    void format()
    {
        QFETCH(QString, oldText);
        QFETCH(QString, newText);
        QFETCH(QString, expected);
        const UnifiedDiff diff = UnifiedDiff::compute(oldText, newText);
        QCOMPARE(diff.toString(QStringLiteral("a/f"), QStringLiteral("b/f")), expected);
        QCOMPARE(diff.isEmpty(), expected.isEmpty());
        if (!expected.isEmpty())
            QCOMPARE(apply(oldText, expected), newText);
    }

    void counts()
    {
        const UnifiedDiff diff = UnifiedDiff::compute(QStringLiteral("a\nb\nc\n"),
                                                      QStringLiteral("a\nB\nC\nd\n"));
        QCOMPARE(diff.deletions(), 2);
        QCOMPARE(diff.additions(), 3);
        const QJsonObject json = diff.toJson(QStringLiteral("a/x"), QStringLiteral("b/x"));
        QCOMPARE(json.value(QLatin1String("additions")).toInt(), 3);
        QVERIFY(json.value(QLatin1String("diff")).toString().startsWith(QLatin1String("--- a/x\n")));
    }

    // Random edits: the diff always applies and gives the new text, and it is minimal
    // (deletions + additions equal the edit distance the LCS implies).
    void randomRoundTrip()
    {
        QRandomGenerator random(42);
        for (int round = 0; round < 300; ++round) {
            const QString before = randomText(random, int(random.bounded(40)), 8);
            const QString after = mutate(random, before, int(random.bounded(8)));
            const UnifiedDiff diff = UnifiedDiff::compute(before, after, int(random.bounded(4)));
            const QString text = diff.toString(QStringLiteral("a/f"), QStringLiteral("b/f"));
            QCOMPARE(apply(before, text), after);

            // LCS length by dynamic programming.
            const QStringList a = before.split(QLatin1Char('\n'));
            const QStringList b = after.split(QLatin1Char('\n'));
            std::vector<std::vector<int>> lcs(size_t(a.size()) + 1,
                                              std::vector<int>(size_t(b.size()) + 1));
            for (qsizetype i = a.size() - 1; i >= 0; --i)
                for (qsizetype j = b.size() - 1; j >= 0; --j)
                    lcs[size_t(i)][size_t(j)] = a[i] == b[j]
                                                    ? lcs[size_t(i + 1)][size_t(j + 1)] + 1
                                                    : std::max(lcs[size_t(i + 1)][size_t(j)],
                                                               lcs[size_t(i)][size_t(j + 1)]);
            const int common = lcs[0][0] - 1; // both end with the same empty "line"
            QCOMPARE(diff.deletions(), int(a.size() - 1) - common);
            QCOMPARE(diff.additions(), int(b.size() - 1) - common);
        }
    }

    void largeFilesAreFast_data()
    {
        QTest::addColumn<int>("edits");
        QTest::addColumn<bool>("rewrite");
        QTest::newRow("10k lines, 50 edits") << 50 << false;
        QTest::newRow("10k lines, 2000 edits") << 2000 << false;
        QTest::newRow("10k lines, all different") << 0 << true;
    }

    void largeFilesAreFast()
    {
        QFETCH(int, edits);
        QFETCH(bool, rewrite);
        QRandomGenerator random(7);
        // Repetitive lines (braces, blank lines) are what makes diffs slow.
        QString before;
        for (int i = 0; i < 10000; ++i)
            before += i % 3 == 0 ? QStringLiteral("}\n") : QStringLiteral("code %1\n").arg(i);
        QString after = rewrite ? QString(before)
                                      .replace(QStringLiteral("code"), QStringLiteral("text"))
                                      .replace(QStringLiteral("}"), QStringLiteral("{"))
                                : mutate(random, before, edits);
        QElapsedTimer timer;
        timer.start();
        const UnifiedDiff diff = UnifiedDiff::compute(before, after);
        const QString text = diff.toString(QStringLiteral("a/f"), QStringLiteral("b/f"));
        const qint64 elapsed = timer.elapsed();
        QVERIFY2(elapsed < 1000, qPrintable(QStringLiteral("took %1 ms").arg(elapsed)));
        QCOMPARE(apply(before, text), after);
    }
};

QTEST_GUILESS_MAIN(tst_UnifiedDiff)
#include "tst_unifieddiff.moc"
