#include "codehighlighter.h"

#include <QGuiApplication>
#include <QPalette>

#include <algorithm>

namespace Ui {

CodeHighlighter::CodeHighlighter(const QString &language, QTextDocument *document)
    : QSyntaxHighlighter(document)
    , m_colorizer(QGuiApplication::palette())
{
    m_colorizer.setLanguage(language);
}

void CodeHighlighter::highlightBlock(const QString &text)
{
    QList<SyntaxColorizer::Span> spans;
    const int before = std::max(previousBlockState(), int(SyntaxColorizer::initialState));
    setCurrentBlockState(m_colorizer.colorize(text, before, spans));
    for (const SyntaxColorizer::Span &span : spans)
        setFormat(span.start, span.length, span.format);
}

} // namespace Ui
