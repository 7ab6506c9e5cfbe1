#include "codingagent.h"
#include "diagnosticstool.h"
#include "navigationtools.h"
#include "proposaldiagnostics.h"

#include "requeststages.h"
#include "systemprompt.h"

#include <ai/httpmodelclient.h>
#include <ai/modelcatalog.h>
#include <checkpoint/checkpointpruner.h>
#include <context/contextstages.h>
#include <files/privatefiles.h>
#include <hooks/hookseams.h>
#include <permissions/bashanalysis.h>
#include <permissions/permissionmiddleware.h>
#include <permissions/permissionsettings.h>
#include <session/sessionstore.h>
#include <tools/codingtools.h>
#include <tools/shellwriteapplier.h>

#include <QCoreApplication>
#include <QDateTime>
#include <QDebug>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSet>
#include <QtConcurrent/QtConcurrentRun>

#include <utility>

namespace AgentCore {

namespace {

std::shared_ptr<PermissionPolicy> makePolicy(const PermissionOptions &options,
                                             const QString &root,
                                             QStringList *warnings)
{
    auto policy = std::make_shared<PermissionPolicy>(root,
                                                     options.mode.value_or(PermissionMode::Default));
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
    if (options.mode)
        policy->setMode(*options.mode);
    for (const PermissionRule &rule : options.allowRules) {
        PermissionRule allow = rule;
        allow.behavior = PermissionBehavior::Allow;
        policy->addRule(allow);
    }
    if (!options.networkRules.isEmpty())
        policy->setNetworkRules(PermissionOptions::networkRulesSource(), options.networkRules);
    return policy;
}

// What the options ask for, with AgentDesk's own files hidden too: a command may not read
// the settings, sessions or audit logs any more than change them.
SandboxPolicy sandboxPolicy(const CodingAgentOptions &options)
{
    SandboxPolicy policy = options.sandbox;
    const PermissionOptions &permissions = options.permissions;
    QStringList own = permissions.protectedPaths;
    if (!permissions.userSettingsPath.isEmpty())
        own.append(QFileInfo(permissions.userSettingsPath).absolutePath());
    if (!permissions.projectTrustPath.isEmpty())
        own.append(permissions.projectTrustPath);
    for (const QString &path : std::as_const(own)) {
        if (!path.isEmpty() && !policy.hiddenPaths.contains(path))
            policy.hiddenPaths.append(path);
    }
    return policy;
}

// What the sandbox shows of the hidden home besides its allow-list: the additional
// directories, and the extra paths of the user's own settings file ("sandboxReadable"; a
// project file cannot show itself the user's files).
QStringList sandboxReadablePaths(const PermissionOptions &options, const PermissionPolicy &policy)
{
    QStringList paths = policy.writableRoots().mid(1); // the repository is bound anyway
    if (!options.userSettingsPath.isEmpty()) {
        if (const std::optional<PermissionSettings> settings = PermissionSettings::load(
                options.userSettingsPath))
            paths += settings->sandboxReadable;
    }
    return paths;
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

// Once a day per store (a stamp file in it), as one-off work on the thread pool: the agent
// never waits for it, and the stamp keeps a series of short headless runs from paying for it
// each time.
QFuture<void> pruneCheckpointsInBackground(std::shared_ptr<CheckpointStore> store,
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
    return QtConcurrent::run([store, sessionsFolder] {
        QSet<QString> live;
        for (const QString &name :
             QDir(sessionsFolder).entryList({QStringLiteral("*.jsonl")}, QDir::Files))
            live.insert(SessionStore::idOf(sessionsFolder + QLatin1Char('/') + name));
        const CheckpointPruner::Outcome outcome = CheckpointPruner::prune(*store, live);
        if (!outcome.error.isEmpty())
            qWarning().noquote() << "checkpoint store not pruned:" << outcome.error;
    });
}

} // namespace

QString PermissionOptions::networkRulesSource()
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
    agent.workspace->setSandboxNotice(options.reports.sandboxUnavailable);
    agent.workspace->setPictures(options.tools.pictures, pictureLimits(options.provider));
    const QString root = agent.workspace->root(); // canonical
    agent.policy = makePolicy(options.permissions, root, &agent.warnings);
    SandboxPolicy sandbox = sandboxPolicy(options);
    sandbox.readablePaths += sandboxReadablePaths(options.permissions, *agent.policy);
    agent.workspace->setSandboxPolicy(sandbox);
    agent.untrustedGrants = agent.policy->untrustedGrants();

    if (options.hooks.enabled) {
        // Read once: a hook file changed during the session waits for the next start.
        HookConfig hooks = HookConfig::load(options.permissions.userSettingsPath, root);
        agent.warnings += hooks.errors;
        const ProjectTrust trust = options.permissions.trustProjectSettings
                                       ? ProjectTrust::everything()
                                       : ProjectTrust::load(options.permissions.projectTrustPath,
                                                            root);
        HookRunner::Session session;
        session.sessionId = options.hooks.sessionId;
        session.transcriptPath = options.hooks.transcriptPath;
        session.cwd = root;
        // The user's own command, outside the sandbox, with what Bash gets of AgentDesk's
        // environment: never the provider's key.
        session.environment = commandEnvironment.apply(QProcessEnvironment::systemEnvironment());
        agent.hooks = std::make_shared<HookRunner>(
            std::move(hooks),
            std::move(session),
            [trust](const QString &grant) { return trust.trusts(grant); },
            options.reports.hookRan);
        agent.untrustedGrants += agent.hooks->untrustedGrants();
    }

    QList<ExtensionPtr> extensions;
    if (!options.permissions.auditLogPath.isEmpty()) {
        agent.auditLog = std::make_shared<AuditLog>(options.permissions.auditLogPath,
                                                    options.reports.auditLogFailed);
        extensions.append(agent.auditLog);
    }
    extensions.append(options.tools.extensions);

    // A question that waits for the user starts the Notification hooks (not the `!` lines'
    // of a custom command: those are asked while the user is at the composer).
    const std::shared_ptr<PermissionAsker> asker = makeNotifyingAsker(options.permissions.asker,
                                                                      agent.hooks);
    PermissionGate gate;
    gate.policy = agent.policy;
    gate.asker = asker;
    gate.workspace = agent.workspace;
    gate.bash = std::make_shared<BashAnalyzer>(root);
    // A truncated command's result names the file with its whole output: the model's Read
    // and Bash read it without a question (the sandbox shows it read-only), as they read the
    // repository. Made now so that its path is known (ToolLogDirectory: 0700, removed at exit).
    if (const QString logs = agent.workspace->logDirectory(); !logs.isEmpty()) {
        agent.policy->addReadableRoot(logs);
        gate.bash->setReadableRoots(agent.policy->readableRoots());
    }
    gate.alwaysAllowSettingsPath = PermissionSettings::projectLocalSettingsPath(root);
    gate.projectTrustPath = options.permissions.projectTrustPath;
    gate.onUnattendedDeny = options.reports.unattendedDenied;
    gate.reviewShellWrites = options.shellWrites.review;
    gate.shellWritesFolder = options.shellWrites.folder;
    gate.onShellWritesUnavailable = options.reports.shellWritesUnavailable;
    if (!options.shellWrites.folder.isEmpty()) {
        // An apply of a command's accepted writes that a crash or kill cut short is finished
        // (or its staged files removed) before anything else touches the tree.
        for (const QString &line :
             ShellWriteApplier::replay(options.shellWrites.folder + QStringLiteral("/journal")))
            qWarning().noquote() << line;
    }

    AgentConfig &config = agent.config;
    agent.shells = std::make_shared<BackgroundShells>(agent.workspace->logDirectory());
    config.tools = CodingTools::create(agent.workspace, agent.shells);
    if (const std::optional<QList<ToolKind>> &builtIn = options.tools.builtIn) {
        config.tools.removeIf([&builtIn](const AgentToolPtr &tool) {
            const ToolKind kind = toolKind(tool->definition().name);
            return !builtIn->contains(followsBash(kind) ? ToolKind::Bash : kind);
        });
    }
    // Custom commands and skills: repository files like any other, read here, never run.
    agent.commands = CustomCommands::discover(root, options.userCommandsFolder);
    agent.skills = Skills::discover(root, options.userSkillsFolder);
    agent.warnings += agent.commands.warnings;
    agent.warnings += agent.skills.warnings;
    if (!agent.skills.skills.isEmpty()) {
        config.tools.append(std::make_shared<SkillTool>(agent.skills));
        // A user skill's files are read with Read without a question, as the repository's;
        // nothing else of the user's folder is (the sandbox still hides it from Bash).
        for (const QString &folder : agent.skills.userFolders())
            agent.policy->addReadableRoot(folder);
    }
    if (options.languageServers.enabled) {
        const QList<LspServerConfig> wanted = options.languageServers.servers.isEmpty()
                                                  ? LspServerConfig::defaults()
                                                  : options.languageServers.servers;
        const QProcessEnvironment environment = options.commandEnvironment.apply(
            QProcessEnvironment::systemEnvironment());
        QList<LspServerConfig> found = LspServerConfig::available(wanted, environment);
        for (LspServerConfig &server : found)
            server = server.forRepository(root);
        if (!found.isEmpty()) {
            LspClientOptions lsp;
            lsp.rootPath = root;
            lsp.environment = environment; // as a Bash command's: no secret reaches a server
            agent.languageServers = std::make_shared<LspHost>(found, lsp);
            // --tools chose the tools: the others (as Task) are not offered then.
            if (!options.tools.builtIn) {
                config.tools.append(
                    std::make_shared<DiagnosticsTool>(agent.languageServers, agent.workspace));
                for (const auto kind :
                     {LspNavigationTool::Kind::Definition, LspNavigationTool::Kind::References}) {
                    config.tools.append(std::make_shared<LspNavigationTool>(kind,
                                                                            agent.languageServers,
                                                                            agent.workspace));
                }
            }
        }
    }
    for (const AgentToolPtr &extra : options.tools.extra) {
        const QString name = extra->definition().name;
        config.tools.removeIf(
            [&name](const AgentToolPtr &tool) { return tool->definition().name == name; });
        config.tools.append(extra);
    }
    // --tools chose the built-in tools: a general subagent would offer the others again.
    if (options.subagents.enabled && !options.tools.builtIn) {
        SubagentTypes types = SubagentTypes::discover(root, options.subagents.userFolder);
        agent.warnings += types.warnings;
        agent.subagents = makeSubagentRunner(std::move(types),
                                             options.subagents,
                                             options.reports.subagentEvent);
        config.tools.removeIf([](const AgentToolPtr &tool) {
            return tool->definition().name == TaskTool::toolName();
        });
        config.tools.append(std::make_shared<TaskTool>(agent.subagents, QStringList()));
    }
    config.runTools = options.tools.perRun;
    if (options.tools.live) {
        // The live ones after the fixed ones, whose names they never take.
        QSet<QString> fixedNames;
        for (const AgentToolPtr &tool : std::as_const(config.tools))
            fixedNames.insert(tool->definition().name.toLower());
        config.loop.currentTools = [fixed = config.tools, fixedNames, slot = options.tools.live] {
            return withLiveTools(fixed, fixedNames, slot->tools());
        };
        config.tools = config.loop.currentTools();
    }
    if (options.systemPrompt.isEmpty()) {
        PromptEnvironment environment = gatherPromptEnvironment(root);
        if (options.tools.builtIn)
            environment.tools = *options.tools.builtIn;
        environment.skills = agent.skills.promptSection();
        config.systemPrompt = formatSystemPrompt(environment);
        agent.instructions = environment.instructions;
    } else {
        config.systemPrompt = options.systemPrompt + agent.skills.promptSection();
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
    config.loop.middlewares = {makeExtensionMiddleware(std::move(extensions))};
    if (agent.hooks && !agent.hooks->config().hooks.isEmpty()) {
        // Inside the audit log (it records what a hook denied), outside permissions: a hook
        // takes away, the policy still decides what it allows.
        HookGate hookGate;
        hookGate.runner = agent.hooks;
        hookGate.asker = asker;
        hookGate.onUnattendedDeny = options.reports.unattendedDenied;
        config.loop.middlewares.append(makeHookMiddleware(hookGate));
        config.loop.onTaskEnd = makeStopHook(agent.hooks);
    }
    std::shared_ptr<ProposalDiagnostics> proposals;
    if (agent.languageServers) {
        // A reviewed change is checked while the reviewer reads it.
        proposals = std::make_shared<ProposalDiagnostics>(agent.languageServers,
                                                          options.languageServers.editWaitMs);
        gate.checkProposal = [proposals](const QString &path,
                                         const QString &oldText,
                                         const QString &newText,
                                         bool newFile) {
            return proposals->check(path, oldText, newText, newFile);
        };
    }
    config.loop.middlewares.append(makePermissionMiddleware(gate));
    if (agent.languageServers) {
        // Inside permissions: only a change that was approved is checked.
        config.loop.middlewares.append(
            makeDiagnosticsMiddleware(agent.languageServers,
                                      agent.workspace,
                                      proposals,
                                      options.languageServers.editWaitMs));
    }
    agent.deferral = std::make_shared<ToolDeferral>(options.reports.toolsLoaded);
    ToolDeferral::installInto(config.loop, agent.deferral);
    if (!options.checkpoints.storeRoot.isEmpty()) {
        auto store = std::make_shared<CheckpointStore>(root,
                                                       options.checkpoints.storeRoot,
                                                       options.checkpoints.maxFileBytes);
        agent.checkpoints = std::make_shared<CheckpointRecorder>(store, options.reports.checkpoints);
        if (options.checkpoints.prune)
            agent.checkpointPruning = pruneCheckpointsInBackground(store,
                                                                   SessionStore::defaultDirectory(
                                                                       root));
    }

    // What happens around each request and each side effect, in this order (a stage that
    // does not apply is left out). At each of the loop's seams the stages run as listed: the
    // sandbox's probe starts before the compaction may wait for a summary, the read ledger
    // sees the context view's messages, the checkpoint's turn starts with the conversation
    // the loop gave, and a file change is told after the checkpoint recorded the effect.
    RequestPipeline pipeline;
    if (options.sandbox.mode != SandboxMode::Off)
        pipeline.add(std::make_shared<SandboxWarmUpStage>(options.sandbox.bwrapPath));
    pipeline.add(std::make_shared<ContextViewStage>(agent.context));
    if (options.pages) {
        pipeline.add(std::make_shared<PagedMessagesStage>(options.pages));
        agent.context->setPages(options.pages); // its summaries read the whole outputs too
    }
    pipeline.add(std::make_shared<ReadLedgerStage>(agent.workspace, agent.context))
        .add(std::make_shared<CompactionStage>(agent.context))
        .add(std::make_shared<PlanModeStage>(agent.policy, config.tools, options.tools.live));
    if (agent.checkpoints) {
        pipeline.add(std::make_shared<CheckpointTurnStage>(agent.checkpoints))
            .add(std::make_shared<EffectGuardStage>(agent.checkpoints, gate.bash));
    }
    if (options.reports.fileChanged)
        pipeline.add(std::make_shared<FileChangeStage>(options.reports.fileChanged));
    pipeline.installInto(config.loop);
    if (agent.subagents) {
        // Children go through what the parent's calls go through; the parent's context
        // stages (its view, compaction, read ledger) are its own.
        SubagentRunner::Parent parent;
        parent.makeModel = [provider = options.provider]() -> std::shared_ptr<ModelClient> {
            return std::make_shared<HttpModelClient>(provider);
        };
        parent.namedModel =
            [provider = options.provider](const QString &model) -> std::shared_ptr<ModelClient> {
            ProviderConfig named = provider;
            named.model = model;
            return std::make_shared<HttpModelClient>(named);
        };
        // The parent's tools as its run has them: the fixed and live ones, then those taken at
        // the start of each run (the window's MCP servers), which a general child offers too.
        parent.tools = [current = config.loop.currentTools,
                        fixed = config.tools,
                        perRun = options.tools.perRun] {
            QList<AgentToolPtr> tools = current ? current() : fixed;
            if (perRun) {
                QSet<QString> names;
                for (const AgentToolPtr &tool : std::as_const(tools))
                    names.insert(tool->definition().name);
                // Called on the child's thread, as the Agent calls it on its worker; it waits
                // a little for servers still starting, not for ever.
                for (const AgentToolPtr &tool : perRun(AbortToken())) {
                    if (!names.contains(tool->definition().name))
                        tools.append(tool);
                }
            }
            return tools;
        };
        parent.middlewares = config.loop.middlewares;
        parent.effects = config.loop.effects;
        parent.prepareContext = config.loop.prepareContext;
        parent.hooks = agent.hooks;
        parent.environment = QStringLiteral("\n# Environment\n- Working directory: %1\n").arg(root)
                             + instructionsPromptSection(agent.instructions);
        agent.subagents->setParent(std::move(parent));
    }
    return agent;
}

} // namespace AgentCore
