#pragma once

#include "commandline.h"

namespace App {

/// agentdesk --rewind SESSION [CHECKPOINT] [--keep PATH]... [--dry-run]: restores the
/// repository's files to a checkpoint of the session (AgentCore::CheckpointRewind, as the
/// window's "Rewind to here" with "Files only"), printing each file it wrote, deleted or kept on
/// stdout ("restored PATH", "deleted PATH", "kept PATH") and how to undo it on stderr, and
/// records the rewind in the session file (the window shows it, with "Undo rewind"). --keep
/// leaves a file, or everything under a folder, as it is; so does every file the user changed
/// since the checkpoint (CheckpointRewind::userChanges: edited by hand, created),
/// named on stderr, unless --overwrite-user-changes; --dry-run prints what would change
/// ("would restore PATH", "would delete PATH", "would keep PATH") and changes nothing. Without
/// CHECKPOINT, lists the session's checkpoints (id, time, message index, reason), oldest first.
/// Refused while the session is running (its file is locked by a window or a headless run).
/// Exit codes: 0 done, 1 some files could not be restored (or the rewind not recorded), 2 usage
/// (no such session or checkpoint, a --keep that names no changed file, session busy). Needs a
/// QCoreApplication.
int runRewind(const CommandLine &commandLine);

} // namespace App
