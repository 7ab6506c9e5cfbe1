#include "tooldeferral.h"
#include "diagnosticstool.h"

#include "skills.h"
#include "subagentrunner.h"
#include "toolsearchtool.h"

#include <QJsonDocument>

namespace AgentCore {

namespace {

bool isMcpTool(const QString &name)
{
    return name.startsWith(QLatin1String("mcp__")); // McpTool::toolName
}

qsizetype bytesOf(const QList<AgentToolPtr> &tools)
{
    qsizetype bytes = 0;
    for (const AgentToolPtr &tool : tools)
        bytes += ToolDeferral::definitionBytes(tool->definition());
    return bytes;
}

} // namespace

ToolDeferral::ToolDeferral(std::function<void(const QStringList &loaded)> onLoaded)
    : m_onLoaded(std::move(onLoaded))
{}

bool ToolDeferral::isCore(const QString &toolName)
{
    const ToolKind kind = toolKind(toolName);
    return (kind != ToolKind::Other && !followsBash(kind)) || toolName == TaskTool::toolName()
           || toolName == QLatin1String(SkillTool::toolName)
           || toolName == DiagnosticsTool::toolName();
}

qsizetype ToolDeferral::definitionBytes(const ToolDefinition &definition)
{
    const QJsonObject json{{QStringLiteral("name"), definition.name},
                           {QStringLiteral("description"), definition.description},
                           {QStringLiteral("input_schema"), definition.parameters}};
    return QJsonDocument(json).toJson(QJsonDocument::Compact).size();
}

QString ToolDeferral::summaryOf(const QString &description)
{
    QString line = description.trimmed().section(QLatin1Char('\n'), 0, 0).simplified();
    if (line.size() > maxSummaryChars)
        line = line.left(maxSummaryChars - 1).trimmed() + QStringLiteral("…");
    return line;
}

void ToolDeferral::rebuild(const QList<AgentToolPtr> &tools)
{
    m_tools = tools;
    m_whole.clear();
    m_deferred.clear();
    m_companions.clear();
    QList<AgentToolPtr> others;
    QList<AgentToolPtr> companions;
    for (const AgentToolPtr &tool : tools) {
        const QString name = tool->definition().name;
        if (followsBash(toolKind(name)))
            companions.append(tool);
        else if (!isCore(name))
            others.append(tool);
    }
    QList<AgentToolPtr> deferred;
    if (bytesOf(others) > wholeToolBudgetBytes) {
        // The MCP servers' tools first: there are many of them, and the listing names their
        // server. The others follow when they alone are still over the budget.
        QList<AgentToolPtr> rest;
        for (const AgentToolPtr &tool : std::as_const(others))
            (isMcpTool(tool->definition().name) ? deferred : rest).append(tool);
        if (bytesOf(rest) > wholeToolBudgetBytes)
            deferred += rest;
    }
    for (const AgentToolPtr &tool : tools) {
        if (!deferred.contains(tool) && !companions.contains(tool))
            m_whole.append(tool);
    }
    QList<ToolDefinition> listed;
    for (const AgentToolPtr &tool : std::as_const(deferred))
        listed.append(tool->definition());
    const QList<ToolDefinition> before
        = m_search ? std::static_pointer_cast<ToolSearchTool>(m_search)->listedDefinitions()
                   : QList<ToolDefinition>();
    if (listed.isEmpty()) {
        m_search.reset();
    } else if (!m_search || before != listed) {
        // A new ToolSearch only when its listing changes: the same object keeps the request's
        // definitions as they were.
        std::weak_ptr<ToolDeferral> self = weak_from_this();
        m_search = std::make_shared<ToolSearchTool>(listed, [self](const QStringList &names) {
            const std::shared_ptr<ToolDeferral> alive = self.lock();
            return alive ? alive->load(names) : QStringList();
        });
    }
    m_deferred = deferred + companions;
    for (const AgentToolPtr &tool : std::as_const(companions))
        m_companions.insert(tool->definition().name);
}

QList<AgentToolPtr> ToolDeferral::offered() const
{
    QList<AgentToolPtr> offer = m_whole;
    if (m_search)
        offer.append(m_search);
    for (const QString &name : m_loaded) {
        for (const AgentToolPtr &tool : m_deferred) {
            if (tool->definition().name == name) {
                offer.append(tool);
                break;
            }
        }
    }
    return offer;
}

QList<AgentToolPtr> ToolDeferral::offer(const QList<AgentToolPtr> &tools)
{
    QMutexLocker locker(&m_mutex);
    if (tools == m_tools && m_loaded == m_offerLoaded && !m_offer.isEmpty())
        return m_offer;
    if (tools != m_tools || m_offer.isEmpty())
        rebuild(tools);
    m_offer = offered();
    m_offerLoaded = m_loaded;
    return m_offer;
}

void ToolDeferral::installInto(AgentLoopConfig &loop, const std::shared_ptr<ToolDeferral> &self)
{
    loop.offeredTools = [self](const QList<AgentToolPtr> &tools) { return self->offer(tools); };
    loop.toolNotOffered = [self](const QString &name) { return self->notOffered(name); };
    // Innermost: it sees the result Bash itself gave.
    loop.middlewares.append([self](ToolCallContext &context, const ToolNext &next) {
        ToolResult result = next(context);
        self->loadCompanionsOf(context, result);
        return result;
    });
}

QStringList ToolDeferral::load(const QStringList &names)
{
    QStringList added;
    QStringList all;
    {
        QMutexLocker locker(&m_mutex);
        for (const QString &name : names) {
            if (m_loaded.contains(name))
                continue;
            const bool known = std::any_of(m_deferred.cbegin(),
                                           m_deferred.cend(),
                                           [&name](const AgentToolPtr &tool) {
                                               return tool->definition().name == name;
                                           });
            if (known) {
                m_loaded.append(name);
                added.append(name);
            }
        }
        all = m_loaded;
    }
    if (!added.isEmpty() && m_onLoaded)
        m_onLoaded(all);
    return added;
}

void ToolDeferral::loadCompanionsOf(const ToolCallContext &call, const ToolResult &result)
{
    if (result.isError || toolKindOf(call) != ToolKind::Bash
        || !call.arguments.value(QLatin1String("run_in_background")).toBool())
        return;
    QStringList companions;
    {
        QMutexLocker locker(&m_mutex);
        companions = QStringList(m_companions.cbegin(), m_companions.cend());
    }
    companions.sort(); // BashOutput, then KillShell: the same order every time
    load(companions);
}

std::optional<ToolResult> ToolDeferral::notOffered(const QString &toolName)
{
    bool deferred = false;
    {
        QMutexLocker locker(&m_mutex);
        deferred = std::any_of(m_deferred.cbegin(),
                               m_deferred.cend(),
                               [&toolName](const AgentToolPtr &tool) {
                                   return tool->definition().name == toolName;
                               });
    }
    if (!deferred)
        return std::nullopt;
    const bool loadedBefore = loaded().contains(toolName);
    load({toolName});
    // Not run: its arguments were written without its schema, and an MCP tool acts. Loaded,
    // so that the next request carries the schema: one turn, not a ToolSearch call and
    // another turn.
    return ToolResult::makeError(
        loadedBefore ? QStringLiteral("%1 was not run: its definition comes with your next "
                                      "request. Call it again then.")
                           .arg(toolName)
                     : QStringLiteral("%1 was not run: it is a deferred tool and had not been "
                                      "loaded. It is loaded now (as ToolSearch would): its "
                                      "definition comes with your next request; check the "
                                      "arguments against it and call it again.")
                           .arg(toolName));
}

QStringList ToolDeferral::loaded() const
{
    QMutexLocker locker(&m_mutex);
    return m_loaded;
}

void ToolDeferral::restore(const QStringList &loaded)
{
    QMutexLocker locker(&m_mutex);
    m_loaded = loaded;
    m_loaded.removeDuplicates();
}

QList<ToolOfferEntry> ToolDeferral::entries() const
{
    QMutexLocker locker(&m_mutex);
    QList<ToolOfferEntry> entries;
    for (const AgentToolPtr &tool : std::as_const(m_tools)) {
        const ToolDefinition definition = tool->definition();
        ToolOfferEntry entry;
        entry.name = definition.name;
        entry.bytes = definitionBytes(definition);
        entry.deferred = m_deferred.contains(tool);
        entry.loaded = entry.deferred && m_loaded.contains(entry.name);
        if (entry.deferred && !m_companions.contains(entry.name))
            entry.summary = summaryOf(definition.description);
        entries.append(entry);
    }
    if (m_search) {
        ToolOfferEntry entry;
        entry.name = ToolSearchTool::toolName();
        entry.bytes = definitionBytes(m_search->definition());
        entries.append(entry);
    }
    return entries;
}

} // namespace AgentCore
