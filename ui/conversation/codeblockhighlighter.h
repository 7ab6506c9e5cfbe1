#pragma once

#ifdef AGENTDESK_HAVE_SYNTAX_HIGHLIGHTING

#    include <KSyntaxHighlighting/AbstractHighlighter>
#    include <KSyntaxHighlighting/Definition>

#    include <QSyntaxHighlighter>

namespace Ui {

/// Colours the fenced code blocks of a markdown QTextDocument by their info string ("cpp",
/// "python", ...); other blocks are left alone. Owned by the document it highlights.
class CodeBlockHighlighter final : public QSyntaxHighlighter,
                                   public KSyntaxHighlighting::AbstractHighlighter
{
    Q_OBJECT
    Q_INTERFACES(KSyntaxHighlighting::AbstractHighlighter)
    Q_DISABLE_COPY_MOVE(CodeBlockHighlighter)
public:
    CodeBlockHighlighter(QTextDocument *document, bool dark);
    ~CodeBlockHighlighter() override;

protected:
    void highlightBlock(const QString &text) override;
    void applyFormat(int offset, int length, const KSyntaxHighlighting::Format &format) override;

private:
    KSyntaxHighlighting::Definition definitionFor(const QString &language);

    QString m_language; ///< the info string the current definition was chosen for
};

} // namespace Ui

#endif
