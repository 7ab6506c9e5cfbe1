#pragma once

#include <QList>
#include <QString>
#include <QTextCharFormat>

#include <memory>

QT_BEGIN_NAMESPACE
class QPalette;
QT_END_NAMESPACE

namespace Ui {

/// The one home of syntax colouring: every view that colours code (a diff under review, a
/// changed file's diff, a Read card, a command, an answer's code blocks) colours it here, so
/// the same code has the same colours everywhere in the window. Only this class talks to
/// KSyntaxHighlighting: it holds the process's one definition repository and the one theme
/// choice. Without KSyntaxHighlighting in the build (AGENTDESK_HAVE_SYNTAX_HIGHLIGHTING),
/// isAvailable is false, isActive() is false and lines get no formats.
/// One colorizer colours one language, one line at a time. UI thread; not copyable.
class SyntaxColorizer final
{
public:
    struct Span
    {
        int start = 0;
        int length = 0;
        QTextCharFormat format;
    };

    /// Carries what a line leaves open (a comment, a string) into the next one. Opaque.
    using State = int;
    static constexpr State initialState = 0;

    /// Whether this build colours code at all: views skip their colouring work when not.
#ifdef AGENTDESK_HAVE_SYNTAX_HIGHLIGHTING
    static constexpr bool isAvailable = true;
#else
    static constexpr bool isAvailable = false;
#endif

    /// The theme follows \a palette: dark colours on a dark Base, light ones otherwise.
    explicit SyntaxColorizer(const QPalette &palette);
    ~SyntaxColorizer();
    SyntaxColorizer(const SyntaxColorizer &) = delete;
    SyntaxColorizer &operator=(const SyntaxColorizer &) = delete;

    /// The language of a file, by its name ("src/main.cpp").
    void setLanguageForFileName(const QString &fileName);
    /// The language by its definition name ("Bash", "C++") or, failing that, by the extension
    /// a markdown code fence names ("cpp", "py", "sh").
    void setLanguage(const QString &name);
    /// Whether a language is set that the build knows: only then are lines coloured.
    bool isActive() const;

    /// Appends the formats of \a line to \a spans; returns the state after it. Text in the
    /// theme's normal colour gets no span: it keeps the palette's text colour.
    State colorize(const QString &line, State state, QList<Span> &spans);

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace Ui
