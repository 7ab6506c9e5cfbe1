#include "filewalker.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <algorithm>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace AgentCore {

namespace {

struct DirectoryItem
{
    QByteArray name;
    unsigned char type = DT_UNKNOWN;
};

QByteArray joinPath(const QByteArray &directory, const QByteArray &name)
{
    if (directory.endsWith('/'))
        return directory + name;
    return directory + '/' + name;
}

bool exists(const QByteArray &path)
{
    struct stat info;
    return ::lstat(path.constData(), &info) == 0;
}

// .git/info/exclude of a repository whose top level is \a directory. A worktree's .git is a
// file naming its git directory; its info/ lives in the common directory.
QString excludeFile(const QByteArray &directory)
{
    const QString dotGit = QFile::decodeName(joinPath(directory, ".git"));
    const QFileInfo info(dotGit);
    if (info.isDir())
        return dotGit + QStringLiteral("/info/exclude");
    QFile file(dotGit);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QByteArray line = file.readLine().trimmed();
    if (!line.startsWith("gitdir:"))
        return {};
    QString gitDir = QFile::decodeName(line.mid(7).trimmed());
    if (QDir::isRelativePath(gitDir))
        gitDir = QFile::decodeName(directory) + QLatin1Char('/') + gitDir;
    QFile common(gitDir + QStringLiteral("/commondir"));
    if (common.open(QIODevice::ReadOnly)) {
        QString commonDir = QFile::decodeName(common.readAll().trimmed());
        if (QDir::isRelativePath(commonDir))
            commonDir = gitDir + QLatin1Char('/') + commonDir;
        gitDir = commonDir;
    }
    return QDir::cleanPath(gitDir) + QStringLiteral("/info/exclude");
}

} // namespace

FileWalker::FileWalker(const QString &directory)
    : m_directory(QFile::encodeName(QDir::cleanPath(directory)))
{}

void FileWalker::setOverrideGlobs(const QList<QByteArray> &globs)
{
    m_overrides = {};
    m_overrideWhitelists = 0;
    for (const QByteArray &glob : globs) {
        if (glob.isEmpty())
            continue;
        m_overrides.addPattern(glob, GlobPattern::Braces);
        if (!glob.startsWith('!'))
            ++m_overrideWhitelists;
    }
}

bool FileWalker::pathLess(QByteArrayView a, QByteArrayView b)
{
    const qsizetype n = std::min(a.size(), b.size());
    for (qsizetype i = 0; i < n; ++i) {
        const unsigned char ca = a[i] == '/' ? 0 : static_cast<unsigned char>(a[i]);
        const unsigned char cb = b[i] == '/' ? 0 : static_cast<unsigned char>(b[i]);
        if (ca != cb)
            return ca < cb;
    }
    return a.size() < b.size();
}

void FileWalker::walk(const Visitor &visitor)
{
    m_frames.clear();
    m_repositoryFrames = 0;
    m_path.clear();
    m_ignored = 0;
    m_stopped = false;
    if (m_respectGitIgnore)
        addAncestors();
    m_searchOffset = m_path.size();
    walkDirectory(m_directory, 1, visitor);
    m_frames.clear();
    m_repositoryFrames = 0;
}

// The .gitignore files between the repository's top level and the walked directory apply to
// it as well, as in git (and ripgrep).
void FileWalker::addAncestors()
{
    if (exists(joinPath(m_directory, ".git")))
        return;
    QList<QByteArray> chain; // from the walked directory's parent upwards
    QByteArray directory = m_directory;
    bool found = false;
    while (directory.size() > 1) {
        const qsizetype slash = directory.lastIndexOf('/');
        if (slash < 0)
            break;
        directory = slash == 0 ? QByteArray("/") : directory.left(slash);
        chain.append(directory);
        if (exists(joinPath(directory, ".git"))) {
            found = true;
            break;
        }
    }
    if (!found)
        return;
    for (qsizetype i = chain.size() - 1; i >= 0; --i) {
        const QByteArray &ancestor = chain[i];
        const bool hasGitIgnore = exists(joinPath(ancestor, ".gitignore"));
        pushFrame(ancestor, m_path.size(), hasGitIgnore, i == chain.size() - 1);
        const QByteArray child = i == 0 ? m_directory : chain[i - 1];
        m_path.append(child.mid(child.lastIndexOf('/') + 1));
        m_path.append('/');
    }
}

void FileWalker::pushFrame(const QByteArray &absoluteDirectory,
                           qsizetype offset,
                           bool hasGitIgnore,
                           bool hasGit)
{
    if (!hasGitIgnore && !hasGit)
        return;
    Frame frame;
    frame.offset = offset;
    if (hasGitIgnore)
        frame.ignore = GitIgnore::fromFile(
            QFile::decodeName(joinPath(absoluteDirectory, ".gitignore")));
    if (hasGit) {
        frame.repositoryRoot = true;
        const QString exclude = excludeFile(absoluteDirectory);
        if (!exclude.isEmpty())
            frame.exclude = GitIgnore::fromFile(exclude);
        ++m_repositoryFrames;
    }
    m_frames.push_back(std::move(frame));
}

bool FileWalker::isIgnored(bool isDirectory) const
{
    if (!m_overrides.isEmpty()) {
        // A matching glob is an Ignored result of the matcher: here it means "selected".
        switch (m_overrides.match(m_path.constData() + m_searchOffset, isDirectory)) {
        case GitIgnore::Result::Ignored:
            return false;
        case GitIgnore::Result::Whitelist:
            return true;
        case GitIgnore::Result::None:
            if (m_overrideWhitelists > 0 && !isDirectory)
                return true;
            break;
        }
    }
    if (!m_respectGitIgnore || m_repositoryFrames == 0)
        return false;
    // Deeper .gitignore files win; rules above the innermost repository's top level never apply.
    for (auto frame = m_frames.rbegin(); frame != m_frames.rend(); ++frame) {
        if (!frame->ignore.isEmpty()) {
            const GitIgnore::Result result = frame->ignore.match(m_path.constData() + frame->offset,
                                                                 isDirectory);
            if (result != GitIgnore::Result::None)
                return result == GitIgnore::Result::Ignored;
        }
        if (frame->repositoryRoot)
            break;
    }
    for (auto frame = m_frames.rbegin(); frame != m_frames.rend(); ++frame) {
        if (!frame->exclude.isEmpty()) {
            const GitIgnore::Result result = frame->exclude.match(m_path.constData() + frame->offset,
                                                                  isDirectory);
            if (result != GitIgnore::Result::None)
                return result == GitIgnore::Result::Ignored;
        }
        if (frame->repositoryRoot)
            break;
    }
    return false;
}

bool FileWalker::walkDirectory(const QByteArray &absoluteDirectory,
                               int depth,
                               const Visitor &visitor)
{
    // Below the start, a directory swapped for a symbolic link since it was listed is not
    // entered: the link may lead anywhere.
    const int fd = ::open(absoluteDirectory.constData(),
                          O_RDONLY | O_DIRECTORY | O_CLOEXEC | (depth > 1 ? O_NOFOLLOW : 0));
    if (fd < 0)
        return true;
    DIR *dir = ::fdopendir(fd);
    if (!dir) {
        ::close(fd);
        return true;
    }
    std::vector<DirectoryItem> items;
    bool hasGitIgnore = false;
    bool hasGit = false;
    while (const dirent *entry = ::readdir(dir)) {
        const char *name = entry->d_name;
        if (name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0')))
            continue;
        if (std::strcmp(name, ".git") == 0) {
            hasGit = true;
            continue;
        }
        if (std::strcmp(name, ".gitignore") == 0)
            hasGitIgnore = true;
        items.push_back({QByteArray(name), entry->d_type});
    }
    ::closedir(dir);
    std::sort(items.begin(), items.end(), [](const DirectoryItem &a, const DirectoryItem &b) {
        return a.name < b.name;
    });

    const qsizetype base = m_path.size();
    const size_t frames = m_frames.size();
    if (m_respectGitIgnore)
        pushFrame(absoluteDirectory, base, hasGitIgnore, hasGit);

    for (const DirectoryItem &item : items) {
        unsigned char type = item.type;
        if (type == DT_UNKNOWN) {
            struct stat info;
            if (::lstat(joinPath(absoluteDirectory, item.name).constData(), &info) != 0)
                continue;
            type = S_ISDIR(info.st_mode) ? DT_DIR : S_ISREG(info.st_mode) ? DT_REG : DT_LNK;
        }
        if (type != DT_DIR && type != DT_REG)
            continue;
        const bool isDirectory = type == DT_DIR;
        m_path.truncate(base);
        m_path.append(item.name);
        if (isIgnored(isDirectory)) {
            ++m_ignored;
            continue;
        }
        const Visit visit = visitor(QByteArrayView(m_path.constData() + m_searchOffset,
                                                   m_path.size() - m_searchOffset),
                                    isDirectory);
        if (visit == Visit::Stop)
            m_stopped = true;
        else if (isDirectory && visit == Visit::Continue
                 && (m_maxDepth == 0 || depth < m_maxDepth)) {
            m_path.append('/');
            walkDirectory(joinPath(absoluteDirectory, item.name), depth + 1, visitor);
        }
        if (!m_stopped && m_abort && m_abort->isAborted())
            m_stopped = true;
        if (m_stopped)
            break;
    }
    m_path.truncate(base);
    while (m_frames.size() > frames) {
        if (m_frames.back().repositoryRoot)
            --m_repositoryFrames;
        m_frames.pop_back();
    }
    return !m_stopped;
}

} // namespace AgentCore
