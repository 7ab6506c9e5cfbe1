#pragma once

#include <QWidget>

QT_BEGIN_NAMESPACE
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTimer;
class QToolButton;
QT_END_NAMESPACE

namespace Ui {

class CodeHighlighter;

/// The user's own version of a proposed change, in a review (DiffReviewView's edit mode): the
/// text the file will have, editable, syntax coloured like the diff, with undo and redo, the
/// lines the user changed marked and counted against the text it started from, and "Apply my
/// version". Esc leaves it, asking first (in the view, not a dialog) when there is something
/// to lose. Knows nothing of requests or answers. UI thread.
class ProposalEditor final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ProposalEditor)
public:
    explicit ProposalEditor(QWidget *parent = nullptr);

    /// Starts editing \a text, a file named \a fileName (for its colours), with \a note above
    /// it saying where the text comes from. Undo history starts here.
    void start(const QString &fileName, const QString &text, const QString &note);
    QString text() const;
    /// The text differs from the one start() was given.
    bool isModified() const;
    /// "Apply my version" is offered only while this is true and the text is modified (false:
    /// the version would change nothing, with \a reason as the button's tooltip).
    void setApplyEnabled(bool enabled, const QString &reason = {});
    QPlainTextEdit *textEdit() const { return m_edit; }
    /// Esc: leaves at once when nothing would be lost, else asks (leaveRequested() follows
    /// only a confirmed "Discard my changes").
    void requestLeave();
    /// Whether the question "discard your changes?" is showing.
    bool isAskingToDiscard() const;

signals:
    void textEdited();
    void applyRequested();
    /// The user leaves the editor; what they typed is dropped.
    void leaveRequested();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void updateMarks();
    void updateButtons();
    void askToDiscard(bool ask);

    QString m_start;
    QString m_fileName;
    bool m_applyAllowed = true;
    QString m_applyReason;
    QLabel *m_note;
    QToolButton *m_undo;
    QToolButton *m_redo;
    QLabel *m_stats;
    QPushButton *m_discard;
    QPushButton *m_apply;
    QWidget *m_question;
    QPlainTextEdit *m_edit;
    CodeHighlighter *m_highlighter = nullptr;
    QTimer *m_marksTimer;
};

} // namespace Ui
