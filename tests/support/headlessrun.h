#pragma once

// agentdesk --print end to end: a scratch repository with its own home folder, and one run of
// the built binary (QProcess) against a scripted provider on 127.0.0.1 (HttpTestServer). The
// test thread's event loop serves the server while the process runs, so every wait spins it
// (QSignalSpy::wait, QTRY_*), never a blocking waitFor*.

#include "modelreplies.h"

#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QSignalSpy>
#include <QStringList>
#include <QTemporaryDir>

#include <memory>

namespace TestSupport {

class HttpTestServer;

/// The key the runs get in OPENAI_API_KEY and ANTHROPIC_API_KEY (tests look for leaks of it).
extern const QString HeadlessApiKey;
/// The rule HeadlessSandbox's AGENTS.md carries.
extern const QByteArray HeadlessAgentsRule;
constexpr int HeadlessTimeoutMs = 60'000;

/// A temporary git repository with notes.txt and AGENTS.md, and a home folder for the process
/// (settings, sessions, audit logs), so that nothing of the developer's own setup takes part.
class HeadlessSandbox
{
public:
    HeadlessSandbox();

    bool isValid() const { return m_ok; }
    QString root() const { return m_root; }
    QString home() const;

    bool write(const QString &relative, const QByteArray &content) const;
    QByteArray read(const QString &relative) const;

    /// Where the runs keep their sessions (the window's session store in this home).
    QString sessionsRoot() const;
    /// Every session file the runs left, whatever the repository, sorted.
    QStringList sessionFiles() const;

private:
    QTemporaryDir m_dir;
    QString m_root;
    bool m_ok = false;
};

/// The agentdesk binary of this build.
QString agentdeskBinary();
/// The --provider name of \a api.
QString headlessProviderName(ReplyApi api);

/// One agentdesk --print process. Environment and arguments are public so a test can adjust
/// them before start().
class HeadlessRun
{
public:
    HeadlessRun(const HeadlessSandbox &sandbox,
                const HttpTestServer &server,
                ReplyApi api,
                const QStringList &extra,
                const QString &prompt = QStringLiteral("Fix the notes."));

    void start();
    /// Waits (serving the test server meanwhile) until the process ended.
    bool finish(int timeoutMs = HeadlessTimeoutMs);
    /// -1 when the process crashed.
    int exitCode() const;
    /// stdout as stream-json: one object per line; an empty list if a line is not one.
    QList<QJsonObject> jsonLines() const;
    /// Exit code, stdout and stderr (each cut at 4000 characters) for a failure message.
    QString report() const;

    QProcessEnvironment environment;
    QStringList arguments;
    QString stdinFile; ///< empty: no input
    QProcess process;
    QByteArray out;
    QString err;

private:
    std::unique_ptr<QSignalSpy> m_finished;
};

/// --permission-mode bypass followed by \a more: the command runs unasked, so what stops it
/// (the sandbox) is what a test sees.
QStringList headlessBypass(const QStringList &more);

/// A folder for PATH with git (the repository is opened with it) and no bwrap: a run with it
/// finds no sandbox, for the fallback and the refusal. Removed with the object.
class PathWithoutBwrap
{
public:
    PathWithoutBwrap();

    /// False when the folder or its git link could not be made.
    bool isValid() const { return m_ok; }
    QString path() const { return m_dir.path(); }

private:
    QTemporaryDir m_dir;
    bool m_ok = false;
};

/// What agentdesk --rewind printed and returned; exitCode -1 when it crashed or timed out.
struct Rewound
{
    int exitCode = -1;
    QString out;
    QString err;
};

/// agentdesk --repo <sandbox> --rewind \a arguments, with the environment (home folder) of
/// \a run. It blocks: --rewind talks to no provider, so no test server needs serving.
Rewound headlessRewind(const HeadlessRun &run,
                       const HeadlessSandbox &sandbox,
                       const QStringList &arguments);

ReplyToolCall headlessReadCall();
ReplyToolCall headlessEditCall();
ReplyToolCall headlessBashCall(const QString &command);

/// Every file under \a directory concatenated, for a look at what a run left on disk.
QByteArray allFilesUnder(const QString &directory);
/// False when the process does not exist or is a zombie (it has ended, only waits to be reaped).
bool isProcessRunning(qint64 pid);

} // namespace TestSupport
