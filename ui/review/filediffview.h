#pragma once

#include <QWidget>

namespace AgentCore {
class UnifiedDiff;
}

QT_BEGIN_NAMESPACE
class QLabel;
class QStackedWidget;
class QToolButton;
QT_END_NAMESPACE

namespace Ui {

class DiffTextView;

/// What a session changed in one file, read-only: the file as it is now against the last
/// commit (git HEAD; a file not in HEAD counts as new), in the review's diff display (unified,
/// syntax coloured, changed words marked). HEAD is the baseline because it is what the
/// repository itself knows: it survives resume and restart with nothing stored, matches what
/// `git diff` and the next commit show, and is never a guess (rebuilding the content before
/// the session from its recorded diffs breaks as soon as anything else touched the file).
/// Changes made before the session and not committed show too; the note under the title says
/// what the diff is against. A file that cannot be shown (gone, binary, unreadable) shows why
/// instead. The file is read, `git cat-file` run and the diff worked out on a worker thread
/// (runInBackground): meanwhile the view says it is reading (isLoading()), and fileShown()
/// follows on the UI thread. UI thread.
class FileDiffView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FileDiffView)
public:
    explicit FileDiffView(QWidget *parent = nullptr);
    ~FileDiffView() override;

    /// Shows the change of \a filePath (absolute) in the repository at \a repositoryRoot. The
    /// title is set at once; the rest once the file and HEAD's copy were read off the UI
    /// thread, then fileShown(). A later showFile() drops this one's result.
    void showFile(const QString &repositoryRoot, const QString &filePath);
    /// Offers "Revert This File" (revertRequested()): for a file the session changed, whose
    /// state before that the checkpoints hold. Off by default.
    void setRevertable(bool revertable);
    /// The file of showFile() is being read: the view says so.
    bool isLoading() const { return m_loading; }
    /// Shows the change from \a before to \a after (a file's bytes; empty for an absent
    /// side) under \a title and \a note, coloured for \a fileName's language: a change that
    /// is not the file's against HEAD (the rewind dialog's). False when it cannot be shown as
    /// text (binary); errorText() then says why.
    bool showChange(const QString &title,
                    const QString &note,
                    const QString &fileName,
                    const QByteArray &before,
                    const QByteArray &after);

    QString filePath() const { return m_path; }
    /// The message shown instead of a diff: why it cannot be shown, or that the file has no
    /// change left; empty when a diff is shown.
    QString errorText() const;
    /// The title line, e.g. "Changes to src/main.cpp".
    QString title() const;
    /// What the diff is against, e.g. "Compared with the last commit (HEAD)."
    QString baselineNote() const;
    /// The diff as shown (gutter and lines), empty when none is.
    QString diffText() const;
    int additions() const { return m_additions; }
    int deletions() const { return m_deletions; }

    static constexpr qint64 maxBytes = 8 * 1024 * 1024;

signals:
    /// showFile()'s result is shown; \a ok false when the file cannot be shown (errorText()
    /// says why, in the view too).
    void fileShown(bool ok);
    /// The user asked to open the file in the desktop's editor.
    void openInEditorRequested(const QString &path);
    /// The user asked to bring the file back to how it was before the session changed it.
    void revertRequested(const QString &path);

private:
    struct FileRead;
    /// On a worker thread: the file, its HEAD copy and their diff.
    static FileRead readFile(const QString &repositoryRoot,
                             const QString &filePath,
                             const QString &relative);
    void showRead(const FileRead &read, const QString &shown);
    void fail(const QString &message);
    /// Shows \a diff coloured for \a fileName; false when it is empty.
    bool showDiff(const QString &fileName, const AgentCore::UnifiedDiff &diff);

    QString m_path;
    quint64 m_request = 0; ///< only the latest showFile() shows its result
    bool m_loading = false;
    int m_additions = 0;
    int m_deletions = 0;
    QLabel *m_title;
    QLabel *m_stats;
    QLabel *m_note;
    QToolButton *m_openInEditor;
    QToolButton *m_revert;
    QStackedWidget *m_stack;
    DiffTextView *m_diff;
    QLabel *m_error;
};

} // namespace Ui
