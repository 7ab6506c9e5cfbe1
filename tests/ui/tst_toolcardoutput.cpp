#include <conversation/conversationstyle.h>
#include <conversation/toolcarditem.h>
#include <testmain.h>

#include <loop/agenttypes.h>

#include <QApplication>
#include <QBuffer>
#include <QImage>
#include <QJsonObject>
#include <QPainter>
#include <QTest>

namespace tst_toolcardoutput {

using Ui::ToolCardItem;

namespace {

Ui::ConversationStyle appStyle()
{
    return Ui::ConversationStyle(QApplication::palette(), QApplication::font());
}

// The helpers serve the colouring test, which needs KSyntaxHighlighting (not in the Qt 6.4 build).
/// The output of a finished call's card, painted at 600 pixels: the card without its header
/// (which names the file).
[[maybe_unused]] QImage paintCard(ToolCardItem &card)
{
    const Ui::ConversationStyle style = appStyle();
    const int height = card.layout(600, style);
    QImage image(600, height, QImage::Format_ARGB32_Premultiplied);
    image.fill(style.assistantBubble);
    QPainter painter(&image);
    card.paint(&painter, image.rect(), style, 0);
    painter.end();
    const int header = style.padding + qMax(14, style.bodyMetrics.height()) + style.spacing;
    return image.copy(0, header, image.width(), image.height() - header);
}

/// Read's output: the lines numbered, each number as wide as the largest.
[[maybe_unused]] QString numbered(const QStringList &lines)
{
    QString text;
    const int width = int(QString::number(lines.size()).size());
    for (int i = 0; i < lines.size(); ++i)
        text += QStringLiteral("%1\t%2\n").arg(i + 1, width).arg(lines.at(i));
    return text;
}

} // namespace

/// What a tool card shows of a call's output: Read's code coloured like a code block, and
/// Glob's and Grep's counts that agree with what "show all" shows.
class tst_ToolCardOutput : public QObject
{
    Q_OBJECT

private slots:
    // The same lines read from a C++ file and from a file of no known language: the C++ card
    // paints them in colours, the other in the text colour only.
    void readOutputIsColouredByTheFilesLanguage()
    {
#ifndef AGENTDESK_HAVE_SYNTAX_HIGHLIGHTING
        QSKIP("built without KSyntaxHighlighting");
#else
        const QString output = numbered({QStringLiteral("// Adds two numbers."),
                                         QStringLiteral("int add(int a, int b)"),
                                         QStringLiteral("{"),
                                         QStringLiteral("    return a + b; // \"sum\""),
                                         QStringLiteral("}")});
        ToolCardItem cpp(QStringLiteral("r1"), QStringLiteral("Read"));
        cpp.setArguments({{QStringLiteral("file_path"), QStringLiteral("src/calc.cpp")}});
        cpp.setResult(AgentCore::ToolResult::makeText(output), 0);
        ToolCardItem plain(QStringLiteral("r2"), QStringLiteral("Read"));
        plain.setArguments({{QStringLiteral("file_path"), QStringLiteral("src/calc.zzq")}});
        plain.setResult(AgentCore::ToolResult::makeText(output), 0);
        QCOMPARE(cpp.outputText(), plain.outputText()); // the same text, only coloured
        const QImage coloured = paintCard(cpp);
        const QImage uncoloured = paintCard(plain);
        QCOMPARE(coloured.size(), uncoloured.size());
        QVERIFY(coloured != uncoloured);

        // Another tool's output with the same text stays plain.
        ToolCardItem bash(QStringLiteral("b1"), QStringLiteral("Bash"));
        bash.setArguments({{QStringLiteral("command"), QStringLiteral("cat -n src/calc.cpp")},
                           {QStringLiteral("file_path"), QStringLiteral("src/calc.cpp")}});
        bash.setResult(AgentCore::ToolResult::makeText(output), 0);
        ToolCardItem bash2(QStringLiteral("b2"), QStringLiteral("Bash"));
        bash2.setArguments({{QStringLiteral("command"), QStringLiteral("cat -n src/calc.cpp")},
                            {QStringLiteral("file_path"), QStringLiteral("src/calc.zzq")}});
        bash2.setResult(AgentCore::ToolResult::makeText(output), 0);
        QCOMPARE(paintCard(bash), paintCard(bash2));
#endif
    }

    // "Found 15 files." is followed by the 15 files; "show all" offers those 15, not the 16
    // lines the output has with its summary (nor the note of a cut list).
    // A picture an MCP tool returned is on its card below the text, scaled to fit; one that
    // cannot be read is named instead. Both are in the card's text (copy, screen readers).
    void aToolsPictureIsShownBelowItsOutput()
    {
        QImage chart(800, 400, QImage::Format_RGB32);
        chart.fill(Qt::red);
        QByteArray png;
        QBuffer buffer(&png);
        QVERIFY(chart.save(&buffer, "PNG"));
        AgentCore::ToolResult result = AgentCore::ToolResult::makeText("the chart:");
        result.content.append(AgentCore::ContentBlock::makeImage("image/png", png.toBase64()));
        result.content.append(
            AgentCore::ContentBlock::makeImage("image/png",
                                               QByteArray("\x89PNG\r\n\x1a\nbroken", 14).toBase64()));

        ToolCardItem card("call_1", "mcp__charts__draw");
        card.setResult(result, 0);
        QCOMPARE(card.pictures().size(), 2);
        QCOMPARE(card.pictures().at(0).size(), QSize(480, 240));
        QVERIFY(card.pictures().at(1).isNull());
        QCOMPARE(card.plainText(),
                 "charts \u203a draw\nthe chart:\n[picture: image/png, 800 \u00d7 400]\n"
                 "[picture: image/png, unreadable]");

        const Ui::ConversationStyle style = appStyle();
        const int height = card.layout(600, style);
        QVERIFY2(height > 240, qPrintable(QString::number(height)));
        QImage painted(600, height, QImage::Format_ARGB32_Premultiplied);
        painted.fill(Qt::white);
        QPainter painter(&painted);
        card.paint(&painter, painted.rect(), style, 0);
        painter.end();
        int red = 0;
        for (int y = 0; y < painted.height(); ++y) {
            for (int x = 0; x < painted.width(); ++x)
                red += painted.pixel(x, y) == qRgb(255, 0, 0) ? 1 : 0;
        }
        // The picture inside its one-pixel frame.
        QVERIFY2(red >= 478 * 238, qPrintable(QString::number(red)));
    }

    void showAllCountsWhatTheSummaryCounts_data()
    {
        QTest::addColumn<QString>("tool");
        QTest::addColumn<QString>("output");
        QTest::addColumn<QString>("showAll");
        QString files;
        for (int i = 1; i <= 15; ++i)
            files += QStringLiteral("\nsrc/file%1.cpp").arg(i);
        QTest::newRow("glob") << QStringLiteral("Glob") << QStringLiteral("Found 15 files.") + files
                              << QStringLiteral("show all 15)");
        QTest::newRow("grep files")
            << QStringLiteral("Grep") << QStringLiteral("Found 15 files.") + files
            << QStringLiteral("show all 15)");
        QTest::newRow("glob cut")
            << QStringLiteral("Glob")
            << QStringLiteral("Found 40 files.") + files
                   + QStringLiteral("\n[Showing the first 15 of 40 files. Use a more specific "
                                    "pattern or path.]")
            << QStringLiteral("show all 15)");
        QTest::newRow("bash counts lines")
            << QStringLiteral("Bash") << QStringLiteral("Found 15 files.") + files
            << QStringLiteral("show all 16)");
    }

    void showAllCountsWhatTheSummaryCounts()
    {
        QFETCH(QString, tool);
        QFETCH(QString, output);
        QFETCH(QString, showAll);
        ToolCardItem card(QStringLiteral("g1"), tool);
        card.setArguments({{QStringLiteral("pattern"), QStringLiteral("src/**/*.cpp")}});
        card.setResult(AgentCore::ToolResult::makeText(output), 0);
        const QString shown = card.outputText();
        QVERIFY2(shown.contains(showAll), qPrintable(shown));
        // Expanded, the card shows every file.
        card.setOutputExpanded(true);
        for (int i = 1; i <= 15; ++i)
            QVERIFY(card.outputText().contains(QStringLiteral("src/file%1.cpp").arg(i)));
    }
};

AGENTDESK_TEST_MAIN(tst_ToolCardOutput)

} // namespace tst_toolcardoutput

#include "tst_toolcardoutput.moc"
