#pragma once

#include <permissions/permissionrequest.h>

#include <QList>
#include <QObject>
#include <QPointer>

namespace Ui {

class AgentSession;
class OpenSessions;

/// How much a waiting request asks the user to look at, from the bash analysis.
enum class ApprovalRisk {
    /// A command the analysis understood with no risk in it (no network use, deletion,
    /// privilege, write outside the repository or unknown reads), one command to allow, no
    /// expansion: what ApprovalHabits would count (and offer a rule for); a read-only tool.
    Low,
    Medium, ///< a change to a file, a command that is not one plain call, any other tool
    High,   ///< a command the analysis did not understand or found a risk in
};

/// Every review waiting in any open session, in the order they arrived, for the window's
/// approvals inbox. Follows each session's PermissionBroker (requested, withdrawn, answered)
/// and answers through it: the session's own ReviewQueue closes the same review through the
/// broker's answered(), its badge clears, whichever of the two the user answered in. UI thread.
class ApprovalInbox final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ApprovalInbox)
public:
    struct Item
    {
        QPointer<AgentSession> session;
        AgentCore::PermissionRequest request;
    };

    explicit ApprovalInbox(OpenSessions *sessions, QObject *parent = nullptr);
    ~ApprovalInbox() override;

    const QList<Item> &items() const { return m_items; }
    int count() const { return int(m_items.size()); }
    /// -1 when \a session has no such request waiting.
    int indexOf(const AgentSession *session, quint64 requestId) const;

    /// Gives \a session's broker the answer (its page's review closes). False if it was
    /// answered or withdrawn meanwhile.
    bool answer(AgentSession *session, quint64 requestId, const AgentCore::PermissionAnswer &answer);
    /// The waiting requests that "Approve all like this" would approve with the one at
    /// \a index, in order, that one first: the same similarityKey() in any session. Just
    /// \a index when its request is not low risk.
    QList<int> similarTo(int index) const;
    /// Allows every request of similarTo(\a index) once. Returns how many were answered.
    int approveSimilar(int index);

    static ApprovalRisk risk(const AgentCore::PermissionRequest &request);
    /// "network, deletes", "low risk", "changes a file", ... for the inbox's rows.
    static QString riskText(const AgentCore::PermissionRequest &request);
    /// The command or path the request is about, on one line.
    static QString target(const AgentCore::PermissionRequest &request);
    /// Equal for requests that one look approves alike: the same tool and the same
    /// normalized command (the analysis' normal form), or the same read-only tool with the
    /// same arguments. Empty unless the request is low risk.
    static QString similarityKey(const AgentCore::PermissionRequest &request);
    /// The session's name for the inbox: its title, else its first task.
    static QString sessionName(const AgentSession *session);

signals:
    void added(int index);
    /// Emitted after the item left items().
    void removed(const Ui::AgentSession *session, quint64 requestId);
    void countChanged(int count);

private:
    void follow(AgentSession *session);
    void add(AgentSession *session, const AgentCore::PermissionRequest &request);
    void remove(const AgentSession *session, quint64 requestId);
    void removeSession(const AgentSession *session);

    QList<Item> m_items;
};

} // namespace Ui
