#include "codeblockhighlighter.h"

#ifdef AGENTDESK_HAVE_SYNTAX_HIGHLIGHTING

#    include <KSyntaxHighlighting/Format>
#    include <KSyntaxHighlighting/Repository>
#    include <KSyntaxHighlighting/State>
#    include <KSyntaxHighlighting/Theme>

#    include <QTextBlock>
#    include <QTextBlockUserData>

namespace Ui {

// Loading the definitions takes tens of milliseconds: do it once, on first use, on the UI
// thread (the only thread that paints the conversation).
static KSyntaxHighlighting::Repository &repository()
{
    static KSyntaxHighlighting::Repository instance;
    return instance;
}

namespace {
struct BlockState final : QTextBlockUserData
{
    KSyntaxHighlighting::State state;
    QString language;
};
} // namespace

CodeBlockHighlighter::CodeBlockHighlighter(QTextDocument *document, bool dark)
    : QSyntaxHighlighter(document)
{
    setTheme(repository().defaultTheme(dark ? KSyntaxHighlighting::Repository::DarkTheme
                                            : KSyntaxHighlighting::Repository::LightTheme));
}

CodeBlockHighlighter::~CodeBlockHighlighter() = default;

KSyntaxHighlighting::Definition CodeBlockHighlighter::definitionFor(const QString &language)
{
    KSyntaxHighlighting::Definition definition = repository().definitionForName(language);
    if (!definition.isValid())
        definition = repository().definitionForFileName(QStringLiteral("code.") + language);
    return definition;
}

void CodeBlockHighlighter::highlightBlock(const QString &text)
{
    const QTextBlockFormat format = currentBlock().blockFormat();
    if (!format.hasProperty(QTextFormat::BlockCodeFence))
        return;
    const QString language = format.stringProperty(QTextFormat::BlockCodeLanguage).trimmed();
    if (language.isEmpty())
        return;
    if (m_language != language) {
        m_language = language;
        setDefinition(definitionFor(language));
    }
    if (!definition().isValid())
        return;

    KSyntaxHighlighting::State state;
    const auto previous = static_cast<BlockState *>(currentBlock().previous().userData());
    if (previous && previous->language == language)
        state = previous->state;
    auto data = new BlockState;
    data->language = language;
    data->state = highlightLine(text, state);
    setCurrentBlockUserData(data);
}

void CodeBlockHighlighter::applyFormat(int offset,
                                       int length,
                                       const KSyntaxHighlighting::Format &format)
{
    if (format.isDefaultTextStyle(theme()))
        return;
    QTextCharFormat charFormat;
    if (format.hasTextColor(theme()))
        charFormat.setForeground(format.textColor(theme()));
    if (format.isBold(theme()))
        charFormat.setFontWeight(QFont::DemiBold);
    if (format.isItalic(theme()))
        charFormat.setFontItalic(true);
    setFormat(offset, length, charFormat);
}

} // namespace Ui

#endif
