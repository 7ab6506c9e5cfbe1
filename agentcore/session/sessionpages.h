#pragma once

#include <loop/messagepages.h>

#include <QHash>
#include <QMutex>
#include <QString>
#include <QStringList>

#include <list>
#include <optional>

namespace AgentCore {

/// The tool results of one session that live in its file rather than in memory: where each
/// result's message record is (toolCallId -> offset and length of the record's bytes), and a
/// bounded cache of those read back. A conversation then holds stubs (Message::isPaged: a
/// preview and the whole text's length) for the large results, and reads the whole message
/// when it is shown, expanded or sent (load()). The file only grows (SessionLog), so a
/// record's bytes stay where they were written; a file changed or cut short behind AgentDesk's
/// back gives an error, never another record's text.
///
/// Filled by SessionLog (reading a session with paging, and appending a tool result), shared
/// (std::shared_ptr) by the recorder, the loop's request stage and the window; thread-safe
/// (one mutex; the disk is read outside it).
class SessionPages final : public MessagePages
{
public:
    explicit SessionPages(const QString &sessionFile, qint64 cacheBytes = 32 << 20);

    /// A tool result with at least this many characters of text (or any image) is paged.
    static constexpr qsizetype pageAbove = 8 * 1024;
    /// A stub's preview: whole lines, at most this many characters.
    static constexpr qsizetype previewChars = 2 * 1024;

    QString sessionFile() const;

    /// The result \a toolCallId (its id as the conversation has it, ToolCallIds::madeUnique)
    /// is the message record of \a length bytes at \a offset of the file (without its newline).
    /// Replaces what was known of that id (a branch switch gives ids anew). \a digest: the
    /// record's bytes' digest(), when the caller has them: a record changed in place (same
    /// length) is then refused too, not read as another text; 0: only its shape is checked.
    void add(const QString &toolCallId, qint64 offset, qint64 length, size_t digest = 0);
    bool contains(const QString &toolCallId) const;
    /// How many results are indexed.
    qsizetype size() const;

    /// The whole recorded message (toolCallId as given), from a bounded LRU cache or read
    /// from the file (one seek + one read of the record, parsed). Blocks on the disk:
    /// never call it on the UI thread (use QtConcurrent::run). nullopt + error when the
    /// file no longer holds it (a clear message the UI shows in place of the output).
    std::optional<Message> load(const QString &toolCallId, QString *error = nullptr) const override;

    /// Whether \a message is paged once recorded: a tool result with pageAbove characters of
    /// text or more, or with an image.
    static bool isPageable(const Message &message);
    /// The stub of a whole message (preview + pagedChars), or the message itself when it
    /// is below pageAbove (then nothing is paged).
    static Message stub(const Message &whole);
    /// The stub of \a whole, a result this index holds, as every history of the session keeps
    /// it: made once, so that the histories that page it (the run's lists, the Agent's, the
    /// recorder's, the window's) share one preview rather than each its own.
    Message stubOf(const Message &whole) const;
    /// A stub's preview of \a text: its first whole lines, at most previewChars characters
    /// (the first characters when its first line is longer).
    static QString preview(const QString &text);
    /// \a messages with each whole result this index holds (contains()) replaced by its stub:
    /// what a history keeps once its results are on disk. Unchanged when none is.
    QList<Message> pagedOut(const QList<Message> &messages) const;

    /// The message record of the session's message \a messageId (SessionTree) is \a length
    /// bytes at \a offset: kept for every paged result of every branch, so that a branch
    /// switch can index the stubs of the branch it goes to (indexBranch()).
    void addRecord(const QString &messageId, qint64 offset, qint64 length, size_t digest = 0);
    /// A record's bytes (without its newline), as add() takes them: never 0.
    static size_t digest(QByteArrayView record);
    /// Indexes the stubs of a branch by the ids its conversation gives them: \a messages
    /// (ToolCallIds::madeUnique of the branch) are the messages \a messageIds name, in order.
    void indexBranch(const QStringList &messageIds, const QList<Message> &messages);

    /// The bytes the cache holds now (an estimate: its texts' and pictures' sizes), at most
    /// the bound given to the constructor.
    qint64 cachedBytes() const;

private:
    struct Span
    {
        qint64 offset = 0;
        qint64 length = 0;
        size_t digest = 0;
    };
    std::optional<Message> read(const QString &toolCallId, Span span, QString *error) const;
    void remember(const QString &toolCallId, const Message &message) const;
    void forget(const QString &toolCallId) const;   // under m_mutex: its stub and cache
    void uncache(const QString &toolCallId) const;  // under m_mutex: its cached whole only
    Message sharedStub(const Message &whole) const; // under m_mutex

    const QString m_file;
    const qint64 m_cacheBytes;
    mutable QMutex m_mutex;
    QHash<QString, Span> m_index;   // toolCallId -> its record
    QHash<QString, Span> m_records; // message id (SessionTree) -> its record
    // The cache, most recently used first.
    struct Cached
    {
        QString toolCallId;
        Message message;
        qint64 bytes = 0;
    };
    mutable std::list<Cached> m_cache;
    mutable QHash<QString, std::list<Cached>::iterator> m_cached;
    mutable qint64 m_cachedBytes = 0;
    mutable QHash<QString, Message> m_stubs; // toolCallId -> its stub, shared (stubOf())
};

} // namespace AgentCore
