#include "headlessrewind.h"
#include "translation.h"

#include "headlessrun.h"

#include <checkpoint/checkpointstore.h>
#include <coding/checkpointrewind.h>
#include <coding/repository.h>
#include <session/sessionlog.h>
#include <session/sessionstore.h>

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QSet>

#include <algorithm>

#include <cstdio>

namespace App {

namespace {

void out(const QString &text)
{
    const QByteArray bytes = (text + u'\n').toLocal8Bit();
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stdout);
    std::fflush(stdout);
}

void err(const QString &text)
{
    const QByteArray bytes = (QStringLiteral("agentdesk: ") + text + u'\n').toLocal8Bit();
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stderr);
    std::fflush(stderr);
}

QString describe(const AgentCore::Checkpoint &checkpoint)
{
    QString line = QStringLiteral("%1  %2  message %3  %4")
                       .arg(checkpoint.id,
                            checkpoint.time.toLocalTime().toString(Qt::ISODate),
                            QString::number(checkpoint.messageIndex),
                            checkpoint.reasonText());
    if (!checkpoint.skipped.isEmpty())
        line += AppTr::tr("  (%n file(s) not covered)", nullptr, int(checkpoint.skipped.size()));
    return line;
}

/// The changed paths that \a requested (files or folders, relative to the repository's top
/// folder) name; \a unmatched gets what names none of them, most likely a typo.
QSet<QString> keptPaths(const AgentCore::CheckpointDiff &diff,
                        const QString &root,
                        const QStringList &requested,
                        QStringList *unmatched)
{
    QSet<QString> kept;
    for (const QString &asked : requested) {
        // "./src/", "src//a.cpp" and an absolute path inside the repository name what the
        // rewind prints as "src/a.cpp".
        QString path = QDir::cleanPath(
            QDir::isAbsolutePath(asked) ? QDir(root).relativeFilePath(asked) : asked);
        if (path == QLatin1String("."))
            path.clear();
        bool matched = false;
        for (const AgentCore::CheckpointFileChange &change : diff.files) {
            if (path.isEmpty() || change.path == path
                || change.path.startsWith(path + QLatin1Char('/'))) {
                kept.insert(change.path);
                matched = true;
            }
        }
        if (!matched)
            unmatched->append(asked);
    }
    return kept;
}

} // namespace

int runRewind(const CommandLine &commandLine)
{
    constexpr int usage = int(HeadlessExit::Usage);
    QString error;
    const std::optional<AgentCore::Repository> repository
        = AgentCore::Repository::open(commandLine.repository, &error);
    if (!repository) {
        err(error);
        return usage;
    }
    const QString &session = commandLine.rewindSession;
    const AgentCore::SessionStore sessions(
        AgentCore::SessionStore::defaultDirectory(repository->root));
    const QString sessionPath = sessions.pathOf(session);
    QString holder;
    if (QFileInfo(sessionPath).isFile() && AgentCore::SessionLog::isBusy(sessionPath, &holder)) {
        err(AppTr::tr("The session %1 is running (%2): stop it before rewinding its files, or the "
                      "rewind and the agent would write the same files.")
                .arg(session, holder));
        return usage;
    }

    AgentCore::CheckpointStore store(repository->root,
                                     AgentCore::CheckpointStore::defaultStoreRoot());
    if (const QStringList finished = store.recoverInterruptedRestore(); !finished.isEmpty()) {
        err(AppTr::tr("finished an interrupted rewind: %1").arg(finished.join(QStringLiteral(", "))));
    }
    if (commandLine.rewindCheckpoint.isEmpty()) {
        const QList<AgentCore::Checkpoint> checkpoints = store.list(session);
        if (checkpoints.isEmpty()) {
            err(AppTr::tr("The session %1 has no checkpoints for %2.")
                    .arg(session, repository->root));
            return usage;
        }
        for (const AgentCore::Checkpoint &checkpoint : checkpoints)
            out(describe(checkpoint));
        return 0;
    }

    const std::optional<AgentCore::Checkpoint> checkpoint = store.find(commandLine.rewindCheckpoint);
    if (!checkpoint) {
        err(AppTr::tr("No checkpoint %1 for %2. agentdesk --rewind %3 lists the session's "
                      "checkpoints.")
                .arg(commandLine.rewindCheckpoint, repository->root, session));
        return usage;
    }
    if (checkpoint->sessionId != session) {
        err(AppTr::tr("The checkpoint %1 belongs to the session %2, not %3.")
                .arg(checkpoint->id, checkpoint->sessionId, session));
        return usage;
    }

    // The session file is held from before the restore to the rewind's record in it, so that
    // no window or run takes the session in between. A session recorded nowhere (a run with
    // --no-session-persistence) still has its checkpoints: its files are restored all the same.
    std::unique_ptr<AgentCore::SessionLog> log;
    QJsonObject state;
    qsizetype conversationSize = 0;
    if (QFileInfo(sessionPath).isFile()) {
        // Busy here (taken since the check above): the error names who holds it.
        log = AgentCore::SessionLog::open(sessionPath,
                                          AgentCore::SessionStore::newHeader(repository->root),
                                          &error);
        if (!log) {
            err(error);
            return usage;
        }
        const std::optional<AgentCore::SessionLog::Contents> contents
            = AgentCore::SessionLog::load(sessionPath, &error);
        if (!contents) {
            err(error);
            return usage;
        }
        state = contents->state;
        conversationSize = contents->messages.size();
    }

    const AgentCore::CheckpointDiff diff = store.diff(*checkpoint);
    if (!diff.ok()) {
        err(diff.error);
        return usage;
    }
    QStringList unmatched;
    QSet<QString> keep = keptPaths(diff, repository->root, commandLine.rewindKeep, &unmatched);
    if (!unmatched.isEmpty()) {
        err(AppTr::tr("Nothing the rewind changes is under %1: check the path (relative to %2).")
                .arg(unmatched.join(QStringLiteral(", ")), repository->root));
        return usage;
    }
    // The files the user changed since the checkpoint (edited by hand, created) are
    // theirs: nobody can be asked here, so they are kept and named, unless the command line
    // says to overwrite them.
    QString unsure;
    const QStringList yours = AgentCore::CheckpointRewind::userChanges(store,
                                                                       *checkpoint,
                                                                       diff,
                                                                       &unsure);
    if (!unsure.isEmpty())
        err(AppTr::tr("warning: could not tell your own changes from the agent's (%1): every "
                      "changed file counts as yours.")
                .arg(unsure));
    QStringList yoursKept;
    if (!commandLine.rewindOverwriteUserChanges) {
        for (const QString &path : yours) {
            if (!keep.contains(path))
                yoursKept.append(path);
        }
        keep.unite(QSet<QString>(yoursKept.cbegin(), yoursKept.cend()));
    }
    if (commandLine.rewindDryRun) {
        if (!yoursKept.isEmpty())
            err(AppTr::tr("You changed %1 yourself since that checkpoint: kept as they are; "
                          "--overwrite-user-changes would rewind them too.")
                    .arg(yoursKept.join(QStringLiteral(", "))));
        for (const AgentCore::CheckpointFileChange &change : diff.files) {
            if (keep.contains(change.path))
                out(QStringLiteral("would keep ") + change.path);
            else if (change.kind == AgentCore::CheckpointFileChange::Kind::Added)
                out(QStringLiteral("would delete ") + change.path);
            else
                out(QStringLiteral("would restore ") + change.path);
        }
        for (const QString &path : diff.notCovered)
            err(AppTr::tr("left as it is (the checkpoint does not cover it): %1").arg(path));
        err(diff.files.isEmpty() ? AppTr::tr("The files are already as at the checkpoint.")
                                 : AppTr::tr("Nothing was changed (--dry-run)."));
        return 0;
    }

    // A files-only rewind, as the window's "Files only": to the message the checkpoint was
    // recorded before (a restore's own checkpoint has none: the end of the conversation).
    AgentCore::Rewind rewind;
    rewind.scope = AgentCore::Rewind::Scope::Files;
    rewind.toIndex = checkpoint->messageIndex >= 0
                         ? std::min(qsizetype(checkpoint->messageIndex), conversationSize)
                         : conversationSize;
    const AgentCore::RestoreOutcome outcome = AgentCore::CheckpointRewind::restore(store,
                                                                                   *checkpoint,
                                                                                   keep,
                                                                                   &rewind);
    for (const QString &path : outcome.written)
        out(QStringLiteral("restored ") + path);
    for (const QString &path : outcome.deleted)
        out(QStringLiteral("deleted ") + path);
    for (const QString &path : outcome.kept)
        out(QStringLiteral("kept ") + path);
    if (!yoursKept.isEmpty() && !outcome.undo.isNull())
        err(AppTr::tr("You changed %1 yourself since that checkpoint: kept as they are. Run again "
                      "with --overwrite-user-changes to rewind them too.")
                .arg(yoursKept.join(QStringLiteral(", "))));
    for (const QString &failure : outcome.failed)
        err(AppTr::tr("not restored: %1").arg(failure));
    if (!outcome.error.isEmpty())
        err(outcome.error);
    for (const AgentCore::SkippedFile &file : checkpoint->skipped)
        err(AppTr::tr("left as it is (the checkpoint does not cover it): %1").arg(file.path));
    if (!outcome.undo.isNull()) {
        if (outcome.written.isEmpty() && outcome.deleted.isEmpty() && outcome.failed.isEmpty())
            err(AppTr::tr("The files are already as at the checkpoint."));
        else
            err(AppTr::tr("Undo with: agentdesk --rewind %1 %2").arg(session, outcome.undo.id));
        if (log && !AgentCore::CheckpointRewind::record(*log, state, rewind, outcome.undo, &error)) {
            err(AppTr::tr("The files were restored, but the rewind could not be recorded in the "
                          "session: %1")
                    .arg(error));
            return 1;
        }
    }
    return outcome.ok() ? 0 : 1;
}

} // namespace App
