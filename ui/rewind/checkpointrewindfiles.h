#pragma once

#include "rewindfiles.h"

#include <memory>

namespace AgentCore {
class CheckpointRecorder;
}

namespace Ui {

/// The files side of a rewind over the session's checkpoints (AgentCore::CheckpointRecorder and
/// its CheckpointStore): the point right before raw message i is the latest checkpoint whose
/// messageIndex is at most i; a restore records the state before it (the undo) first.
class CheckpointRewindFiles final : public RewindFiles
{
public:
    explicit CheckpointRewindFiles(std::shared_ptr<AgentCore::CheckpointRecorder> recorder);

    RewindFilesPreview preview(qsizetype messageIndex) override;
    RewindFilesOutcome restore(const QString &checkpoint, const QSet<QString> &keep) override;

private:
    std::shared_ptr<AgentCore::CheckpointRecorder> m_recorder;
};

} // namespace Ui
