#include "sandboxhome.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace AgentCore {

namespace {

// "gitdir: PATH" of a .git file, PATH made absolute against \a base; empty otherwise.
QString gitDirOf(const QString &gitFile, const QString &base)
{
    QFile file(gitFile);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QString line = QString::fromUtf8(file.readLine(4096)).trimmed();
    if (!line.startsWith(QLatin1String("gitdir:")))
        return {};
    const QString path = line.mid(7).trimmed();
    return path.isEmpty() ? QString() : QDir::cleanPath(QDir(base).absoluteFilePath(path));
}

} // namespace

QStringList SandboxHome::defaultReadablePaths(const QString &home)
{
    if (home.isEmpty())
        return {};
    const QDir dir(home);
    QStringList relative = {
        // git's own configuration (credentials stored beside it are hidden paths)
        QStringLiteral(".gitconfig"),
        QStringLiteral(".config/git"),
        QStringLiteral(".gitignore_global"),
        // toolchains and version managers, their programs and caches
        QStringLiteral(".local/bin"),
        QStringLiteral(".cargo"),
        QStringLiteral(".rustup"),
        QStringLiteral(".npm"),
        QStringLiteral(".nvm"),
        QStringLiteral(".volta"),
        QStringLiteral(".local/share/fnm"),
        QStringLiteral(".local/share/pnpm"),
        QStringLiteral(".yarn"),
        QStringLiteral(".bun"),
        QStringLiteral(".deno"),
        QStringLiteral(".pyenv"),
        QStringLiteral(".local/share/uv"),
        QStringLiteral(".local/share/pipx"),
        QStringLiteral(".local/pipx"),
        QStringLiteral(".local/share/virtualenvs"),
        QStringLiteral(".conda"),
        QStringLiteral("miniconda3"),
        QStringLiteral("miniforge3"),
        QStringLiteral("anaconda3"),
        QStringLiteral(".rbenv"),
        QStringLiteral(".gem"),
        QStringLiteral("go"),
        QStringLiteral(".config/go"),
        QStringLiteral(".m2"),
        QStringLiteral(".gradle"),
        QStringLiteral(".sdkman"),
        QStringLiteral(".nuget/packages"),
        QStringLiteral(".dotnet"),
        QStringLiteral(".ghcup"),
        QStringLiteral(".stack"),
        QStringLiteral(".opam"),
        QStringLiteral(".elan"),
        QStringLiteral(".juliaup"),
        QStringLiteral(".julia"),
        QStringLiteral(".pub-cache"),
        QStringLiteral(".asdf"),
        QStringLiteral(".tool-versions"),
        QStringLiteral(".local/share/mise"),
    };
    // pip's --user installs: ~/.local/lib/python3.11, ... (not the rest of ~/.local/lib)
    const QStringList pythons = QDir(dir.absoluteFilePath(QStringLiteral(".local/lib")))
                                    .entryList({QStringLiteral("python*")},
                                               QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &python : pythons)
        relative.append(QStringLiteral(".local/lib/") + python);
    QStringList paths;
    for (const QString &path : std::as_const(relative))
        paths.append(QDir::cleanPath(dir.absoluteFilePath(path)));
    return paths;
}

QStringList SandboxHome::pathFolders(const QString &home, const QString &pathVariable)
{
    if (home.isEmpty())
        return {};
    const QString inside = QDir::cleanPath(home) + QLatin1Char('/');
    QStringList folders;
    for (const QString &entry : pathVariable.split(QLatin1Char(':'), Qt::SkipEmptyParts)) {
        if (!QDir::isAbsolutePath(entry))
            continue;
        const QString folder = QDir::cleanPath(entry);
        if (folder.startsWith(inside) && !folders.contains(folder))
            folders.append(folder);
    }
    return folders;
}

QStringList SandboxHome::gitFolders(const QString &repositoryRoot)
{
    const QString gitFile = repositoryRoot + QStringLiteral("/.git");
    if (!QFileInfo(gitFile).isFile())
        return {};
    const QString gitDir = gitDirOf(gitFile, repositoryRoot);
    if (gitDir.isEmpty())
        return {};
    QStringList folders{gitDir};
    QFile common(gitDir + QStringLiteral("/commondir"));
    if (common.open(QIODevice::ReadOnly)) {
        const QString path = QString::fromUtf8(common.readLine(4096)).trimmed();
        if (!path.isEmpty())
            folders.append(QDir::cleanPath(QDir(gitDir).absoluteFilePath(path)));
    }
    return folders;
}

} // namespace AgentCore
