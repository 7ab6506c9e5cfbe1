#include <testmain.h>
#include <tools/unifieddiff.h>

#include <QElapsedTimer>
#include <QMap>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTest>

namespace tst_unifieddiff {

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

// "1\n2\n...\ncount\n" with the lines in \a changes replaced (an empty replacement drops
// the line) and \a inserted lines put before the given line numbers.
QString numbered(int count,
                 const QMap<int, QString> &changes = {},
                 const QMap<int, QString> &inserted = {})
{
    QString text;
    for (int i = 1; i <= count; ++i) {
        if (inserted.contains(i))
            text += inserted.value(i);
        const QString line = changes.value(i, QString::number(i) + QLatin1Char('\n'));
        text += line;
    }
    return text;
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

    void applyHunks_data()
    {
        QTest::addColumn<QString>("oldText");
        QTest::addColumn<QString>("newText");
        QTest::addColumn<QList<int>>("rejected");
        QTest::addColumn<QString>("expected");

        // Three hunks: line 1, line 10, line 20 of 20.
        const QString old = numbered(20);
        const QString three = numbered(20, {{1, "one\n"}, {10, "ten\n"}, {20, "twenty\n"}});
        QTest::newRow("nothing rejected") << old << three << QList<int>() << three;
        QTest::newRow("first rejected")
            << old << three << QList<int>{0} << numbered(20, {{10, "ten\n"}, {20, "twenty\n"}});
        QTest::newRow("middle rejected")
            << old << three << QList<int>{1} << numbered(20, {{1, "one\n"}, {20, "twenty\n"}});
        QTest::newRow("last rejected")
            << old << three << QList<int>{2} << numbered(20, {{1, "one\n"}, {10, "ten\n"}});
        QTest::newRow("all but one")
            << old << three << QList<int>{2, 0} << numbered(20, {{10, "ten\n"}});
        QTest::newRow("all rejected") << old << three << QList<int>{0, 1, 2} << old;
        QTest::newRow("unknown indexes ignored") << old << three << QList<int>{-1, 3} << three;

        // Hunks that change the line count: later hunks must land where they belong.
        const QString thirty = numbered(30);
        const QString shifted = numbered(30, {{3, ""}, {25, "25!\n"}}, {{14, "a\nb\nc\n"}});
        QTest::newRow("deletion rejected, insertion and change kept")
            << thirty << shifted << QList<int>{0}
            << numbered(30, {{25, "25!\n"}}, {{14, "a\nb\nc\n"}});
        QTest::newRow("insertion rejected")
            << thirty << shifted << QList<int>{1} << numbered(30, {{3, ""}, {25, "25!\n"}});
        QTest::newRow("change rejected")
            << thirty << shifted << QList<int>{2} << numbered(30, {{3, ""}}, {{14, "a\nb\nc\n"}});

        // Changes 8 lines apart: the two hunks share no line, one line lies between them.
        const QString adjacent = numbered(20, {{5, "five\n"}, {13, "thirteen\n"}});
        QTest::newRow("adjacent hunks, first rejected")
            << old << adjacent << QList<int>{0} << numbered(20, {{13, "thirteen\n"}});
        QTest::newRow("adjacent hunks, second rejected")
            << old << adjacent << QList<int>{1} << numbered(20, {{5, "five\n"}});

        QString crlfOld = old;
        crlfOld.replace(QLatin1String("\n"), QLatin1String("\r\n"));
        QString crlfNew = three;
        crlfNew.replace(QLatin1String("\n"), QLatin1String("\r\n"));
        QString crlfExpected = numbered(20, {{1, "one\n"}, {20, "twenty\n"}});
        crlfExpected.replace(QLatin1String("\n"), QLatin1String("\r\n"));
        QTest::newRow("CRLF") << crlfOld << crlfNew << QList<int>{1} << crlfExpected;

        // The last line has no newline; the change there is the last hunk.
        const QString bare = numbered(20, {{20, "20"}});
        const QString bareChanged = numbered(20, {{1, "one\n"}, {20, "twenty"}});
        QTest::newRow("no final newline, last hunk rejected")
            << bare << bareChanged << QList<int>{1} << numbered(20, {{1, "one\n"}, {20, "20"}});
        QTest::newRow("no final newline, last hunk kept")
            << bare << bareChanged << QList<int>{0} << numbered(20, {{20, "twenty"}});
        QTest::newRow("final newline added, rejected")
            << bare << numbered(20, {{1, "one\n"}}) << QList<int>{1}
            << numbered(20, {{1, "one\n"}, {20, "20"}});
        QTest::newRow("final newline removed, kept")
            << old << numbered(20, {{1, "one\n"}, {20, "20"}}) << QList<int>{0}
            << numbered(20, {{20, "20"}});

        QTest::newRow("new file, kept") << ""
                                        << "a\nb" << QList<int>() << "a\nb";
        QTest::newRow("new file, rejected") << ""
                                            << "a\nb\n"
                                            << QList<int>{0} << "";
        QTest::newRow("everything deleted, kept") << "a\nb\n"
                                                  << "" << QList<int>() << "";
        QTest::newRow("everything deleted, rejected") << "a\nb\n"
                                                      << "" << QList<int>{0} << "a\nb\n";
    }

    void applyHunks()
    {
        QFETCH(QString, oldText);
        QFETCH(QString, newText);
        QFETCH(QList<int>, rejected);
        QFETCH(QString, expected);
        QCOMPARE(UnifiedDiff::applyHunks(oldText, newText, rejected), expected);
        // The rows reject hunks that exist (but one): hunks that merged would test nothing.
        const qsizetype hunks = UnifiedDiff::compute(oldText, newText).hunks().size();
        if (QLatin1String(QTest::currentDataTag()) != QLatin1String("unknown indexes ignored")) {
            for (const int index : std::as_const(rejected))
                QVERIFY2(index < hunks, qPrintable(QString::number(hunks)));
        }
    }

    // The permission middleware computes the hunks on the LF text the reviewer saw and
    // splices the file's own bytes: CR, a lone LF among CRLFs and invalid UTF-8 survive.
    void applyKeepsTheBytesOfOtherTexts()
    {
        const QByteArray oldBytes("1\r\n2\n3\xff\r\n4\r\n5\r\n6\r\n7\r\n8\r\n9\r\n10\r\n");
        const QByteArray newBytes("one\r\n2\n3\xff\r\n4\r\n5\r\n6\r\n7\r\n8\r\n9\r\nten\r\n");
        const auto lf = [](QByteArray bytes) {
            return QString::fromUtf8(bytes.replace("\r\n", "\n"));
        };
        const UnifiedDiff diff = UnifiedDiff::compute(lf(oldBytes), lf(newBytes));
        QCOMPARE(diff.hunks().size(), 2);
        const QByteArray partial = diff.apply(QString::fromLatin1(oldBytes),
                                              QString::fromLatin1(newBytes),
                                              {1})
                                       .toLatin1();
        QCOMPARE(partial, QByteArray("one\r\n2\n3\xff\r\n4\r\n5\r\n6\r\n7\r\n8\r\n9\r\n10\r\n"));
    }

    void hunkToString()
    {
        const UnifiedDiff diff = UnifiedDiff::compute(numbered(20),
                                                      numbered(20, {{1, "one\n"}, {20, "x"}}));
        QCOMPARE(diff.hunkToString(0), QStringLiteral("@@ -1,4 +1,4 @@\n-1\n+one\n 2\n 3\n 4\n"));
        QCOMPARE(diff.hunkToString(1),
                 QStringLiteral("@@ -17,4 +17,4 @@\n 17\n 18\n 19\n-20\n+x\n"
                                "\\ No newline at end of file\n"));
        QCOMPARE(diff.hunkToString(2), QString());
        QCOMPARE(diff.toString(QStringLiteral("a"), QStringLiteral("b")),
                 QStringLiteral("--- a\n+++ b\n") + diff.hunkToString(0) + diff.hunkToString(1));
    }

    // Any subset of hunks: the untouched lines stay, each kept hunk changes the line count
    // by its own difference, and no subset / every hunk gives the new / old text.
    void applyRandomSubsets()
    {
        QRandomGenerator random(11);
        for (int round = 0; round < 300; ++round) {
            const QString before = randomText(random, int(random.bounded(60)), 12);
            const QString after = mutate(random, before, int(random.bounded(10)));
            const UnifiedDiff diff = UnifiedDiff::compute(before, after);
            QList<int> all;
            QList<int> rejected;
            qsizetype expectedLines = before.count(QLatin1Char('\n'));
            for (int i = 0; i < diff.hunks().size(); ++i) {
                all.append(i);
                if (random.bounded(2))
                    rejected.append(i);
                else
                    expectedLines += diff.hunks()[i].newCount - diff.hunks()[i].oldCount;
            }
            QCOMPARE(diff.apply(before, after, {}), after);
            QCOMPARE(diff.apply(before, after, all), before);
            const QString partial = diff.apply(before, after, rejected);
            QCOMPARE(partial.count(QLatin1Char('\n')), expectedLines);
            // The rejected hunks' lines are an edit script from the partial text to the new
            // one, so a minimal diff between them is no longer.
            int rejectedChanges = 0;
            for (const int i : std::as_const(rejected)) {
                for (const QString &line : diff.hunks()[i].lines)
                    rejectedChanges += line.startsWith(QLatin1Char('+'))
                                       || line.startsWith(QLatin1Char('-'));
            }
            const UnifiedDiff rest = UnifiedDiff::compute(partial, after);
            QVERIFY(rest.additions() + rest.deletions() <= rejectedChanges);
            QCOMPARE(rest.isEmpty(), rejectedChanges == 0);
        }
    }

    void counts()
    {
        const UnifiedDiff diff = UnifiedDiff::compute(QStringLiteral("a\nb\nc\n"),
                                                      QStringLiteral("a\nB\nC\nd\n"));
        QCOMPARE(diff.deletions(), 2);
        QCOMPARE(diff.additions(), 3);
        const QJsonObject json = diff.toDetails(QStringLiteral("a/x"), QStringLiteral("b/x"))
                                     .toJson();
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

AGENTDESK_GUILESS_TEST_MAIN(tst_UnifiedDiff)

} // namespace tst_unifieddiff

#include "tst_unifieddiff.moc"
