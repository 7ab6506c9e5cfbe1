#pragma once

#include "agentsession/agentsession.h"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QLabel;
class QListWidget;
class QListWidgetItem;
class QStackedWidget;
QT_END_NAMESPACE

namespace Ui {

/// The side panel's list of files the agent changed in this session, with the lines added and
/// removed, newest change last. Double-click (or Enter) asks to show a file's changes; the
/// row's context menu also asks to revert it.
class ChangedFilesPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ChangedFilesPanel)
public:
    explicit ChangedFilesPanel(QWidget *parent = nullptr);
    ~ChangedFilesPanel() override;

    void setFiles(const QList<ChangedFile> &files);
    /// The rows as shown: "src/main.cpp +12 -3".
    QStringList rows() const;

signals:
    /// The user asked to open \a path (absolute).
    void openRequested(const QString &path);
    /// The user asked to bring \a path (absolute) back to how it was before the agent's first
    /// change to it ("Revert This File" in the row's menu).
    void revertRequested(const QString &path);

private:
    void activate(QListWidgetItem *item);

    QLabel *m_title;
    QStackedWidget *m_stack;
    QListWidget *m_list;
    QLabel *m_empty;
};

} // namespace Ui
