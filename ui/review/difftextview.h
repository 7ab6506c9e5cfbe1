#pragma once

#include "diffhighlighter.h"
#include "difflayout.h"

#include <permissions/proposalcheck.h>

#include <QHash>
#include <QPlainTextEdit>
#include <QSet>

namespace Ui {

/// One read-only pane of a diff: a QPlainTextEdit over one document, so a diff of many
/// thousand lines costs no widget per line. Lines get their formats when first painted, not
/// all at once; line backgrounds (added, removed, hunk headers, fillers, rejected hunks) are
/// painted under the text. UI thread.
class DiffTextView final : public QPlainTextEdit
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DiffTextView)
public:
    explicit DiffTextView(QWidget *parent = nullptr);

    void setPane(DiffPane pane);
    const DiffPane &pane() const { return m_pane; }
    /// Hunks shown as rejected (greyed); the view does not change them itself.
    void setRejectedHunks(const QSet<int> &hunks);
    void scrollToHunk(int hunk);
    /// Marks the lines of the new text these problems are on (a bar in the error or warning
    /// colour at the line's start, the messages as its tooltip); empty: none.
    void setProblems(const QList<AgentCore::ProposalProblem> &problems);
    /// The new text's lines marked, 1-based.
    QList<int> problemLines() const { return m_problems.keys(); }
    /// Scrolls \a line of the new text into view; false when the pane does not show it.
    bool scrollToNewLine(int line);

protected:
    void paintEvent(QPaintEvent *event) override;
    void changeEvent(QEvent *event) override;
    bool viewportEvent(QEvent *event) override;

private:
    QColor backgroundOf(const DiffLine &line) const;
    void formatVisibleLines();

    DiffPane m_pane;
    DiffColors m_colors;
    DiffHighlighter m_highlighter;
    QList<bool> m_formatted; ///< parallel to m_pane.lines
    QSet<int> m_rejected;
    QHash<int, QList<AgentCore::ProposalProblem>> m_problems; ///< by line of the new text
};

} // namespace Ui
