#pragma once

#include "hookconfig.h"

#include <ai/aborttoken.h>

#include <QByteArray>
#include <QJsonObject>
#include <QMutex>
#include <QProcessEnvironment>

#include <functional>
#include <optional>

namespace AgentCore {

/// What one hook command did. A value; crosses threads.
struct HookRun
{
    static constexpr qsizetype maxKeptBytes = 64 * 1024; ///< of stdout and of stderr, each
    /// A hook that writes more than this in all is killed: a flood stops at its cap, not at
    /// its timeout.
    static constexpr qsizetype maxFloodBytes = 4 * 1024 * 1024;

    HookEntry hook;
    QString toolCallId; ///< the tool call it ran for (PreToolUse, PostToolUse); else empty
    int exitCode = -1;
    bool timedOut = false;
    bool flooded = false; ///< killed for writing more than maxFloodBytes
    QString startError;   ///< could not start, or crashed
    QByteArray out;       ///< stdout, the first maxKeptBytes
    QByteArray err;       ///< stderr, the first maxKeptBytes
    bool outputCapped = false;
    qint64 elapsedMs = 0;
    /// stdout, when it is one JSON object.
    std::optional<QJsonObject> json;

    /// Exit 2: blocks (stderr goes to the model).
    bool blocks() const { return exitCode == 2 && !timedOut && !flooded && startError.isEmpty(); }
    /// Neither 0 nor 2, a timeout, a flood, a failed start: shown to the user, not blocking.
    bool failed() const { return !blocks() && exitCode != 0; }
    /// For people: "ok", "blocked (exit 2)", "exit 1", "timed out after 60 s", ...
    QString outcomeText() const;
    /// The "hook" line of stream-json (docs/stream-json.md).
    QJsonObject toJson() const;
};

/// What the hooks matched by one event decided, together.
struct HookOutcome
{
    QList<HookRun> runs;
    /// Exit 2, `decision: "block"`, or PreToolUse's `permissionDecision: "deny"`; the reason
    /// goes to the model (PreToolUse, PostToolUse, Stop) or the user (UserPromptSubmit).
    bool blocked = false;
    QString blockReason;
    /// PreToolUse: "allow", "ask" or "deny" (deny also sets blocked); empty: none said.
    QString permissionDecision;
    QString permissionReason;
    /// PreToolUse: the tool input to run instead (hookSpecificOutput.updatedInput).
    std::optional<QJsonObject> updatedInput;
    /// additionalContext of each hook, for the model.
    QStringList additionalContext;
    /// `continue: false`: the agent stops after this event, with stopReason for the user.
    bool stop = false;
    QString stopReason;
    /// For the user, not blocking: failed hooks' stderr, systemMessage.
    QStringList userMessages;
};

/// Runs the hooks of one session: the user's own commands, outside the sandbox, as the user,
/// in the repository's root with /bin/sh -c, each in a process group of its own (killed
/// whole at its timeout, a flood or an abort), the event as JSON on stdin with Claude Code's
/// field names. Project hooks run only once trusted. Blocking: call it off the UI thread (the tool's, the loop's or a worker
/// thread). Hooks matched by one event run one after the other, in file order. Thread-safe
/// (const; the report callback is called on the calling thread).
class HookRunner final
{
public:
    struct Session
    {
        QString sessionId;
        QString transcriptPath; ///< the session file; empty when nothing is recorded
        QString cwd;            ///< the repository's root
        QProcessEnvironment environment;
    };
    using Report = std::function<void(const HookRun &run)>;

    /// \a config holds every hook read; those from a repository's files run only once
    /// \a trusted accepts their grant (HookEntry::grant), now or later (trust()).
    HookRunner(HookConfig config,
               Session session,
               const std::function<bool(const QString &grant)> &trusted,
               Report report = {});

    /// Every hook read, trusted or not (Settings lists them), with the files' errors.
    const HookConfig &config() const { return m_config; }
    /// The hooks that run: the user's, and the project's that are trusted.
    HookConfig active() const;
    bool has(HookEventName event) const;
    /// The project hooks' grants not accepted yet (the trust dialog lists them).
    QStringList untrustedGrants() const;
    /// The user accepted \a grants: those hooks run from now on.
    void trust(const QStringList &grants);

    /// Runs the hooks of \a event selected by \a matchValue with \a fields (tool_name,
    /// tool_input, prompt, ...) added to the common ones (session_id, transcript_path, cwd,
    /// hook_event_name), and combines what they said. Returns at once when none match.
    HookOutcome run(HookEventName event,
                    const QString &matchValue,
                    const QJsonObject &fields,
                    const AbortToken &abort = {},
                    const QString &toolCallId = {}) const;

    /// One command with \a input on stdin (exposed for tests).
    static HookRun runOne(const HookEntry &hook,
                          const QByteArray &input,
                          const QString &cwd,
                          const QProcessEnvironment &environment,
                          const AbortToken &abort = {});

private:
    HookConfig m_config;
    Session m_session;
    Report m_report;
    mutable QMutex m_mutex;
    QStringList m_untrusted; // under m_mutex
};

} // namespace AgentCore

Q_DECLARE_METATYPE(AgentCore::HookRun)
