#pragma once

#include <ai/types.h>

#include <QHash>
#include <QMutex>
#include <QString>

#include <optional>

namespace AgentCore {

/// Where the whole text of paged tool results is: the byte range of each one's record in the
/// session file, by tool call id. Thread-safe (a mutex); owned by std::shared_ptr, shared by
/// the recorder, the loop's request stage and the UI.
class SessionPages
{
public:
    explicit SessionPages(const QString &sessionFile, qint64 cacheBytes = 32 << 20);

    static constexpr qsizetype pageAbove = 8 * 1024; // chars of text (or any image) to page
    static constexpr qsizetype previewChars = 2 * 1024;

    QString sessionFile() const;
    void add(const QString &toolCallId, qint64 offset, qint64 length); // the record's bytes
    bool contains(const QString &toolCallId) const;
    /// The whole recorded message (toolCallId as given), from a bounded LRU cache or read
    /// from the file (one seek + one read of the record, parsed). Blocks on the disk:
    /// never call it on the UI thread (use QtConcurrent::run). nullopt + error when the
    /// file no longer holds it (a clear message the UI shows in place of the output).
    std::optional<Message> load(const QString &toolCallId, QString *error = nullptr) const;
    /// The stub of a whole message (preview + pagedChars), or the message itself when it
    /// is below pageAbove (then nothing is paged).
    static Message stub(const Message &whole);

private:
    struct Range
    {
        qint64 offset = 0;
        qint64 length = 0;
    };
    QString m_sessionFile;
    qint64 m_cacheBytes;
    mutable QMutex m_mutex;
    QHash<QString, Range> m_ranges;
};

} // namespace AgentCore
