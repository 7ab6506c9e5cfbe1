#pragma once

#include <permissions/permissionrequest.h>

#include <QWidget>

QT_BEGIN_NAMESPACE
class QLabel;
class QPlainTextEdit;
class QTreeWidget;
class QTreeWidgetItem;
QT_END_NAMESPACE

namespace Ui {

class DiffTextView;
class ElidedLabel;
class ReviewAnswerBar;

/// Review of what a Bash command wrote on an overlay of the repository
/// (PermissionRequest::shellWrites): its output, then its changes in a tree, a checkbox per
/// changed path and, under a text file changed in place, per hunk; the selected path's diff
/// (or what happened to it: deleted, binary, mode, link) beside. At most
/// ShellWritesReview::maxShown paths are listed (a note says how many more); "Check all" and
/// "Uncheck all" cover those too. "Apply checked" answers with the unchecked ones rejected,
/// "Reject all" rejects everything. Never takes the focus by itself. UI thread.
class ShellWritesReviewView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ShellWritesReviewView)
public:
    explicit ShellWritesReviewView(QWidget *parent = nullptr);
    ~ShellWritesReviewView() override;

    void setRequest(const AgentCore::PermissionRequest &request);
    quint64 requestId() const { return m_request.id; }

    /// Checks or unchecks change \a change (index into shellWrites), or its hunk \a hunk.
    void setChangeAccepted(int change, bool accepted);
    void setHunkAccepted(int change, int hunk, bool accepted);
    void selectChange(int change);
    /// The answer "Apply checked" would give now (rejectedWrites, rejectedWriteHunks).
    AgentCore::PermissionAnswer currentAnswer() const;
    /// The diff or description shown for the selected change.
    QString shownText() const;

signals:
    void answered(quint64 requestId, const AgentCore::PermissionAnswer &answer);

private:
    void fill();
    void showChange(int change);
    void setAll(bool accepted);
    void updateMarks();
    QTreeWidgetItem *itemOf(int change) const;

    AgentCore::PermissionRequest m_request;
    bool m_filling = false;
    int m_shown = -1;
    bool m_allUnchecked = false; ///< "Uncheck all" also covers the changes not listed
    ElidedLabel *m_title;        ///< "Review what the command wrote: …", one line
    QLabel *m_reason;
    QPlainTextEdit *m_output;
    QTreeWidget *m_tree;
    QLabel *m_capNote;
    QLabel *m_about;
    DiffTextView *m_diff;
    ReviewAnswerBar *m_answers;
};

} // namespace Ui
