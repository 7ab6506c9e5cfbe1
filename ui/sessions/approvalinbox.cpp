#include "approvalinbox.h"

#include "agentsession/agentsession.h"
#include "opensessions.h"

#include <loop/toolkind.h>
#include <permissions/approvalhabits.h>
#include <permissions/permissionbroker.h>

#include <QJsonDocument>

namespace Ui {

namespace {

bool isReadOnlyTool(AgentCore::ToolKind kind)
{
    return kind == AgentCore::ToolKind::Read || AgentCore::searchesFiles(kind);
}

bool isBash(const AgentCore::PermissionRequest &request)
{
    return AgentCore::toolKind(request.toolName) == AgentCore::ToolKind::Bash;
}

// The analysis' normal form of the whole command: one simple command without redirections is
// written as BashAnalyzer normalised it; anything else is compared as given (its operators and
// redirections matter), without leading and trailing blanks.
QString normalizedCommand(const AgentCore::BashAnalysis &analysis)
{
    if (analysis.commands.size() == 1 && analysis.commands.constFirst().redirections.isEmpty())
        return analysis.commands.constFirst().text;
    return analysis.command.trimmed();
}

constexpr int maxTargetLength = 200;

} // namespace

ApprovalInbox::ApprovalInbox(OpenSessions *sessions, QObject *parent)
    : QObject(parent)
{
    connect(sessions, &OpenSessions::added, this, &ApprovalInbox::follow);
    connect(sessions, &OpenSessions::removed, this, &ApprovalInbox::removeSession);
    const QList<AgentSession *> open = sessions->sessions();
    for (AgentSession *session : open)
        follow(session);
}

ApprovalInbox::~ApprovalInbox() = default;

int ApprovalInbox::indexOf(const AgentSession *session, quint64 requestId) const
{
    for (int i = 0; i < m_items.size(); ++i) {
        const Item &item = m_items.at(i);
        if (item.session.data() == session && item.request.id == requestId)
            return i;
    }
    return -1;
}

bool ApprovalInbox::answer(AgentSession *session,
                           quint64 requestId,
                           const AgentCore::PermissionAnswer &answer)
{
    if (!session || indexOf(session, requestId) < 0)
        return false;
    // The broker's answered() removes the item (and closes the page's review) before this
    // returns.
    const bool taken = session->broker()->answer(requestId, answer);
    remove(session, requestId);
    return taken;
}

QList<int> ApprovalInbox::similarTo(int index) const
{
    if (index < 0 || index >= m_items.size())
        return {};
    QList<int> similar{index};
    const QString key = similarityKey(m_items.at(index).request);
    if (key.isEmpty())
        return similar;
    for (int i = 0; i < m_items.size(); ++i) {
        if (i != index && similarityKey(m_items.at(i).request) == key)
            similar.append(i);
    }
    return similar;
}

int ApprovalInbox::approveSimilar(int index)
{
    // By value: each answer removes its item from m_items.
    QList<Item> approve;
    const QList<int> similar = similarTo(index);
    for (int i : similar)
        approve.append(m_items.at(i));
    AgentCore::PermissionAnswer allowOnce;
    allowOnce.choice = AgentCore::PermissionAnswer::Choice::AllowOnce;
    int answered = 0;
    for (const Item &item : std::as_const(approve))
        answered += answer(item.session, item.request.id, allowOnce) ? 1 : 0;
    return answered;
}

ApprovalRisk ApprovalInbox::risk(const AgentCore::PermissionRequest &request)
{
    const AgentCore::ToolKind kind = AgentCore::toolKind(request.toolName);
    if (kind == AgentCore::ToolKind::Bash && request.shellWrites.isEmpty()) {
        if (!request.bash || !request.bash->understood || !request.bash->risks.isEmpty())
            return ApprovalRisk::High;
        return AgentCore::ApprovalHabits::habitRule(request) ? ApprovalRisk::Low
                                                             : ApprovalRisk::Medium;
    }
    if (isReadOnlyTool(kind))
        return ApprovalRisk::Low;
    return ApprovalRisk::Medium;
}

QString ApprovalInbox::riskText(const AgentCore::PermissionRequest &request)
{
    if (!request.shellWrites.isEmpty())
        return tr("wrote %n file(s)", nullptr, int(request.shellWrites.size()));
    const AgentCore::ToolKind kind = AgentCore::toolKind(request.toolName);
    if (kind == AgentCore::ToolKind::Bash) {
        if (!request.bash || !request.bash->understood)
            return tr("not understood");
        if (!request.bash->risks.isEmpty()) {
            QStringList names;
            for (const AgentCore::BashRiskNote &note : request.bash->risks) {
                const QString name = AgentCore::bashRiskName(note.risk);
                if (!names.contains(name))
                    names.append(name);
            }
            return names.join(QLatin1String(", "));
        }
        return risk(request) == ApprovalRisk::Low ? tr("low risk") : tr("runs commands");
    }
    if (AgentCore::changesFile(kind))
        return request.newFile ? tr("new file") : tr("changes a file");
    if (isReadOnlyTool(kind))
        return tr("read-only");
    return tr("other tool");
}

QString ApprovalInbox::target(const AgentCore::PermissionRequest &request)
{
    QString text;
    if (isBash(request)) {
        text = request.bash ? request.bash->command
                            : request.arguments.value(QLatin1String("command")).toString();
    } else if (!request.displayPath.isEmpty()) {
        text = request.displayPath;
    } else if (!request.filePath.isEmpty()) {
        text = request.filePath;
    } else {
        text = QString::fromUtf8(QJsonDocument(request.arguments).toJson(QJsonDocument::Compact));
    }
    text = text.simplified();
    if (text.size() > maxTargetLength)
        text = text.left(maxTargetLength - 1) + QChar(0x2026);
    return text;
}

QString ApprovalInbox::similarityKey(const AgentCore::PermissionRequest &request)
{
    if (risk(request) != ApprovalRisk::Low)
        return {};
    if (isBash(request))
        return request.toolName + QLatin1Char('\n') + normalizedCommand(*request.bash);
    return request.toolName + QLatin1Char('\n')
           + QString::fromUtf8(QJsonDocument(request.arguments).toJson(QJsonDocument::Compact));
}

QString ApprovalInbox::sessionName(const AgentSession *session)
{
    if (!session)
        return {};
    QString name = session->title().trimmed();
    if (name.isEmpty())
        name = session->firstTask().simplified();
    if (name.isEmpty())
        name = tr("New session");
    if (name.size() > 60)
        name = name.left(59) + QChar(0x2026);
    return name;
}

void ApprovalInbox::follow(AgentSession *session)
{
    // The broker belongs to the session: these connections end with it.
    AgentCore::PermissionBroker *broker = session->broker();
    connect(broker,
            &AgentCore::PermissionBroker::requested,
            this,
            [this, session](const AgentCore::PermissionRequest &request) { add(session, request); });
    connect(broker, &AgentCore::PermissionBroker::withdrawn, this, [this, session](quint64 id) {
        remove(session, id);
    });
    connect(broker, &AgentCore::PermissionBroker::answered, this, [this, session](quint64 id) {
        remove(session, id);
    });
    for (const AgentCore::PermissionRequest &request : broker->pending())
        add(session, request);
}

void ApprovalInbox::add(AgentSession *session, const AgentCore::PermissionRequest &request)
{
    if (indexOf(session, request.id) >= 0)
        return; // pending() and a queued requested() can both announce it
    // A request is announced by a queued signal: it may have been answered (on the page)
    // before it gets here.
    bool pending = false;
    for (const AgentCore::PermissionRequest &waiting : session->broker()->pending())
        pending = pending || waiting.id == request.id;
    if (!pending)
        return;
    m_items.append({session, request});
    emit added(int(m_items.size()) - 1);
    emit countChanged(count());
}

void ApprovalInbox::remove(const AgentSession *session, quint64 requestId)
{
    const int index = indexOf(session, requestId);
    if (index < 0)
        return;
    m_items.removeAt(index);
    emit removed(session, requestId);
    emit countChanged(count());
}

void ApprovalInbox::removeSession(const AgentSession *session)
{
    for (int i = int(m_items.size()) - 1; i >= 0; --i) {
        if (m_items.at(i).session.data() == session)
            remove(session, m_items.at(i).request.id);
    }
}

} // namespace Ui

#include "moc_approvalinbox.cpp"
