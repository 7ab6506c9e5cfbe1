#include "permissionrule.h"
#include "translation.h"

#include <loop/toolkind.h>
#include <tools/globpattern.h>

#include <QCoreApplication>
#include <QDir>
#include <QRegularExpression>

namespace AgentCore {

namespace {

const QLatin1String prefixMarker(":*");

// Enough of the shell's word splitting for a rule someone typed: quotes and backslashes.
QStringList splitWords(const QString &text)
{
    QStringList words;
    QString word;
    bool inWord = false;
    QChar quote;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (quote == QLatin1Char('\'')) {
            if (c == quote)
                quote = QChar();
            else
                word += c;
        } else if (quote == QLatin1Char('"')) {
            if (c == quote) {
                quote = QChar();
            } else if (c == QLatin1Char('\\') && i + 1 < text.size()
                       && QStringView(u"\"\\$`").contains(text.at(i + 1))) {
                word += text.at(++i);
            } else {
                word += c;
            }
        } else if (c.isSpace()) {
            if (inWord)
                words.append(word);
            word.clear();
            inWord = false;
        } else {
            inWord = true;
            if (c == QLatin1Char('\'') || c == QLatin1Char('"'))
                quote = c;
            else if (c == QLatin1Char('\\') && i + 1 < text.size())
                word += text.at(++i);
            else
                word += c;
        }
    }
    if (inWord)
        words.append(word);
    return words;
}

bool wordsMatch(const QStringList &pattern, const QStringList &words, bool prefix)
{
    if (pattern.isEmpty())
        return prefix;
    if (words.size() < pattern.size() || (!prefix && words.size() != pattern.size()))
        return false;
    for (qsizetype i = 0; i < pattern.size(); ++i) {
        if (pattern.at(i) != words.at(i))
            return false;
    }
    return true;
}

// `sudo -u x rm`, `env A=1 rm`, `nice -n 5 rm`: the command a deny rule is really about.
QStringList unwrapped(QStringList words)
{
    static const QStringList wrappers{QStringLiteral("sudo"),
                                      QStringLiteral("doas"),
                                      QStringLiteral("env"),
                                      QStringLiteral("command"),
                                      QStringLiteral("builtin"),
                                      QStringLiteral("exec"),
                                      QStringLiteral("nohup"),
                                      QStringLiteral("time"),
                                      QStringLiteral("nice"),
                                      QStringLiteral("ionice"),
                                      QStringLiteral("stdbuf")};
    while (!words.isEmpty() && wrappers.contains(words.first().section(QLatin1Char('/'), -1))) {
        words.removeFirst();
        // Options and their values, and env's assignments. An option's value is a separate
        // word for -u/-n/-g style options; dropping one word too many only widens a deny.
        while (!words.isEmpty()
               && (words.first().startsWith(QLatin1Char('-'))
                   || words.first().contains(QLatin1Char('=')))) {
            const QString option = words.takeFirst();
            static const QRegularExpression takesValue(QStringLiteral("^-[ungcCpohi]$"));
            if (takesValue.match(option).hasMatch() && !words.isEmpty())
                words.removeFirst();
        }
    }
    return words;
}

bool globMatches(const QString &pattern, const QString &subject)
{
    return GlobPattern::wildmatch(pattern.toUtf8().constData(),
                                  subject.toUtf8().constData(),
                                  GlobPattern::PathName);
}
} // namespace

std::optional<PermissionRule> PermissionRule::parse(const QString &text,
                                                    PermissionBehavior behavior,
                                                    QString *error)
{
    static const QRegularExpression shape(QStringLiteral(
                                              "^([A-Za-z_][A-Za-z0-9_.-]*\\*?)(?:\\((.*)\\))?$"),
                                          QRegularExpression::DotMatchesEverythingOption);
    const QString trimmed = text.trimmed();
    const QRegularExpressionMatch match = shape.match(trimmed);
    if (!match.hasMatch()) {
        if (error) {
            *error = PermissionsTr::tr(
                         "\"%1\" is not a permission rule; write Tool or Tool(specifier), "
                         "e.g. Bash(npm test:*) or Edit(src/**).")
                         .arg(text);
        }
        return std::nullopt;
    }
    if (match.captured(1).endsWith(QLatin1Char('*'))
        && !match.captured(1).startsWith(mcpToolPrefix)) {
        // A wildcard over built-in tools would hide what a rule allows.
        if (error) {
            *error = PermissionsTr::tr("\"%1\": only MCP tool names take a trailing *, e.g. "
                                       "mcp__github__*.")
                         .arg(text);
        }
        return std::nullopt;
    }
    PermissionRule rule;
    rule.toolName = match.captured(1);
    rule.specifier = match.captured(2).trimmed();
    rule.behavior = behavior;
    if (toolKind(rule.toolName) == ToolKind::Bash && rule.isCommandPrefix()
        && rule.commandWords().isEmpty()) {
        // `Bash(:*)` would match every command while looking like a narrow rule.
        if (error)
            *error = PermissionsTr::tr(
                         "\"%1\" has an empty command prefix; write Bash to mean every "
                         "command.")
                         .arg(text);
        return std::nullopt;
    }
    return rule;
}

QString PermissionRule::toString() const
{
    return specifier.isEmpty() ? toolName
                               : toolName + QLatin1Char('(') + specifier + QLatin1Char(')');
}

bool PermissionRule::appliesTo(const QString &tool) const
{
    if (tool == toolName)
        return true;
    // MCP tools (`mcp__<server>__<tool>`): `mcp__github__*` and `mcp__github` cover every tool
    // of the server github, as in the peers' settings.
    if (toolName.startsWith(mcpToolPrefix)) {
        if (toolName.endsWith(QLatin1Char('*')))
            return tool.startsWith(toolName.chopped(1));
        if (!toolName.mid(mcpToolPrefix.size()).contains(QLatin1String("__")))
            return tool.startsWith(toolName + QLatin1String("__"));
        return false;
    }
    // A rule names a tool; the built-in ones it covers go by kind.
    switch (toolKind(toolName)) {
    case ToolKind::Edit:
        return toolKind(tool) == ToolKind::Write;
    case ToolKind::Read:
        return searchesFiles(toolKind(tool));
    default:
        return false;
    }
}

bool PermissionRule::isCommandPrefix() const
{
    return specifier.endsWith(prefixMarker);
}

QStringList PermissionRule::commandWords() const
{
    return splitWords(isCommandPrefix() ? specifier.chopped(prefixMarker.size()) : specifier);
}

bool PermissionRule::matchesCommand(const QStringList &words, bool lenient) const
{
    if (specifier.isEmpty())
        return true;
    const QStringList pattern = commandWords();
    const bool prefix = isCommandPrefix();
    if (wordsMatch(pattern, words, prefix))
        return true;
    if (!lenient)
        return false;
    QStringList plain = unwrapped(words);
    if (!plain.isEmpty() && !pattern.isEmpty() && !pattern.first().contains(QLatin1Char('/')))
        plain.first() = plain.first().section(QLatin1Char('/'), -1);
    return wordsMatch(pattern, plain, prefix);
}

bool PermissionRule::matchesPath(const QString &relative, const QString &absolute) const
{
    if (specifier.isEmpty())
        return true;
    QString pattern = specifier;
    if (pattern == QLatin1String("~") || pattern.startsWith(QLatin1String("~/")))
        pattern = QDir::homePath() + pattern.mid(1);
    const bool anchoredAbsolute = pattern.startsWith(QLatin1Char('/'));
    // A pattern without a slash is a name, matched at any depth (gitignore); `./name` is
    // the one at the top of the repository.
    const bool nameOnly = !pattern.contains(QLatin1Char('/'));
    while (pattern.startsWith(QLatin1String("./")))
        pattern = pattern.mid(2);
    if (pattern.endsWith(QLatin1Char('/')))
        pattern += QLatin1String("**");
    const QString subject = anchoredAbsolute ? absolute : relative;
    if (subject.isEmpty())
        return false;

    // The path and each of its parent directories: a pattern naming a directory covers
    // everything below it.
    QString candidate = subject;
    while (!candidate.isEmpty() && candidate != QLatin1String("/")) {
        const QString name = candidate.section(QLatin1Char('/'), -1);
        if (globMatches(pattern, nameOnly ? name : candidate))
            return true;
        const qsizetype slash = candidate.lastIndexOf(QLatin1Char('/'));
        if (slash < 0)
            break;
        candidate.truncate(slash);
    }
    return false;
}

} // namespace AgentCore
