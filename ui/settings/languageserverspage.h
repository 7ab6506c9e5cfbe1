#pragma once

#include <lsp/lspserverconfig.h>

#include <QWidget>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QTableWidget;
QT_END_NAMESPACE

namespace Ui {

struct AppSettings;

/// Settings > Language servers: whether changes are checked at all, the longest an Edit or
/// Write waits for its check, and the servers looked for on PATH when a session starts, each
/// with a checkbox, its command, arguments and file suffixes (editable in place; Add, Remove,
/// Restore defaults). The first server found for a language is used. A new session takes the
/// changes. UI thread.
class LanguageServersPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LanguageServersPage)
public:
    explicit LanguageServersPage(QWidget *parent = nullptr);

    void load(const AppSettings &settings);
    /// Writes the page into \a settings; rows without a name, a command or a suffix are left
    /// out (problems() says which).
    void store(AppSettings &settings) const;
    /// Rows that cannot be used, one line each; empty when every row can.
    QStringList problems() const;

private:
    enum Column { Name, Command, Arguments, Suffixes };

    void setServers(const QList<AgentCore::LspServerConfig> &servers, const QStringList &disabled);
    void addRow(const AgentCore::LspServerConfig &config, bool enabled);
    /// The row as a server, when it is one.
    std::optional<AgentCore::LspServerConfig> serverAt(int row) const;
    void updateProblems();

    QCheckBox *m_enabled = nullptr;
    QSpinBox *m_wait = nullptr;
    QTableWidget *m_table = nullptr;
    QPushButton *m_remove = nullptr;
    QLabel *m_problems = nullptr;
};

} // namespace Ui
