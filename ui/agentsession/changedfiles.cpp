#include "changedfiles.h"

#include <context/rewind.h>
#include <tools/filechange.h>

#include <QSet>

#include <algorithm>

namespace Ui {

namespace {
QList<AgentCore::FileChange> changesOf(const AgentCore::Message &message, const QString &root)
{
    if (!message.isToolResult())
        return {};
    QList<AgentCore::FileChange> changes = AgentCore::FileChange::ofShellWrites(message.details,
                                                                                root);
    if (const auto change = AgentCore::FileChange::fromDetails(message.details);
        change && !message.isError)
        changes.prepend(*change);
    return changes;
}
} // namespace

void ChangedFiles::clear()
{
    m_files.clear();
    m_index.clear();
}

void ChangedFiles::add(const AgentCore::FileChange &change)
{
    auto it = m_index.constFind(change.path);
    if (it == m_index.cend()) {
        ChangedFile file;
        file.path = change.path;
        file.displayPath = change.displayPath;
        file.created = change.created;
        it = m_index.insert(change.path, int(m_files.size()));
        m_files.append(file);
    }
    ChangedFile &file = m_files[*it];
    file.additions += change.additions;
    file.deletions += change.deletions;
    ++file.changes;
    file.problems = change.problems;
}

void ChangedFiles::addRecorded(const AgentCore::Message &message, const QString &root)
{
    for (const AgentCore::FileChange &change : changesOf(message, root))
        add(change);
}

bool ChangedFiles::forgetRestored(const AgentCore::Rewind &rewind,
                                  const QList<AgentCore::Message> &conversation,
                                  const QString &root)
{
    if (!rewind.restoresFiles() || rewind.restoredFiles.isEmpty())
        return false;
    const QSet<QString> restored(rewind.restoredFiles.cbegin(), rewind.restoredFiles.cend());
    QList<ChangedFile> kept;
    for (const ChangedFile &file : std::as_const(m_files)) {
        // Restored to a point after the agent's first change: still changed, only less.
        if (!(restored.contains(file.displayPath)
              && firstChangeOf(conversation, file.path, root) >= rewind.toIndex))
            kept.append(file);
    }
    if (kept.size() == m_files.size())
        return false;
    m_files = kept;
    m_index.clear();
    for (qsizetype i = 0; i < m_files.size(); ++i)
        m_index.insert(m_files.at(i).path, int(i));
    return true;
}

qsizetype ChangedFiles::firstChangeOf(const QList<AgentCore::Message> &conversation,
                                      const QString &path,
                                      const QString &root)
{
    for (qsizetype i = 0; i < conversation.size(); ++i) {
        const QList<AgentCore::FileChange> changes = changesOf(conversation.at(i), root);
        if (std::any_of(changes.cbegin(), changes.cend(), [&path](const AgentCore::FileChange &c) {
                return c.path == path;
            }))
            return i;
    }
    return -1;
}

} // namespace Ui
