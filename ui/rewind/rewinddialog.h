#pragma once

#include "rewindfiles.h"

#include <context/rewind.h>

#include <QDialog>

QT_BEGIN_NAMESPACE
class QLabel;
class QListWidget;
class QPushButton;
class QRadioButton;
class QSplitter;
class QStackedWidget;
QT_END_NAMESPACE

namespace Ui {

class FileDiffView;

/// "Rewind to here": what to bring back (files and conversation, the conversation only, the
/// files only) and, for files, the change the rewind applies to each file, in the review's diff
/// display, with a check box per file to keep it as it is. A file the user changed since that
/// point (RewindFile::yours) is named as theirs and checked (kept) until the
/// user unchecks it (overwrite): their own work is never rewound unasked. Nothing changes until the user
/// confirms (Rewind); the caller does the rewind. What the rewind changes may take a while to
/// work out (a huge change): until setFiles() the dialog says it is computing, and only the
/// conversation can be rewound. Keyboard: Tab goes choice, files, the diff, Rewind, Cancel; the
/// arrows pick the choice and the file; Space toggles the current file's box; Enter rewinds
/// (Rewind is the default button); Esc cancels.
class RewindDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RewindDialog)
public:
    explicit RewindDialog(QWidget *parent = nullptr);
    ~RewindDialog() override;

    /// What the rewind goes back to: "your message “fix the parser”".
    void setTarget(const QString &description);
    /// While what the rewind changes is worked out: says so, with a busy bar; Rewind is
    /// enabled only for the conversation only. setFiles() ends it.
    void setComputing();
    bool isComputing() const { return m_computing; }
    /// The files side; \a preview.unavailable leaves the conversation only.
    void setFiles(const RewindFilesPreview &preview);
    const RewindFilesPreview &files() const { return m_preview; }

    AgentCore::Rewind::Scope scope() const;
    void setScope(AgentCore::Rewind::Scope scope);
    /// The files the user checked to keep as they are.
    QSet<QString> keptFiles() const;

    QRadioButton *bothButton() const { return m_both; }
    QRadioButton *conversationButton() const { return m_conversation; }
    QRadioButton *filesButton() const { return m_filesOnly; }
    QListWidget *fileList() const { return m_list; }
    FileDiffView *diffView() const { return m_diff; }
    QPushButton *rewindButton() const { return m_rewind; }
    QPushButton *cancelButton() const { return m_cancel; }
    /// The line under the choice: what the rewind will do.
    QString summaryText() const;

private:
    void showCurrentFile();
    void updateSummary();
    /// Gives the file list the width of its widest line (path and what happens to it), up
    /// to half the dialog: the rest is the diff's.
    void fitFileList();

    RewindFilesPreview m_preview;
    bool m_computing = false;
    QLabel *m_target;
    QRadioButton *m_both;
    QRadioButton *m_conversation;
    QRadioButton *m_filesOnly;
    QLabel *m_filesNote;
    QStackedWidget *m_filesStack;
    QSplitter *m_splitter;
    QListWidget *m_list;
    FileDiffView *m_diff;
    QLabel *m_noFiles;
    QWidget *m_computingPage;
    QLabel *m_summary;
    QPushButton *m_rewind;
    QPushButton *m_cancel;
};

} // namespace Ui
