#include "codehighlighter.h"

#include <QTextBlock>

#include <algorithm>

namespace Ui {

CodeHighlighter::CodeHighlighter(const QString &language,
                                 const QPalette &palette,
                                 QTextDocument *document)
    : QSyntaxHighlighter(document)
    , m_palette(palette)
    , m_language(language)
{}

CodeHighlighter::CodeHighlighter(const QPalette &palette, QTextDocument *document)
    : QSyntaxHighlighter(document)
    , m_palette(palette)
{}

CodeHighlighter *CodeHighlighter::forFileName(const QString &fileName,
                                              const QPalette &palette,
                                              QTextDocument *document)
{
    auto highlighter = new CodeHighlighter(fileName, palette, document);
    highlighter->m_languageIsFileName = true;
    highlighter->rehighlight();
    return highlighter;
}

CodeHighlighter::~CodeHighlighter() = default;

QString CodeHighlighter::languageOf(const QTextBlock &block) const
{
    if (!m_language.isEmpty())
        return m_language;
    if (!block.isValid())
        return {};
    const QTextBlockFormat format = block.blockFormat();
    if (!format.hasProperty(QTextFormat::BlockCodeFence))
        return {};
    return format.stringProperty(QTextFormat::BlockCodeLanguage).trimmed();
}

// One colorizer per language: a block's state is a handle into its language's colorizer.
SyntaxColorizer &CodeHighlighter::colorizerFor(const QString &language)
{
    std::unique_ptr<SyntaxColorizer> &colorizer = m_colorizers[language];
    if (!colorizer) {
        colorizer = std::make_unique<SyntaxColorizer>(m_palette);
        if (m_languageIsFileName)
            colorizer->setLanguageForFileName(language);
        else
            colorizer->setLanguage(language);
    }
    return *colorizer;
}

void CodeHighlighter::highlightBlock(const QString &text)
{
    const QString language = languageOf(currentBlock());
    if (language.isEmpty()) {
        setCurrentBlockState(-1);
        return;
    }
    SyntaxColorizer &colorizer = colorizerFor(language);
    // A line continues what the one before left open only in the same language: the first
    // line of a fence starts afresh.
    int before = previousBlockState();
    if (languageOf(currentBlock().previous()) != language)
        before = SyntaxColorizer::initialState;
    QList<SyntaxColorizer::Span> spans;
    setCurrentBlockState(
        colorizer.colorize(text, std::max(before, int(SyntaxColorizer::initialState)), spans));
    for (const SyntaxColorizer::Span &span : spans)
        setFormat(span.start, span.length, span.format);
}

} // namespace Ui

#include "moc_codehighlighter.cpp"
