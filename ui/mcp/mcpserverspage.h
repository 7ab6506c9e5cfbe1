#pragma once

#include <QPointer>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTreeWidget;
QT_END_NAMESPACE

namespace Ui {

class KeyStore;
class McpServers;

/// Settings > MCP servers: every server of the open repository and of the user's settings,
/// where it comes from, its state (starting, connected with its tools, failed with the
/// reason), a checkbox to switch it off (remembered), Restart and its log; each server's tools
/// below it, saying which run without asking (the server declares them read-only). The user's
/// own servers are edited as the text of an .mcp.json, the format every peer reads; their
/// secrets go to the keyring ("Store a secret…") and are named as `${keyring:NAME}`.
/// Restart, the checkboxes and the secrets act at once; the user's servers when the dialog is
/// accepted. UI thread; never waits for a server.
class McpServersPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(McpServersPage)
public:
    McpServersPage(const QString &userServers, KeyStore *keyStore, QWidget *parent = nullptr);

    /// The live servers to show (null: no repository is open; only the user's JSON is edited).
    void setServers(McpServers *servers);
    QString userServers() const;
    /// Why the user's servers' text cannot be used (empty: it can, or it is empty).
    QString userServersError() const;

private:
    void refresh();
    QString selectedKey() const;
    void showLog();
    void storeSecret();

    QPointer<McpServers> m_servers;
    QPointer<KeyStore> m_keyStore;
    QTreeWidget *m_tree = nullptr;
    QPushButton *m_restart = nullptr;
    QPushButton *m_log = nullptr;
    QPushButton *m_secret = nullptr;
    QLabel *m_problems = nullptr;
    QPlainTextEdit *m_userServers = nullptr;
    QLabel *m_userServersError = nullptr;
    bool m_refreshing = false;
};

} // namespace Ui
