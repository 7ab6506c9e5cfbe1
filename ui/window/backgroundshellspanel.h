#pragma once

#include <QWidget>

#include <memory>

QT_BEGIN_NAMESPACE
class QLabel;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QTimer;
QT_END_NAMESPACE

namespace AgentCore {
class BackgroundShells;
}

namespace Ui {

/// The side panel's background commands of the shown session (Bash with run_in_background):
/// one row per command, its state (running, its exit code, stopped) and command line, the
/// selected one's last lines of output below it, live, and Stop (the button, or Del in the
/// list) to end it: TERM to its process group, KILL after the grace period, without waiting.
/// Hidden while the session has started none. Reads only what BackgroundShells keeps in
/// memory; never waits for a process.
class BackgroundShellsPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BackgroundShellsPanel)
public:
    /// The output shown of the selected command, at most.
    static constexpr qsizetype shownBytes = 16 * 1024;

    explicit BackgroundShellsPanel(QWidget *parent = nullptr);
    ~BackgroundShellsPanel() override;

    QSize sizeHint() const override;

    /// Shows \a shells' commands (the shown session's; null: none).
    void setShells(std::shared_ptr<AgentCore::BackgroundShells> shells);

    /// The rows as shown: "running  python3 -m http.server".
    QStringList rows() const;
    /// The selected command's output as shown.
    QString shownOutput() const;
    QListWidget *listWidget() const { return m_list; }
    QPushButton *stopButton() const { return m_stop; }
    /// Stops the command in \a row; false when there is none or it has ended.
    bool stop(int row);

private:
    void refresh();
    void showSelected();

    std::shared_ptr<AgentCore::BackgroundShells> m_shells;
    QMetaObject::Connection m_changed;
    QTimer *m_refresh;
    QLabel *m_title;
    QListWidget *m_list;
    QPlainTextEdit *m_output;
    QPushButton *m_stop;
};

} // namespace Ui
