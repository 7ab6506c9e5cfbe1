#pragma once

#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace AgentCore {

/// The agent's events a hook can run on, spelled as in Claude Code's settings.
/// SubagentStop is not among them: it comes with subagents (issue 37), which AgentDesk does not
/// have yet; a settings file naming it is read without error and its hooks never run.
enum class HookEventName {
    PreToolUse,
    PostToolUse,
    UserPromptSubmit,
    Stop,
    SessionStart,
    SessionEnd,
    PreCompact,
    Notification,
    SubagentStop, ///< a subagent (the Task tool's child run) would end
};

/// "PreToolUse", ...
QString hookEventNameText(HookEventName event);
/// The event called \a name (case-sensitive, as Claude Code); nullopt for any other.
std::optional<HookEventName> hookEventFromName(QStringView name);

/// Whether \a matcher selects \a value (a tool name, or SessionStart's source, PreCompact's
/// trigger): Claude Code's rules. Empty or "*": everything; a name made of letters, digits,
/// `_`, `-` and `|` is a list of exact alternatives ("Edit|Write"); anything else is a regular
/// expression that must match the whole value ("mcp__github__.*"). An invalid expression
/// matches nothing.
bool hookMatcherSelects(const QString &matcher, const QString &value);

/// One hook command, where it came from and what it runs on.
struct HookEntry
{
    HookEventName event = HookEventName::PreToolUse;
    QString matcher; ///< empty: every tool (or every call of an event without tools)
    QString command; ///< run by /bin/sh -c, in the repository's root
    int timeoutSeconds = 60;
    QString file;             ///< the settings file it was read from
    QString sourceLabel;      ///< for people: "user settings", "project settings", ...
    bool fromProject = false; ///< a repository's file: runs only when trusted

    /// How the trust dialog and the trust store spell it: "hook: PreToolUse Bash: ./check.sh".
    QString grant() const;
    friend bool operator==(const HookEntry &, const HookEntry &) = default;
};

/// The hooks of every settings file, read once when a session starts (a file changed on disk
/// later waits for the next start). A value; crosses threads.
///
/// The files are hostile input: each is read only up to maxFileBytes, at most maxHooks hooks in
/// all, commands up to maxCommandLength; what does not fit the format is skipped with an error
/// naming the file and the JSON path ("…/settings.json: hooks.PreToolUse[0].hooks[1].timeout:
/// not a number").
struct HookConfig
{
    static constexpr qint64 maxFileBytes = 1024 * 1024;
    static constexpr int maxHooks = 200;
    static constexpr int maxCommandLength = 16 * 1024;
    static constexpr int maxTimeoutSeconds = 3600;

    QList<HookEntry> hooks;
    QStringList errors;

    /// Adds the hooks of \a settings's "hooks" key, read from \a file.
    void addFrom(const QJsonObject &settings,
                 const QString &file,
                 const QString &sourceLabel,
                 bool fromProject);
    /// Adds the hooks of the settings file \a file; a missing file adds nothing, an unreadable
    /// or malformed one an error.
    void addFile(const QString &file, const QString &sourceLabel, bool fromProject);

    /// The files AgentDesk reads hooks from, in order: the user's settings (\a userSettings,
    /// empty: none), then the repository's .agentdesk/settings.json and settings.local.json,
    /// then, for compatibility, its .claude/settings.json and .claude/settings.local.json.
    static HookConfig load(const QString &userSettings, const QString &repositoryRoot);

    /// The project hooks' grants (HookEntry::grant), for the trust dialog.
    QStringList projectGrants() const;
    /// Without the project hooks whose grant \a trusted does not accept; those removed are
    /// listed in \a untrusted.
    HookConfig trustedOnly(const std::function<bool(const QString &grant)> &trusted,
                           QStringList *untrusted) const;
    /// The hooks of \a event whose matcher selects \a value, in file order.
    QList<HookEntry> matching(HookEventName event, const QString &value = {}) const;
    bool has(HookEventName event) const;
};

} // namespace AgentCore

Q_DECLARE_METATYPE(AgentCore::HookEntry)
