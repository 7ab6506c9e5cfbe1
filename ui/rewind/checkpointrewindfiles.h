#pragma once

#include "rewindfiles.h"

#include <memory>

namespace AgentCore {
class CheckpointRecorder;
}

namespace Ui {

/// The files side of a rewind over the session's checkpoints (AgentCore::CheckpointRecorder and
/// its CheckpointStore): the point right before raw message i is the latest checkpoint of the
/// active branch whose messageIndex is at most i; a restore records the state before it (the
/// undo) first.
class CheckpointRewindFiles final : public RewindFiles
{
public:
    /// \a branchTimes: the timestamps of the active branch's messages, by raw index
    /// (AgentCore::CheckpointRewind::before).
    CheckpointRewindFiles(std::shared_ptr<AgentCore::CheckpointRecorder> recorder,
                          QList<qint64> branchTimes);

    RewindFilesPreview preview(qsizetype messageIndex) override;
    RewindFilesOutcome restore(const QString &checkpoint, const QSet<QString> &keep) override;

private:
    std::shared_ptr<AgentCore::CheckpointRecorder> m_recorder;
    QList<qint64> m_branchTimes;
};

} // namespace Ui
