#pragma once

#include "sessiontree.h"

#include <ai/types.h>

#include <QFile>
#include <QHash>
#include <QJsonObject>
#include <QLockFile>
#include <QStringList>

#include <memory>
#include <optional>

namespace AgentCore {

class SessionPages;

/// One conversation on disk, as JSON lines that only ever grow:
///   {"type":"session","version":1, ...header fields}      first line, written once
///   {"type":"message","id":"…","parent":"…","message":{messageToJson}}
///                                                         one per finished message; parent: the
///                                                         message it follows (SessionTree)
///   {"type":"branch","leaf":"…"}                          the active branch now ends there
///   {"type":"state", ...}                                 the session's state; the last wins
///   {"type":"partial","message":{...}|null}             the answer being streamed, until it ends
///   {"type":"partial","more":{...}}                       what streamed since the last partial
///   {"type":"toolOutput","toolCallId":"...","text":"..."} what a running call showed so far
///                                                         (its last part), until its result
///   {"type":"subagent","path":"call_1/call_7","message":{...}} one per finished message of a
///                                                         subagent (the Task calls' ids from
///                                                         the outermost), its prompt first
/// (the follow-up queue, the permission choices and the model live in the state records).
/// Pictures are kept beside the file and named in it (SessionPictures); load() reads them
/// back, a missing one as a placeholder text.
///
/// Branches (SessionTree): a message record without an id (a file written before branches, or
/// by a writer that does not know the active branch) follows the message read before it, as
/// the active branch stands then, and gets the id "#N" (its place among the message records);
/// an old file is one straight branch. The active branch ends at the message of the last
/// message record, or at the leaf of a later branch record ("" : an empty branch, before the
/// first message).
/// Appending never rewrites what is there: a crash (even SIGKILL) loses at most the line being
/// written, and load() skips such a torn line with a warning. A file that is not a session is
/// reported and never written to.
///
/// One writer per session: open() takes a lock next to the file (`<file>.lock`, a QLockFile
/// naming the process) and holds it until the SessionLog is destroyed, so a second window or
/// process cannot append to a session another one is writing. A lock left by a process that
/// died is taken over. The file is opened for appending (O_APPEND): every record lands at the
/// end even when something else wrote meanwhile. Not thread-safe: one owner, any thread.
class SessionLog final
{
public:
    struct Contents
    {
        QJsonObject header; ///< the first line, without "type"
        /// The active branch's messages (the path to activeLeaf), tool-call ids made unique
        /// (ToolCallIds::madeUnique).
        QList<Message> messages;
        /// Every branch: all the message records, as written.
        SessionTree tree;
        /// The id of the active branch's last message ("": the branch is empty).
        QString activeLeaf;
        QJsonObject state;    ///< the last state record, without "type" (empty: none)
        QStringList warnings; ///< lines skipped (torn or unreadable), with their line numbers
        /// The answer that was being streamed when the file was last written, if it never
        /// ended (no message record followed it): what a crash cut off.
        std::optional<Message> partial;
        /// What the calls that never got a result had shown (tool call id -> the last
        /// toolOutput record's text): what a crash cut off while they ran.
        QHash<QString, QString> toolOutputs;
        /// Each subagent's transcript as it was recorded (its prompt first), keyed by its path
        /// (the Task call ids from the outermost) joined with "/" (SubagentEvent::key()).
        QHash<QString, QList<Message>> subagents;
        qint64 bytes = 0;             ///< the file's size as it was read
        bool endsWithNewline = false; ///< its last line was whole
        /// Read with Paging::Paged: where the tool results that are stubs in \a messages and
        /// \a tree are (the active branch's indexed by their ids in \a messages); null
        /// otherwise.
        std::shared_ptr<SessionPages> pages;
    };

    enum class Paging {
        Whole, ///< every message as it was written
        /// Large tool results (SessionPages::isPageable) become stubs, in every branch, and
        /// Contents::pages says where they are: what a session to be resumed is read as, so
        /// that its outputs stay on disk until shown or sent.
        Paged,
    };

    static constexpr int version = 1;

    /// Reads a session file, once, in chunks (never all of it in memory at once). nullopt and
    /// \a error when it cannot be read or its first line is not a session header; the file is
    /// left as it is.
    static std::optional<Contents> load(const QString &path,
                                        QString *error,
                                        Paging paging = Paging::Whole);

    /// Opens \a path for appending, creating it (and its folder) with \a header when it does not
    /// exist. An existing file must be a session (checked as load() does); a torn last line is
    /// ended, so the next record starts on a line of its own. nullptr and \a error otherwise;
    /// \a busy (when given) tells whether that is because another SessionLog, in this process
    /// or another, holds the session (then \a error names the process).
    static std::unique_ptr<SessionLog> open(const QString &path,
                                            const QJsonObject &header,
                                            QString *error,
                                            bool *busy = nullptr);
    /// Whether another SessionLog holds \a path now; \a holder (when given) says who. Looks at
    /// the lock without taking it (unless its holder is gone: then QLockFile clears it as open()
    /// would), so an open() by another window or run at the same moment is not refused.
    static bool isBusy(const QString &path, QString *holder = nullptr);

    ~SessionLog();
    SessionLog(const SessionLog &) = delete;
    SessionLog &operator=(const SessionLog &) = delete;

    QString path() const { return m_file.fileName(); }

    /// Appends one record (written to the file at once, not yet synced). Once the active
    /// leaf is known (setLeaf(), or a file this SessionLog created), a message record gets a
    /// new id (\a id, when given) and the leaf as its parent, and becomes the leaf; before,
    /// it is written without them (it then follows whatever the file's active branch is).
    /// A tool result that is paged (SessionPages::isPageable) is added to pages() (when set)
    /// once written. A stub (Message::isPaged) is refused: it is not the message.
    bool appendMessage(const Message &message, QString *error, QString *id = nullptr);
    /// Where the tool results this log writes are indexed from now on (null: nowhere).
    void setPages(std::shared_ptr<SessionPages> pages) { m_pages = std::move(pages); }
    const std::shared_ptr<SessionPages> &pages() const { return m_pages; }
    /// The active branch ends at \a leaf (an id of the file, "" for an empty branch) from now
    /// on: a branch record, and the next message follows \a leaf.
    bool appendBranch(const QString &leaf, QString *error);
    /// The file's active leaf as read (SessionLog::Contents::activeLeaf): what the next message
    /// follows. Nothing is written.
    void setLeaf(const QString &leaf) { m_leaf = leaf; }
    /// The active leaf; nullopt until it is known (setLeaf(), or a new file).
    std::optional<QString> leaf() const { return m_leaf; }
    bool appendState(const QJsonObject &state, QString *error);
    /// One finished message of the subagent at \a key (SubagentEvent::key()).
    bool appendSubagentMessage(const QString &key, const Message &message, QString *error);
    /// The answer streamed so far (an assistant message), replaced by the next partial or
    /// message record; a null message withdraws it (the draft was discarded).
    bool appendPartial(const std::optional<Message> &partial, QString *error);
    /// What streamed since the last partial record: block i's text goes on at the end of the
    /// partial's block i, blocks past its end are added. Only new text is written, so that a
    /// long answer saved every second grows the file by its own size, not by its square.
    bool appendPartialMore(const Message &more, QString *error);
    /// What the running call \a toolCallId has shown so far (the whole of it as kept, not
    /// what is new: the last record of a call wins); its result message ends it.
    bool appendToolOutput(const QString &toolCallId, const QString &text, QString *error);
    /// Forces what was appended onto the disk (fsync): at each turn end.
    bool sync(QString *error);

private:
    explicit SessionLog(const QString &path);
    /// \a offset (when given): where the record starts; then \a length and \a digest are its
    /// bytes' (SessionPages::digest).
    bool appendRecord(const QJsonObject &record,
                      QString *error,
                      qint64 *offset = nullptr,
                      qint64 *length = nullptr,
                      size_t *digest = nullptr);

    QFile m_file;
    std::shared_ptr<SessionPages> m_pages;
    std::unique_ptr<QLockFile> m_lock;
    std::optional<QString> m_leaf; // the active branch's last message id, when known
};

} // namespace AgentCore
