#include "sessionlog.h"
#include "sessionpictures.h"
#include "translation.h"

#include <loop/toolcallids.h>

#include <ai/messagejson.h>
#include <files/privatefiles.h>

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>

#include <QRegularExpression>
#include <QSysInfo>

#ifdef Q_OS_UNIX
#    include <cerrno>
#    include <signal.h>
#    include <unistd.h>
#endif

namespace AgentCore {

namespace {

const QLatin1String typeKey("type");

std::optional<QJsonObject> parseLine(const QByteArray &line)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(line, &parseError);
    if (parseError.error != QJsonParseError::NoError || !document.isObject())
        return std::nullopt;
    return document.object();
}

bool isHeader(const QJsonObject &object)
{
    return object.value(typeKey).toString() == QLatin1String("session")
           && object.value(QLatin1String("version")).toInt() >= 1;
}

// The first line of \a path, when it is a session header; else \a error says why.
std::optional<QJsonObject> readHeader(QFile &file, QString *error)
{
    const QByteArray first = file.readLine();
    const std::optional<QJsonObject> header = parseLine(first.trimmed());
    if (!header || !isHeader(*header)) {
        *error = SessionTr::tr("%1 is not an AgentDesk session (its first line is not a session "
                               "header). It was left as it is.")
                     .arg(QDir::toNativeSeparators(file.fileName()));
        return std::nullopt;
    }
    if (header->value(QLatin1String("version")).toInt() > SessionLog::version) {
        *error = SessionTr::tr(
                     "%1 was written by a newer AgentDesk (session version %2). It was left "
                     "as it is.")
                     .arg(QDir::toNativeSeparators(file.fileName()))
                     .arg(header->value(QLatin1String("version")).toInt());
        return std::nullopt;
    }
    return header;
}

QString lockPath(const QString &path)
{
    return path + QLatin1String(".lock");
}

// "process 4711 on build-host", or a plain "another process" when the lock cannot say.
QString holderOf(const QLockFile &lock)
{
    qint64 pid = 0;
    QString host;
    QString application;
    if (!lock.getLockInfo(&pid, &host, &application))
        return SessionTr::tr("another process");
    return host.isEmpty() ? SessionTr::tr("process %1").arg(pid)
                          : SessionTr::tr("process %1 on %2").arg(pid).arg(host);
}

// Whether the lock of \a pid (its QLockFile info) is one its process left behind, as far as this
// process can tell without taking it: the process is gone, or its pid now names another
// program. A lock from another host is never judged stale (QLockFile does not either).
bool isApparentlyStale(qint64 pid, const QString &host, const QString &application)
{
    if (!host.isEmpty() && host != QSysInfo::machineHostName())
        return false;
#ifdef Q_OS_UNIX
    if (::kill(pid_t(pid), 0) != 0 && errno == ESRCH)
        return true;
#endif
#ifdef Q_OS_LINUX
    // Qt's own test (processNameByPid): the name of the process's executable.
    // A program rebuilt while it runs reads "name (deleted)"; one of another user, nothing.
    QString executable = QFile::symLinkTarget(QStringLiteral("/proc/%1/exe").arg(pid));
    executable.remove(QRegularExpression(QStringLiteral(" \\(deleted\\)$")));
    if (!executable.isEmpty() && !application.isEmpty()
        && QFileInfo(executable).fileName() != application)
        return true;
#else
    Q_UNUSED(application)
#endif
    return false;
}

QString cannotRead(const QFile &file)
{
    return SessionTr::tr("Cannot read the session %1: %2")
        .arg(QDir::toNativeSeparators(file.fileName()), file.errorString());
}

// A "more" partial record onto the partial answer read so far (SessionLog::appendPartialMore).
void continuePartial(Message &partial, const Message &more)
{
    for (qsizetype i = 0; i < more.content.size(); ++i) {
        if (i < partial.content.size())
            partial.content[i].text += more.content.at(i).text;
        else
            partial.content.append(more.content.at(i));
    }
}

// A message record into the tree: its own id and parent, or, for a record written without them
// (before branches), the id "#N" of its place and the active leaf as its parent. It becomes
// the active leaf: a writer appends to the active branch.
void addToTree(SessionLog::Contents &contents,
               const QJsonObject &record,
               const Message &message,
               qsizetype ordinal)
{
    QString id = record.value(QLatin1String("id")).toString();
    if (id.isEmpty() || contents.tree.contains(id))
        id = QStringLiteral("#%1").arg(ordinal);
    const QJsonValue parent = record.value(QLatin1String("parent"));
    contents.tree.add(id, parent.isString() ? parent.toString() : contents.activeLeaf, message);
    contents.activeLeaf = id;
}

} // namespace

std::optional<SessionLog::Contents> SessionLog::load(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = cannotRead(file);
        return std::nullopt;
    }
    std::optional<QJsonObject> header = readHeader(file, error);
    if (!header)
        return std::nullopt;
    Contents contents;
    header->remove(typeKey);
    contents.header = *header;
    // All at once, then split: QFile::readLine goes through QIODevice one byte at a time, which
    // was about a third of a long session's load (perf, 2,000 messages).
    const QByteArray rest = file.readAll();
    contents.bytes = file.pos();
    contents.endsWithNewline = rest.endsWith('\n');
    int lineNumber = 1;
    qsizetype messageRecords = 0;
    for (qsizetype start = 0; start < rest.size();) {
        qsizetype end = rest.indexOf('\n', start);
        const bool torn = end < 0;
        end = torn ? rest.size() : end + 1;
        const QByteArray line = QByteArray::fromRawData(rest.constData() + start, end - start);
        start = end;
        ++lineNumber;
        if (line.trimmed().isEmpty())
            continue;
        std::optional<QJsonObject> record = parseLine(line);
        if (record) // the pictures kept beside the file come back into their blocks
            record = SessionPictures::restored(*record, path);
        if (record && record->value(typeKey).toString() == QLatin1String("partial")) {
            const QJsonValue more = record->value(QLatin1String("more"));
            const QJsonValue partial = record->value(QLatin1String("message"));
            Message message;
            if (more.isObject() && contents.partial && messageFromJson(more.toObject(), &message))
                continuePartial(*contents.partial, message);
            else if (partial.isObject() && messageFromJson(partial.toObject(), &message))
                contents.partial = message;
            else
                contents.partial.reset();
            continue;
        }
        Message message;
        QString why;
        const QString type = record ? record->value(typeKey).toString() : QString();
        if (record && type == QLatin1String("toolOutput")) {
            const QString id = record->value(QLatin1String("toolCallId")).toString();
            if (!id.isEmpty())
                contents.toolOutputs.insert(id, record->value(QLatin1String("text")).toString());
            continue;
        }
        if (record && type == QLatin1String("subagent")) {
            const QString key = record->value(QLatin1String("path")).toString();
            if (!key.isEmpty()
                && messageFromJson(record->value(QLatin1String("message")).toObject(), &message))
                contents.subagents[key].append(message);
            continue;
        }
        if (record && type == QLatin1String("message")
            && messageFromJson(record->value(QLatin1String("message")).toObject(), &message, &why)) {
            if (message.isToolResult())
                contents.toolOutputs.remove(message.toolCallId); // it ended: not cut off
            addToTree(contents, *record, message, ++messageRecords);
            contents.partial.reset(); // the answer ended (or the run went on): not cut off
        } else if (record && type == QLatin1String("branch")) {
            const QString leaf = record->value(QLatin1String("leaf")).toString();
            if (leaf.isEmpty() || contents.tree.contains(leaf))
                contents.activeLeaf = leaf;
        } else if (record && type == QLatin1String("state")) {
            contents.state = *record;
            contents.state.remove(typeKey);
        } else if (record && type != QLatin1String("message")) {
            continue; // a record of a newer AgentDesk: not ours to judge
        } else {
            contents.warnings.append(
                torn ? SessionTr::tr(
                           "The last line of %1 was cut off (AgentDesk stopped while writing "
                           "it) and was skipped.")
                           .arg(QDir::toNativeSeparators(path))
                     : SessionTr::tr("Line %1 of %2 could not be read and was skipped.")
                           .arg(lineNumber)
                           .arg(QDir::toNativeSeparators(path)));
        }
    }
    if (file.error() != QFileDevice::NoError) {
        *error = cannotRead(file);
        return std::nullopt;
    }
    // Files written before the loop gave every call its own id may repeat ids from one reply
    // to the next; the window and the agent then key calls as a live run does.
    contents.messages = ToolCallIds::madeUnique(contents.tree.messagesTo(contents.activeLeaf));
    return contents;
}

bool SessionLog::isBusy(const QString &path, QString *holder)
{
    // Only looked at, never taken while it may be another's: a lock taken here, even for a
    // moment, would refuse an open() by a window or run at that moment as "busy".
    QLockFile lock(lockPath(path));
    lock.setStaleLockTime(0);
    qint64 pid = 0;
    QString host;
    QString application;
    if (!lock.getLockInfo(&pid, &host, &application)) {
        // No lock, or one made an instant ago whose holder has not yet written its name.
        if (!QFileInfo::exists(lockPath(path)))
            return false;
        if (holder)
            *holder = SessionTr::tr("another process");
        return true;
    }
    if (!isApparentlyStale(pid, host, application)) {
        if (holder)
            *holder = holderOf(lock);
        return true;
    }
    // Left by a process that is gone: QLockFile judges it (and removes it, as open() would).
    if (lock.tryLock(0))
        return false;
    if (lock.error() != QLockFile::LockFailedError)
        return false; // cannot tell (an unwritable folder): open() reports it
    if (holder)
        *holder = holderOf(lock);
    return true;
}

std::unique_ptr<SessionLog> SessionLog::open(const QString &path,
                                             const QJsonObject &header,
                                             QString *error,
                                             bool *busy)
{
    if (busy)
        *busy = false;
    std::unique_ptr<SessionLog> log(new SessionLog(path));
    QFile &file = log->m_file;
    if (!PrivateFiles::makePath(QFileInfo(path).absolutePath())) {
        *error = SessionTr::tr("Cannot create the session %1: its folder cannot be made.")
                     .arg(QDir::toNativeSeparators(path));
        return nullptr;
    }
    // Only the age of a lock never makes it stale: a window may keep a session open for days.
    // A lock whose process is gone (a crash, SIGKILL) is taken over.
    log->m_lock = std::make_unique<QLockFile>(lockPath(path));
    log->m_lock->setStaleLockTime(0);
    const bool locked = log->m_lock->tryLock(0);
    if (locked)
        PrivateFiles::restrict(lockPath(path)); // it names this process and host
    if (!locked) {
        if (log->m_lock->error() == QLockFile::LockFailedError) {
            if (busy)
                *busy = true;
            *error = SessionTr::tr("The session %1 is open in another AgentDesk window or headless "
                                   "run (%2); only one can add to it at a time.")
                         .arg(QDir::toNativeSeparators(path), holderOf(*log->m_lock));
        } else {
            *error = SessionTr::tr("Cannot lock the session %1 (%2 cannot be written).")
                         .arg(QDir::toNativeSeparators(path),
                              QDir::toNativeSeparators(lockPath(path)));
        }
        return nullptr;
    }
    if (file.exists()) {
        // Append mode: each write goes to the end of the file, whatever else wrote meanwhile.
        if (!file.open(QIODevice::ReadWrite | QIODevice::Append)) {
            *error = cannotRead(file);
            return nullptr;
        }
        file.seek(0); // append mode starts at the end; the header is read first
        if (!readHeader(file, error))
            return nullptr;
        // End a torn last line, so that it stays one skipped line and the next record is whole.
        if (file.size() > 0 && file.seek(file.size() - 1)) {
            char last = 0;
            if (file.getChar(&last) && last != '\n' && !file.putChar('\n')) {
                *error = cannotRead(file);
                return nullptr;
            }
        }
        file.seek(file.size());
        return log;
    }
    if (!file.open(QIODevice::WriteOnly | QIODevice::Append | QIODevice::NewOnly,
                   PrivateFiles::fileMode)) {
        *error = SessionTr::tr("Cannot create the session %1: %2")
                     .arg(QDir::toNativeSeparators(path), file.errorString());
        return nullptr;
    }
    QJsonObject first = header;
    first.insert(typeKey, QStringLiteral("session"));
    first.insert(QLatin1String("version"), version);
    if (!log->appendRecord(first, error) || !log->sync(error))
        return nullptr;
    log->m_leaf = QString(); // a new file: its first message is a root
    return log;
}

SessionLog::SessionLog(const QString &path)
    : m_file(path)
{}

SessionLog::~SessionLog()
{
    m_file.close(); // before the lock goes: nothing is written once another window may write
}

bool SessionLog::appendMessage(const Message &message, QString *error, QString *id)
{
    QJsonObject record{{typeKey, QStringLiteral("message")},
                       {QLatin1String("message"), messageToJson(message)}};
    QString newId;
    if (m_leaf) {
        newId = SessionTree::newId();
        record.insert(QLatin1String("id"), newId);
        record.insert(QLatin1String("parent"), *m_leaf);
    }
    if (id)
        *id = newId;
    if (!appendRecord(record, error))
        return false;
    if (m_leaf)
        m_leaf = newId;
    return true;
}

bool SessionLog::appendBranch(const QString &leaf, QString *error)
{
    if (!appendRecord({{typeKey, QStringLiteral("branch")}, {QLatin1String("leaf"), leaf}}, error))
        return false;
    m_leaf = leaf;
    return true;
}

bool SessionLog::appendSubagentMessage(const QString &key, const Message &message, QString *error)
{
    return appendRecord({{typeKey, QStringLiteral("subagent")},
                         {QLatin1String("path"), key},
                         {QLatin1String("message"), messageToJson(message)}},
                        error);
}

bool SessionLog::appendState(const QJsonObject &state, QString *error)
{
    QJsonObject record = state;
    record.insert(typeKey, QStringLiteral("state"));
    return appendRecord(record, error);
}

bool SessionLog::appendPartial(const std::optional<Message> &partial, QString *error)
{
    return appendRecord({{typeKey, QStringLiteral("partial")},
                         {QLatin1String("message"),
                          partial ? QJsonValue(messageToJson(*partial)) : QJsonValue()}},
                        error);
}

bool SessionLog::appendPartialMore(const Message &more, QString *error)
{
    return appendRecord({{typeKey, QStringLiteral("partial")},
                         {QLatin1String("more"), messageToJson(more)}},
                        error);
}

bool SessionLog::appendToolOutput(const QString &toolCallId, const QString &text, QString *error)
{
    return appendRecord({{typeKey, QStringLiteral("toolOutput")},
                         {QLatin1String("toolCallId"), toolCallId},
                         {QLatin1String("text"), text}},
                        error);
}

bool SessionLog::appendRecord(const QJsonObject &record, QString *error)
{
    // One write per line: a crash leaves at most this line torn. The pictures go beside the
    // file first, so the line only names them.
    const QByteArray line = QJsonDocument(SessionPictures::stored(record, path()))
                                .toJson(QJsonDocument::Compact)
                            + '\n';
    if (m_file.write(line) != line.size() || !m_file.flush()) {
        *error = SessionTr::tr("Cannot write to the session %1: %2")
                     .arg(QDir::toNativeSeparators(m_file.fileName()), m_file.errorString());
        return false;
    }
    return true;
}

bool SessionLog::sync(QString *error)
{
#ifdef Q_OS_UNIX
    if (::fsync(m_file.handle()) != 0) {
        *error = SessionTr::tr("Cannot save the session %1 to disk.")
                     .arg(QDir::toNativeSeparators(m_file.fileName()));
        return false;
    }
#else
    Q_UNUSED(error)
#endif
    return true;
}

} // namespace AgentCore
