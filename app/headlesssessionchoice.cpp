#include "headlesssessionchoice.h"
#include "translation.h"

#include "headlessprinter.h"

#include <session/sessionrecorder.h>
#include <session/sessionstore.h>

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QLocale>

namespace App {

using AgentCore::SessionLog;
using AgentCore::SessionStore;

std::optional<SessionLog::Contents> HeadlessSessionChoice::open(const QString &repositoryRoot)
{
    const SessionStore store(SessionStore::defaultDirectory(repositoryRoot));
    const QString root = QDir::toNativeSeparators(repositoryRoot);
    QStringList candidates;
    if (m_choice == SessionChoice::Continue) {
        const QList<AgentCore::SessionInfo> sessions = store.list();
        for (const AgentCore::SessionInfo &session : sessions) {
            if (session.error.isEmpty()) {
                candidates.append(session.path);
                continue;
            }
            headlessStderr(AppTr::tr("warning: skipped the session %1: %2")
                               .arg(QDir::toNativeSeparators(session.path), session.error));
        }
        if (candidates.isEmpty()) {
            headlessStderr(
                AppTr::tr("No session to continue: %1 has none yet. Run without --continue "
                          "to start one.")
                    .arg(root));
            return std::nullopt;
        }
    } else {
        const QString &id = m_resumeId;
        const bool isPath = id.contains(u'/') || id.contains(QDir::separator())
                            || id.endsWith(QLatin1String(".jsonl"));
        const QString path = isPath ? QFileInfo(id).absoluteFilePath() : store.pathOf(id);
        if (!QFileInfo(path).isFile()) {
            const QStringList elsewhere = isPath ? QStringList()
                                                 : store.findInOtherRepositories(id);
            const QString other = elsewhere.isEmpty()
                                      ? QString()
                                      : SessionStore::repositoryOf(elsewhere.constFirst());
            if (!other.isEmpty()) {
                headlessStderr(
                    AppTr::tr("The session %1 belongs to another repository, %2: run with "
                              "--repo %2 to continue it.")
                        .arg(id, QDir::toNativeSeparators(other)));
            } else {
                headlessStderr(AppTr::tr("No session %1 for %2. The window lists the repository's "
                                         "sessions; agent_start names each run's sessionId.")
                                   .arg(id, root));
            }
            return std::nullopt;
        }
        candidates.append(path);
    }
    // A file given by its path, or a folder shared by a moved repository: the session must be
    // this repository's, or its file paths and tool results would describe another tree.
    const auto isAnotherRepositorys = [&repositoryRoot](const QString &path) {
        const QString recordedFor = SessionStore::repositoryOf(path);
        if (recordedFor.isEmpty() || recordedFor == repositoryRoot)
            return false;
        headlessStderr(
            AppTr::tr("The session %1 belongs to another repository, %2: run with --repo %2 "
                      "to continue it.")
                .arg(SessionStore::idOf(path), QDir::toNativeSeparators(recordedFor)));
        return true;
    };
    QString error;
    if (m_choice == SessionChoice::Fork) {
        if (isAnotherRepositorys(candidates.constFirst()))
            return std::nullopt;
        if (!m_persist) {
            m_chosenPath = candidates.constFirst();
            std::optional<SessionLog::Contents> contents = SessionLog::load(m_chosenPath, &error);
            if (!contents || !SessionStore::cutAtMessage(*contents, m_forkMessage, &error)) {
                headlessStderr(AppTr::tr("Cannot fork the session %1: %2")
                                   .arg(SessionStore::idOf(m_chosenPath), error));
                return std::nullopt;
            }
            return contents;
        }
        const QString copy = fork(candidates.constFirst());
        if (copy.isEmpty())
            return std::nullopt;
        candidates = {copy};
    }
    const QString &first = candidates.constFirst();
    if (!m_persist) {
        if (isAnotherRepositorys(first))
            return std::nullopt;
        // Only read: nothing is added to it, so it needs no lock, and one open elsewhere is
        // read as it is now.
        m_chosenPath = first;
        std::optional<SessionLog::Contents> contents = SessionLog::load(first, &error);
        if (!contents) {
            headlessStderr(AppTr::tr("Cannot continue the session %1: %2")
                               .arg(SessionStore::idOf(first), error));
            return std::nullopt;
        }
        contents->messages += AgentCore::SessionRecorder::interruption(*contents);
        return contents;
    }
    // --continue means "go on where I left off": with several agents at once the most recent
    // session is often another window's or run's, which no second process may write. The most
    // recent one that is free is taken instead, and stderr says which were passed over.
    QStringList skipped; // "ID (process N)", most recent first
    for (const QString &path : std::as_const(candidates)) {
        if (isAnotherRepositorys(path))
            return std::nullopt;
        bool busy = false;
        m_resumption = AgentCore::SessionResumption::takeOver(path, &error, &busy);
        if (m_resumption) {
            if (skipped.size() == 1) {
                headlessStderr(
                    AppTr::tr("the most recent session, %1, is open in another AgentDesk "
                              "window or headless run; continuing %2, the most recent one "
                              "that is free.")
                        .arg(skipped.constFirst(), SessionStore::idOf(path)));
            } else if (skipped.size() > 1) {
                headlessStderr(
                    AppTr::tr("the %1 most recent sessions are open in other AgentDesk "
                              "windows or headless runs: %2; continuing %3, the most recent "
                              "one that is free.")
                        .arg(QString::number(skipped.size()),
                             skipped.join(QStringLiteral(", ")),
                             SessionStore::idOf(path)));
            }
            m_sessionPath = m_chosenPath = path;
            return m_resumption->contents; // a shared copy: the recorder keeps the branches
        }
        if (!busy || m_choice != SessionChoice::Continue) {
            headlessStderr(AppTr::tr("Cannot continue the session %1: %2")
                               .arg(SessionStore::idOf(path), error));
            return std::nullopt;
        }
        QString holder;
        if (!SessionLog::isBusy(path, &holder))
            holder = AppTr::tr("another process"); // it let go just now: still not ours to take
        skipped.append(AppTr::tr("%1 (%2)").arg(SessionStore::idOf(path), holder));
    }
    headlessStderr(
        AppTr::tr("No session to continue: every session of %1 is open in another AgentDesk "
                  "window or headless run (%2), and only one can add to a session at a "
                  "time. Run without --continue to start a new one, or --resume one of "
                  "them once it is closed.")
            .arg(root, skipped.join(QStringLiteral(", "))));
    return std::nullopt;
}

QString HeadlessSessionChoice::fork(const QString &original)
{
    // A new session, as `claude --resume ID --fork-session` and `codex fork` make: the original
    // may be open in a window, and stays as it was.
    QString error;
    const QString copy = SessionStore::forkAtMessage(original, m_forkMessage, &error);
    if (copy.isEmpty()) {
        headlessStderr(
            AppTr::tr("Cannot fork the session %1: %2").arg(SessionStore::idOf(original), error));
        return {};
    }
    //: stderr of agentdesk --fork: 1 the original session's id, 2 the message, 3 the new id
    headlessStderr(AppTr::tr("forked the session %1 at %2 into the new session %3")
                       .arg(SessionStore::idOf(original),
                            m_forkMessage.isEmpty() ? AppTr::tr("its last message")
                                                    : AppTr::tr("message %1").arg(m_forkMessage),
                            SessionStore::idOf(copy)));
    return copy;
}

void pointAtInterruptedSession(const QString &repositoryRoot, const QString &running)
{
    const SessionStore store(SessionStore::defaultDirectory(repositoryRoot));
    if (!QFileInfo(store.directory()).isDir())
        return;
    const std::optional<AgentCore::SessionInfo> interrupted
        = SessionStore::newestInterrupted(store.list(), {running});
    if (!interrupted)
        return;
    //: stderr of a headless run after a crash: 1 the session's id, 2 its task, 3 when
    headlessStderr(AppTr::tr("note: AgentDesk ended while the session %1 (“%2”) was running "
                             "(last written %3); its conversation and the output it had shown "
                             "are kept. Continue it with --resume %1, or open it in the "
                             "window.")
                       .arg(SessionStore::idOf(interrupted->path),
                            interrupted->title,
                            QLocale().toString(interrupted->modified, QLocale::ShortFormat)));
}

} // namespace App
