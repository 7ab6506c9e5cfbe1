#pragma once

#include <QList>
#include <QRect>
#include <QString>
#include <QStringView>

#include <memory>
#include <vector>

QT_BEGIN_NAMESPACE
class QPainter;
QT_END_NAMESPACE

namespace Ui {

struct ConversationStyle;
class SyntaxColorizer;

/// Tool output or a diff: plain lines in a fixed-pitch font, never wrapped (long lines are
/// elided), capped to the first and last few lines until expanded. No QTextDocument: painting
/// costs only the visible lines, so 100 KB of output is as cheap as ten lines.
class LineBlock
{
public:
    enum class Style { Output, Diff, Error };

    LineBlock();
    ~LineBlock();
    LineBlock(const LineBlock &) = delete;
    LineBlock &operator=(const LineBlock &) = delete;

    void setText(const QString &text);
    /// The text without its trailing newlines.
    QStringView text() const { return QStringView(m_text).left(m_size); }
    /// The text as given, trailing newlines included (shared, not copied).
    const QString &givenText() const { return m_text; }
    bool isEmpty() const { return m_size == 0; }
    int lineCount() const { return m_lineCount; }
    void setStyle(Style style) { m_style = style; }
    /// Output lines that are a file's lines as Read numbers them ("  12<tab>code"): the code
    /// is syntax coloured for the language of fileName, as a code block is. Empty: plain.
    void setCodeFileName(const QString &fileName);
    /// Lines at the start and the end that are notes about the output (a summary, "[Showing
    /// the first 100 ...]"), not part of it: "show all N" counts the others.
    void setNoteLines(int leading, int trailing);
    /// Lines shown while collapsed: the first head and the last tail.
    void setCap(int head, int tail);
    bool isCapped() const { return !m_pagedLabel.isEmpty() || m_lineCount > m_head + m_tail + 1; }
    /// Non-empty: the text is only the beginning of a paged output (SessionPages): while
    /// collapsed the first head lines show, then a toggle row that reads \a label ("⋯ 96 KB
    /// more (show all)", "Loading…"); the tail is not known.
    void setPagedLabel(const QString &label) { m_pagedLabel = label; }
    bool isPaged() const { return !m_pagedLabel.isEmpty(); }
    bool isExpanded() const { return m_expanded; }
    void setExpanded(bool expanded) { m_expanded = expanded; }

    int height(const ConversationStyle &style) const;
    /// Paints into rect (its height is height()); clip in the same coordinates.
    void paint(QPainter *painter,
               const QRect &rect,
               const QRect &clip,
               const ConversationStyle &style) const;
    /// The "show all / show fewer" row inside rect, empty when the block is not capped.
    QRect toggleRect(const QRect &rect, const ConversationStyle &style) const;
    /// The lines as shown (collapsed: head, a marker line, tail).
    QString visibleText() const;
    /// Frees the line index; it is rebuilt on the next paint.
    void release();

private:
    int rowCount() const;
    int toggleRow() const; ///< -1 without one
    int lineOfRow(int row) const;
    QStringView line(int index) const;
    QString toggleLabel() const;
    /// Colours of the code of each line (setCodeFileName), computed on first paint.
    void colorize(const ConversationStyle &style) const;
    struct CodeLine;
    void paintCode(QPainter *painter,
                   const QRect &rowRect,
                   QStringView text,
                   const CodeLine &code,
                   const ConversationStyle &style) const;

    QString m_text; ///< as given (shared), trailing newlines included
    qsizetype m_size = 0;
    int m_lineCount = 0;
    int m_head = 4;
    int m_tail = 4;
    bool m_expanded = false;
    Style m_style = Style::Output;
    int m_leadingNotes = 0;
    int m_trailingNotes = 0;
    QString m_codeFileName;
    QString m_pagedLabel;
    mutable std::vector<CodeLine> m_codeLines; ///< per line, when coloured
    mutable QList<qsizetype> m_starts;         ///< start of each line, built when first needed
};

} // namespace Ui
