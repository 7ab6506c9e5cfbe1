#pragma once

#include "diffhighlighter.h"
#include "difflayout.h"

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

protected:
    void paintEvent(QPaintEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    QColor backgroundOf(const DiffLine &line) const;
    void formatVisibleLines();

    DiffPane m_pane;
    DiffColors m_colors;
    DiffHighlighter m_highlighter;
    QList<bool> m_formatted; ///< parallel to m_pane.lines
    QSet<int> m_rejected;
};

} // namespace Ui
