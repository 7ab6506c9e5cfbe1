#pragma once

#include "commandline.h"

namespace App {

/// agentdesk --rewind SESSION [CHECKPOINT]: restores the repository's files to a checkpoint of
/// the session (CheckpointStore::restore), printing each file it wrote or deleted on stdout
/// ("restored PATH", "deleted PATH") and how to undo it on stderr; without CHECKPOINT, lists the
/// session's checkpoints (id, time, message index, reason), oldest first. Refused while the
/// session is running (its file is locked by a window or a headless run). Exit codes: 0 done,
/// 1 some files could not be restored, 2 usage (no such session or checkpoint, session busy).
/// Needs a QCoreApplication.
int runRewind(const CommandLine &commandLine);

} // namespace App
