#pragma once

#include "permissionrequest.h"
#include "permissionrule.h"

#include <QHash>
#include <QSet>
#include <QString>

#include <optional>

namespace AgentCore {

/// The rule ApprovalHabits suggests adding, and why. A plain value.
struct ApprovalOffer
{
    PermissionRule rule; ///< behaviour Allow; exactly what "Add Rule" would write
    QString approved;    ///< what the person approved: `npm test`, `src/a.cpp`
    int approvals = 0;
    QString explanation; ///< one line: what the rule allows and what still asks
};

/// Notices when the person keeps approving the same call one at a time, so the UI can offer
/// the rule that would spare them the next review. Only offers; adding the rule is the
/// person's choice (the UI's "Add Rule"). A plain value, one per session; not thread-safe.
///
/// An approval counts under the most specific rule of the request's suggestions that covers
/// it (`Bash(npm test)`, `Edit(./src/a.cpp)`): the offer is never broader than what was
/// approved. Never counted: anything but Bash, Edit and Write; a Bash command the analysis did
/// not understand, found a risk in (network, deletes, privileged, writes outside, reads
/// unknown paths), or that has an expansion, an assignment or a writing redirection, or more
/// than one command that is not read-only; a file outside the repository, a secret (`.env`,
/// keys, credentials) or AgentDesk's own configuration (`.agentdesk/`, `.mcp.json`); a
/// request without suggestions (a change of AgentDesk's configuration offers none); a partial
/// approval. A deny of the same call starts the count again.
class ApprovalHabits final
{
public:
    static constexpr int offerAfter = 3; ///< approvals of the same call before the offer

    using Offer = ApprovalOffer;

    /// The rule an approval of \a request would be counted under; nullopt when it never is.
    static std::optional<PermissionRule> habitRule(const PermissionRequest &request);

    /// Notes the person's \a answer to \a request. Returns the offer when this approval made
    /// it due: the offerAfter-th "Allow once" of the same rule, the first time only (once
    /// offered, a rule is never offered again, whether added or not).
    std::optional<Offer> record(const PermissionRequest &request, const PermissionAnswer &answer);

    int approvals(const PermissionRule &rule) const;
    bool wasOffered(const PermissionRule &rule) const;

private:
    QHash<QString, int> m_approvals; ///< by PermissionRule::toString()
    QSet<QString> m_offered;
};

} // namespace AgentCore
