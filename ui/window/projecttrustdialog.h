#pragma once

#include <QDialog>
#include <QStringList>

class QListWidget;
class QPushButton;

namespace Ui {

/// Shows what a repository's own settings files (.agentdesk/) ask for beyond the user's
/// settings (allow rules, a permissive mode, more writable folders), which AgentDesk did not
/// apply, and lets the user trust them (accept()) or not (reject()), as VS Code's workspace
/// trust does. Shown once per session start while there is something not yet accepted.
/// The one place a repository's files are trusted: also the MCP servers of its .mcp.json,
/// which run code (Subject::McpServers, the servers' command lines as the grants).
class ProjectTrustDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ProjectTrustDialog)
public:
    enum class Subject { Settings, McpServers };

    ProjectTrustDialog(const QString &repository,
                       const QStringList &grants,
                       QWidget *parent = nullptr);
    ProjectTrustDialog(Subject subject,
                       const QString &repository,
                       const QStringList &grants,
                       QWidget *parent = nullptr);

    QStringList grants() const { return m_grants; }

private:
    QStringList m_grants;
    QListWidget *m_list = nullptr;
    QPushButton *m_trust = nullptr;
    QPushButton *m_distrust = nullptr;
};

} // namespace Ui
