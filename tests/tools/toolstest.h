#pragma once

// Shared by the tests in tests/tools: a temporary git repository and a way to call a tool.

#include <loop/agenttypes.h>
#include <tools/toolworkspace.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace ToolsTest {

/// A fresh `git init` repository in a temporary directory, with a ToolWorkspace on it.
class Repo
{
public:
    Repo()
    {
        QProcess git;
        git.setWorkingDirectory(m_dir.path());
        git.start(QStringLiteral("git"), {QStringLiteral("init"), QStringLiteral("-q")});
        m_ok = m_dir.isValid() && git.waitForFinished(30000) && git.exitCode() == 0;
        m_root = QFileInfo(m_dir.path()).canonicalFilePath();
        m_workspace = std::make_shared<AgentCore::ToolWorkspace>(m_root,
                                                                 m_root + QStringLiteral("/../")
                                                                     + QFileInfo(m_root).fileName()
                                                                     + QStringLiteral("-logs"));
    }
    ~Repo() { QDir(m_workspace->logDirectory()).removeRecursively(); }

    bool isValid() const { return m_ok; }
    QString root() const { return m_root; }
    QString path(const QString &relative) const { return m_root + QLatin1Char('/') + relative; }
    const std::shared_ptr<AgentCore::ToolWorkspace> &workspace() const { return m_workspace; }

    bool write(const QString &relative, const QByteArray &content) const
    {
        const QString file = path(relative);
        if (!QDir().mkpath(QFileInfo(file).path()))
            return false;
        QFile out(file);
        return out.open(QIODevice::WriteOnly | QIODevice::Truncate)
               && out.write(content) == content.size();
    }

    QByteArray read(const QString &relative) const
    {
        QFile in(path(relative));
        return in.open(QIODevice::ReadOnly) ? in.readAll() : QByteArray("<missing>");
    }

    /// Runs git in the repository; returns its standard output.
    QByteArray git(const QStringList &arguments) const
    {
        QProcess process;
        process.setWorkingDirectory(m_root);
        process.start(QStringLiteral("git"), arguments);
        process.waitForFinished(30000);
        return process.readAllStandardOutput();
    }

private:
    QTemporaryDir m_dir;
    bool m_ok = false;
    QString m_root;
    std::shared_ptr<AgentCore::ToolWorkspace> m_workspace;
};

/// A directory outside the repository holding secret.txt and deep/key.pem (both containing
/// "secret"), and links to it in the repository: link_dir (the directory), link_file
/// (secret.txt), and inside_link -> the repository's src/ (a link that stays inside).
class OutsideLinks
{
public:
    explicit OutsideLinks(const Repo &repo)
    {
        m_ok = m_outside.isValid() && writeOutside(QStringLiteral("secret.txt"))
               && writeOutside(QStringLiteral("deep/key.pem"))
               && repo.write(QStringLiteral("src/inside.txt"), "secret inside\n")
               && QFile::link(outside(), repo.path(QStringLiteral("link_dir")))
               && QFile::link(outside() + QStringLiteral("/secret.txt"),
                              repo.path(QStringLiteral("link_file")))
               && QFile::link(repo.path(QStringLiteral("src")),
                              repo.path(QStringLiteral("inside_link")));
    }

    bool isValid() const { return m_ok; }
    QString outside() const { return QFileInfo(m_outside.path()).canonicalFilePath(); }

private:
    bool writeOutside(const QString &relative)
    {
        const QString file = outside() + QLatin1Char('/') + relative;
        QDir().mkpath(QFileInfo(file).path());
        QFile out(file);
        return out.open(QIODevice::WriteOnly) && out.write("secret outside\n") > 0;
    }

    QTemporaryDir m_outside;
    bool m_ok = false;
};

inline AgentCore::ToolResult call(AgentCore::AgentTool &tool,
                                  const QJsonObject &arguments,
                                  const AgentCore::AbortToken &abort = {},
                                  const AgentCore::ToolUpdateCallback &onUpdate = {})
{
    AgentCore::ToolCallContext context;
    context.toolCallId = QStringLiteral("call_1");
    context.toolName = tool.definition().name;
    context.arguments = arguments;
    context.tool = &tool;
    context.abort = abort;
    context.onUpdate = onUpdate;
    return tool.execute(context);
}

} // namespace ToolsTest
