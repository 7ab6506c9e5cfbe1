#include "appsettings.h"

#include <ai/modelcatalog.h>
#include <loop/agenttypes.h>

#include <algorithm>

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>

namespace Ui {

namespace {

QString key(const char *text)
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
    result.model = selectionFromSetting(settings.value(key(currentModelKey)));

    const QJsonDocument recent = QJsonDocument::fromJson(
        settings.value(key(recentModelsKey)).toString().toUtf8());
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
    const int maxTurns = settings.value(key(maxTurnsKey)).toInt(&ok);
    result.maxTurns = ok && maxTurns > 0 ? maxTurns : 0;
    result.autoCompact = settings.value(key(autoCompactKey), true).toBool();
    result.sandboxMode = AgentCore::SandboxPolicy::parseMode(
                             settings.value(key(sandboxModeKey)).toString())
                             .value_or(AgentCore::SandboxMode::On);
    result.sandboxNetwork = settings.value(key(sandboxNetworkKey), false).toBool();
    result.sandboxNetworkRules = settings.value(key(sandboxNetworkRulesKey)).toStringList();
    result.sandboxReadablePaths = settings.value(key(sandboxReadablePathsKey)).toStringList();
    result.reviewShellWrites = settings.value(key(reviewShellWritesKey), true).toBool();
    result.notifyApprovals = settings.value(key(notifyApprovalsKey), true).toBool();
    result.notifyFinished = settings.value(key(notifyFinishedKey), true).toBool();

    const QString theme = settings.value(key(themeKey)).toString();
    for (int index = 0; index < int(std::size(themeIds)); ++index) {
        if (theme == key(themeIds[index]))
            result.theme = Theme(index);
    }
    result.language = settings.value(key(languageKey)).toString();
    result.mcpServers = settings.value(key(mcpServersKey)).toString();
    result.disabledMcpServers = settings.value(key(disabledMcpServersKey)).toStringList();

    const QJsonObject windows = QJsonDocument::fromJson(
                                    settings.value(key(contextWindowsKey)).toString().toUtf8())
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
        settings.setValue(key(currentModelKey),
                          QString::fromUtf8(
                              QJsonDocument(model->toJson()).toJson(QJsonDocument::Compact)));
    } else {
        settings.remove(key(currentModelKey));
    }
    QJsonArray recent;
    for (const ModelSelection &selection : recentModels)
        recent.append(selection.toJson());
    settings.setValue(key(recentModelsKey),
                      QString::fromUtf8(QJsonDocument(recent).toJson(QJsonDocument::Compact)));
    settings.setValue(key(maxTurnsKey), maxTurns);
    settings.setValue(key(autoCompactKey), autoCompact);
    settings.setValue(key(sandboxModeKey), AgentCore::SandboxPolicy::modeName(sandboxMode));
    settings.setValue(key(sandboxNetworkKey), sandboxNetwork);
    settings.setValue(key(sandboxNetworkRulesKey), sandboxNetworkRules);
    settings.setValue(key(sandboxReadablePathsKey), sandboxReadablePaths);
    settings.setValue(key(mcpServersKey), mcpServers);
    settings.setValue(key(disabledMcpServersKey), disabledMcpServers);
    settings.setValue(key(reviewShellWritesKey), reviewShellWrites);
    settings.setValue(key(notifyApprovalsKey), notifyApprovals);
    settings.setValue(key(notifyFinishedKey), notifyFinished);
    settings.setValue(key(themeKey), key(themeIds[int(theme)]));
    QJsonObject windows;
    for (auto it = contextWindows.cbegin(); it != contextWindows.cend(); ++it)
        windows.insert(it.key(), it.value());
    if (windows.isEmpty())
        settings.remove(key(contextWindowsKey));
    else
        settings.setValue(key(contextWindowsKey),
                          QString::fromUtf8(QJsonDocument(windows).toJson(QJsonDocument::Compact)));
    if (language.isEmpty())
        settings.remove(key(languageKey));
    else
        settings.setValue(key(languageKey), language);
}

} // namespace Ui
