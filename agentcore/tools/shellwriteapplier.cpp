#include "shellwriteapplier.h"
#include "shellwritefiles.h"
#include "translation.h"

#include <checkpoint/filesetwriter.h>

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>

#include <sys/stat.h>
#include <unistd.h>

namespace AgentCore {

namespace {

using Type = ShellWrite::Type;

using ShellWriteFiles::encoded;
using ShellWriteFiles::linkTarget;
using ShellWriteFiles::readAll;

// The target is still as the command found it: nothing edited it since.
bool unchangedSince(const QString &target, const ShellWrite &change)
{
    struct stat info;
    if (::lstat(encoded(target).constData(), &info) != 0)
        return change.oldType == Type::None;
    switch (change.oldType) {
    case Type::None:
        return false;
    case Type::Directory:
        return S_ISDIR(info.st_mode);
    case Type::Symlink:
        return S_ISLNK(info.st_mode) && linkTarget(target) == change.oldBytes;
    case Type::File:
        if (!S_ISREG(info.st_mode) || info.st_size != change.oldSize)
            return false;
        return change.oldBytes.isEmpty() && change.oldSize > 0 ? true
                                                               : readAll(target) == change.oldBytes;
    case Type::Other:
        return !S_ISDIR(info.st_mode) && !S_ISREG(info.st_mode) && !S_ISLNK(info.st_mode);
    }
    return false;
}

} // namespace

ShellWriteApplier::ShellWriteApplier(QString journalDirectory)
    : m_directory(std::move(journalDirectory))
{}

QByteArray ShellWriteApplier::keptBytes(const ShellWrite &change, const QList<int> &rejectedHunks)
{
    if (rejectedHunks.isEmpty() || change.whole)
        return change.newBytes;
    // The diff was made from the UTF-8 texts; Latin-1 keeps every byte and every line break
    // where it was, so the kept hunks are spliced into the file's own bytes.
    return change.diff
        .apply(QString::fromLatin1(change.oldBytes),
               QString::fromLatin1(change.newBytes),
               rejectedHunks)
        .toLatin1();
}

ShellWriteApplier::Outcome ShellWriteApplier::apply(const QString &root,
                                                    const QList<ShellWrite> &changes,
                                                    const QHash<int, Choice> &choices) const
{
    Outcome outcome;
    QList<FileSetWriter::Change> writes;
    QList<int> owners; // writes[k] belongs to changes[owners[k]]
    const auto add = [&](int i, FileSetWriter::Change write) {
        writes.append(std::move(write));
        owners.append(i);
    };
    for (int i = 0; i < changes.size(); ++i) {
        const auto choice = choices.constFind(i);
        if (choice == choices.cend() || !choice->accepted)
            continue;
        const ShellWrite &change = changes[i];
        if (!change.whole && !change.diff.isEmpty()
            && choice->rejectedHunks.size() >= change.diff.hunks().size())
            continue; // every hunk rejected: nothing of it is accepted
        if (!unchangedSince(root + QLatin1Char('/') + change.path, change)) {
            outcome.failed.insert(i, ToolsTr::tr("it changed since the command ran"));
            continue;
        }
        using Kind = FileSetWriter::Change::Kind;
        // Replaced or deleted: what was there goes first (a directory only once empty).
        const bool replaced = change.oldType != change.newType;
        if (replaced && change.oldType != Type::None
            && (change.oldType == Type::Directory || change.newType == Type::None
                || change.newType == Type::Directory)) {
            add(i, {Kind::Delete, change.path, {}, {}, 0, false, false});
        }
        if (change.newType == Type::Directory) {
            add(i, {Kind::Folder, change.path, {}, {}, change.newMode, false, false});
        } else if (change.newType == Type::File && !change.contentChanged && !replaced) {
            add(i, {Kind::Mode, change.path, {}, {}, change.newMode, false, false});
        } else if (change.newType == Type::File) {
            const bool copied = !change.newSource.isEmpty();
            add(i,
                {Kind::File,
                 change.path,
                 copied ? QByteArray() : keptBytes(change, choice->rejectedHunks),
                 copied ? change.newSource : QString(),
                 change.newMode,
                 false,
                 false});
        } else if (change.newType == Type::Symlink) {
            add(i, {Kind::Link, change.path, change.newBytes, {}, 0, false, false});
        }
        outcome.applied.append(i);
    }
    if (writes.isEmpty())
        return outcome;

    const FileSetWriter::Outcome written = FileSetWriter(m_directory).write(root, writes);
    if (!written.error.isEmpty()) {
        outcome.error = written.error;
        outcome.applied.clear();
        return outcome;
    }
    for (auto it = written.failed.cbegin(); it != written.failed.cend(); ++it) {
        const int i = owners.at(it.key());
        if (!outcome.failed.contains(i))
            outcome.failed
                .insert(i, ToolsTr::tr("cannot write %1: %2").arg(changes[i].path, it.value()));
    }
    for (int i : std::as_const(outcome.applied)) {
        // A directory that kept something the reviewer did not let go is not removed.
        const ShellWrite &change = changes[i];
        if (change.oldType == Type::Directory && change.newType != Type::Directory
            && QFileInfo(root + QLatin1Char('/') + change.path).isDir()) {
            outcome.failed.insert(i, ToolsTr::tr("it still holds files that were kept"));
        }
    }
    for (auto it = outcome.failed.cbegin(); it != outcome.failed.cend(); ++it)
        outcome.applied.removeAll(it.key());
    return outcome;
}

QStringList ShellWriteApplier::replay(const QString &journalDirectory)
{
    QStringList lines;
    for (const FileSetWriter::Replayed &journal : FileSetWriter::replay(journalDirectory)) {
        lines.append(journal.committed
                         ? ToolsTr::tr("Finished applying a command's accepted changes to %1 "
                                       "(%2 files) that an earlier run left unfinished.")
                               .arg(journal.root)
                               .arg(journal.paths.size())
                         : ToolsTr::tr("Removed the files staged for a command's changes to %1 "
                                       "that an earlier run never applied.")
                               .arg(journal.root));
    }
    return lines;
}

} // namespace AgentCore
