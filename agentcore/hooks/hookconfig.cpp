#include "hookconfig.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

namespace AgentCore {

namespace {

struct EventName
{
    HookEventName event;
    QLatin1StringView name;
};

constexpr EventName eventNames[] = {
    {HookEventName::PreToolUse, QLatin1StringView("PreToolUse")},
    {HookEventName::PostToolUse, QLatin1StringView("PostToolUse")},
    {HookEventName::UserPromptSubmit, QLatin1StringView("UserPromptSubmit")},
    {HookEventName::Stop, QLatin1StringView("Stop")},
    {HookEventName::SessionStart, QLatin1StringView("SessionStart")},
    {HookEventName::SessionEnd, QLatin1StringView("SessionEnd")},
    {HookEventName::PreCompact, QLatin1StringView("PreCompact")},
    {HookEventName::Notification, QLatin1StringView("Notification")},
    {HookEventName::SubagentStop, QLatin1StringView("SubagentStop")},
};

bool isPlainAlternatives(const QString &matcher)
{
    for (const QChar c : matcher) {
        if (!c.isLetterOrNumber() && c != u'_' && c != u'-' && c != u'|')
            return false;
    }
    return true;
}

} // namespace

QString hookEventNameText(HookEventName event)
{
    for (const EventName &known : eventNames) {
        if (known.event == event)
            return known.name;
    }
    return {};
}

std::optional<HookEventName> hookEventFromName(QStringView name)
{
    for (const EventName &known : eventNames) {
        if (name == known.name)
            return known.event;
    }
    return std::nullopt;
}

bool hookMatcherSelects(const QString &matcher, const QString &value)
{
    if (matcher.isEmpty() || matcher == u"*")
        return true;
    if (isPlainAlternatives(matcher))
        return matcher.split(u'|').contains(value);
    const QRegularExpression expression(QRegularExpression::anchoredPattern(matcher));
    return expression.isValid() && expression.match(value).hasMatch();
}

QString HookEntry::grant() const
{
    QString text = QStringLiteral("hook: ") + hookEventNameText(event);
    if (!matcher.isEmpty())
        text += u' ' + matcher;
    return text + QStringLiteral(": ") + command;
}

void HookConfig::addFrom(const QJsonObject &settings,
                         const QString &file,
                         const QString &sourceLabel,
                         bool fromProject)
{
    const QJsonValue hooksValue = settings.value(QLatin1String("hooks"));
    if (hooksValue.isUndefined())
        return;
    const auto error = [this, &file](const QString &path, const QString &what) {
        errors.append(QStringLiteral("%1: %2: %3").arg(QDir::toNativeSeparators(file), path, what));
    };
    if (!hooksValue.isObject()) {
        error(QStringLiteral("hooks"), QStringLiteral("not an object"));
        return;
    }
    const QJsonObject events = hooksValue.toObject();
    for (auto eventIt = events.begin(); eventIt != events.end(); ++eventIt) {
        const QString eventPath = QStringLiteral("hooks.") + eventIt.key();
        const std::optional<HookEventName> event = hookEventFromName(eventIt.key());
        if (!event) {
            error(eventPath, QStringLiteral("not an event AgentDesk knows"));
            continue;
        }
        if (!eventIt.value().isArray()) {
            error(eventPath, QStringLiteral("not an array"));
            continue;
        }
        const QJsonArray groups = eventIt.value().toArray();
        for (qsizetype g = 0; g < groups.size(); ++g) {
            const QString groupPath = QStringLiteral("%1[%2]").arg(eventPath).arg(g);
            if (!groups.at(g).isObject()) {
                error(groupPath, QStringLiteral("not an object"));
                continue;
            }
            const QJsonObject group = groups.at(g).toObject();
            const QJsonValue matcherValue = group.value(QLatin1String("matcher"));
            if (!matcherValue.isUndefined() && !matcherValue.isString()) {
                error(groupPath + QStringLiteral(".matcher"), QStringLiteral("not a string"));
                continue;
            }
            const QString matcher = matcherValue.toString();
            if (!isPlainAlternatives(matcher) && matcher != u"*"
                && !QRegularExpression(matcher).isValid()) {
                error(groupPath + QStringLiteral(".matcher"),
                      QStringLiteral("not a valid regular expression"));
                continue;
            }
            const QJsonValue list = group.value(QLatin1String("hooks"));
            if (!list.isArray()) {
                error(groupPath + QStringLiteral(".hooks"), QStringLiteral("not an array"));
                continue;
            }
            const QJsonArray commands = list.toArray();
            for (qsizetype h = 0; h < commands.size(); ++h) {
                const QString path = QStringLiteral("%1.hooks[%2]").arg(groupPath).arg(h);
                if (hooks.size() >= maxHooks) {
                    error(path,
                          QStringLiteral("more than %1 hooks; the rest are ignored").arg(maxHooks));
                    return;
                }
                const QJsonObject hook = commands.at(h).toObject();
                if (!commands.at(h).isObject()) {
                    error(path, QStringLiteral("not an object"));
                    continue;
                }
                const QString type = hook.value(QLatin1String("type"))
                                         .toString(QStringLiteral("command"));
                if (type != u"command") {
                    error(path + QStringLiteral(".type"),
                          QStringLiteral("\"%1\": only \"command\" hooks run").arg(type));
                    continue;
                }
                const QJsonValue command = hook.value(QLatin1String("command"));
                if (!command.isString() || command.toString().trimmed().isEmpty()) {
                    error(path + QStringLiteral(".command"), QStringLiteral("not a command"));
                    continue;
                }
                if (command.toString().size() > maxCommandLength) {
                    error(path + QStringLiteral(".command"),
                          QStringLiteral("longer than %1 characters").arg(maxCommandLength));
                    continue;
                }
                HookEntry entry;
                entry.event = *event;
                entry.matcher = matcher;
                entry.command = command.toString();
                const QJsonValue timeout = hook.value(QLatin1String("timeout"));
                if (!timeout.isUndefined()) {
                    if (!timeout.isDouble() || timeout.toDouble() <= 0) {
                        error(path + QStringLiteral(".timeout"),
                              QStringLiteral("not a positive number of seconds"));
                        continue;
                    }
                    entry.timeoutSeconds = int(qMin<double>(timeout.toDouble(), maxTimeoutSeconds));
                    entry.timeoutSeconds = qMax(entry.timeoutSeconds, 1);
                }
                entry.file = file;
                entry.sourceLabel = sourceLabel;
                entry.fromProject = fromProject;
                hooks.append(entry);
            }
        }
    }
}

void HookConfig::addFile(const QString &file, const QString &sourceLabel, bool fromProject)
{
    QFile in(file);
    if (!in.exists())
        return;
    if (!in.open(QIODevice::ReadOnly)) {
        errors.append(QStringLiteral("%1: cannot be read: %2")
                          .arg(QDir::toNativeSeparators(file), in.errorString()));
        return;
    }
    if (in.size() > maxFileBytes) {
        errors.append(QStringLiteral("%1: larger than %2 bytes; its hooks are ignored")
                          .arg(QDir::toNativeSeparators(file))
                          .arg(maxFileBytes));
        return;
    }
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(in.read(maxFileBytes), &parseError);
    if (parseError.error != QJsonParseError::NoError || !document.isObject()) {
        // The permission settings say the same of a broken file; only a hooks key needs us.
        if (parseError.error != QJsonParseError::NoError)
            errors.append(QStringLiteral("%1: not JSON (%2); its hooks are ignored")
                              .arg(QDir::toNativeSeparators(file), parseError.errorString()));
        return;
    }
    addFrom(document.object(), file, sourceLabel, fromProject);
}

HookConfig HookConfig::load(const QString &userSettings, const QString &repositoryRoot)
{
    HookConfig config;
    if (!userSettings.isEmpty())
        config.addFile(userSettings, QStringLiteral("user settings"), false);
    if (!repositoryRoot.isEmpty()) {
        const QDir root(repositoryRoot);
        config.addFile(root.filePath(QStringLiteral(".agentdesk/settings.json")),
                       QStringLiteral("project settings"),
                       true);
        config.addFile(root.filePath(QStringLiteral(".agentdesk/settings.local.json")),
                       QStringLiteral("project local settings"),
                       true);
        config.addFile(root.filePath(QStringLiteral(".claude/settings.json")),
                       QStringLiteral("Claude Code project settings"),
                       true);
        config.addFile(root.filePath(QStringLiteral(".claude/settings.local.json")),
                       QStringLiteral("Claude Code project local settings"),
                       true);
    }
    return config;
}

QStringList HookConfig::projectGrants() const
{
    QStringList grants;
    for (const HookEntry &hook : hooks) {
        if (hook.fromProject && !grants.contains(hook.grant()))
            grants.append(hook.grant());
    }
    return grants;
}

HookConfig HookConfig::trustedOnly(const std::function<bool(const QString &grant)> &trusted,
                                   QStringList *untrusted) const
{
    HookConfig kept;
    kept.errors = errors;
    for (const HookEntry &hook : hooks) {
        if (!hook.fromProject || trusted(hook.grant())) {
            kept.hooks.append(hook);
        } else if (untrusted && !untrusted->contains(hook.grant())) {
            untrusted->append(hook.grant());
        }
    }
    return kept;
}

QList<HookEntry> HookConfig::matching(HookEventName event, const QString &value) const
{
    QList<HookEntry> found;
    for (const HookEntry &hook : hooks) {
        // UserPromptSubmit, Stop, SubagentStop and SessionEnd have nothing to match: Claude
        // Code ignores their matcher.
        const bool matched = event == HookEventName::UserPromptSubmit
                                     || event == HookEventName::Stop
                                     || event == HookEventName::SubagentStop
                                     || event == HookEventName::SessionEnd
                                 ? true
                                 : hookMatcherSelects(hook.matcher, value);
        if (hook.event == event && matched)
            found.append(hook);
    }
    return found;
}

bool HookConfig::has(HookEventName event) const
{
    return std::any_of(hooks.begin(), hooks.end(), [event](const HookEntry &hook) {
        return hook.event == event;
    });
}

} // namespace AgentCore
