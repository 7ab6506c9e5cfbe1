#pragma once

#include <QList>
#include <QString>
#include <QTextCharFormat>

#include <memory>

QT_BEGIN_NAMESPACE
class QPalette;
QT_END_NAMESPACE

namespace Ui {

/// Syntax colours for lines of code, one line at a time, with KSyntaxHighlighting when the
/// build has it (AGENTDESK_HAVE_SYNTAX_HIGHLIGHTING); without it, or for an unknown language,
/// isActive() is false and lines get no formats. UI thread; not copyable.
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

    /// \a palette picks a light or dark theme.
    explicit SyntaxColorizer(const QPalette &palette);
    ~SyntaxColorizer();
    SyntaxColorizer(const SyntaxColorizer &) = delete;
    SyntaxColorizer &operator=(const SyntaxColorizer &) = delete;

    /// The language from a file name ("src/main.cpp") or a definition name ("Bash").
    void setLanguageForFileName(const QString &fileName);
    void setLanguage(const QString &definitionName);
    bool isActive() const;

    /// Appends the formats of \a line to \a spans; returns the state after it.
    State colorize(const QString &line, State state, QList<Span> &spans);

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace Ui
