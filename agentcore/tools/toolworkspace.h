#pragma once

#include "commandenvironment.h"
#include "readledger.h"
#include "sandboxpolicy.h"

#include <ai/picture.h>

#include <QByteArray>
#include <QDateTime>
#include <QHash>
#include <QMutex>
#include <QString>

#include <functional>
#include <optional>

namespace AgentCore {

/// What a tool is about to do with a path.
enum class PathAccess {
    Read,  ///< Read, Grep, Glob, LS
    Write, ///< Edit, Write
};

/// A path given by the model, resolved against the repository root.
struct ResolvedPath
{
    QString path;     ///< absolute; existing part canonical (symlinks resolved); empty on error
    QString relative; ///< relative to the root ("" for the root); empty when outside
    bool insideRoot = false;
    bool exists = false;
    QString error; ///< why the path is refused; empty when allowed

    bool ok() const { return error.isEmpty(); }
    /// relative when inside the root, else the absolute path: how results name the file.
    QString displayPath() const { return insideRoot ? relative : path; }
};

/// What Read saw of a file, so Edit and Write can tell whether it changed since.
struct FileSnapshot
{
    qint64 size = -1;
    QDateTime modified;
    QByteArray hash; ///< SHA-1 of the bytes
    friend bool operator==(const FileSnapshot &, const FileSnapshot &) = default;
};

/// The state the coding tools of one session share: the repository root, which files the model
/// has read (and how they looked then; what Read showed of them: readLedger()), where Bash keeps full output logs, and which variables
/// of AgentDesk's environment Bash commands do not get.
/// Thread-safe: parallel tool calls use it at the same time. Set the path guard before the
/// first tool call. Never runs git or touches the repository except through the tools.
class ToolWorkspace final
{
    Q_DISABLE_COPY_MOVE(ToolWorkspace)
public:
    /// Decides whether a resolved path may be used; returns the refusal text, or empty.
    /// The permission layer replaces the default (writes outside the root or into .git/
    /// refused, reads allowed) with its own capability check.
    using PathGuard = std::function<QString(const ResolvedPath &path, PathAccess access)>;

    /// \a root is canonicalised. An empty \a logDirectory means the process's private folder
    /// (ToolLogDirectory::processDirectory()).
    explicit ToolWorkspace(const QString &root, const QString &logDirectory = {});

    QString root() const { return m_root; }
    /// Created on first use.
    QString logDirectory() const;

    /// What Bash commands get of AgentDesk's environment; by default CommandEnvironment():
    /// everything but the provider keys and variables named like secrets.
    CommandEnvironment commandEnvironment() const;
    void setCommandEnvironment(const CommandEnvironment &environment);

    /// Whether and how Bash commands are sandboxed; by default SandboxPolicy() (mode Off).
    SandboxPolicy sandboxPolicy() const;
    void setSandboxPolicy(const SandboxPolicy &policy);
    /// Told, on the first call of noteSandboxUnavailable(), that commands run without the
    /// sandbox and why (on a tool thread).
    void setSandboxNotice(std::function<void(const QString &message)> notice);
    /// Bash found the sandbox unavailable: tells the notice the first time, only.
    void noteSandboxUnavailable(const QString &message);

    /// How Read makes a picture file fit what the model takes (\a limits): \a scaler decodes,
    /// scales and re-encodes (the front end's, with QtGui); null: a picture goes as it is when
    /// it fits, and is refused otherwise. Set before the first tool call.
    void setPictures(PictureScaler scaler, const PictureLimits &limits);
    const PictureScaler &pictureScaler() const { return m_pictureScaler; }
    PictureLimits pictureLimits() const { return m_pictureLimits; }

    void setPathGuard(PathGuard guard);
    static QString defaultGuard(const QString &root, const ResolvedPath &path, PathAccess access);

    /// Resolves \a path (relative to the root, or absolute): cleans it, resolves the symlinks of
    /// the part that exists, then asks the guard. The seam every tool's path goes through.
    ResolvedPath resolve(const QString &path, PathAccess access) const;

    /// \a path made absolute, with its symlinks resolved when it exists; cleaned otherwise.
    static QString canonicalPath(const QString &path);

    /// Reads the current state of \a absolutePath from disk (nullopt when it is not a file).
    static std::optional<FileSnapshot> snapshot(const QString &absolutePath);
    static FileSnapshot snapshotOf(const QByteArray &bytes, const QDateTime &modified);

    void recordRead(const QString &absolutePath, const FileSnapshot &snapshot);
    std::optional<FileSnapshot> lastRead(const QString &absolutePath) const;
    void forget(const QString &absolutePath);

    /// What Read has shown the model of each file (a repeated Read of an unchanged file
    /// answers "unchanged"). writeFile() forgets the file's entries.
    ReadLedger &readLedger() { return m_readLedger; }

    /// Writes \a bytes to \a path atomically (a temporary file renamed over it; permissions
    /// kept), creating missing parent directories, and records the result as read: the model
    /// knows what it wrote (for checkFreshness; Read still shows the new text again). Returns
    /// the error, or empty.
    QString writeFile(const ResolvedPath &path, const QByteArray &bytes);

    /// Empty when the file may be overwritten: it does not exist, or it was read and has not
    /// changed since. Otherwise the error for the model. \a bytes: the file's current content.
    QString checkFreshness(const ResolvedPath &path, const QByteArray &bytes) const;

private:
    QString m_root;
    QString m_logDirectory;
    PathGuard m_guard;
    CommandEnvironment m_commandEnvironment;
    SandboxPolicy m_sandboxPolicy;
    std::function<void(const QString &message)> m_sandboxNotice;
    bool m_sandboxNoticeGiven = false;
    PictureScaler m_pictureScaler;
    PictureLimits m_pictureLimits;
    mutable QMutex m_mutex;
    QHash<QString, FileSnapshot> m_reads;
    ReadLedger m_readLedger;
};

} // namespace AgentCore
