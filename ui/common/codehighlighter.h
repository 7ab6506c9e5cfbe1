#pragma once

#include "syntaxcolorizer.h"

#include <QPalette>
#include <QSyntaxHighlighter>

#include <map>

namespace Ui {

/// Colours code in a QTextDocument through SyntaxColorizer, so that it looks like code
/// anywhere else in the window: either every block in one language (a command under review)
/// or only the fenced code blocks of a markdown document, each in the language its info
/// string names ("```cpp"). Owned by the document it colours. Plain when the build has no
/// syntax highlighting. UI thread.
class CodeHighlighter final : public QSyntaxHighlighter
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CodeHighlighter)
public:
    /// Every block in \a language, a definition name ("Bash").
    CodeHighlighter(const QString &language, const QPalette &palette, QTextDocument *document);
    /// Every block in the language of \a fileName ("src/main.cpp"), as a diff of that file is
    /// coloured: an editor of a file's text.
    static CodeHighlighter *forFileName(const QString &fileName,
                                        const QPalette &palette,
                                        QTextDocument *document);
    /// Only the code fences of a document filled by QTextDocument::setMarkdown().
    CodeHighlighter(const QPalette &palette, QTextDocument *document);
    ~CodeHighlighter() override;

protected:
    void highlightBlock(const QString &text) override;

private:
    QString languageOf(const QTextBlock &block) const;
    SyntaxColorizer &colorizerFor(const QString &language);

    QPalette m_palette;
    QString m_language; ///< empty: each code fence in the language of its info string
    bool m_languageIsFileName = false; ///< m_language is a file name (forFileName)
    std::map<QString, std::unique_ptr<SyntaxColorizer>> m_colorizers; ///< by language
};

} // namespace Ui
