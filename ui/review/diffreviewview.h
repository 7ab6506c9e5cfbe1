#pragma once

#include <permissions/permissionrequest.h>

#include <QWidget>

QT_BEGIN_NAMESPACE
class QLabel;
class QListWidget;
class QStackedWidget;
class QToolButton;
QT_END_NAMESPACE

namespace Ui {

class DiffTextView;
class ElidedLabel;
class ProposalEditor;
class ProposalProblemsView;
class ReviewAnswerBar;

/// Review of an Edit or Write request: the change against the file as it is now, unified or
/// side by side, syntax coloured where the build can, changed words marked, a checkbox per
/// hunk (all checked at first), and the answer buttons. Never takes the focus by itself.
/// "Edit" (Ctrl+E) turns the new side into the user's own version (ProposalEditor): it starts
/// from the proposal with the unchecked hunks left out (the hunk choices are fixed while
/// editing, and the note above the editor says so), and an allowing answer then carries the
/// edited text (PermissionAnswer::userText): what the editor shows is what is written.
/// A language server's check of the proposal shows above the diff when it comes
/// (ProposalProblemsView), the lines it names marked in the new side.
/// UI thread.
class DiffReviewView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DiffReviewView)
public:
    explicit DiffReviewView(QWidget *parent = nullptr);
    ~DiffReviewView() override;

    void setRequest(const AgentCore::PermissionRequest &request);
    quint64 requestId() const { return m_request.id; }

    int hunkCount() const;
    /// Indexes into the request's diff.hunks() that are unchecked.
    QList<int> rejectedHunks() const;
    void setHunkAccepted(int hunk, bool accepted);

    /// The new side is being edited (startEditing()).
    bool isEditing() const;
    /// Opens the editor on the proposal less the unchecked hunks, with the keyboard in it.
    void startEditing();
    /// Back to the diff and the hunk choices; the edited text is dropped.
    void stopEditing();

    bool isSideBySide() const;
    void setSideBySide(bool sideBySide);

signals:
    /// The user started or left editing the proposal (the editor wants room).
    void editingChanged(bool editing);
    /// \a rejectedHunks: the unchecked hunks (whatever the choice), indexes as above; an
    /// allowing \a answer carries them too (PermissionAnswer::rejectedHunks).
    void answered(quint64 requestId,
                  const AgentCore::PermissionAnswer &answer,
                  const QList<int> &rejectedHunks);

private:
    void fillHeader();
    void fillHunks();
    void ensureSideBySide();
    void updateRejected();
    void updateAllowed();
    QString editNote(const QList<int> &rejected) const;
    void scrollToHunk(int hunk);
    void scrollToNewLine(int line);

    struct Private;
    std::unique_ptr<Private> d;
    AgentCore::PermissionRequest m_request;
    ElidedLabel *m_title; ///< "Edit <path>", one line, the path cut in its middle
    QLabel *m_stats;
    QLabel *m_reason;
    ProposalProblemsView *m_problems;
    QToolButton *m_sideBySide;
    QToolButton *m_edit;
    QListWidget *m_hunks;
    QStackedWidget *m_stack;
    DiffTextView *m_unified;
    DiffTextView *m_old;
    DiffTextView *m_new;
    ProposalEditor *m_editor;
    ReviewAnswerBar *m_answers;
};

} // namespace Ui
