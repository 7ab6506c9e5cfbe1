#include "gitignore.h"

#include <QFile>

#include <cstring>

namespace AgentCore {

GitIgnore GitIgnore::parse(const QByteArray &text, int flags)
{
    GitIgnore ignore;
    for (const QByteArray &line : text.split('\n'))
        ignore.addPattern(line, flags);
    return ignore;
}

GitIgnore GitIgnore::fromFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return parse(file.readAll());
}

void GitIgnore::addPattern(const QByteArray &input, int flags)
{
    QByteArray line = input;
    if (line.endsWith('\r'))
        line.chop(1);
    if (line.isEmpty() || line.startsWith('#'))
        return;
    // Trailing spaces are dropped unless escaped with a backslash.
    qsizetype end = line.size();
    while (end > 0 && line[end - 1] == ' ') {
        qsizetype backslashes = 0;
        for (qsizetype i = end - 2; i >= 0 && line[i] == '\\'; --i)
            ++backslashes;
        if (backslashes % 2 == 1)
            break;
        --end;
    }
    line.truncate(end);

    Rule rule;
    if (line.startsWith('!')) {
        rule.negated = true;
        line.remove(0, 1);
    }
    if (line.endsWith('/') && !line.endsWith("\\/")) {
        rule.directoryOnly = true;
        line.chop(1);
    }
    if (line.isEmpty())
        return;
    const qsizetype slash = line.indexOf('/');
    rule.basename = slash < 0;
    if (slash == 0)
        line.remove(0, 1);
    if (line.isEmpty())
        return;
    rule.pattern = GlobPattern(line, GlobPattern::PathName | flags);
    if (rule.negated)
        ++m_whitelists;
    m_rules.append(rule);
}

GitIgnore::Result GitIgnore::match(const char *relativePath, bool isDirectory) const
{
    const char *slash = std::strrchr(relativePath, '/');
    const char *name = slash ? slash + 1 : relativePath;
    for (qsizetype i = m_rules.size() - 1; i >= 0; --i) {
        const Rule &rule = m_rules[i];
        if (rule.directoryOnly && !isDirectory)
            continue;
        if (rule.pattern.matches(rule.basename ? name : relativePath))
            return rule.negated ? Result::Whitelist : Result::Ignored;
    }
    return Result::None;
}

} // namespace AgentCore
