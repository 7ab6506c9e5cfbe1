#include <conversation/conversationstyle.h>
#include <conversation/renderedtext.h>
#include <review/diffreviewview.h>
#include <review/difftextview.h>
#include <testmain.h>

#include <permissions/permissionrequest.h>

#include <QApplication>
#include <QHash>
#include <QImage>
#include <QPainter>
#include <QSet>
#include <QStandardPaths>
#include <QTest>
#include <QTextBlock>
#include <QTextLayout>

namespace tst_syntaxcolours {

using AgentCore::PermissionRequest;

namespace {

// The helpers serve the test, which needs KSyntaxHighlighting (not in the Qt 6.4 build).

/// One line of C++ per kind of token, so that each line of a code block shows one colour.
[[maybe_unused]] const QStringList &snippet()
{
    static const QStringList lines{QStringLiteral("int"),
                                   QStringLiteral("// wraps at INT_MAX"),
                                   QStringLiteral("\"sum\""),
                                   QStringLiteral("42")};
    return lines;
}

[[maybe_unused]] QPalette darkPalette()
{
    QPalette palette;
    const QColor window(0x2b, 0x2d, 0x30), base(0x1e, 0x1f, 0x22), text(0xdf, 0xe1, 0xe5);
    palette.setColor(QPalette::Window, window);
    palette.setColor(QPalette::WindowText, text);
    palette.setColor(QPalette::Base, base);
    palette.setColor(QPalette::AlternateBase, window);
    palette.setColor(QPalette::Text, text);
    palette.setColor(QPalette::Button, window);
    palette.setColor(QPalette::ButtonText, text);
    palette.setColor(QPalette::Highlight, QColor(0x2f, 0x65, 0xca));
    return palette;
}

/// The colour each line of the snippet is written in, in the unified diff of a review that
/// creates src/calc.cpp with it.
[[maybe_unused]] QList<QColor> reviewColours(const QPalette &palette)
{
    PermissionRequest request;
    request.id = 1;
    request.toolName = QStringLiteral("Write");
    request.filePath = QStringLiteral("/repo/src/calc.cpp");
    request.displayPath = QStringLiteral("src/calc.cpp");
    request.newFile = true;
    request.newText = snippet().join(QLatin1Char('\n')) + QLatin1Char('\n');
    request.diff = AgentCore::UnifiedDiff::compute(request.oldText, request.newText);
    Ui::DiffReviewView view;
    view.setPalette(palette);
    view.setRequest(request);
    view.resize(800, 400);
    view.show();
    if (!QTest::qWaitForWindowExposed(&view))
        return {};
    const auto unified = view.findChild<Ui::DiffTextView *>(QStringLiteral("unifiedView"));
    QList<QColor> colours;
    for (const QString &line : snippet()) {
        QTextBlock block = unified->document()->firstBlock();
        while (block.isValid() && !block.text().endsWith(line))
            block = block.next();
        if (!block.isValid())
            return {};
        const int position = int(block.text().size() - line.size());
        // Lines get their formats when first painted.
        if (!QTest::qWaitFor([&block] { return !block.layout()->formats().isEmpty(); }))
            return {};
        QColor colour = palette.color(QPalette::Text);
        for (const QTextLayout::FormatRange &range : block.layout()->formats()) {
            if (range.start <= position && position < range.start + range.length
                && range.format.hasProperty(QTextFormat::ForegroundBrush))
                colour = range.format.foreground().color();
        }
        colours << colour;
    }
    return colours;
}

/// The colour of the ink in image: its most frequent colour apart from the backgrounds.
[[maybe_unused]] QColor inkOf(const QImage &image, const QList<QColor> &backgrounds)
{
    QHash<QRgb, int> counts;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            const QRgb pixel = image.pixel(x, y) | 0xff000000;
            bool background = false;
            for (const QColor &colour : backgrounds)
                background = background || pixel == colour.rgb();
            if (!background)
                ++counts[pixel];
        }
    }
    QRgb ink = 0;
    int most = 0;
    for (auto it = counts.cbegin(); it != counts.cend(); ++it) {
        if (it.value() > most) {
            most = it.value();
            ink = it.key();
        }
    }
    return QColor(ink);
}

/// The colour each line of the snippet is painted in, as a ```cpp code block of an answer.
[[maybe_unused]] QList<QColor> codeBlockColours(const QPalette &palette)
{
    // Large letters: their strokes are mostly pixels of the ink's own colour, not blends.
    QFont font = QApplication::font();
    font.setPointSize(40);
    const Ui::ConversationStyle style(palette, font);
    QList<QColor> colours;
    for (const QString &line : snippet()) {
        Ui::RenderedText answer;
        answer.setText(QStringLiteral("```cpp\n%1\n```\n").arg(line),
                       Ui::RenderedText::Format::Markdown);
        const int height = answer.layout(1000, style.body, style);
        QImage image(1040, height + 20, QImage::Format_RGB32);
        image.fill(style.assistantBubble);
        QPainter painter(&image);
        answer.draw(&painter, QPoint(20, 10), image.rect(), style.text);
        painter.end();
        colours << inkOf(image, {style.assistantBubble, style.codeBackground});
    }
    return colours;
}

} // namespace

/// Code has one set of colours in the whole window: a diff under review and an answer's code
/// block colour the same C++ alike, in the light theme and in the dark one.
class tst_SyntaxColours : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void reviewAndCodeBlockShareColours_data()
    {
        QTest::addColumn<bool>("dark");
        QTest::newRow("light") << false;
        QTest::newRow("dark") << true;
    }

    void reviewAndCodeBlockShareColours()
    {
#ifndef AGENTDESK_HAVE_SYNTAX_HIGHLIGHTING
        QSKIP("built without KSyntaxHighlighting");
#else
        QFETCH(bool, dark);
        const QPalette palette = dark ? darkPalette() : QApplication::palette();
        QCOMPARE(palette.color(QPalette::Base).lightnessF() < 0.5, dark);
        const QList<QColor> review = reviewColours(palette);
        const QList<QColor> codeBlock = codeBlockColours(palette);
        QCOMPARE(review.size(), snippet().size());
        QCOMPARE(codeBlock.size(), snippet().size());
        for (qsizetype i = 0; i < snippet().size(); ++i) {
            const QByteArray what = snippet().at(i).toUtf8();
            // Coloured, not in the text colour, and the same colour in both places.
            QVERIFY2(review.at(i) != palette.color(QPalette::Text), what.constData());
            const QByteArray colours = what + " review " + review.at(i).name().toUtf8()
                                       + ", code block " + codeBlock.at(i).name().toUtf8();
            QVERIFY2(codeBlock.at(i) == review.at(i), colours.constData());
        }
        // Four kinds of token, four colours.
        QCOMPARE(QSet<QRgb>(
                     {review.at(0).rgb(), review.at(1).rgb(), review.at(2).rgb(), review.at(3).rgb()})
                     .size(),
                 4);
#endif
    }

    // Switching to a dark palette changes the colours of both: no view keeps light colours
    // on a dark background.
    void darkPaletteChangesBoth()
    {
#ifndef AGENTDESK_HAVE_SYNTAX_HIGHLIGHTING
        QSKIP("built without KSyntaxHighlighting");
#else
        const QPalette light = QApplication::palette();
        const QList<QColor> lightReview = reviewColours(light);
        const QList<QColor> lightCodeBlock = codeBlockColours(light);
        const QList<QColor> darkReview = reviewColours(darkPalette());
        const QList<QColor> darkCodeBlock = codeBlockColours(darkPalette());
        QCOMPARE(darkReview.size(), snippet().size());
        QCOMPARE(darkCodeBlock.size(), snippet().size());
        for (qsizetype i = 0; i < snippet().size(); ++i) {
            const QByteArray what = snippet().at(i).toUtf8();
            QVERIFY2(darkReview.at(i) != lightReview.at(i), what.constData());
            QVERIFY2(darkCodeBlock.at(i) != lightCodeBlock.at(i), what.constData());
        }
#endif
    }
};

AGENTDESK_TEST_MAIN(tst_SyntaxColours)

} // namespace tst_syntaxcolours

#include "tst_syntaxcolours.moc"
