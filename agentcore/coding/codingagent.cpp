#include "codingagent.h"

#include "systemprompt.h"

#include <ai/httpmodelclient.h>
#include <ai/modelcatalog.h>
#include <checkpoint/checkpointpruner.h>
#include <files/privatefiles.h>
#include <permissions/bashanalysis.h>
#include <permissions/permissionmiddleware.h>
#include <permissions/permissionsettings.h>
#include <session/sessionstore.h>
#include <tools/codingtools.h>
#include <tools/sandboxprobe.h>
#include <tools/shellwriteapplier.h>

#include <QCoreApplication>
#include <QDateTime>
#include <QDebug>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSet>

#include <thread>
#include <utility>

namespace AgentCore {

namespace {

std::shared_ptr<PermissionPolicy> makePolicy(const CodingAgentOptions &options,
                                             const QString &root,
                                             QStringList *warnings)
{
    auto policy = std::make_shared<PermissionPolicy>(root,
                                                     options.permissionMode.value_or(
                                                         PermissionMode::Default));
    QStringList protectedPaths = options.protectedPaths;
    if (!options.userSettingsPath.isEmpty())
        protectedPaths.append(QFileInfo(options.userSettingsPath).absolutePath());
    if (!options.projectTrustPath.isEmpty())
        protectedPaths.append(options.projectTrustPath);
    policy->setProtectedPaths(protectedPaths);
    policy->loadSettings(options.userSettingsPath,
                         warnings,
                         options.trustProjectSettings
                             ? ProjectTrust::everything()
                             : ProjectTrust::load(options.projectTrustPath, root));
    // The explicit choice wins over a defaultMode the settings may have applied.
    if (options.permissionMode)
        policy->setMode(*options.permissionMode);
    for (const PermissionRule &rule : options.allowRules) {
        PermissionRule allow = rule;
        allow.behavior = PermissionBehavior::Allow;
        policy->addRule(allow);
    }
    if (!options.networkRules.isEmpty())
        policy->setNetworkRules(CodingAgentOptions::networkRulesSource(), options.networkRules);
    return policy;
}

// What the options ask for, with AgentDesk's own files hidden too: a command may not read
// the settings, sessions or audit logs any more than change them.
SandboxPolicy sandboxPolicy(const CodingAgentOptions &options)
{
    SandboxPolicy policy = options.sandbox;
    QStringList own = options.protectedPaths;
    if (!options.userSettingsPath.isEmpty())
        own.append(QFileInfo(options.userSettingsPath).absolutePath());
    if (!options.projectTrustPath.isEmpty())
        own.append(options.projectTrustPath);
    for (const QString &path : std::as_const(own)) {
        if (!path.isEmpty() && !policy.hiddenPaths.contains(path))
            policy.hiddenPaths.append(path);
    }
    return policy;
}

// What the sandbox shows of the hidden home besides its allow-list: the additional
// directories, and the extra paths of the user's own settings file ("sandboxReadable"; a
// project file cannot show itself the user's files).
QStringList sandboxReadablePaths(const CodingAgentOptions &options, const PermissionPolicy &policy)
{
    QStringList paths = policy.writableRoots().mid(1); // the repository is bound anyway
    if (!options.userSettingsPath.isEmpty()) {
        if (const std::optional<PermissionSettings> settings = PermissionSettings::load(
                options.userSettingsPath))
            paths += settings->sandboxReadable;
    }
    return paths;
}

// Checkpoints: a snapshot starts at each turn (the loop's beforeRequest, after the context
// manager's), and each side effect waits for it; a read-only Bash command is no side effect.
void installCheckpoints(const std::shared_ptr<CheckpointRecorder> &recorder,
                        const std::shared_ptr<BashAnalyzer> &bash,
                        AgentLoopConfig &loop)
{
    loop.beforeRequest = [inner = loop.beforeRequest,
                          recorder](const Context &conversation,
                                    const AbortToken &abort) -> QList<Message> {
        QList<Message> added = inner ? inner(conversation, abort) : QList<Message>();
        const bool userMessage = !conversation.messages.isEmpty()
                                 && conversation.messages.constLast().role == Message::Role::User;
        recorder->turnStarted(int(conversation.messages.size()), userMessage);
        return added;
    };
    // Whether this tool thread's current call was an effect the recorder saw (a read-only
    // Bash command is not): beforeEffect and afterEffect of one call run on the same thread.
    static thread_local bool sawEffect = false;
    loop.effects.beforeEffect = [inner = loop.effects.beforeEffect, recorder, bash](
                                    const ToolCallContext &context) {
        sawEffect = false;
        if (inner)
            inner(context);
        if (toolKindOf(context) == ToolKind::Bash
            && bash->analyze(context.arguments.value(QLatin1String("command")).toString()).readOnly) {
            return;
        }
        sawEffect = true;
        recorder->beforeEffect(context.toolName,
                               [abort = context.abort] { return abort.isAborted(); });
    };
    loop.effects.afterEffect = [inner = loop.effects.afterEffect,
                                recorder](const ToolCallContext &context, const ToolResult &result) {
        if (sawEffect)
            recorder->afterEffect();
        if (inner)
            inner(context, result);
    };
}

// \a fixed, then those of \a live whose names none of \a fixedNames (lower case) takes.
QList<AgentToolPtr> withLiveTools(const QList<AgentToolPtr> &fixed,
                                  const QSet<QString> &fixedNames,
                                  const QList<AgentToolPtr> &live)
{
    QList<AgentToolPtr> tools = fixed;
    for (const AgentToolPtr &tool : live) {
        if (!fixedNames.contains(tool->definition().name.toLower()))
            tools.append(tool);
    }
    return tools;
}

QStringList sideEffectToolNames(const QList<AgentToolPtr> &tools)
{
    QStringList names;
    for (const AgentToolPtr &tool : tools) {
        if (tool->hasSideEffects())
            names.append(tool->definition().name);
    }
    return names;
}

// Once a day per store (a stamp file in it), on a thread of its own: the agent never waits
// for it, and the stamp keeps a series of short headless runs from paying for it each time.
std::shared_ptr<void> pruneCheckpointsInBackground(std::shared_ptr<CheckpointStore> store,
                                                   const QString &sessionsFolder)
{
    const QString stamp = store->gitDir() + QStringLiteral("/agentdesk-pruned");
    const QFileInfo last(stamp);
    if (last.exists() && last.lastModified().secsTo(QDateTime::currentDateTime()) < 86400)
        return {};
    if (!QFileInfo::exists(store->gitDir() + QStringLiteral("/HEAD")))
        return {};
    QFile touch(stamp);
    if (!touch.open(QIODevice::WriteOnly | QIODevice::Truncate, PrivateFiles::fileMode))
        return {};
    touch.close();
    auto thread = new std::thread([store, sessionsFolder] {
        QSet<QString> live;
        for (const QString &name :
             QDir(sessionsFolder).entryList({QStringLiteral("*.jsonl")}, QDir::Files))
            live.insert(SessionStore::idOf(sessionsFolder + QLatin1Char('/') + name));
        const CheckpointPruner::Outcome outcome = CheckpointPruner::prune(*store, live);
        if (!outcome.error.isEmpty())
            qWarning().noquote() << "checkpoint store not pruned:" << outcome.error;
    });
    return std::shared_ptr<void>(thread, [](void *running) {
        auto *thread = static_cast<std::thread *>(running);
        thread->join();
        delete thread;
    });
}

} // namespace

QString CodingAgentOptions::networkRulesSource()
{
    return QCoreApplication::translate("AgentCore::CodingAgent", "AgentDesk's settings");
}

CodingAgent CodingAgent::assemble(const CodingAgentOptions &options)
{
    CodingAgent agent;
    agent.workspace = std::make_shared<ToolWorkspace>(options.repositoryRoot);
    CommandEnvironment commandEnvironment = options.commandEnvironment;
    commandEnvironment.addSecretValues({options.provider.apiKey});
    agent.workspace->setCommandEnvironment(commandEnvironment);
    agent.workspace->setSandboxNotice(options.onSandboxUnavailable);
    const QString root = agent.workspace->root(); // canonical
    agent.policy = makePolicy(options, root, &agent.warnings);
    SandboxPolicy sandbox = sandboxPolicy(options);
    sandbox.readablePaths += sandboxReadablePaths(options, *agent.policy);
    agent.workspace->setSandboxPolicy(sandbox);
    agent.untrustedGrants = agent.policy->untrustedGrants();

    QList<ExtensionPtr> extensions;
    if (!options.auditLogPath.isEmpty()) {
        agent.auditLog = std::make_shared<AuditLog>(options.auditLogPath, options.onAuditError);
        extensions.append(agent.auditLog);
    }
    extensions.append(options.extensions);

    PermissionGate gate;
    gate.policy = agent.policy;
    gate.asker = options.asker;
    gate.workspace = agent.workspace;
    gate.bash = std::make_shared<BashAnalyzer>(root);
    gate.alwaysAllowSettingsPath = PermissionSettings::projectLocalSettingsPath(root);
    gate.projectTrustPath = options.projectTrustPath;
    gate.onUnattendedDeny = options.onUnattendedDeny;
    gate.reviewShellWrites = options.reviewShellWrites;
    gate.shellWritesFolder = options.shellWritesFolder;
    gate.onShellWritesUnavailable = options.onShellWritesUnavailable;
    if (!options.shellWritesFolder.isEmpty()) {
        // An apply of a command's accepted writes that a crash or kill cut short is finished
        // (or its staged files removed) before anything else touches the tree.
        for (const QString &line :
             ShellWriteApplier::replay(options.shellWritesFolder + QStringLiteral("/journal")))
            qWarning().noquote() << line;
    }

    AgentConfig &config = agent.config;
    config.tools = CodingTools::create(agent.workspace);
    if (options.tools) {
        config.tools.removeIf([&options](const AgentToolPtr &tool) {
            return !options.tools->contains(toolKind(tool->definition().name));
        });
    }
    for (const AgentToolPtr &extra : options.extraTools) {
        const QString name = extra->definition().name;
        config.tools.removeIf(
            [&name](const AgentToolPtr &tool) { return tool->definition().name == name; });
        config.tools.append(extra);
    }
    config.runTools = options.runTools;
    if (options.liveTools) {
        // The live ones after the fixed ones, whose names they never take.
        QSet<QString> fixedNames;
        for (const AgentToolPtr &tool : std::as_const(config.tools))
            fixedNames.insert(tool->definition().name.toLower());
        config.loop.currentTools = [fixed = config.tools, fixedNames, slot = options.liveTools] {
            return withLiveTools(fixed, fixedNames, slot->tools());
        };
        config.tools = config.loop.currentTools();
    }
    if (options.systemPrompt.isEmpty()) {
        PromptEnvironment environment = gatherPromptEnvironment(root);
        if (options.tools)
            environment.tools = *options.tools;
        config.systemPrompt = formatSystemPrompt(environment);
        agent.instructions = environment.instructions;
    } else {
        config.systemPrompt = options.systemPrompt;
    }
    config.loop.model = std::make_shared<HttpModelClient>(options.provider);
    config.loop.maxTurns = options.maxTurns;
    ContextSettings contextSettings = options.context;
    if (contextSettings.windowTokens <= 0) {
        contextSettings.windowTokens
            = contextWindowTokens(options.provider.provider, options.provider.model).value_or(0);
    }
    if (contextSettings.outputReserveTokens <= 0 && options.provider.maxOutputTokens > 0)
        contextSettings.outputReserveTokens = options.provider.maxOutputTokens;
    agent.context = std::make_shared<ContextManager>(contextSettings,
                                                     [provider = options.provider]()
                                                         -> std::shared_ptr<ModelClient> {
                                                         return std::make_shared<HttpModelClient>(
                                                             provider);
                                                     });
    ContextManager::installInto(agent.context, config.loop);
    // Read may answer "unchanged" only about an output the model still has: each request tells
    // the ledger which outputs it carries (a compaction or a dropped output forgets the rest).
    config.loop.contextView = [view = std::move(config.loop.contextView),
                               context = agent.context,
                               workspace = agent.workspace](const QList<Message> &conversation) {
        QList<Message> messages = view(conversation);
        ReadLedger &ledger = workspace->readLedger();
        if (!ledger.isEmpty())
            ledger.retainShown(messages, context->edits().droppedToolOutputs);
        return messages;
    };
    config.loop.middlewares = {makeExtensionMiddleware(std::move(extensions)),
                               makePermissionMiddleware(gate)};
    config.loop.prepareContext = [policy = agent.policy,
                                  sideEffectTools = sideEffectToolNames(config.tools),
                                  live = options.liveTools](Context context) {
        if (!live)
            return policy->prepareContext(std::move(context), sideEffectTools);
        return policy->prepareContext(std::move(context),
                                      sideEffectTools + sideEffectToolNames(live->tools()));
    };
    if (options.onFileChanged) {
        config.loop.effects.afterEffect =
            [onFileChanged = options.onFileChanged](const ToolCallContext &,
                                                    const ToolResult &result) {
                if (const std::optional<FileChange> change = FileChange::of(result))
                    onFileChanged(*change);
            };
    }
    if (!options.checkpointStoreRoot.isEmpty()) {
        auto store = std::make_shared<CheckpointStore>(root,
                                                       options.checkpointStoreRoot,
                                                       options.checkpointMaxFileBytes);
        agent.checkpoints = std::make_shared<CheckpointRecorder>(store, options.checkpointEvents);
        installCheckpoints(agent.checkpoints, gate.bash, config.loop);
        if (options.pruneCheckpoints)
            agent.checkpointPruning = pruneCheckpointsInBackground(store,
                                                                   SessionStore::defaultDirectory(
                                                                       root));
    }
    if (options.sandbox.mode != SandboxMode::Off) {
        // The first sandboxed command would wait for bwrap's probe (a process start of its
        // own): it runs while the first request is out instead.
        config.loop.beforeRequest = [inner = std::move(config.loop.beforeRequest),
                                     bwrap = options.sandbox.bwrapPath](const Context &conversation,
                                                                        const AbortToken &abort) {
            SandboxProbe::warmUp(bwrap);
            return inner ? inner(conversation, abort) : QList<Message>();
        };
    }
    return agent;
}

} // namespace AgentCore
