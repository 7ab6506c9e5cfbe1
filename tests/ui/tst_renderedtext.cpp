#include <conversation/blocksplitter.h>
#include <conversation/conversationstyle.h>
#include <conversation/renderedpiece.h>
#include <conversation/renderedtext.h>
#include <testmain.h>

#include <QApplication>
#include <QDir>
#include <QPainter>
#include <QRegularExpression>
#include <QTest>

namespace tst_renderedtext {

using Ui::RenderedText;

namespace {

// What a long reply holds: headings, prose, a tight list, a numbered list whose items are
// separated by blank lines, code fences with blank lines inside, a quote and a table.
QString longMarkdown(qsizetype chars)
{
    QString text;
    for (int section = 1; text.size() < chars; ++section) {
        const QString n = QString::number(section);
        text += QStringLiteral("## Section %1\n\n").arg(n);
        text += QStringLiteral("The loop keeps the history as a plain list (part %1), so a "
                               "restore is a copy and nothing else; `runTurn` decides.\n\n")
                    .arg(n);
        text += QStringLiteral("- a tool that fails still answers;\n- an aborted run says "
                               "**Stopped**;\n- orphan results are dropped.\n\n");
        for (int step = 1; step <= 3; ++step) {
            text += QStringLiteral("%1. Step %1 of section %2: build the target, run it "
                                   "offscreen and read what the failing case says about "
                                   "the event that was missing.\n\n")
                        .arg(step)
                        .arg(n);
        }
        text += QStringLiteral("```cpp\nint section%1()\n{\n    int total = 0;\n\n"
                               "    for (int i = 0; i < 10; ++i)\n        total += i;\n\n\n"
                               "    return total;\n}\n```\n\n")
                    .arg(n);
        text += QStringLiteral("> Quoted advice %1: measure first.\n\n").arg(n);
        text += QStringLiteral("| Case | Result |\n|------|--------|\n| %1 | pass |\n\n").arg(n);
    }
    return text;
}

/// a and b from 80 characters before their first difference on (both whole if equal), so
/// that a failed comparison of long texts shows where they part.
std::pair<QString, QString> fromFirstDifference(const QString &a, const QString &b)
{
    qsizetype at = 0;
    while (at < a.size() && at < b.size() && a[at] == b[at])
        ++at;
    const qsizetype from = qMax<qsizetype>(0, at - 80);
    return {a.mid(from, 200), b.mid(from, 200)};
}

/// The lines that start a new piece when text is split.
QStringList pieceStarts(const QString &text, Ui::BlockSplitter::Mode mode)
{
    Ui::BlockSplitter splitter(mode);
    QStringList starts;
    for (const qsizetype cut : splitter.scan(text))
        starts << text.mid(cut).section(QLatin1Char('\n'), 0, 0);
    return starts;
}

Ui::ConversationStyle appStyle()
{
    return Ui::ConversationStyle(QApplication::palette(), QApplication::font());
}

/// text rendered whole at width, painted on the assistant bubble's colour.
QImage paint(const QString &text, int width = 400)
{
    const Ui::ConversationStyle style = appStyle();
    RenderedText rendered;
    rendered.setText(text, RenderedText::Format::Markdown);
    const int height = rendered.layout(width, style.body, style);
    QImage image(width + 40, height + 20, QImage::Format_ARGB32_Premultiplied);
    image.fill(style.assistantBubble);
    QPainter painter(&image);
    rendered.draw(&painter, QPoint(30, 10), image.rect(), style.text);
    painter.end();
    return image;
}

/// How many pixels of image are (nearly) color.
int pixelsOf(const QImage &image, const QColor &color)
{
    int count = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            const QColor pixel = image.pixelColor(x, y);
            count += qAbs(pixel.red() - color.red()) + qAbs(pixel.green() - color.green())
                                 + qAbs(pixel.blue() - color.blue())
                             <= 6
                         ? 1
                         : 0;
        }
    }
    return count;
}

} // namespace

/// A streamed reply is cut into pieces at block boundaries; the pieces must render what the
/// whole text renders as one document: the same blocks, list numbers, code blocks and height.
class tst_RenderedText : public QObject
{
    Q_OBJECT

private slots:
    // The importer loses the header of a table that follows a fenced block (an empty
    // paragraph in the first cell, no bold); every table gets its header row styled.
    void tableHeaderIsAHeader_data()
    {
        QTest::addColumn<QString>("text");
        const QString table = QStringLiteral(
            "| Case | Result |\n|------|--------|\n| add | pass |\n");
        QTest::newRow("alone") << table;
        QTest::newRow("after a paragraph") << QStringLiteral("The tests:\n\n") + table;
        QTest::newRow("right after a fence") << QStringLiteral("```sh\nmake\n```\n") + table;
        QTest::newRow("after a fence and a blank line")
            << QStringLiteral("Build:\n\n```sh\nmake test\n```\n\n") + table;
    }

    void tableHeaderIsAHeader()
    {
        QFETCH(QString, text);
        const Ui::ConversationStyle style = appStyle();
        RenderedText rendered;
        rendered.setText(text, RenderedText::Format::Markdown);
        rendered.layout(500, style.body, style);
        const QStringList cells = rendered.structure().filter(
            QRegularExpression(QStringLiteral("^\\[(header|cell)\\]")));
        QCOMPARE(cells,
                 (QStringList{QStringLiteral("[header] Case"),
                              QStringLiteral("[header] Result"),
                              QStringLiteral("[cell] add"),
                              QStringLiteral("[cell] pass")}));
    }

    void taskItemsShowTheirState()
    {
        const Ui::ConversationStyle style = appStyle();
        RenderedText rendered;
        rendered.setText(QStringLiteral("Plan:\n\n- [x] read the code\n- [ ] fix it\n\n"
                                        "```sh\nmake\n```\n\n> not a task\n"),
                         RenderedText::Format::Markdown);
        rendered.layout(500, style.body, style);
        QCOMPARE(rendered.structure(),
                 (QStringList{QStringLiteral("[] Plan:"),
                              QStringLiteral("[task [x]] read the code"),
                              QStringLiteral("[task [ ]] fix it"),
                              QStringLiteral("[code] make"),
                              QStringLiteral("[quote 1] not a task")}));
        // What is painted differs: a tick in one box and not in the other.
        const QImage done = paint(QStringLiteral("- [x] read the code\n"));
        const QImage todo = paint(QStringLiteral("- [ ] read the code\n"));
        QCOMPARE(done.size(), todo.size());
        QVERIFY(pixelsOf(done, style.assistantBubble) < pixelsOf(todo, style.assistantBubble));
    }

    // Tables get lines around their cells and quotes a bar; both in the card border's colour,
    // which plain text never has.
    void tablesAndQuotesAreDrawnWithLines_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("minimum"); // pixels of the line colour
        QTest::addColumn<int>("maximum"); // (text's antialiased edges have some)
        QTest::newRow("table") << QStringLiteral("| Case | Result |\n|---|---|\n| add | pass |\n")
                               << 200 << 100000;
        QTest::newRow("quote") << QStringLiteral("> Measure first, then change.\n") << 40 << 100000;
        QTest::newRow("prose") << QStringLiteral("Measure first, then change.\n") << 0 << 25;
    }

    void tablesAndQuotesAreDrawnWithLines()
    {
        QFETCH(QString, text);
        QFETCH(int, minimum);
        QFETCH(int, maximum);
        const int lines = pixelsOf(paint(text), appStyle().cardBorder);
        QVERIFY2(lines >= minimum && lines <= maximum, qPrintable(QString::number(lines)));
    }

    // While a reply streams, an unfinished code span or table shows as nothing rather than as
    // backticks and pipes: every frame of the stream is free of raw markup; the end shows all.
    void streamingHoldsBackUnfinishedMarkup()
    {
        const Ui::ConversationStyle style = appStyle();
        const QString text = QStringLiteral(
            "Run `make test` first.\n\n| Case | Result |\n|------|--------|\n"
            "| add | `pass` |\n| sub | fail |\n\nDone with ``make``, see `log`.");
        RenderedText streamed;
        streamed.setText({}, RenderedText::Format::Markdown);
        streamed.setStreaming(true);
        for (qsizetype at = 0; at < text.size(); ++at) {
            streamed.append(text.mid(at, 1));
            streamed.layout(500, style.body, style);
            const QString shown = streamed.renderedText();
            QVERIFY2(!shown.contains(QLatin1Char('|')) && !shown.contains(QLatin1Char('`')),
                     qPrintable(
                         QStringLiteral("after \"%1\": \"%2\"").arg(text.first(at + 1), shown)));
        }
        QVERIFY(streamed.renderedText().contains(QStringLiteral("Done with ")));
        streamed.setStreaming(false);
        streamed.layout(500, style.body, style);
        Ui::RenderedPiece whole;
        whole.render(text, Ui::RenderedPiece::Format::Markdown, 500, style.body, style);
        QCOMPARE(streamed.renderedText(), whole.plainText());
        QVERIFY(streamed.renderedText().endsWith(QStringLiteral("see log.")));

        // Inside a fence nothing is markup: a backtick shows as it comes.
        RenderedText code;
        code.setStreaming(true);
        code.setText(QStringLiteral("```sh\necho `pwd"), RenderedText::Format::Markdown);
        code.layout(500, style.body, style);
        QCOMPARE(code.renderedText(), QStringLiteral("echo `pwd"));
        // A reply that ends unfinished shows what it has.
        RenderedText cut;
        cut.setStreaming(true);
        cut.setText(QStringLiteral("Results:\n\n| Case | Res"), RenderedText::Format::Markdown);
        cut.layout(500, style.body, style);
        QCOMPARE(cut.renderedText(), QStringLiteral("Results:"));
        cut.setStreaming(false);
        cut.layout(500, style.body, style);
        QVERIFY(cut.renderedText().contains(QStringLiteral("| Case | Res")));
    }

    void splitterCutsOnlyBetweenBlocks_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QStringList>("starts");
        QTest::newRow("paragraphs") << QStringLiteral("one\n\ntwo\nmore\n\n\nthree\n")
                                    << QStringList{QStringLiteral("two"), QStringLiteral("three")};
        QTest::newRow("unfinished line waits") << QStringLiteral("one\n\ntwo") << QStringList{};
        QTest::newRow("leading blank lines") << QStringLiteral("\n\none\n") << QStringList{};
        QTest::newRow("fence with blank lines") << QStringLiteral("```cpp\na\n\nb\n```\n\nafter\n")
                                                << QStringList{QStringLiteral("after")};
        QTest::newRow("tilde fence, longer close")
            << QStringLiteral("text\n\n~~~\n```\n\nx\n~~~~\n\nend\n")
            << QStringList{QStringLiteral("~~~"), QStringLiteral("end")};
        QTest::newRow("loose numbered list stays together")
            << QStringLiteral("1. a\n\n2. b\n\n   more of b\n\n3. c\n\nafter\n")
            << QStringList{QStringLiteral("after")};
        QTest::newRow("list after paragraph may start a piece")
            << QStringLiteral("para\n\n- a\n\n- b\n") << QStringList{QStringLiteral("- a")};
        QTest::newRow("indented code continues")
            << QStringLiteral("para\n\n    code\n\n    more\n") << QStringList{};
        QTest::newRow("table row needs the block before")
            << QStringLiteral("para\n\n| a |\n|---|\n") << QStringList{};
    }

    void splitterCutsOnlyBetweenBlocks()
    {
        QFETCH(QString, text);
        QFETCH(QStringList, starts);
        QCOMPARE(pieceStarts(text, Ui::BlockSplitter::Mode::Markdown), starts);
    }

    // A long reply streamed in small deltas, laid out every frame, renders to the same
    // documents' structure, text and height as the whole reply rendered at once, and the end
    // of the stream (the same text again) keeps its pieces.
    void streamedPiecesRenderLikeTheWhole()
    {
        const Ui::ConversationStyle style(QApplication::palette(), QApplication::font());
        const QString text = longMarkdown(60 * 1024);
        const int width = 600;
        RenderedText streamed;
        streamed.setText({}, RenderedText::Format::Markdown);
        for (qsizetype at = 0; at < text.size(); at += 20) {
            streamed.append(text.mid(at, 20));
            if ((at / 20) % 25 == 0)
                streamed.layout(width, style.body, style);
        }
        streamed.layout(width, style.body, style);
        const int pieces = streamed.pieceCount();
        QVERIFY2(pieces > 20, qPrintable(QString::number(pieces)));
        streamed.setText(text, RenderedText::Format::Markdown);
        const int height = streamed.layout(width, style.body, style);
        QCOMPARE(streamed.pieceCount(), pieces);

        Ui::RenderedPiece whole;
        whole.render(text, Ui::RenderedPiece::Format::Markdown, width, style.body, style);
        const auto [text1, text2] = fromFirstDifference(streamed.renderedText(), whole.plainText());
        QCOMPARE(text1, text2);
        const auto [blocks1, blocks2]
            = fromFirstDifference(streamed.structure().join(QLatin1Char('\n')),
                                  whole.structure().join(QLatin1Char('\n')));
        QCOMPARE(blocks1, blocks2);

        // A final text that differs at the end keeps the pieces before the change.
        const QString changed = text + QStringLiteral("\n\nThe provider refused the rest.");
        streamed.setText(changed, RenderedText::Format::Markdown);
        const int changedHeight = streamed.layout(width, style.body, style);
        QVERIFY(streamed.pieceCount() >= pieces);
        Ui::RenderedPiece wholeChanged;
        wholeChanged.render(changed, Ui::RenderedPiece::Format::Markdown, width, style.body, style);
        QCOMPARE(streamed.structure(), wholeChanged.structure());
        QCOMPARE(changedHeight, wholeChanged.height());
        QVERIFY(whole.structure().contains(QStringLiteral("[item 3.] Step 3 of section 2: build "
                                                          "the target, run it offscreen and read "
                                                          "what the failing case says about the "
                                                          "event that was missing.")));
        QCOMPARE(height, whole.height());
    }

    void numberedListKeepsItsNumbers()
    {
        const Ui::ConversationStyle style(QApplication::palette(), QApplication::font());
        const QString item = QStringLiteral("a long item that says a lot about the step ")
                                 .repeated(8);
        const QString text = QStringLiteral("Steps:\n\n1. %1\n\n2. %1\n\n   ```sh\n   make\n\n"
                                            "   make test\n   ```\n\n3. %1\n\nDone.\n")
                                 .arg(item);
        RenderedText streamed;
        for (qsizetype at = 0; at < text.size(); at += 20) {
            streamed.append(text.mid(at, 20));
            streamed.layout(500, style.body, style);
        }
        QVERIFY(streamed.pieceCount() > 1);
        const QStringList blocks = streamed.structure();
        const QString joined = blocks.join(QLatin1Char('\n'));
        for (const QString &number :
             {QStringLiteral("1."), QStringLiteral("2."), QStringLiteral("3.")}) {
            QVERIFY2(blocks.contains(QStringLiteral("[item %1] %2").arg(number, item.trimmed())),
                     qPrintable(joined));
        }
        // The code block inside item 2 stays one block of three lines, the blank one included.
        QVERIFY2(joined.contains(QStringLiteral("\n[code] make\n[code] \n[code] make test\n")),
                 qPrintable(joined));
    }

    void codeFenceWithBlankLinesStaysOneBlock()
    {
        const Ui::ConversationStyle style(QApplication::palette(), QApplication::font());
        QString code;
        for (int i = 0; i < 60; ++i)
            code += QStringLiteral("    call(%1); // a line of code that is fairly long\n\n").arg(i);
        const QString text = QStringLiteral("Before.\n\n```cpp\nvoid f()\n{\n%1}\n```\n\n"
                                            "After.\n")
                                 .arg(code);
        RenderedText streamed;
        for (qsizetype at = 0; at < text.size(); at += 20) {
            streamed.append(text.mid(at, 20));
            streamed.layout(500, style.body, style);
        }
        Ui::RenderedPiece whole;
        whole.render(text, Ui::RenderedPiece::Format::Markdown, 500, style.body, style);
        QCOMPARE(streamed.structure(), whole.structure());
        // Every line of the function is a code block, the blank ones too; none is a paragraph.
        const QStringList blocks = streamed.structure();
        QCOMPARE(blocks.filter(QStringLiteral("[code]")).size(), 2 + 2 * 60 + 1);
        QCOMPARE(streamed.renderedText(), whole.plainText());
        QVERIFY(streamed.renderedText().contains(QStringLiteral("call(0);")));
    }

    void screenshot()
    {
        const QString directory = qEnvironmentVariable("AGENTDESK_SCREENSHOTS");
        if (directory.isEmpty())
            QSKIP("Set AGENTDESK_SCREENSHOTS to a directory to save screenshots.");
        QDir().mkpath(directory);
        const QString reply = longMarkdown(8 * 1024);
        // Left: the reply rendered as one document; right: streamed in deltas, in pieces.
        const Ui::ConversationStyle style = appStyle();
        const int width = 460;
        RenderedText streamed;
        for (qsizetype at = 0; at < reply.size(); at += 20) {
            streamed.append(reply.mid(at, 20));
            streamed.layout(width, style.body, style);
        }
        Ui::RenderedPiece whole;
        whole.render(reply, Ui::RenderedPiece::Format::Markdown, width, style.body, style);
        QImage image(2 * width + 60, 1400, QImage::Format_ARGB32_Premultiplied);
        image.fill(style.assistantBubble);
        QPainter painter(&image);
        whole.draw(&painter, QRectF(image.rect()), style.text);
        painter.setPen(style.cardBorder);
        painter.drawLine(width + 30, 0, width + 30, image.height());
        streamed.draw(&painter, QPoint(width + 60, 0), image.rect(), style.text);
        painter.end();
        QVERIFY(
            image.save(QDir(directory).filePath(QStringLiteral("markdown-whole-vs-streamed.png"))));
    }
};

AGENTDESK_TEST_MAIN(tst_RenderedText)

} // namespace tst_renderedtext

#include "tst_renderedtext.moc"
