#pragma once

#include "types.h"

namespace AgentCore {

/// The plan of the offline demo model (DemoModelClient): which assistant message comes next in
/// a conversation. Stateless: everything is derived from the context, namely the messages of
/// the current task (from the user message that started it) and the results of the calls
/// made so far.
///
/// A task goes: LS + Glob (parallel) -> Read of a README or another text file, with a second
/// file when there is one (parallel) -> Edit inserting a short note after its first line and a
/// closing line further down (at the end of a file of up to 200 lines, else at the end of a
/// paragraph), far enough apart for two hunks to review one by one. A file too short for that,
/// an empty one or none at all gets the demo's own notes instead: a Write of DEMO_NOTES.md,
/// then the same two-place Edit of it. -> Bash `git status --short` -> a final answer. A
/// failed or denied call never stops it: the next step follows and the final answer mentions
/// it. Tools missing from the context are skipped. At most six assistant messages per task. A
/// user message after a finished task starts another run the same way, which updates the note
/// it left (secondNote()); steering messages are acknowledged in the next text.
///
/// A value; pure and thread-safe. User-visible text is translated. Never throws.
class DemoScript final
{
public:
    explicit DemoScript(const Context &context);

    /// The next assistant message: its content and stop reason (ToolUse or Stop) only; the
    /// caller fills role, metadata and usage.
    Message next() const;

    /// The line the demo inserts into the file it edits.
    static QString note();
    /// The line the note becomes when a later task finds it.
    static QString secondNote();
    /// The line it adds further down, for the edit's second hunk.
    static QString closingNote();
    /// The file it proposes when there is no text file to edit.
    static QString notesFileName();

private:
    Context m_context;
};

} // namespace AgentCore
