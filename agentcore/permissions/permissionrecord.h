#pragma once

#include "permissionpolicy.h"

#include <QString>
#include <QStringList>

namespace AgentCore {

/// What the permission layer did with one tool call, for the audit: the policy's decision
/// (behaviour, the rule that matched, its reason), how asking the person ended, and what the
/// allowed call got on its way (a network rule, a partial change, its reviewed writes). The
/// permission middleware fills it step by step; text() is the one place the audit's line is
/// written (ToolCallContext::permissionDecision), so the steps never concatenate strings.
struct PermissionRecord
{
    /// How asking the person ended.
    enum class Answer {
        None,                   ///< nobody was asked: the policy's decision stands
        NotAsked,               ///< not shown to anyone: the call cannot succeed as it is
        NobodyToAsk,            ///< denied: the decision asks and nobody can be asked
        Aborted,                ///< the call was stopped while waiting for the answer
        Denied,                 ///< the person denied it (feedback)
        DeniedEveryHunk,        ///< the person rejected every hunk of the change (feedback)
        AllowedOnce,            ///< for this call only
        AllowedOnceOwnSettings, ///< a change to AgentDesk's own settings: for this call only
        AllowedForSession,      ///< rememberedRules added for the session
        AlwaysAllowed,          ///< rememberedRules written to the settings (notSaved: failures)
    };
    /// What became of the writes of a command run on an overlay of the repository.
    enum class Writes {
        Direct,            ///< no overlay: the command wrote to the repository itself
        NotReviewed,       ///< the overlay could not be made (writesError): ran without it
        Lost,              ///< what it wrote could not be read back (writesError)
        DiscardedAborted,  ///< the command was stopped: its writes were dropped
        DiscardedInReview, ///< the review was stopped: its writes were dropped
        Reviewed,          ///< writesApplied of writesTotal changes were applied
    };

    PermissionDecision decision;
    Answer answer = Answer::None;
    QString feedback;            ///< the person's words with a deny
    QStringList rememberedRules; ///< "Bash(touch:*)": the rules an allow answer added
    QStringList notSaved;        ///< why rules could not be written to the settings
    QString partialChange;       ///< PartialChange::auditText; empty: the whole change
    QString userEdit;            ///< EditedChange::auditText; empty: not edited
    QString networkRule;         ///< NetworkRules::describe of the rule that gave the network
    Writes writes = Writes::Direct;
    QString writesError;
    qsizetype writesApplied = 0;
    qsizetype writesTotal = 0;

    /// The audit's line: "allow: read-only command", "deny: denied by Bash(rm:*) in ...",
    /// "ask: allowed for this session (Bash(touch:*))", "ask: denied by the user: not now",
    /// "allow: bypass mode; network by ...; writes reviewed: 1 of 2 applied". Not translated:
    /// the audit log is read by tools.
    QString text() const;
};

} // namespace AgentCore
