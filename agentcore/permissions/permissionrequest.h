#pragma once

#include "bashanalysis.h"
#include "permissionrule.h"
#include "proposalcheck.h"

#include <tools/sandboxpolicy.h>
#include <tools/shellwrite.h>
#include <tools/unifieddiff.h>

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>

#include <optional>

namespace AgentCore {

/// Everything a reviewer needs to decide on one tool call. A value; crosses threads.
struct PermissionRequest
{
    quint64 id = 0; ///< unique per PermissionBroker
    QString toolCallId;
    QString toolName;
    QJsonObject arguments;
    QString reason; ///< why it asks ("Edit asks in default mode", "reads outside the repository")
    /// Who asks: empty for the main agent, else the subagent making the call, as
    /// "TYPE: DESCRIPTION" ("explore: Find the SSE parser"), for the review area and the inbox.
    QString subagent;

    // Edit and Write: the change against the file as it is now.
    QString filePath;    ///< absolute
    QString displayPath; ///< relative to the repository when inside
    QString oldText;     ///< current content ("" for a new file)
    QString newText;     ///< content after the change
    /// oldText -> newText, computed once by the review: the reviewer is shown these hunks,
    /// PermissionAnswer::rejectedHunks index them, and a partial apply splices exactly them.
    UnifiedDiff diff;
    bool newFile = false;
    /// What a language server finds newText would introduce, checked while the review is
    /// shown (PermissionGate::checkProposal); not valid when nothing checks the file.
    QFuture<ProposalCheck> proposalCheck;

    // A Bash command's writes, reviewed after it ran on an overlay of the repository
    // (ShellWritesReview): what it changed, each accepted or rejected on its own.
    QList<ShellWrite> shellWrites; ///< empty: not a writes review
    QString commandOutput;         ///< what the command printed, shown with its changes

    // Bash
    std::optional<BashAnalysis> bash;
    QString workingDirectory;
    int timeoutMs = 0; ///< the call's timeout argument, or BashTool's default
    /// Whether the command will run in the sandbox, with network or not (the workspace's
    /// policy, decided when the review is made); nullopt without a workspace.
    std::optional<SandboxDecision> sandbox;

    /// What "always allow" would write (e.g. `Bash(npm test:*)`, `Edit(src/**)`); the UI may
    /// offer a choice. The first is the default.
    QList<PermissionRule> suggestedRules;
};

/// A reviewer's answer.
struct PermissionAnswer
{
    enum class Choice {
        AllowOnce,
        AllowSession, ///< adds the rule to the session's policy
        AllowAlways,  ///< also writes the rule to the project's local settings
        Deny,         ///< feedback goes to the model in the error result
    };
    Choice choice = Choice::Deny;
    QString feedback;
    /// For AllowSession/AllowAlways; default: suggested[0], or for a compound command the
    /// first suggestion of each simple command (PermissionReview::defaultRules).
    std::optional<PermissionRule> rule;
    /// Edit/Write, AllowOnce/AllowSession/AllowAlways: the hunks NOT to apply, as indexes into
    /// request.diff.hunks() (never into a diff computed again). The middleware has the tool
    /// apply only the other hunks and the result tells the model which hunks were rejected.
    /// All hunks rejected means a deny. Ignored otherwise.
    QList<int> rejectedHunks;
    /// Edit/Write, an allow: the user's own version of the whole file (LF line ends, as
    /// request.newText), written instead of the proposal (EditedChange). The review takes the
    /// rejected hunks out before the user edits, so this text already is what the user wants:
    /// rejectedHunks are then not applied again. The model is told the user's changes as a
    /// diff against its proposal. nullopt, or the proposal itself: the proposal as it is.
    std::optional<QString> userText;
    /// A writes review (request.shellWrites), an allow: the changes NOT to apply (indexes
    /// into request.shellWrites) and, per change, the hunks of it not to apply. A deny
    /// rejects every change.
    QList<int> rejectedWrites;
    QHash<int, QList<int>> rejectedWriteHunks;
};

} // namespace AgentCore

Q_DECLARE_METATYPE(AgentCore::PermissionRequest)
Q_DECLARE_METATYPE(AgentCore::PermissionAnswer)
