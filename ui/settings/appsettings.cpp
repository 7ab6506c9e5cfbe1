#include "appsettings.h"

#include <coding/codingagentoptions.h>

#include <ai/modelcatalog.h>
#include <loop/toolkind.h>

#include <algorithm>

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>

namespace Ui {

namespace {

QString settingKey(const char *text)
{
    return QLatin1String(text);
}

const char currentModelKey[] = "Model/current";
const char recentModelsKey[] = "Model/recent";
const char maxTurnsKey[] = "Agent/maxTurns";
const char autoCompactKey[] = "Agent/autoCompact";
const char sandboxModeKey[] = "Agent/sandbox";
const char sandboxNetworkKey[] = "Agent/sandboxNetwork";
const char sandboxNetworkRulesKey[] = "Agent/sandboxNetworkRules";
const char sandboxReadablePathsKey[] = "Agent/sandboxReadablePaths";
const char reviewShellWritesKey[] = "Agent/reviewShellWrites";
const char notifyApprovalsKey[] = "Notifications/approvals";
const char notifyFinishedKey[] = "Notifications/finished";
const char themeKey[] = "Appearance/theme";
const char languageKey[] = "Appearance/language";
const char mcpServersKey[] = "Mcp/servers";
const char disabledMcpServersKey[] = "Mcp/disabled";
const char contextWindowsKey[] = "Model/contextWindows";
const char languageServersKey[] = "LanguageServers/enabled";
const char languageServerConfigsKey[] = "LanguageServers/servers";
const char disabledLanguageServersKey[] = "LanguageServers/disabled";
const char languageServerWaitKey[] = "LanguageServers/waitSeconds";

constexpr const char *themeIds[] = {"system", "light", "dark"};

std::optional<ModelSelection> selectionFromSetting(const QVariant &value)
{
    const QJsonDocument document = QJsonDocument::fromJson(value.toString().toUtf8());
    if (!document.isObject())
        return std::nullopt;
    return ModelSelection::fromJson(document.object());
}

} // namespace

void AppSettings::rememberModel(const ModelSelection &selection)
{
    // One entry per model and endpoint: the latest thinking level and spelling of the URL.
    recentModels.removeIf([&](const ModelSelection &other) { return other.sameModelAs(selection); });
    recentModels.prepend(selection);
    while (recentModels.size() > maxRecentModels)
        recentModels.removeLast();
}

QString AppSettings::contextWindowKey(const ModelSelection &selection)
{
    // The key's account names the endpoint (normalised): one per provider, one per base URL.
    return selection.keyAccount() + u'|' + selection.model.trimmed();
}

std::optional<qint64> AppSettings::contextWindow(const ModelSelection &selection) const
{
    const AgentCore::ProviderConfig config = selection.providerConfig({});
    if (const std::optional<qint64> known = AgentCore::contextWindowTokens(config.provider,
                                                                           config.model))
        return known;
    const auto it = contextWindows.constFind(contextWindowKey(selection));
    if (it == contextWindows.cend())
        return std::nullopt;
    return *it;
}

AppSettings AppSettings::load(const QSettings &settings)
{
    AppSettings result;
    result.model = selectionFromSetting(settings.value(settingKey(currentModelKey)));

    const QJsonDocument recent = QJsonDocument::fromJson(
        settings.value(settingKey(recentModelsKey)).toString().toUtf8());
    const QJsonArray recentArray = recent.array();
    for (const QJsonValue &value : recentArray) {
        const std::optional<ModelSelection> selection = ModelSelection::fromJson(value.toObject());
        const auto same = [&](const ModelSelection &other) { return other.sameModelAs(*selection); };
        if (selection
            && std::none_of(result.recentModels.cbegin(), result.recentModels.cend(), same)
            && result.recentModels.size() < maxRecentModels) {
            result.recentModels.append(*selection);
        }
    }

    bool ok = false;
    const int maxTurns = settings.value(settingKey(maxTurnsKey)).toInt(&ok);
    result.maxTurns = ok && maxTurns > 0 ? maxTurns : 0;
    result.autoCompact = settings.value(settingKey(autoCompactKey), true).toBool();
    result.sandboxMode = AgentCore::SandboxPolicy::parseMode(
                             settings.value(settingKey(sandboxModeKey)).toString())
                             .value_or(AgentCore::SandboxMode::On);
    result.sandboxNetwork = settings.value(settingKey(sandboxNetworkKey), false).toBool();
    result.sandboxNetworkRules = settings.value(settingKey(sandboxNetworkRulesKey)).toStringList();
    result.sandboxReadablePaths = settings.value(settingKey(sandboxReadablePathsKey)).toStringList();
    result.reviewShellWrites = settings.value(settingKey(reviewShellWritesKey), true).toBool();
    result.notifyApprovals = settings.value(settingKey(notifyApprovalsKey), true).toBool();
    result.notifyFinished = settings.value(settingKey(notifyFinishedKey), true).toBool();

    const QString theme = settings.value(settingKey(themeKey)).toString();
    for (int index = 0; index < int(std::size(themeIds)); ++index) {
        if (theme == settingKey(themeIds[index]))
            result.theme = Theme(index);
    }
    result.language = settings.value(settingKey(languageKey)).toString();
    result.mcpServers = settings.value(settingKey(mcpServersKey)).toString();
    result.disabledMcpServers = settings.value(settingKey(disabledMcpServersKey)).toStringList();
    result.languageServers = settings.value(settingKey(languageServersKey), true).toBool();
    const QJsonArray servers
        = QJsonDocument::fromJson(
              settings.value(settingKey(languageServerConfigsKey)).toString().toUtf8())
              .array();
    for (const QJsonValue &value : servers) {
        if (const auto config = AgentCore::LspServerConfig::fromJson(value.toObject()))
            result.languageServerConfigs.append(*config);
    }
    result.disabledLanguageServers = settings.value(settingKey(disabledLanguageServersKey))
                                         .toStringList();
    const int wait = settings.value(settingKey(languageServerWaitKey)).toInt(&ok);
    result.languageServerWaitSeconds = ok && wait > 0 && wait <= maxLanguageServerWaitSeconds ? wait
                                                                                              : 0;

    const QJsonObject windows
        = QJsonDocument::fromJson(settings.value(settingKey(contextWindowsKey)).toString().toUtf8())
              .object();
    for (auto it = windows.constBegin(); it != windows.constEnd(); ++it) {
        const qint64 tokens = it.value().toInteger();
        if (tokens >= minContextWindow && tokens <= maxContextWindow)
            result.contextWindows.insert(it.key(), tokens);
    }
    return result;
}

QList<AgentCore::PermissionRule> AppSettings::parseNetworkRules(const QStringList &lines,
                                                                QStringList *invalid)
{
    QList<AgentCore::PermissionRule> rules;
    for (const QString &line : lines) {
        if (line.trimmed().isEmpty())
            continue;
        const std::optional<AgentCore::PermissionRule> rule
            = AgentCore::PermissionRule::parse(line.trimmed(), AgentCore::PermissionBehavior::Allow);
        if (rule && AgentCore::toolKind(rule->toolName) == AgentCore::ToolKind::Bash)
            rules.append(*rule);
        else if (invalid)
            invalid->append(line.trimmed());
    }
    return rules;
}

void AppSettings::applyLanguageServers(AgentCore::LanguageServerOptions &options) const
{
    if (!languageServers) {
        options.enabled = false;
        return;
    }
    const QList<AgentCore::LspServerConfig> configured = languageServerConfigs.isEmpty()
                                                             ? AgentCore::LspServerConfig::defaults()
                                                             : languageServerConfigs;
    QList<AgentCore::LspServerConfig> used;
    for (const AgentCore::LspServerConfig &config : configured) {
        if (!disabledLanguageServers.contains(config.name))
            used.append(config);
    }
    // An empty list means the defaults to the agent: every server off is none at all.
    options.enabled = options.enabled && !used.isEmpty();
    options.servers = used;
    if (languageServerWaitSeconds > 0)
        options.editWaitMs = languageServerWaitSeconds * 1000;
}

QStringList AppSettings::expandedReadablePaths() const
{
    QStringList paths;
    for (const QString &line : sandboxReadablePaths) {
        QString path = line.trimmed();
        if (path == QLatin1String("~") || path.startsWith(QLatin1String("~/")))
            path = QDir::homePath() + path.mid(1);
        if (QDir::isAbsolutePath(path))
            paths.append(QDir::cleanPath(path));
    }
    return paths;
}

void AppSettings::save(QSettings &settings) const
{
    // JSON text rather than nested QSettings groups: the same schema as session files.
    if (model) {
        settings.setValue(settingKey(currentModelKey),
                          QString::fromUtf8(
                              QJsonDocument(model->toJson()).toJson(QJsonDocument::Compact)));
    } else {
        settings.remove(settingKey(currentModelKey));
    }
    QJsonArray recent;
    for (const ModelSelection &selection : recentModels)
        recent.append(selection.toJson());
    settings.setValue(settingKey(recentModelsKey),
                      QString::fromUtf8(QJsonDocument(recent).toJson(QJsonDocument::Compact)));
    settings.setValue(settingKey(maxTurnsKey), maxTurns);
    settings.setValue(settingKey(autoCompactKey), autoCompact);
    settings.setValue(settingKey(sandboxModeKey), AgentCore::SandboxPolicy::modeName(sandboxMode));
    settings.setValue(settingKey(sandboxNetworkKey), sandboxNetwork);
    settings.setValue(settingKey(sandboxNetworkRulesKey), sandboxNetworkRules);
    settings.setValue(settingKey(sandboxReadablePathsKey), sandboxReadablePaths);
    settings.setValue(settingKey(mcpServersKey), mcpServers);
    settings.setValue(settingKey(disabledMcpServersKey), disabledMcpServers);
    settings.setValue(settingKey(reviewShellWritesKey), reviewShellWrites);
    settings.setValue(settingKey(languageServersKey), languageServers);
    QJsonArray servers;
    for (const AgentCore::LspServerConfig &config : languageServerConfigs)
        servers.append(config.toJson());
    if (servers.isEmpty())
        settings.remove(settingKey(languageServerConfigsKey));
    else
        settings.setValue(settingKey(languageServerConfigsKey),
                          QString::fromUtf8(QJsonDocument(servers).toJson(QJsonDocument::Compact)));
    settings.setValue(settingKey(disabledLanguageServersKey), disabledLanguageServers);
    if (languageServerWaitSeconds > 0)
        settings.setValue(settingKey(languageServerWaitKey), languageServerWaitSeconds);
    else
        settings.remove(settingKey(languageServerWaitKey));
    settings.setValue(settingKey(notifyApprovalsKey), notifyApprovals);
    settings.setValue(settingKey(notifyFinishedKey), notifyFinished);
    settings.setValue(settingKey(themeKey), settingKey(themeIds[int(theme)]));
    QJsonObject windows;
    for (auto it = contextWindows.cbegin(); it != contextWindows.cend(); ++it)
        windows.insert(it.key(), it.value());
    if (windows.isEmpty())
        settings.remove(settingKey(contextWindowsKey));
    else
        settings.setValue(settingKey(contextWindowsKey),
                          QString::fromUtf8(QJsonDocument(windows).toJson(QJsonDocument::Compact)));
    if (language.isEmpty())
        settings.remove(settingKey(languageKey));
    else
        settings.setValue(settingKey(languageKey), language);
}

} // namespace Ui
