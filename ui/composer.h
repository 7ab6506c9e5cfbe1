#pragma once

#include <QPlainTextEdit>

QT_BEGIN_NAMESPACE
class QListView;
class QStringListModel;
QT_END_NAMESPACE

namespace Ui {

class RepositoryFiles;

/// The message box at the bottom of a conversation. Grows with its text up to a few lines.
///
/// Idle, Enter sends the text (submitted). While the agent runs, Enter steers the task
/// (steered), Alt+Enter queues a follow-up (followUpQueued) and Esc asks to stop
/// (stopRequested). Shift+Enter always starts a new line. Empty text is never sent; sent text
/// is cleared. The placeholder says what Enter does now.
///
/// `@` at the start of a word opens a list of the repository's files (setRepositoryRoot),
/// filtered as the user types; Tab or Enter puts the chosen path after the `@`, Esc closes the
/// list. The files are listed off the UI thread.
class Composer final : public QPlainTextEdit
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Composer)
public:
    /// At most this many lines are shown before the box scrolls.
    static constexpr int maxVisibleLines = 6;

    explicit Composer(QWidget *parent = nullptr);
    ~Composer() override;

    void setRunning(bool running);
    bool isRunning() const { return m_running; }
    /// A review waits for an answer: the placeholder says which keys answer it (the owner
    /// forwards them, see ConversationPage).
    void setReviewWaiting(bool waiting);

    /// The repository whose files `@` offers; listing them starts now, in the background.
    void setRepositoryRoot(const QString &root);
    /// The file list behind `@` (for the owner to refresh, and for tests).
    RepositoryFiles *repositoryFiles() const { return m_files; }

    /// The paths the `@` list shows now (empty when it is closed).
    QStringList completions() const;
    bool isCompletionVisible() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void submitted(const QString &text);
    void steered(const QString &text);
    void followUpQueued(const QString &text);
    void stopRequested();

protected:
    bool event(QEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void focusOutEvent(QFocusEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    bool handleCompletionKey(QKeyEvent *event);
    void send(bool asFollowUp);
    void updatePlaceholder();
    void updateHeight();
    int heightForLines(int lines) const;

    /// Where the `@` word under the cursor starts (the position after the `@`), or -1.
    int mentionStart() const;
    void updateCompletion(bool mayOpen);
    void showCompletion();
    void hideCompletion();
    void moveCompletionSelection(int delta);
    void acceptCompletion(int row);

    bool m_running = false;
    bool m_reviewWaiting = false;
    RepositoryFiles *m_files = nullptr;
    QListView *m_popup = nullptr;
    QStringListModel *m_matches = nullptr;
    bool m_insertingCompletion = false;
    bool m_completionDismissed = false; // Esc closed the list: a new listing does not reopen it
};

} // namespace Ui
