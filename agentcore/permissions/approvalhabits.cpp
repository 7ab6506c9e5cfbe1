#include "approvalhabits.h"
#include "translation.h"

#include <loop/toolkind.h>

#include <QCoreApplication>
#include <QRegularExpression>

#include <algorithm>

namespace AgentCore {

namespace {

// Files whose content is a secret: a standing rule to change them (or a command naming them)
// is not worth the convenience. By name, as a glance at a path would tell.
bool looksSecret(const QString &path)
{
    static const QRegularExpression
        secret(QStringLiteral(
                   "(^|/)(\\.env(\\..*)?|\\.npmrc|\\.pypirc|\\.netrc|\\.git-credentials"
                   "|\\.htpasswd|id_(rsa|dsa|ecdsa|ed25519)[^/]*|[^/]*credential[^/]*"
                   "|[^/]*secret[^/]*|[^/]*\\.(pem|key|p12|pfx|jks|keystore|kdbx|gpg|asc))$"
                   "|(^|/)\\.(ssh|gnupg|aws|docker|kube)(/|$)"),
               QRegularExpression::CaseInsensitiveOption);
    return secret.match(path).hasMatch();
}

// AgentDesk's own configuration in the repository (the policy's protected paths there).
bool isOwnConfiguration(const QString &path)
{
    static const QRegularExpression own(QStringLiteral("(^|/)(\\.agentdesk(/|$)|\\.mcp\\.json$)"));
    return own.match(path).hasMatch();
}

bool writesFile(const SimpleCommand &command)
{
    return std::any_of(command.redirections.cbegin(),
                       command.redirections.cend(),
                       [](const BashRedirection &redirection) { return redirection.writesFile; });
}

// The one command of \a analysis a rule has to cover (the read-only ones pass on their own),
// when a rule for it could be offered at all.
const SimpleCommand *habitCommand(const BashAnalysis &analysis)
{
    if (!analysis.understood || !analysis.risks.isEmpty())
        return nullptr;
    const SimpleCommand *found = nullptr;
    for (const SimpleCommand &command : analysis.commands) {
        if (command.readOnly)
            continue;
        if (found)
            return nullptr; // two commands to allow: not one habit
        found = &command;
    }
    if (!found || found->words.isEmpty() || found->hasExpansion || !found->assignments.isEmpty()
        || writesFile(*found)) {
        return nullptr;
    }
    for (const QString &word : found->words) {
        if (looksSecret(word) || isOwnConfiguration(word))
            return nullptr;
    }
    return found;
}

std::optional<PermissionRule> bashRule(const PermissionRequest &request)
{
    const SimpleCommand *command = request.bash ? habitCommand(*request.bash) : nullptr;
    if (!command)
        return std::nullopt;
    for (const PermissionRule &rule : request.suggestedRules) {
        if (toolKind(rule.toolName) == ToolKind::Bash && !rule.isCommandPrefix()
            && rule.commandWords() == command->words) {
            return rule;
        }
    }
    return std::nullopt;
}

// `Edit(./src/a.cpp)`: the one file, inside the repository (rules for paths outside it are
// absolute: `/etc/**`, `~/x`).
std::optional<PermissionRule> fileRule(const PermissionRequest &request)
{
    std::optional<PermissionRule> found;
    for (const PermissionRule &rule : request.suggestedRules) {
        if (toolKind(rule.toolName) != ToolKind::Edit)
            return std::nullopt;
        if (!rule.specifier.startsWith(QLatin1String("./")))
            continue; // the folder's rule, broader than the approval
        if (found)
            return std::nullopt; // several files
        found = rule;
    }
    if (!found || found->specifier.contains(QRegularExpression(QStringLiteral("[*?\\[]"))))
        return std::nullopt;
    const QString path = found->specifier.mid(2);
    if (path.isEmpty() || path.split(QLatin1Char('/')).contains(QLatin1String(".."))
        || looksSecret(path) || isOwnConfiguration(path)) {
        return std::nullopt;
    }
    return found;
}

QString explanation(const PermissionRule &rule, const QString &approved)
{
    if (toolKind(rule.toolName) == ToolKind::Bash) {
        //: %1 is a shell command
        return PermissionsTr::tr(
                   "Runs “%1” without asking, with exactly these arguments (also piped to "
                   "read-only commands); the analysis finds no network use, deletion or "
                   "write outside the repository in it. Any other command still asks.")
            .arg(approved);
    }
    //: %1 is a file in the repository
    return PermissionsTr::tr(
               "Lets the agent edit and write “%1” without asking; other files still ask.")
        .arg(approved);
}

} // namespace

std::optional<PermissionRule> ApprovalHabits::habitRule(const PermissionRequest &request)
{
    if (!request.shellWrites.isEmpty())
        return std::nullopt; // a review of what a command wrote, not of a call
    std::optional<PermissionRule> rule;
    switch (toolKind(request.toolName)) {
    case ToolKind::Bash:
        rule = bashRule(request);
        break;
    case ToolKind::Edit:
    case ToolKind::Write:
        rule = fileRule(request);
        break;
    default:
        break;
    }
    if (rule) {
        rule->behavior = PermissionBehavior::Allow;
        rule->source.clear();
    }
    return rule;
}

std::optional<ApprovalHabits::Offer> ApprovalHabits::record(const PermissionRequest &request,
                                                            const PermissionAnswer &answer)
{
    const std::optional<PermissionRule> rule = habitRule(request);
    if (!rule)
        return std::nullopt;
    const QString key = rule->toString();
    if (answer.choice == PermissionAnswer::Choice::Deny) {
        m_approvals.remove(key);
        return std::nullopt;
    }
    // A partial approval is not the call the rule would allow; the other allows add a rule.
    if (answer.choice != PermissionAnswer::Choice::AllowOnce || !answer.rejectedHunks.isEmpty())
        return std::nullopt;
    const int approvals = ++m_approvals[key];
    if (approvals < offerAfter || m_offered.contains(key))
        return std::nullopt;
    m_offered.insert(key);
    Offer offer;
    offer.rule = *rule;
    offer.approved = toolKind(rule->toolName) == ToolKind::Bash ? habitCommand(*request.bash)->text
                                                                : rule->specifier.mid(2);
    offer.approvals = approvals;
    offer.explanation = explanation(*rule, offer.approved);
    return offer;
}

int ApprovalHabits::approvals(const PermissionRule &rule) const
{
    return m_approvals.value(rule.toString());
}

bool ApprovalHabits::wasOffered(const PermissionRule &rule) const
{
    return m_offered.contains(rule.toString());
}

} // namespace AgentCore
