#pragma once

#include "modelselection.h"
#include "theme.h"

#include <lsp/lspserverconfig.h>
#include <permissions/permissionrule.h>
#include <tools/sandboxpolicy.h>

#include <QList>
#include <QMap>

#include <optional>

QT_BEGIN_NAMESPACE
class QSettings;
QT_END_NAMESPACE

namespace AgentCore {
struct LanguageServerOptions;
} // namespace AgentCore

namespace Ui {

/// What the settings dialog edits and QSettings keeps. A plain value; never holds an API key
/// (keys live in the KeyStore).
struct AppSettings
{
    /// The Bash rules of \a lines (empty lines skipped); the others are appended to \a invalid.
    static QList<AgentCore::PermissionRule> parseNetworkRules(const QStringList &lines,
                                                              QStringList *invalid = nullptr);

    static constexpr int maxRecentModels = 6;

    /// nullopt: nothing configured, the window runs the offline demo.
    std::optional<ModelSelection> model;
    /// The models used lately, the latest first, at most maxRecentModels, no duplicates: the
    /// status bar's model menu.
    QList<ModelSelection> recentModels;
    int maxTurns = 0; ///< 0: unlimited
    /// Summarise the conversation's older part when it nears the model's window (and when the
    /// provider refuses a request as too long); off: only "Compact now" does.
    bool autoCompact = true;
    /// Bash commands in the sandbox (bubblewrap): on (without bwrap they run as they are, said
    /// once), off, or required (without bwrap they are refused).
    AgentCore::SandboxMode sandboxMode = AgentCore::SandboxMode::On;
    /// Sandboxed commands may use the network (off: not even this computer's 127.0.0.1).
    bool sandboxNetwork = false;
    /// With the network off: the Bash commands that get it anyway, as rules of the permission
    /// language, one a line (`Bash(npm install:*)`); see AgentCore::NetworkRules.
    QStringList sandboxNetworkRules;
    /// More paths of the home sandboxed commands may read (one a line, `~/` allowed), beyond
    /// its allow-list (AgentCore::SandboxHome): the home is hidden but for those.
    QStringList sandboxReadablePaths;
    /// sandboxReadablePaths made absolute (`~/` expanded), empty lines skipped.
    QStringList expandedReadablePaths() const;
    /// "Review shell writes": in default mode a Bash command that is not read-only runs on an
    /// overlay of the repository and what it wrote opens as a review; only what the user
    /// accepts reaches the repository. Needs bubblewrap 0.9 or newer; without it commands
    /// write directly, as when this is off.
    bool reviewShellWrites = true;
    /// A desktop notification (and the taskbar's urgency hint) while the window is not active,
    /// when a session waits for an approval, and when its task finished or failed.
    bool notifyApprovals = true;
    bool notifyFinished = true;
    Theme theme = Theme::System;
    /// "": the system's language; else a code of Translations::available() ("zh_CN").
    QString language;

    /// The user's MCP servers, as the text of an .mcp.json (`{"mcpServers": {...}}`), for
    /// every repository; references (`${VAR}`, `${keyring:NAME}`) stay unexpanded here.
    QString mcpServers;
    /// Changes are checked by language servers (AgentCore::LanguageServerOptions).
    bool languageServers = true;
    /// The servers looked for, in the order a language prefers them; empty: the defaults
    /// (AgentCore::LspServerConfig::defaults()).
    QList<AgentCore::LspServerConfig> languageServerConfigs;
    /// The names of the servers switched off.
    QStringList disabledLanguageServers;
    /// The most an Edit or Write waits for its check, in seconds; 0: the default (3 s).
    int languageServerWaitSeconds = 0;
    static constexpr int maxLanguageServerWaitSeconds = 60;
    /// These settings applied to \a options (a session's).
    void applyLanguageServers(AgentCore::LanguageServerOptions &options) const;

    /// The MCP servers the user switched off (Ui::McpServerEntry::key; a repository's servers
    /// with the repository's root before it).
    QStringList disabledMcpServers;

    /// The context window of each model the catalog does not know (a local server's), as the
    /// user gave it, in tokens, by contextWindowKey().
    QMap<QString, qint64> contextWindows;
    /// What the user may give as a window: a smaller one leaves no room for the system prompt
    /// and tools, a larger one is no model's.
    static constexpr qint64 minContextWindow = 1024;
    static constexpr qint64 maxContextWindow = 10'000'000;

    /// One model at one endpoint, whatever the thinking level.
    static QString contextWindowKey(const ModelSelection &selection);
    /// The window of \a selection's model: the catalog's (AgentCore::contextWindowTokens),
    /// else the user's; nullopt when neither knows it.
    std::optional<qint64> contextWindow(const ModelSelection &selection) const;

    /// Puts \a selection first in recentModels (moving it if already there) and trims the list.
    void rememberModel(const ModelSelection &selection);

    /// Defaults for keys that are missing or that this version cannot read.
    static AppSettings load(const QSettings &settings);
    void save(QSettings &settings) const;

    friend bool operator==(const AppSettings &, const AppSettings &) = default;
};

} // namespace Ui
