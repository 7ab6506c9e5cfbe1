#include "hostilerepository.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>

namespace TestSupport {

namespace {

bool writeText(const QString &path, const QByteArray &content, bool executable = false)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)
        || file.write(content) != content.size())
        return false;
    file.close();
    return !executable
           || file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
}

// The hooks git runs on the way of status, add, commit, checkout, worktree add, update-ref,
// gc and rebase.
const QStringList hooks{QStringLiteral("pre-commit"),
                        QStringLiteral("prepare-commit-msg"),
                        QStringLiteral("commit-msg"),
                        QStringLiteral("post-commit"),
                        QStringLiteral("post-checkout"),
                        QStringLiteral("post-merge"),
                        QStringLiteral("post-rewrite"),
                        QStringLiteral("reference-transaction"),
                        QStringLiteral("post-index-change"),
                        QStringLiteral("pre-auto-gc"),
                        QStringLiteral("fsmonitor-watchman")};

// key = command name (the marker it writes).
const QList<std::pair<QString, QString>> commands{
    {QStringLiteral("core.fsmonitor"), QStringLiteral("fsmonitor")},
    {QStringLiteral("core.pager"), QStringLiteral("pager")},
    {QStringLiteral("pager.status"), QStringLiteral("pager-status")},
    {QStringLiteral("pager.diff"), QStringLiteral("pager-diff")},
    {QStringLiteral("pager.log"), QStringLiteral("pager-log")},
    {QStringLiteral("core.editor"), QStringLiteral("editor")},
    {QStringLiteral("sequence.editor"), QStringLiteral("sequence-editor")},
    {QStringLiteral("core.sshCommand"), QStringLiteral("ssh-command")},
    {QStringLiteral("core.askPass"), QStringLiteral("askpass")},
    {QStringLiteral("core.alternateRefsCommand"), QStringLiteral("alternate-refs")},
    {QStringLiteral("diff.external"), QStringLiteral("diff-external")},
    {QStringLiteral("diff.evil.textconv"), QStringLiteral("diff-textconv")},
    {QStringLiteral("diff.evil.command"), QStringLiteral("diff-command")},
    {QStringLiteral("filter.evil.clean"), QStringLiteral("filter-clean")},
    {QStringLiteral("filter.evil.smudge"), QStringLiteral("filter-smudge")},
    {QStringLiteral("filter.proc.process"), QStringLiteral("filter-process")},
    {QStringLiteral("credential.helper"), QStringLiteral("credential-helper")},
    {QStringLiteral("gpg.program"), QStringLiteral("gpg")},
    {QStringLiteral("gpg.ssh.defaultKeyCommand"), QStringLiteral("gpg-ssh-key")},
    {QStringLiteral("remote.origin.uploadpack"), QStringLiteral("uploadpack")},
};

// In the file .git/config includes (include.path) and the one it includes by includeIf.
const QList<std::pair<QString, QString>> includedCommands{
    {QStringLiteral("filter.included.clean"), QStringLiteral("included-clean")},
    {QStringLiteral("filter.included.smudge"), QStringLiteral("included-smudge")},
    {QStringLiteral("diff.included.textconv"), QStringLiteral("included-textconv")},
};
const QList<std::pair<QString, QString>> includedIfWorktreeCommands{
    {QStringLiteral("filter.worktree-only.smudge"), QStringLiteral("worktree-only-smudge")},
    {QStringLiteral("filter.worktree-only.process"), QStringLiteral("worktree-only-process")},
};
const QList<std::pair<QString, QString>> includedIfCommands{
    {QStringLiteral("filter.included-if.clean"), QStringLiteral("includedif-clean")},
    {QStringLiteral("filter.included-if.smudge"), QStringLiteral("includedif-smudge")},
    {QStringLiteral("filter.included-if.process"), QStringLiteral("includedif-process")},
};

QByteArray quoted(const QString &value)
{
    QString escaped = value;
    escaped.replace(QLatin1Char('\\'), QStringLiteral("\\\\"));
    escaped.replace(QLatin1Char('"'), QStringLiteral("\\\""));
    return '"' + escaped.toUtf8() + '"';
}

// "[section \"sub\"]\n\tkey = value\n" for each dotted key.
QByteArray configText(const QList<std::pair<QString, QString>> &settings)
{
    QByteArray text;
    for (const auto &[key, value] : settings) {
        const qsizetype first = key.indexOf(QLatin1Char('.'));
        const qsizetype last = key.lastIndexOf(QLatin1Char('.'));
        text += '[' + key.left(first).toUtf8();
        if (last > first)
            text += ' ' + quoted(key.mid(first + 1, last - first - 1));
        text += "]\n\t" + key.mid(last + 1).toUtf8() + " = " + quoted(value) + '\n';
    }
    return text;
}

} // namespace

HostileRepository::HostileRepository(const QString &root)
{
    QDir().mkpath(root);
    m_root = QFileInfo(root).canonicalFilePath();
    const auto fail = [this](const QString &what) { m_error = what; };
    const QString commandsDir = m_dir.filePath(QStringLiteral("commands"));
    const QString hooksDir = commandsDir + QStringLiteral("/hooks");
    if (m_root.isEmpty() || !m_dir.isValid() || !QDir().mkpath(markers())) {
        fail(QStringLiteral("no folder"));
        return;
    }
    if (!QDir().mkpath(hooksDir)) {
        fail(QStringLiteral("cannot make %1").arg(hooksDir));
        return;
    }
    // A command that says it ran: its environment in the marker (the key of a provider, were
    // it passed), and what a filter or textconv must give, so git goes on.
    const auto script = [&](const QString &name) {
        const QString path = commandsDir + QLatin1Char('/') + name;
        const QByteArray text = "#!/bin/sh\nenv > '" + markers().toUtf8() + '/' + name.toUtf8()
                                + "'\ncat \"$@\" 2>/dev/null\nexit 0\n";
        return writeText(path, text, true) ? path : QString();
    };
    for (const QString &hook : hooks) {
        const QString path = script(QStringLiteral("hook-") + hook);
        if (path.isEmpty() || !QFile::rename(path, hooksDir + QLatin1Char('/') + hook)) {
            fail(QStringLiteral("cannot write the hook %1").arg(hook));
            return;
        }
    }

    if (!QFileInfo(m_root + QStringLiteral("/.git")).exists()
        && !git({QStringLiteral("init"), QStringLiteral("-q")}))
        return;
    // Each driver has files it applies to; all of them are committed before the configuration
    // turns hostile.
    if (!writeText(m_root + QStringLiteral("/.gitattributes"),
                   "*.txt filter=evil diff=evil\n*.proc filter=proc\n*.inc filter=included "
                   "diff=included\n*.incif filter=included-if\n*.wt filter=worktree-only\n")
        || !writeText(m_root + QStringLiteral("/filtered.txt"), "aaaa\n")
        || !writeText(m_root + QStringLiteral("/processed.proc"), "bbbb\n")
        || !writeText(m_root + QStringLiteral("/included.inc"), "cccc\n")
        || !writeText(m_root + QStringLiteral("/includedif.incif"), "dddd\n")
        || !writeText(m_root + QStringLiteral("/worktree.wt"), "eeee\n")) {
        fail(QStringLiteral("cannot write the files"));
        return;
    }
    if (!git({QStringLiteral("add"), QStringLiteral("-A")})
        || !git({QStringLiteral("-c"),
                 QStringLiteral("user.name=Test"),
                 QStringLiteral("-c"),
                 QStringLiteral("user.email=test@example.invalid"),
                 QStringLiteral("commit"),
                 QStringLiteral("-q"),
                 QStringLiteral("--no-verify"),
                 QStringLiteral("-m"),
                 QStringLiteral("files")}))
        return;

    QList<std::pair<QString, QString>> settings{
        {QStringLiteral("core.hooksPath"), hooksDir},
        {QStringLiteral("filter.evil.required"), QStringLiteral("true")},
        {QStringLiteral("filter.proc.required"), QStringLiteral("true")},
        {QStringLiteral("commit.gpgSign"), QStringLiteral("true")},
        {QStringLiteral("tag.gpgSign"), QStringLiteral("true")},
        {QStringLiteral("log.showSignature"), QStringLiteral("true")},
        {QStringLiteral("remote.origin.url"), QStringLiteral("ssh://git@example.invalid/r.git")},
        {QStringLiteral("gc.auto"), QStringLiteral("1")},
        {QStringLiteral("alias.st"), QLatin1Char('!') + script(QStringLiteral("alias-st"))},
        {QStringLiteral("alias.status"), QLatin1Char('!') + script(QStringLiteral("alias-status"))},
    };
    const auto named = [&](const QList<std::pair<QString, QString>> &list) {
        QList<std::pair<QString, QString>> out;
        for (const auto &[key, name] : list)
            out.append({key, script(name)});
        return out;
    };
    settings += named(commands);
    const QString included = commandsDir + QStringLiteral("/included.cfg");
    const QString includedIf = commandsDir + QStringLiteral("/includedif.cfg");
    const QString includedIfWorktree = commandsDir + QStringLiteral("/includedif-worktree.cfg");
    QList<std::pair<QString, QString>> includedSettings = named(includedCommands);
    includedSettings.append({QStringLiteral("filter.included.required"), QStringLiteral("true")});
    QList<std::pair<QString, QString>> includedIfSettings = named(includedIfCommands);
    includedIfSettings.append(
        {QStringLiteral("filter.included-if.required"), QStringLiteral("true")});
    // Only in a linked worktree: the driver of the .incif files there, no other.
    QList<std::pair<QString, QString>> includedIfWorktreeSettings = named(
        includedIfWorktreeCommands);
    includedIfWorktreeSettings.append(
        {QStringLiteral("filter.worktree-only.required"), QStringLiteral("true")});
    includedIfWorktreeSettings.append(
        {QStringLiteral("filter.included-if.smudge"), script(QStringLiteral("worktree-smudge"))});
    // The includes come last: what they set is the last word of the repository's own
    // configuration.
    QFile config(m_root + QStringLiteral("/.git/config"));
    if (!writeText(included, configText(includedSettings))
        || !writeText(includedIf, configText(includedIfSettings))
        || !writeText(includedIfWorktree, configText(includedIfWorktreeSettings))
        || !config.open(QIODevice::Append) || config.write(configText(settings)) < 0
        || config.write("[include]\n\tpath = " + quoted(included) + '\n') < 0
        // The file includedIf is read here (the git folder itself), and in a linked worktree
        // (a folder inside it), where an includeIf of its own could hide it from the first.
        || config.write(
               "[includeIf " + quoted(QStringLiteral("gitdir:") + m_root + QStringLiteral("/.git"))
               + "]\n\tpath = " + quoted(includedIf) + "\n[includeIf "
               + quoted(QStringLiteral("gitdir:") + m_root + QStringLiteral("/.git/worktrees/"))
               + "]\n\tpath = " + quoted(includedIfWorktree) + '\n')
               < 0) {
        fail(QStringLiteral("cannot write the configuration"));
        return;
    }
    config.close();

    // Same size, other bytes: git reads them again through their clean filters.
    if (!writeText(m_root + QStringLiteral("/filtered.txt"), "AAAA\n")
        || !writeText(m_root + QStringLiteral("/processed.proc"), "BBBB\n")
        || !writeText(m_root + QStringLiteral("/included.inc"), "CCCC\n")
        || !writeText(m_root + QStringLiteral("/includedif.incif"), "DDDD\n")
        || !writeText(m_root + QStringLiteral("/worktree.wt"), "EEEE\n")) {
        fail(QStringLiteral("cannot change the files"));
        return;
    }
    m_ok = ran().isEmpty();
    if (!m_ok)
        m_error = QStringLiteral("commands ran while the repository was made: %1")
                      .arg(ran().join(QLatin1String(", ")));
}

QStringList HostileRepository::ran() const
{
    return QDir(markers()).entryList(QDir::Files | QDir::Hidden, QDir::Name);
}

QStringList HostileRepository::keys()
{
    QStringList keys{QStringLiteral("core.hooksPath"), QStringLiteral("alias.*")};
    for (const auto &list :
         {commands, includedCommands, includedIfCommands, includedIfWorktreeCommands}) {
        for (const auto &entry : list)
            keys.append(entry.first);
    }
    return keys;
}

bool HostileRepository::git(const QStringList &args)
{
    // Made with the repository's configuration not yet hostile, and no hook of the user's.
    QProcess process;
    process.setWorkingDirectory(m_root);
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (const QString &key : environment.keys()) {
        if (key.startsWith(QLatin1String("GIT_")))
            environment.remove(key);
    }
    process.setProcessEnvironment(environment);
    process.setStandardInputFile(QProcess::nullDevice());
    process.start(QStringLiteral("git"),
                  QStringList{QStringLiteral("-c"), QStringLiteral("core.hooksPath=/dev/null")}
                      + args);
    if (process.waitForFinished(30'000) && process.exitStatus() == QProcess::NormalExit
        && process.exitCode() == 0)
        return true;
    m_error = QStringLiteral("git %1 failed: %2")
                  .arg(args.join(QLatin1Char(' ')),
                       QString::fromUtf8(process.readAllStandardError()));
    return false;
}

} // namespace TestSupport
