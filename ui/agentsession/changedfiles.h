#pragma once

#include <ai/types.h>

#include <QHash>
#include <QList>
#include <QString>

#include <optional>

namespace AgentCore {
struct FileChange;
struct Rewind;
} // namespace AgentCore

namespace Ui {

/// One file the agent changed in this session, summed over the calls that changed it.
struct ChangedFile
{
    QString path;        ///< absolute
    QString displayPath; ///< relative to the repository when inside
    int additions = 0;
    int deletions = 0;
    int changes = 0;      ///< successful calls that changed it
    bool created = false; ///< the first change created the file
    /// Errors and warnings a language server found after its last change; nullopt: that
    /// change was not checked.
    std::optional<int> problems;
};

/// The files a session changed, in the order they were first changed: live from each change
/// the session reports, on resume or a branch switch from the recorded results. \a root, where
/// asked, is the repository's (a command's reviewed writes are recorded relative to it).
class ChangedFiles
{
public:
    QList<ChangedFile> files() const { return m_files; }
    void clear();
    /// One more change: an Edit's or Write's diff, or one of a command's reviewed writes.
    void add(const AgentCore::FileChange &change);
    /// The changes a recorded tool result holds (none for other messages, or a failed call).
    void addRecorded(const AgentCore::Message &message, const QString &root);
    /// A rewind that restored files: a file it brought back to before the agent's first change
    /// to it (in \a conversation) is no longer one the session changed. true when the list
    /// changed.
    bool forgetRestored(const AgentCore::Rewind &rewind,
                        const QList<AgentCore::Message> &conversation,
                        const QString &root);
    /// The index in \a conversation of the first result that changed \a path (absolute); -1
    /// when none did.
    static qsizetype firstChangeOf(const QList<AgentCore::Message> &conversation,
                                   const QString &path,
                                   const QString &root);

private:
    QList<ChangedFile> m_files;
    QHash<QString, int> m_index; // path -> index into m_files
};

} // namespace Ui
