#pragma once

#include "syntaxcolorizer.h"

#include <QSyntaxHighlighter>

namespace Ui {

/// Colours a whole document as one language (e.g. "Bash") through a SyntaxColorizer; plain
/// when the build has no syntax highlighting. UI thread.
class CodeHighlighter final : public QSyntaxHighlighter
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CodeHighlighter)
public:
    CodeHighlighter(const QString &language, QTextDocument *document);

protected:
    void highlightBlock(const QString &text) override;

private:
    SyntaxColorizer m_colorizer;
};

} // namespace Ui
