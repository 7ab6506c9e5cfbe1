#include "headlessrewind.h"

#include "headlessrun.h"

#include <checkpoint/checkpointstore.h>
#include <coding/repository.h>
#include <session/sessionlog.h>
#include <session/sessionstore.h>

#include <QCoreApplication>
#include <QFileInfo>

#include <cstdio>

namespace App {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(App::HeadlessRewind)
};

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
        line += Tr::tr("  (%n file(s) not covered)", nullptr, int(checkpoint.skipped.size()));
    return line;
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
        err(Tr::tr("The session %1 is running (%2): stop it before rewinding its files, or the "
                   "rewind and the agent would write the same files.")
                .arg(session, holder));
        return usage;
    }

    AgentCore::CheckpointStore store(repository->root,
                                     AgentCore::CheckpointStore::defaultStoreRoot());
    if (const QStringList finished = store.recoverInterruptedRestore(); !finished.isEmpty()) {
        err(Tr::tr("finished an interrupted rewind: %1").arg(finished.join(QStringLiteral(", "))));
    }
    if (commandLine.rewindCheckpoint.isEmpty()) {
        const QList<AgentCore::Checkpoint> checkpoints = store.list(session);
        if (checkpoints.isEmpty()) {
            err(Tr::tr("The session %1 has no checkpoints for %2.").arg(session, repository->root));
            return usage;
        }
        for (const AgentCore::Checkpoint &checkpoint : checkpoints)
            out(describe(checkpoint));
        return 0;
    }

    const std::optional<AgentCore::Checkpoint> checkpoint = store.find(commandLine.rewindCheckpoint);
    if (!checkpoint) {
        err(Tr::tr("No checkpoint %1 for %2. agentdesk --rewind %3 lists the session's "
                   "checkpoints.")
                .arg(commandLine.rewindCheckpoint, repository->root, session));
        return usage;
    }
    if (checkpoint->sessionId != session) {
        err(Tr::tr("The checkpoint %1 belongs to the session %2, not %3.")
                .arg(checkpoint->id, checkpoint->sessionId, session));
        return usage;
    }
    const AgentCore::RestoreOutcome outcome = store.restore(*checkpoint);
    for (const QString &path : outcome.written)
        out(QStringLiteral("restored ") + path);
    for (const QString &path : outcome.deleted)
        out(QStringLiteral("deleted ") + path);
    for (const QString &failure : outcome.failed)
        err(Tr::tr("not restored: %1").arg(failure));
    if (!outcome.error.isEmpty())
        err(outcome.error);
    for (const AgentCore::SkippedFile &file : checkpoint->skipped)
        err(Tr::tr("left as it is (the checkpoint does not cover it): %1").arg(file.path));
    if (!outcome.undo.isNull()) {
        if (outcome.written.isEmpty() && outcome.deleted.isEmpty() && outcome.failed.isEmpty())
            err(Tr::tr("The files are already as at the checkpoint."));
        else
            err(Tr::tr("Undo with: agentdesk --rewind %1 %2").arg(session, outcome.undo.id));
    }
    return outcome.ok() ? 0 : 1;
}

} // namespace App
