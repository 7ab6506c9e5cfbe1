#include "syntaxcolorizer.h"

#include <QHash>
#include <QPalette>

#ifdef AGENTDESK_HAVE_SYNTAX_HIGHLIGHTING
#    include <KSyntaxHighlighting/AbstractHighlighter>
#    include <KSyntaxHighlighting/Definition>
#    include <KSyntaxHighlighting/Format>
#    include <KSyntaxHighlighting/Repository>
#    include <KSyntaxHighlighting/State>
#    include <KSyntaxHighlighting/Theme>
#endif

namespace Ui {

#ifdef AGENTDESK_HAVE_SYNTAX_HIGHLIGHTING

namespace {

// The process's one repository of language definitions and themes. Loading it reads hundreds
// of definition files (tens of milliseconds), so it is loaded once, on the first coloured
// line, and shared by every colorizer. A function-local static rather than an object handed
// down from the window: colorizers are made inside values (DiffLayout's panes, a Read card's
// LineBlock, an answer's RenderedPiece) far from any widget that could own it, and the
// repository is read-only data from disk (nothing here reloads or changes it), so sharing it
// hides no state. Used on the UI thread only; it lives until the process exits.
KSyntaxHighlighting::Repository &repository()
{
    static KSyntaxHighlighting::Repository instance;
    return instance;
}

// The one theme choice: light or dark, as the palette's Base is. The views paint the code's
// background themselves from the palette, never the theme's, so a theme only has to read on
// a background of that lightness.
KSyntaxHighlighting::Theme themeFor(const QPalette &palette)
{
    const bool dark = palette.color(QPalette::Base).lightnessF() < 0.5;
    return repository().defaultTheme(dark ? KSyntaxHighlighting::Repository::DarkTheme
                                          : KSyntaxHighlighting::Repository::LightTheme);
}

class LineHighlighter final : public KSyntaxHighlighting::AbstractHighlighter
{
public:
    QList<SyntaxColorizer::Span> *spans = nullptr;

    KSyntaxHighlighting::State highlight(const QString &line,
                                         const KSyntaxHighlighting::State &state)
    {
        return highlightLine(line, state);
    }

protected:
    void applyFormat(int offset, int length, const KSyntaxHighlighting::Format &format) override
    {
        // Default text keeps the palette's colour, so the view reads right in both themes.
        if (length <= 0)
            return;
        // Shared copies of one QTextCharFormat per style: big diffs have few styles but
        // tens of thousands of spans.
        auto it = m_formats.constFind(format.id());
        if (it == m_formats.constEnd())
            it = m_formats.insert(format.id(), charFormatOf(format));
        if (it->propertyCount() > 0)
            spans->append({offset, length, *it});
    }

private:
    QTextCharFormat charFormatOf(const KSyntaxHighlighting::Format &format) const
    {
        QTextCharFormat charFormat;
        if (format.isDefaultTextStyle(theme()))
            return charFormat; // empty: keeps the palette's text colour in both themes
        if (format.hasTextColor(theme()))
            charFormat.setForeground(format.textColor(theme()));
        if (format.isBold(theme()))
            charFormat.setFontWeight(QFont::Bold);
        if (format.isItalic(theme()))
            charFormat.setFontItalic(true);
        return charFormat;
    }

    QHash<int, QTextCharFormat> m_formats;
};

} // namespace

struct SyntaxColorizer::Private
{
    LineHighlighter highlighter;
    QList<KSyntaxHighlighting::State> states{KSyntaxHighlighting::State()};
    bool active = false;

    void setDefinition(const KSyntaxHighlighting::Definition &definition)
    {
        active = definition.isValid();
        if (active)
            highlighter.setDefinition(definition);
    }
};

SyntaxColorizer::SyntaxColorizer(const QPalette &palette)
    : d(std::make_unique<Private>())
{
    d->highlighter.setTheme(themeFor(palette));
}

SyntaxColorizer::~SyntaxColorizer() = default;

void SyntaxColorizer::setLanguageForFileName(const QString &fileName)
{
    d->setDefinition(repository().definitionForFileName(fileName));
}

void SyntaxColorizer::setLanguage(const QString &name)
{
    KSyntaxHighlighting::Definition definition = repository().definitionForName(name);
    if (!definition.isValid())
        definition = repository().definitionForFileName(QStringLiteral("code.") + name);
    d->setDefinition(definition);
}

bool SyntaxColorizer::isActive() const
{
    return d->active;
}

SyntaxColorizer::State SyntaxColorizer::colorize(const QString &line,
                                                 State state,
                                                 QList<Span> &spans)
{
    if (!d->active)
        return state;
    d->highlighter.spans = &spans;
    const KSyntaxHighlighting::State after = d->highlighter.highlight(line, d->states.value(state));
    d->highlighter.spans = nullptr;
    // Most lines leave the state as it was: reuse its handle instead of growing the list.
    if (after == d->states.value(state))
        return state;
    d->states.append(after);
    return State(d->states.size() - 1);
}

#else

struct SyntaxColorizer::Private
{};

SyntaxColorizer::SyntaxColorizer(const QPalette &) {}

SyntaxColorizer::~SyntaxColorizer() = default;

void SyntaxColorizer::setLanguageForFileName(const QString &) {}

void SyntaxColorizer::setLanguage(const QString &) {}

bool SyntaxColorizer::isActive() const
{
    return false;
}

SyntaxColorizer::State SyntaxColorizer::colorize(const QString &, State state, QList<Span> &)
{
    return state;
}

#endif

} // namespace Ui
