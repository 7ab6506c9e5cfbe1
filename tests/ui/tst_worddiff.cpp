#include <review/worddiff.h>
#include <testmain.h>

#include <QTest>

namespace tst_worddiff {

using Range = Ui::WordDiff::Range;
using Ranges = QList<Range>;

namespace {

// "a[bc]d" -> the bracketed ranges, so the expectations read like the marked line.
Ranges marked(const QString &pattern)
{
    Ranges ranges;
    int offset = 0;
    int start = -1;
    for (int i = 0; i < pattern.size(); ++i) {
        if (pattern.at(i) == QLatin1Char('[')) {
            start = i - offset;
            ++offset;
        } else if (pattern.at(i) == QLatin1Char(']')) {
            ranges.append({start, i - offset - start});
            ++offset;
        }
    }
    return ranges;
}

QString unmarked(QString pattern)
{
    return pattern.remove(QLatin1Char('[')).remove(QLatin1Char(']'));
}

} // namespace

class tst_WordDiff : public QObject
{
    Q_OBJECT

private slots:
    void marksChangedWords_data()
    {
        QTest::addColumn<QString>("oldLine");
        QTest::addColumn<QString>("newLine");
        QTest::addColumn<bool>("useful");
        QTest::newRow("identical") << "int a = 1;"
                                   << "int a = 1;" << true;
        QTest::newRow("number") << "int a = [1];"
                                << "int a = [2];" << true;
        QTest::newRow("identifier") << "return [foo](x);"
                                    << "return [bar](x);" << true;
        QTest::newRow("argument added") << "call(a);"
                                        << "call(a[, b]);" << true;
        QTest::newRow("word removed") << "if (a && [b && ]c)"
                                      << "if (a && c)" << true;
        QTest::newRow("neighbours merge") << "x = [old value];"
                                          << "x = [new thing];" << true;
        QTest::newRow("indentation") << "[    ]foo();"
                                     << "[  ]foo();" << true;
        QTest::newRow("rewritten") << "[alpha beta gamma]"
                                   << "[one two three]" << false;
        QTest::newRow("from empty") << ""
                                    << "[text]" << false;
    }

    void marksChangedWords()
    {
        QFETCH(QString, oldLine);
        QFETCH(QString, newLine);
        QFETCH(bool, useful);
        const Ui::WordDiff diff = Ui::WordDiff::compute(unmarked(oldLine), unmarked(newLine));
        QCOMPARE(diff.oldRanges(), marked(oldLine));
        QCOMPARE(diff.newRanges(), marked(newLine));
        QCOMPARE(diff.isUseful(), useful);
    }

    void splitsIntoWordsSpacesAndSymbols()
    {
        const QString line = QStringLiteral("foo_bar1  (x)->y");
        QStringList words;
        for (const Range &range : Ui::WordDiff::split(line))
            words.append(line.mid(range.start, range.length));
        QCOMPARE(words, QStringList({"foo_bar1", "  ", "(", "x", ")", "-", ">", "y"}));
    }

    void veryLongLineIsMarkedWhole()
    {
        QString oldLine;
        for (int i = 0; i < Ui::WordDiff::maximumWords; ++i)
            oldLine += QStringLiteral("w%1 ").arg(i);
        const QString newLine = oldLine + QStringLiteral("tail");
        const Ui::WordDiff diff = Ui::WordDiff::compute(oldLine, newLine);
        QCOMPARE(diff.oldRanges(), Ranges({{0, int(oldLine.size())}}));
        QCOMPARE(diff.newRanges(), Ranges({{0, int(newLine.size())}}));
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_WordDiff)

} // namespace tst_worddiff

#include "tst_worddiff.moc"
