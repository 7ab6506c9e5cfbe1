#include "subagentrunner.h"

#include "tooldeferral.h"

#include "translation.h"

#include <hooks/hookseams.h>
#include <loop/toolexecution.h>
#include <tools/toolschema.h>

#include <QJsonArray>
#include <QMap>
#include <QObject>
#include <QSet>

#include <algorithm>

namespace AgentCore {

namespace {

const QString typeArgument = QStringLiteral("subagent_type");
const QString defaultType = QStringLiteral("general");

// What a child did, from its events, for the short account its parent gets.
class ChildAccount
{
public:
    void note(const AgentEvent &event)
    {
        switch (event.type) {
        case AgentEvent::Type::TurnEnd:
            ++m_turns;
            break;
        case AgentEvent::Type::ToolExecutionStart:
            ++m_calls[event.toolName];
            if (changesFile(toolKind(event.toolName)))
                m_paths.insert(event.toolCallId,
                               event.arguments.value(QLatin1String("file_path")).toString());
            break;
        case AgentEvent::Type::ToolExecutionEnd:
            if (!event.isError && m_paths.contains(event.toolCallId)) {
                const QString path = m_paths.value(event.toolCallId);
                if (!path.isEmpty() && !m_changed.contains(path))
                    m_changed.append(path);
            }
            break;
        case AgentEvent::Type::MessageEnd:
            if (event.message.isAssistant()) {
                m_usage += event.message.usage;
                m_usage += event.message.discardedUsage;
            }
            break;
        default:
            break;
        }
    }

    // "[explore subagent: 3 turns, 4 tool calls (Grep 2, Read 2); changed: a.txt]"
    QString text(const QString &type) const
    {
        int total = 0;
        QStringList byName;
        for (auto it = m_calls.cbegin(); it != m_calls.cend(); ++it) {
            total += it.value();
            byName.append(QStringLiteral("%1 %2").arg(it.key()).arg(it.value()));
        }
        QString text = QStringLiteral("[%1 subagent: %2 turn(s), %3 tool call(s)")
                           .arg(type)
                           .arg(m_turns)
                           .arg(total);
        if (total > 0)
            text += QStringLiteral(" (%1)").arg(byName.join(QStringLiteral(", ")));
        if (!m_changed.isEmpty())
            text += QStringLiteral("; changed: %1").arg(m_changed.join(QStringLiteral(", ")));
        return text + u']';
    }

    QJsonObject details(const QStringList &path, const QString &type) const
    {
        int total = 0;
        for (const int count : m_calls)
            total += count;
        return {{QStringLiteral("path"), QJsonArray::fromStringList(path)},
                {QStringLiteral("type"), type},
                {QStringLiteral("turns"), m_turns},
                {QStringLiteral("toolCalls"), total},
                {QStringLiteral("changed"), QJsonArray::fromStringList(m_changed)},
                {QStringLiteral("usage"),
                 QJsonObject{{QStringLiteral("input"), m_usage.input},
                             {QStringLiteral("output"), m_usage.output},
                             {QStringLiteral("cacheRead"), m_usage.cacheRead},
                             {QStringLiteral("cacheWrite"), m_usage.cacheWrite},
                             {QStringLiteral("cost"), m_usage.cost}}}};
    }

private:
    int m_turns = 0;
    QMap<QString, int> m_calls;      // by tool name, sorted for a stable text
    QHash<QString, QString> m_paths; // Edit and Write calls' files, by call id
    QStringList m_changed;
    Usage m_usage;
};

// \a text cut to at most \a maxBytes of UTF-8 (never inside a character), with a note.
QString cappedAnswer(const QString &text, qsizetype maxBytes)
{
    const QByteArray utf8 = text.toUtf8();
    if (utf8.size() <= maxBytes)
        return text;
    qsizetype end = maxBytes;
    while (end > 0 && (uchar(utf8.at(end)) & 0xC0) == 0x80)
        --end; // back to the first byte of the character the cap falls in
    return QString::fromUtf8(utf8.left(end))
           + CodingTr::tr("\n\n[... the subagent's answer was cut here: it was %1 KB, more than "
                          "the %2 KB a subagent may return]")
                 .arg((utf8.size() + 1023) / 1024)
                 .arg(maxBytes / 1024);
}

// The last assistant text of \a messages (a reply that only called tools has none).
QString lastText(const QList<Message> &messages)
{
    for (auto it = messages.crbegin(); it != messages.crend(); ++it) {
        if (it->isAssistant() && it->stopReason != StopReason::TurnLimit
            && !it->text().trimmed().isEmpty())
            return it->text().trimmed();
    }
    return {};
}

const Message *lastAssistantOf(const QList<Message> &messages)
{
    for (auto it = messages.crbegin(); it != messages.crend(); ++it) {
        if (it->isAssistant())
            return &*it;
    }
    return nullptr;
}

// The child's outermost middleware: its calls say who makes them (the review, the inbox).
ToolMiddleware callerMiddleware(const QString &caller)
{
    return [caller](ToolCallContext &context, const ToolNext &next) {
        context.caller = caller;
        return next(context);
    };
}

} // namespace

std::shared_ptr<SubagentRunner> makeSubagentRunner(
    SubagentTypes types,
    SubagentOptions options,
    std::function<void(const SubagentEvent &event)> report)
{
    auto runner = std::make_shared<SubagentRunner>(std::move(types),
                                                   std::move(options),
                                                   std::move(report));
    runner->m_self = runner;
    return runner;
}

SubagentRunner::SubagentRunner(SubagentTypes types,
                               SubagentOptions options,
                               std::function<void(const SubagentEvent &event)> report)
    : m_types(std::move(types))
    , m_options(std::move(options))
    , m_report(std::move(report))
{}

void SubagentRunner::setParent(Parent parent)
{
    const QMutexLocker locker(&m_mutex);
    m_parent = std::move(parent);
}

void SubagentRunner::setModelFactory(std::function<std::shared_ptr<ModelClient>()> makeModel)
{
    const QMutexLocker locker(&m_mutex);
    m_parent.makeModel = std::move(makeModel);
}

bool SubagentRunner::stop(const QStringList &path)
{
    AbortToken token;
    {
        const QMutexLocker locker(&m_mutex);
        const auto found = m_running.constFind(path.join(u'/'));
        if (found == m_running.constEnd())
            return false;
        token = *found;
    }
    token.abort();
    return true;
}

bool SubagentRunner::isRunning(const QStringList &path) const
{
    const QMutexLocker locker(&m_mutex);
    return m_running.contains(path.join(u'/'));
}

ToolResult SubagentRunner::run(const ToolCallContext &call, const QStringList &parentPath)
{
    if (parentPath.size() >= maxDepth) {
        return ToolResult::makeError(
            CodingTr::tr("Task refused: a subagent %1 levels deep may not start subagents (the "
                         "limit is %1). Do this part yourself with your own tools.")
                .arg(maxDepth));
    }
    const QString typeName = call.arguments.value(typeArgument).toString(defaultType).trimmed();
    const SubagentType *type = m_types.find(typeName.isEmpty() ? defaultType : typeName);
    if (!type) {
        QStringList names;
        for (const SubagentType &known : m_types.types)
            names.append(known.name);
        return ToolResult::makeError(
            CodingTr::tr("Task refused: there is no agent type \"%1\"; the types are: %2.")
                .arg(typeName, names.join(QStringLiteral(", "))));
    }
    const QString description
        = call.arguments.value(QLatin1String("description")).toString().simplified().left(200);
    const QString prompt = call.arguments.value(QLatin1String("prompt")).toString().trimmed();
    if (prompt.isEmpty())
        return ToolResult::makeError(CodingTr::tr("Task refused: the prompt is empty."));

    Parent parent;
    {
        const QMutexLocker locker(&m_mutex);
        parent = m_parent;
    }
    std::shared_ptr<ModelClient> model = parent.makeModel ? parent.makeModel() : nullptr;
    if (!type->model.isEmpty() && parent.namedModel) {
        if (std::shared_ptr<ModelClient> named = parent.namedModel(type->model))
            model = std::move(named);
    }
    if (!model)
        return ToolResult::makeError(CodingTr::tr("Task refused: no model is configured."));

    const QStringList path = parentPath + QStringList{call.toolCallId};
    const QString key = path.join(u'/');
    const QString caller = description.isEmpty()
                               ? type->name
                               : QStringLiteral("%1: %2").arg(type->name, description);

    AgentContext context;
    context.systemPrompt = type->systemPrompt + QStringLiteral("\n") + parent.environment;
    if (parent.tools) {
        for (const AgentToolPtr &tool : parent.tools()) {
            const QString name = tool->definition().name;
            if (name != TaskTool::toolName() && type->offers(name))
                context.tools.append(tool);
        }
    }
    // A read-only type starts none: its calls run in parallel, and a child of it could write.
    if (path.size() < maxDepth && !type->isReadOnly() && type->offers(TaskTool::toolName())) {
        if (const std::shared_ptr<SubagentRunner> self = m_self.lock())
            context.tools.append(std::make_shared<TaskTool>(self, path));
    }

    AgentLoopConfig config;
    config.model = model;
    config.maxTurns = std::clamp(m_options.maxTurns > 0 ? m_options.maxTurns
                                                        : SubagentOptions::maxTurnsCap,
                                 1,
                                 SubagentOptions::maxTurnsCap);
    config.prepareContext = parent.prepareContext;
    config.middlewares = {callerMiddleware(caller)};
    config.middlewares += parent.middlewares;
    config.effects = parent.effects;
    // A child defers its parent's tools as the parent does, and loads them for itself.
    ToolDeferral::installInto(config, std::make_shared<ToolDeferral>());
    if (parent.hooks && parent.hooks->has(HookEventName::SubagentStop))
        config.onTaskEnd = makeStopHook(parent.hooks, HookEventName::SubagentStop);

    // Its own token, fired by the Task call's (the parent's Stop) through this thread's event
    // loop, which the child's loop spins while it waits for the model and its tools.
    AbortToken abort;
    QObject link;
    const int linkId = call.abort.onAbort(&link, [abort]() mutable { abort.abort(); });
    if (call.abort.isAborted())
        abort.abort();
    {
        const QMutexLocker locker(&m_mutex);
        m_running.insert(key, abort);
    }

    ChildAccount account;
    const auto sink = [&](const AgentEvent &event) {
        account.note(event);
        if (m_report)
            m_report(SubagentEvent{path, type->name, description, event});
    };
    const QList<Message> messages = agentLoop({Message::makeUser(prompt)},
                                              context,
                                              config,
                                              abort,
                                              sink);
    call.abort.disconnect(linkId);
    {
        const QMutexLocker locker(&m_mutex);
        m_running.remove(key);
    }

    ToolDetails details;
    details.other = {{QStringLiteral("subagent"), account.details(path, type->name)}};
    const QString summary = account.text(type->name);
    if (call.abort.isAborted()) {
        ToolResult stopped = abortedToolResult();
        stopped.details.other = details.other;
        return stopped;
    }
    const Message *last = lastAssistantOf(messages);
    const QString answer = cappedAnswer(lastText(messages), m_options.maxOutputBytes);
    ToolResult result;
    if (abort.isAborted()) {
        result = ToolResult::makeError(
            CodingTr::tr("The user stopped this subagent before it finished.%1\n\n%2")
                .arg(answer.isEmpty() ? QString()
                                      : CodingTr::tr(" What it had said so far:\n\n%1").arg(answer),
                     summary));
    } else if (last && last->stopReason == StopReason::TurnLimit) {
        result = ToolResult::makeError(
            CodingTr::tr("The subagent stopped at its turn limit (%1 turns) before it "
                         "finished.%2\n\n%3")
                .arg(config.maxTurns)
                .arg(answer.isEmpty() ? QString()
                                      : CodingTr::tr(" Its last answer:\n\n%1").arg(answer),
                     summary));
    } else if (!last || last->stopReason == StopReason::Error
               || last->stopReason == StopReason::ContextOverflow
               || last->stopReason == StopReason::Aborted) {
        result = ToolResult::makeError(CodingTr::tr("The subagent failed: %1\n\n%2")
                                           .arg(last && !last->errorMessage.isEmpty()
                                                    ? last->errorMessage
                                                    : CodingTr::tr("it gave no answer"),
                                                summary));
    } else {
        result = ToolResult::makeText(
            (answer.isEmpty() ? CodingTr::tr("(The subagent ended without an answer.)") : answer)
            + QStringLiteral("\n\n") + summary);
    }
    result.details = details;
    return result;
}

TaskTool::TaskTool(std::shared_ptr<SubagentRunner> runner, QStringList path)
    : m_runner(std::move(runner))
    , m_path(std::move(path))
{}

ToolDefinition TaskTool::definition() const
{
    QJsonArray names;
    for (const SubagentType &type : m_runner->types().types)
        names.append(type.name);
    QJsonObject type = schemaProperty("string",
                                      QStringLiteral("The agent type to run (default: general)."));
    type.insert(QStringLiteral("enum"), names);
    return {
        toolName(),
        QStringLiteral(
            "Starts a subagent for a task: it works with a fresh context and its own tools, "
            "and only its final answer comes back to you, so searches and side tasks do not "
            "fill your context. Give it a short description (3-5 words) and a complete, "
            "self-contained prompt: it does not see this conversation. Several Task calls in "
            "one reply run at the same time when their types are read-only. The agent "
            "types:\n%1")
            .arg(m_runner->types().listing()),
        QJsonObject{
            {QStringLiteral("type"), QStringLiteral("object")},
            {QStringLiteral("properties"),
             QJsonObject{
                 {QStringLiteral("description"),
                  schemaProperty("string",
                                 QStringLiteral("A short (3-5 word) description of the task."))},
                 {QStringLiteral("prompt"),
                  schemaProperty("string",
                                 QStringLiteral("The task for the subagent, complete: what to "
                                                "do and what to report."))},
                 {typeArgument, type},
             }},
            {QStringLiteral("required"),
             QJsonArray{QStringLiteral("description"), QStringLiteral("prompt"), typeArgument}},
            {QStringLiteral("additionalProperties"), false},
        },
    };
}

ExecutionMode TaskTool::executionModeOf(const QJsonObject &arguments) const
{
    const SubagentType *type = m_runner->types().find(
        arguments.value(typeArgument).toString(defaultType));
    return type && type->isReadOnly() ? ExecutionMode::Parallel : ExecutionMode::Sequential;
}

ToolResult TaskTool::execute(const ToolCallContext &context)
{
    return m_runner->run(context, m_path);
}

} // namespace AgentCore
