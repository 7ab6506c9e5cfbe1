#include "bashpathresolver.h"

#include <QDir>
#include <QFileInfo>

#include <algorithm>
#include <optional>

namespace AgentCore {

namespace {

// Where the kernel finds \a path (absolute), which may not exist yet. Links are followed one
// component at a time, so `link/..` is the parent of the link's target, as for `cat`, not the
// directory holding the link, as a lexical cleanPath() would have it. The part that does not
// exist is appended cleaned.
QString canonical(const QString &path)
{
    const QStringList parts = path.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    QString current = QStringLiteral("/");
    for (qsizetype i = 0; i < parts.size(); ++i) {
        const QString &part = parts.at(i);
        if (part == QLatin1String("."))
            continue;
        if (part == QLatin1String("..")) {
            current = QFileInfo(current).path(); // current is canonical: its real parent
            continue;
        }
        const QString next = (current.endsWith(QLatin1Char('/')) ? current
                                                                 : current + QLatin1Char('/'))
                             + part;
        const QFileInfo info(next);
        if (!info.exists()) {
            if (info.isSymLink()) // dangling: writing through it creates its target, wherever
                return {};
            return QDir::cleanPath(next + QLatin1Char('/')
                                   + parts.sliced(i + 1).join(QLatin1Char('/')));
        }
        current = info.canonicalFilePath();
        if (current.isEmpty())
            return {};
    }
    return current;
}

bool hasWildcard(const QString &component)
{
    return component.contains(QLatin1Char('*')) || component.contains(QLatin1Char('?'))
           || component.contains(QLatin1Char('['));
}

// What the shell makes of a glob (absolute, links not resolved) today: `*` may match a link
// out of the repository (`cat */secret`, `cat *`). Empty when nothing matches (bash keeps the
// word); nullopt when there are too many matches to look at.
std::optional<QStringList> expandGlob(const QString &pattern)
{
    constexpr qsizetype maximumMatches = 2000;
    QStringList matches{QStringLiteral("/")};
    for (const QString &component : pattern.split(QLatin1Char('/'), Qt::SkipEmptyParts)) {
        QStringList next;
        for (const QString &prefix : std::as_const(matches)) {
            const QString base = prefix.endsWith(QLatin1Char('/')) ? prefix
                                                                   : prefix + QLatin1Char('/');
            if (!hasWildcard(component)) {
                next.append(base + component);
                continue;
            }
            // Bash's `*` skips dot files unless the pattern starts with a dot; System keeps
            // dangling links.
            QDir::Filters filters = QDir::AllEntries | QDir::NoDotAndDotDot | QDir::System
                                    | QDir::CaseSensitive;
            if (component.startsWith(QLatin1Char('.')))
                filters |= QDir::Hidden;
            for (const QString &name : QDir(prefix).entryList({component}, filters))
                next.append(base + name);
            if (next.size() > maximumMatches)
                return std::nullopt;
        }
        matches = next;
        if (matches.isEmpty())
            return QStringList();
    }
    return matches;
}

} // namespace

BashPathResolver::BashPathResolver(const QString &repositoryRoot)
{
    const QString root = canonical(repositoryRoot);
    m_root = root.isEmpty() ? QDir::cleanPath(repositoryRoot) : root;
    m_directories.append(m_root);
}

BashPathResolver::Location BashPathResolver::locate(const QString &path, bool expands) const
{
    // A plain glob (`*.cpp`, `src/*/x`) only matches below its literal directories.
    static const QString dynamic = QStringLiteral("$`{'\"\\");
    const bool plainPattern = std::none_of(path.cbegin(), path.cend(), [](QChar c) {
        return dynamic.contains(c);
    });
    if ((expands && !plainPattern) || path.isEmpty())
        return Location::Unknown;
    const bool relative = !path.startsWith(QLatin1Char('/')) && !path.startsWith(QLatin1Char('~'));
    if (relative && m_directoryUnknown)
        return Location::Unknown;
    const QStringList bases = relative ? m_directories : QStringList{m_root};
    bool inside = true;
    bool gitDirectory = false;
    const QString git = m_root + QStringLiteral("/.git");
    for (const QString &base : bases) {
        QStringList resolvedPaths{absolute(base, path)};
        if (expands && std::any_of(path.cbegin(), path.cend(), [](QChar c) {
                return c == QLatin1Char('*') || c == QLatin1Char('?') || c == QLatin1Char('[');
            })) {
            QString pattern = path;
            if (path == QLatin1String("~") || path.startsWith(QLatin1String("~/")))
                pattern = QDir::homePath() + path.mid(1);
            else if (relative)
                pattern = base + QLatin1Char('/') + path;
            const std::optional<QStringList> matches = expandGlob(pattern);
            if (!matches)
                return Location::Unknown;
            for (const QString &match : *matches)
                resolvedPaths.append(canonical(match));
        }
        for (const QString &resolved : std::as_const(resolvedPaths)) {
            if (resolved.isEmpty())
                return Location::Unknown;
            inside = inside && isInside(resolved);
            // Also a nested `.git` (a submodule's `lib/.git` file): pointed elsewhere, it makes
            // the user's next `git status` run another folder's configuration.
            gitDirectory = gitDirectory || resolved == git
                           || resolved.startsWith(git + QLatin1Char('/'))
                           || (isInside(resolved)
                               && resolved.mid(m_root.size())
                                      .split(QLatin1Char('/'))
                                      .contains(QLatin1String(".git")));
        }
    }
    if (!inside)
        return Location::Outside;
    return gitDirectory ? Location::InsideGitDirectory : Location::Inside;
}

QStringList BashPathResolver::workingDirectories() const
{
    return m_directoryUnknown ? QStringList() : m_directories;
}

void BashPathResolver::changeDirectory(const QString &program,
                                       const QStringList &args,
                                       const QList<bool> &expands)
{
    if (program == QLatin1String("popd")) {
        m_directoryUnknown = true;
        return;
    }
    QString target = QStringLiteral("~");
    bool targetExpands = false;
    for (qsizetype i = 0; i < args.size(); ++i) {
        if (args.at(i).startsWith(QLatin1Char('-')) && args.at(i) != QLatin1String("-")
            && !expands.value(i)) {
            continue;
        }
        target = args.at(i);
        targetExpands = expands.value(i);
        break;
    }
    if (targetExpands || target == QLatin1String("-") || target.startsWith(QLatin1Char('+'))) {
        m_directoryUnknown = true;
        return;
    }
    // The cd may or may not have happened (`cd x || true`, a subshell): keep every candidate.
    const QStringList before = m_directories;
    for (const QString &base : before) {
        const QString resolved = absolute(base, target);
        if (resolved.isEmpty())
            m_directoryUnknown = true;
        else if (!m_directories.contains(resolved))
            m_directories.append(resolved);
    }
}

QString BashPathResolver::absolute(const QString &directory, const QString &path) const
{
    if (path == QLatin1String("~") || path.startsWith(QLatin1String("~/")))
        return canonical(QDir::homePath() + path.mid(1));
    if (path.startsWith(QLatin1Char('~')))
        return {}; // ~user
    if (path.startsWith(QLatin1Char('/')))
        return canonical(path);
    return canonical(directory + QLatin1Char('/') + path);
}

bool BashPathResolver::isInside(const QString &absolutePath) const
{
    if (m_root == QLatin1String("/"))
        return true;
    return absolutePath == m_root || absolutePath.startsWith(m_root + QLatin1Char('/'));
}

} // namespace AgentCore
