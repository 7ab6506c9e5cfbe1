#pragma once

#include <QJsonObject>
#include <QString>

namespace AgentCore {

/// The pictures of a session (the user's, a tool's) are kept beside its file, one file each
/// named by its SHA-256 (`<id>.images/<sha256>.png` next to `<id>.jsonl`), so the session file
/// holds a few dozen bytes per picture instead of its base64 in every record that carries it
/// (the message, the follow-up queue each time the state is written). The file's records then
/// hold `{"type":"image","mimeType":...,"file":"<sha256>.<ext>"}` in place of "data".
/// Pure functions of the file system; any thread. Never follows a name out of the folder.
struct SessionPictures
{
    /// `<path without .jsonl>.images`.
    static QString directoryOf(const QString &sessionPath);

    /// \a record with the data of every image block of its "content" arrays written to
    /// directoryOf(\a sessionPath) (once: a file of that name holds those bytes) and named by
    /// "file" instead. A picture that cannot be written stays inline (\a error says why), so
    /// nothing is lost.
    static QJsonObject stored(const QJsonObject &record,
                              const QString &sessionPath,
                              QString *error = nullptr);

    /// \a record with every image block that names a "file" read back into "data". One whose
    /// file is missing or unreadable becomes a text block that says so (a placeholder the
    /// conversation shows and the model reads); with \a readFiles false every such block does
    /// (what a listing needs, without reading pictures).
    static QJsonObject restored(const QJsonObject &record,
                                const QString &sessionPath,
                                bool readFiles = true);

    /// Removes the session's pictures (its file is being deleted).
    static void remove(const QString &sessionPath);
};

} // namespace AgentCore
