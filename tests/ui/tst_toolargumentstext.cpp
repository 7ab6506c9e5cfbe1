// A tool call's arguments as the review and the card show them (issue #34, item 3): all of
// them, indented, and bounded and escaped whatever an MCP server or the model put in them.
#include <common/toolargumentstext.h>
#include <testmain.h>

#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

namespace tst_toolargumentstext {

using Ui::ToolArgumentsText;

class tst_ToolArgumentsText : public QObject
{
    Q_OBJECT

private slots:
    void indentsEveryKindOfValue()
    {
        const QJsonObject arguments{{"path", "a\"b\\c\nd"},
                                    {"count", 3},
                                    {"ratio", 0.1},
                                    {"on", true},
                                    {"none", QJsonValue::Null},
                                    {"list", QJsonArray{1, "two"}},
                                    {"empty", QJsonObject{}}};
        QCOMPARE(ToolArgumentsText::format(arguments),
                 QStringLiteral("{\n"
                                "  \"count\": 3,\n"
                                "  \"empty\": {},\n"
                                "  \"list\": [\n"
                                "    1,\n"
                                "    \"two\"\n"
                                "  ],\n"
                                "  \"none\": null,\n"
                                "  \"on\": true,\n"
                                "  \"path\": \"a\\\"b\\\\c\\nd\",\n"
                                "  \"ratio\": 0.1\n"
                                "}"));
        QCOMPARE(ToolArgumentsText::format({}), QStringLiteral("{}"));
    }

    // A right-to-left override would show "txt.exe" as "exe.txt"; a zero-width space and an
    // escape sequence hide in plain sight: each is shown as what it is.
    void invisibleCharactersAreEscaped()
    {
        const QJsonObject arguments{
            {QStringLiteral("fi\u200Ble"), QStringLiteral("rm\u202Etxt.exe\x1b[2J")}};
        QCOMPARE(ToolArgumentsText::format(arguments),
                 QStringLiteral("{\n  \"fi\\u200ble\": \"rm\\u202etxt.exe\\u001b[2J\"\n}"));
    }

    void hostileSizesAreBounded()
    {
        // Nesting: cut at maxDepth, saying so.
        QJsonValue nested = QJsonObject{{"bottom", 1}};
        for (int i = 0; i < 40; ++i)
            nested = QJsonObject{{"in", nested}};
        const QString deep = ToolArgumentsText::format(nested.toObject());
        QVERIFY2(deep.contains("nested too deep to show"), qPrintable(deep));
        QVERIFY(!deep.contains("bottom"));
        QVERIFY(deep.count('\n') < 2 * ToolArgumentsText::maxDepth + 2);

        // Members: the first maxMembers, then how many more.
        QJsonArray many;
        for (int i = 0; i < 1000; ++i)
            many.append(i);
        const QString list = ToolArgumentsText::format({{"many", many}});
        QVERIFY2(list.contains(
                     QStringLiteral("%1 more item").arg(1000 - ToolArgumentsText::maxMembers)),
                 qPrintable(list));
        QVERIFY(!list.contains(QStringLiteral("\n    999")));

        // A long string: its start, then how much more.
        const QString text = ToolArgumentsText::format(
            {{"text", QString(ToolArgumentsText::maxStringChars + 500, QLatin1Char('x'))}});
        QVERIFY2(text.contains("[500 more character"), qPrintable(text.right(80)));
        QVERIFY(text.size() < ToolArgumentsText::maxStringChars + 100);

        // Lines: many members each holding many members.
        QJsonObject wide;
        for (int i = 0; i < 40; ++i)
            wide.insert(QStringLiteral("k%1").arg(i, 2, 10, QLatin1Char('0')), many);
        const QString lines = ToolArgumentsText::format(wide);
        QCOMPARE(lines.count('\n'), ToolArgumentsText::maxLines);
        QVERIFY2(lines.contains("more line") && lines.endsWith("not shown"),
                 qPrintable(lines.right(80)));
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_ToolArgumentsText)

} // namespace tst_toolargumentstext

#include "tst_toolargumentstext.moc"
