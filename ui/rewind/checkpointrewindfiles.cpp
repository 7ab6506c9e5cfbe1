#include "checkpointrewindfiles.h"
#include "common/translation.h"

#include <checkpoint/checkpointrecorder.h>
#include <checkpoint/checkpointstore.h>
#include <coding/checkpointrewind.h>

#include <QCoreApplication>

namespace Ui {

CheckpointRewindFiles::CheckpointRewindFiles(std::shared_ptr<AgentCore::CheckpointRecorder> recorder,
                                             QList<qint64> branchTimes)
    : m_recorder(std::move(recorder))
    , m_branchTimes(std::move(branchTimes))
{}

RewindFilesPreview CheckpointRewindFiles::preview(qsizetype messageIndex)
{
    RewindFilesPreview preview;
    // A snapshot still being taken is part of what the user may go back to.
    m_recorder->waitForIdle();
    const std::optional<AgentCore::Checkpoint> found
        = AgentCore::CheckpointRewind::before(m_recorder->checkpoints(),
                                              messageIndex,
                                              m_branchTimes);
    if (!found) {
        preview.unavailable = UiTr::tr("No checkpoint of the files was recorded at that point: "
                                       "only the conversation can be rewound.");
        return preview;
    }
    const AgentCore::CheckpointDiff diff = m_recorder->store()->diff(*found);
    if (!diff.ok()) {
        preview.unavailable = diff.error;
        return preview;
    }
    preview.checkpoint = found->id;
    preview.notCovered = diff.notCovered;
    // Unsure (the latest state cannot be compared), every file counts as the user's: kept
    // unless the user says otherwise.
    const QStringList yours = AgentCore::CheckpointRewind::userChanges(*m_recorder->store(),
                                                                       *found,
                                                                       diff);
    for (const AgentCore::CheckpointFileChange &change : diff.files) {
        RewindFile file;
        file.path = change.path;
        switch (change.kind) {
        case AgentCore::CheckpointFileChange::Kind::Added:
            file.kind = RewindFile::Kind::Added;
            break;
        case AgentCore::CheckpointFileChange::Kind::Modified:
            file.kind = RewindFile::Kind::Modified;
            break;
        case AgentCore::CheckpointFileChange::Kind::Deleted:
            file.kind = RewindFile::Kind::Deleted;
            break;
        }
        file.current = change.newBytes;
        file.restored = change.oldBytes;
        file.yours = yours.contains(change.path);
        preview.files.append(file);
    }
    return preview;
}

RewindFilesOutcome CheckpointRewindFiles::restore(const QString &checkpoint,
                                                  const QSet<QString> &keep)
{
    RewindFilesOutcome outcome;
    const std::optional<AgentCore::Checkpoint> found = m_recorder->store()->find(checkpoint);
    if (!found) {
        outcome.error = UiTr::tr("The checkpoint %1 is no longer in the store.")
                            .arg(checkpoint.left(12));
        return outcome;
    }
    AgentCore::Rewind rewind;
    const AgentCore::RestoreOutcome restored
        = AgentCore::CheckpointRewind::restore(*m_recorder->store(), *found, keep, &rewind);
    if (!restored.undo.isNull())
        m_recorder->addCheckpoint(restored.undo);
    outcome.undoCheckpoint = rewind.undoCheckpoint;
    outcome.restored = rewind.restoredFiles;
    outcome.kept = rewind.keptFiles;
    QStringList problems = restored.failed;
    if (!restored.error.isEmpty())
        problems.prepend(restored.error);
    outcome.error = problems.join(QStringLiteral("; "));
    return outcome;
}

} // namespace Ui
