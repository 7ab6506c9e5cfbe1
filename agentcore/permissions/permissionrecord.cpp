#include "permissionrecord.h"

namespace AgentCore {

namespace {

// What the policy decided, or how asking the person ended.
QString verdict(const PermissionRecord &record)
{
    using Answer = PermissionRecord::Answer;
    const auto withFeedback = [&record](const QString &text) {
        return record.feedback.isEmpty() ? text : text + QStringLiteral(": ") + record.feedback;
    };
    const auto withRules = [&record](QString text) {
        if (!record.rememberedRules.isEmpty())
            text += QStringLiteral(" (") + record.rememberedRules.join(QStringLiteral(", "))
                    + QLatin1Char(')');
        if (!record.notSaved.isEmpty())
            text += QStringLiteral("; not saved: ") + record.notSaved.join(QLatin1Char(' '));
        return text;
    };
    switch (record.answer) {
    case Answer::None:
        return (record.decision.behavior == PermissionBehavior::Deny ? QStringLiteral("deny: ")
                                                                     : QStringLiteral("allow: "))
               + record.decision.reason;
    case Answer::NotAsked:
        return QStringLiteral("ask: not asked, the call cannot succeed");
    case Answer::NobodyToAsk:
        return QStringLiteral("deny: nobody to ask (%1)").arg(record.decision.reason);
    case Answer::Aborted:
        return QStringLiteral("ask: aborted");
    case Answer::Denied:
        return withFeedback(QStringLiteral("ask: denied by the user"));
    case Answer::DeniedEveryHunk:
        return withFeedback(QStringLiteral("ask: denied by the user (every hunk rejected)"));
    case Answer::AllowedOnce:
        return QStringLiteral("ask: allowed once");
    case Answer::AllowedOnceOwnSettings:
        return QStringLiteral("ask: allowed once (AgentDesk's own settings: no rule remembered)");
    case Answer::AllowedForSession:
        return withRules(QStringLiteral("ask: allowed for this session"));
    case Answer::AlwaysAllowed:
        return withRules(QStringLiteral("ask: always allowed"));
    }
    return {};
}

QString writesNote(const PermissionRecord &record)
{
    using Writes = PermissionRecord::Writes;
    switch (record.writes) {
    case Writes::Direct:
        return {};
    case Writes::NotReviewed:
        return QStringLiteral("; writes not reviewed: ") + record.writesError;
    case Writes::Lost:
        return QStringLiteral("; writes lost: ") + record.writesError;
    case Writes::DiscardedAborted:
        return QStringLiteral("; writes discarded (aborted)");
    case Writes::DiscardedInReview:
        return QStringLiteral("; writes discarded (aborted in review)");
    case Writes::Reviewed:
        return QStringLiteral("; writes reviewed: %1 of %2 applied")
            .arg(record.writesApplied)
            .arg(record.writesTotal);
    }
    return {};
}

} // namespace

QString PermissionRecord::text() const
{
    QString text = verdict(*this);
    if (!partialChange.isEmpty())
        text += QStringLiteral("; partially applied, ") + partialChange;
    if (!userEdit.isEmpty())
        text += QStringLiteral("; ") + userEdit;
    if (!networkRule.isEmpty())
        text += QStringLiteral("; network by ") + networkRule;
    return text + writesNote(*this);
}

} // namespace AgentCore
