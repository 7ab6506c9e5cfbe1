#include "sessionstore.h"
#include "translation.h"

#include "sessionlog.h"
#include "sessionpages.h"
#include "sessionpictures.h"

#include <ai/messagejson.h>
#include <loop/toolcallids.h>

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QLockFile>
#include <QRandomGenerator>
#include <QStandardPaths>

#include <algorithm>

namespace AgentCore {

namespace {

const QLatin1String suffix(".jsonl");
constexpr int titleLength = 80;

std::optional<QJsonObject> parseObject(const QByteArray &line)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(line, &error);
    if (error.error != QJsonParseError::NoError || !document.isObject())
        return std::nullopt;
    return document.object();
}

QDateTime fromIso(const QJsonValue &value)
{
    return QDateTime::fromString(value.toString(), Qt::ISODateWithMs);
}

} // namespace

SessionStore::SessionStore(QString directory)
    : m_directory(std::move(directory))
{}

QString SessionStore::defaultDirectory(const QString &repositoryRoot)
{
    const QByteArray hash = QCryptographicHash::hash(repositoryRoot.toUtf8(),
                                                     QCryptographicHash::Sha256)
                                .toHex()
                                .left(12);
    const QString base = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    return base + QLatin1String("/sessions/") + QFileInfo(repositoryRoot).fileName() + u'-'
           + QString::fromLatin1(hash);
}

QList<SessionInfo> SessionStore::list() const
{
    QList<SessionInfo> sessions;
    QDirIterator it(m_directory, {QLatin1String("*") + suffix}, QDir::Files);
    while (it.hasNext())
        sessions.append(describe(it.next()));
    std::sort(sessions.begin(), sessions.end(), [](const SessionInfo &a, const SessionInfo &b) {
        if (a.modified != b.modified)
            return a.modified > b.modified;
        return a.path > b.path; // names start with the creation time
    });
    return sessions;
}

namespace {

/// The length of a file's active branch, from its records' links alone (as SessionLog::load
/// builds the tree: a record without an id gets "#N" and, without a parent, follows the
/// message read before it; a branch record moves the leaf).
class ActiveBranchLength
{
public:
    void message(std::optional<QString> id, std::optional<QString> parent)
    {
        ++m_records;
        if (!id || id->isEmpty() || m_parents.contains(*id))
            id = QStringLiteral("#%1").arg(m_records);
        m_parents.insert(*id, parent.value_or(m_leaf));
        m_leaf = *id;
    }
    void branch(const QString &leaf)
    {
        if (leaf.isEmpty() || m_parents.contains(leaf))
            m_leaf = leaf;
    }
    int length() const
    {
        int length = 0;
        for (QString at = m_leaf; !at.isEmpty() && length < m_parents.size(); ++length)
            at = m_parents.value(at);
        return length;
    }

private:
    QHash<QString, QString> m_parents; // id -> parent ("" for a root)
    QString m_leaf;
    qsizetype m_records = 0;
};

/// A message record's "id" and "parent", read from the ends of its line without parsing the
/// message between them (most of the file): the keys are written sorted, so "id" comes first
/// and "parent" last before "type". Ids are plain (hex, or "#N"): no escapes.
std::pair<std::optional<QString>, std::optional<QString>> recordLinks(QByteArrayView line,
                                                                      QByteArrayView suffix)
{
    std::optional<QString> id;
    std::optional<QString> parent;
    static const QByteArray idKey = QByteArrayLiteral("{\"id\":\"");
    if (line.startsWith(idKey)) {
        const qsizetype end = line.indexOf('"', idKey.size());
        if (end > 0)
            id = QString::fromLatin1(line.sliced(idKey.size(), end - idKey.size()));
    }
    line = line.trimmed();
    line.chop(suffix.size());
    static const QByteArray parentKey = QByteArrayLiteral("\"parent\":\"");
    if (line.endsWith("\",")) {
        line.chop(2);
        const qsizetype key = line.lastIndexOf(parentKey);
        const QByteArrayView value = key < 0 ? QByteArrayView()
                                             : line.sliced(key + parentKey.size());
        if (key >= 0 && !value.contains('"'))
            parent = QString::fromLatin1(value);
    }
    return {id, parent};
}

} // namespace

SessionInfo SessionStore::describe(const QString &path)
{
    SessionInfo info;
    info.path = path;
    const QFileInfo fileInfo(path);
    info.modified = fileInfo.lastModified();
    info.created = fileInfo.birthTime().isValid() ? fileInfo.birthTime() : info.modified;

    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        info.error = SessionTr::tr("Cannot read it: %1").arg(file.errorString());
        return info;
    }
    const std::optional<QJsonObject> header = parseObject(file.readLine());
    if (!header || header->value(u"type").toString() != QLatin1String("session")) {
        info.error = SessionTr::tr("It is not an AgentDesk session; it was left as it is.");
        return info;
    }
    if (header->value(u"version").toInt() > SessionLog::version) {
        info.error = SessionTr::tr("It was written by a newer AgentDesk; it was left as it is.");
        return info;
    }
    if (const QDateTime created = fromIso(header->value(u"created")); created.isValid())
        info.created = created;

    // Message records are most of the file: they are counted, not parsed, except until the
    // first task is found. QJsonDocument writes keys sorted, so a message record starts so.
    static const QByteArray messagePrefix = QByteArrayLiteral("{\"message\":");
    QString firstTask;
    QString named;
    bool running = false;
    ActiveBranchLength branch; // a session with branches lists its active one's messages
    while (!file.atEnd()) {
        const QByteArray line = file.readLine();
        if (!line.endsWith('\n'))
            break; // torn: the load skips it too
        // A partial record starts the same way (its keys sort alike): told apart by its end.
        static const QByteArray messageSuffix = QByteArrayLiteral("\"type\":\"message\"}");
        // A message record of a branch starts with its id (SessionLog: "id" sorts first).
        static const QByteArray branchMessagePrefix = QByteArrayLiteral("{\"id\":");
        if ((line.startsWith(messagePrefix) || line.startsWith(branchMessagePrefix))
            && line.trimmed().endsWith(messageSuffix)) {
            const auto [id, parent] = recordLinks(line, messageSuffix);
            branch.message(id, parent);
            if (!firstTask.isEmpty())
                continue;
        }
        // A running call's output (up to 16 KB, many of them): never needed here.
        static const QByteArray toolOutputSuffix = QByteArrayLiteral("\"type\":\"toolOutput\"}");
        if (line.startsWith("{\"text\":") && line.trimmed().endsWith(toolOutputSuffix))
            continue;
        const std::optional<QJsonObject> record = parseObject(line);
        if (!record)
            continue;
        const QString type = record->value(u"type").toString();
        if (type == QLatin1String("state")) {
            named = record->value(u"title").toString();
            running = record->value(u"runInProgress").toBool();
        } else if (type == QLatin1String("branch")) {
            branch.branch(record->value(u"leaf").toString());
        } else if (type == QLatin1String("message") && firstTask.isEmpty()) {
            Message message;
            const QJsonObject json = SessionPictures::restored(record->value(u"message").toObject(),
                                                               path,
                                                               false); // its text is enough
            if (messageFromJson(json, &message) && message.role == Message::Role::User) {
                firstTask = message.text();
            }
        }
    }
    info.messageCount = branch.length();
    info.title = !named.isEmpty() ? named : titleFromTask(firstTask);
    // Running by its file, and nobody writing it: whoever ran it is gone.
    info.interrupted = running && !SessionLog::isBusy(path);
    return info;
}

QString SessionStore::titleFromTask(const QString &firstTask)
{
    const QString line = firstTask.trimmed().section(u'\n', 0, 0).simplified();
    if (line.isEmpty())
        return SessionTr::tr("New conversation");
    if (line.size() <= titleLength)
        return line;
    return line.left(titleLength - 1).trimmed() + QChar(0x2026);
}

std::optional<SessionInfo> SessionStore::newestInterrupted(const QList<SessionInfo> &sessions,
                                                           const QStringList &except)
{
    for (const SessionInfo &session : sessions) {
        if (session.interrupted && !except.contains(session.path))
            return session;
    }
    return std::nullopt;
}

QString SessionStore::newSessionPath() const
{
    const QString stamp = QDateTime::currentDateTimeUtc().toString(u"yyyyMMdd-HHmmss-zzz");
    const QString random = QString::number(QRandomGenerator::global()->bounded(0x10000), 16)
                               .rightJustified(4, u'0');
    return m_directory + u'/' + stamp + u'-' + random + suffix;
}

QString SessionStore::idOf(const QString &path)
{
    const QString name = QFileInfo(path).fileName();
    return name.endsWith(suffix) ? name.chopped(suffix.size()) : name;
}

QString SessionStore::pathOf(const QString &id) const
{
    return m_directory + u'/' + id + suffix;
}

QStringList SessionStore::findInOtherRepositories(const QString &id) const
{
    QStringList found;
    const QFileInfo folder(m_directory);
    QDirIterator it(folder.absolutePath(), QDir::Dirs | QDir::NoDotAndDotDot);
    while (it.hasNext()) {
        const QString other = it.next();
        if (QFileInfo(other) == folder)
            continue;
        if (const QString path = SessionStore(other).pathOf(id); QFileInfo(path).isFile())
            found.append(path);
    }
    return found;
}

QString SessionStore::repositoryOf(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const std::optional<QJsonObject> header = parseObject(file.readLine());
    return header ? header->value(u"repository").toString() : QString();
}

QJsonObject SessionStore::newHeader(const QString &repositoryRoot)
{
    return {{QLatin1String("repository"), repositoryRoot},
            {QLatin1String("created"), QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs)},
            {QLatin1String("app"), QCoreApplication::applicationVersion()}};
}

bool SessionStore::rename(const QString &path, const QString &title, QString *error)
{
    // Only its state is needed: its outputs stay on disk.
    if (!SessionLog::load(path, error, SessionLog::Paging::Paged))
        return false; // not a session: no lock file is made for it
    const std::unique_ptr<SessionLog> log = SessionLog::open(path, {}, error);
    if (!log)
        return false;
    // The state as it is under the lock: a window that let go of the session just now may
    // have added to it since the first read.
    const std::optional<SessionLog::Contents> contents = SessionLog::load(path,
                                                                          error,
                                                                          SessionLog::Paging::Paged);
    if (!contents)
        return false;
    QJsonObject state = contents->state;
    state.insert(QLatin1String("title"), title.simplified());
    return log->appendState(state, error) && log->sync(error);
}

namespace {

enum class SessionCopyKind {
    Copy, ///< "Continue in a Copy": another window has the original
    Fork, ///< agentdesk --fork
};

// A new session beside \a path (naming it in "forkedFrom") with \a contents' messages and the
// answer still being streamed, and its state less what belongs to the original's window (the
// queues, the draft, its run's flag): the copy would run them twice, or look interrupted.
QString writeSessionCopy(const QString &path,
                         const SessionLog::Contents &contents,
                         SessionCopyKind kind,
                         QString *error)
{
    const QString copy = SessionStore(QFileInfo(path).absolutePath()).newSessionPath();
    QJsonObject header = contents.header;
    header.remove(QLatin1String("version"));
    header.insert(QLatin1String("created"),
                  QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs));
    header.insert(QLatin1String("forkedFrom"), path);
    const std::unique_ptr<SessionLog> log = SessionLog::open(copy, header, error);
    if (!log)
        return {};
    for (const Message &message : contents.messages) {
        // A stub is read back, one at a time: the copy holds the whole outputs.
        std::optional<Message> whole = message;
        if (message.isPaged())
            whole = contents.pages ? contents.pages->load(message.toolCallId, error) : std::nullopt;
        if (!whole || !log->appendMessage(*whole, error))
            return {};
    }
    QJsonObject state = contents.state;
    for (const char *key : {"steering", "leftoverSteering", "followUps", "draft", "runInProgress"})
        state.remove(QLatin1String(key));
    QString title = state.value(QLatin1String("title")).toString();
    for (qsizetype i = 0; title.isEmpty() && i < contents.messages.size(); ++i) {
        if (contents.messages.at(i).isUser())
            title = SessionStore::titleFromTask(contents.messages.at(i).text());
    }
    state.insert(QLatin1String("title"),
                 kind == SessionCopyKind::Copy
                     //: The title of a copy of a session, made because another window has the
                     //: session open
                     ? SessionTr::tr("%1 (copy)").arg(title)
                     //: The title of a session forked from another one (agentdesk --fork)
                     : SessionTr::tr("%1 (fork)").arg(title));
    if (!log->appendState(state, error)
        || (contents.partial && !log->appendPartial(contents.partial, error))
        || !log->sync(error)) {
        return {};
    }
    return copy;
}

} // namespace

QString SessionStore::fork(const QString &path, QString *error)
{
    const std::optional<SessionLog::Contents> contents = SessionLog::load(path,
                                                                          error,
                                                                          SessionLog::Paging::Paged);
    return contents ? writeSessionCopy(path, *contents, SessionCopyKind::Copy, error) : QString();
}

bool SessionStore::cutAtMessage(SessionLog::Contents &contents,
                                const QString &message,
                                QString *error)
{
    const QStringList branch = contents.tree.pathTo(contents.activeLeaf);
    if (message.isEmpty())
        return true;
    bool isNumber = false;
    const qsizetype number = message.toLongLong(&isNumber);
    const qsizetype index = isNumber ? number - 1 : branch.indexOf(message);
    QString leaf;
    if (isNumber && index >= 0 && index < branch.size())
        leaf = branch.at(index);
    else if (!isNumber && contents.tree.contains(message))
        leaf = message; // another branch's message: forking it is as good as this one's
    if (leaf.isEmpty()) {
        *error = isNumber
                     ? SessionTr::tr("The session has no message %1: its active branch has "
                                     "%n message(s).",
                                     nullptr,
                                     int(branch.size()))
                           .arg(message)
                     : SessionTr::tr("The session has no message with the id %1.").arg(message);
        return false;
    }
    if (leaf == contents.activeLeaf)
        return true;
    contents.activeLeaf = leaf;
    contents.messages = ToolCallIds::madeUnique(contents.tree.messagesTo(leaf));
    if (contents.pages) // its stubs are known by the ids this branch gives them
        contents.pages->indexBranch(contents.tree.pathTo(leaf), contents.messages);
    contents.partial.reset(); // it followed the branch's end, not this message
    contents.toolOutputs.clear();
    return true;
}

QString SessionStore::forkAtMessage(const QString &path, const QString &message, QString *error)
{
    std::optional<SessionLog::Contents> contents = SessionLog::load(path,
                                                                    error,
                                                                    SessionLog::Paging::Paged);
    if (!contents || !cutAtMessage(*contents, message, error))
        return {};
    return writeSessionCopy(path, *contents, SessionCopyKind::Fork, error);
}

bool SessionStore::remove(const QString &path, QString *error)
{
    // Deleted under its lock: a window or run that opens it meanwhile waits for none of it,
    // it is refused, and a live holder's lock file is never removed (which would let a third
    // writer in beside it). A crashed holder's lock is taken over and goes with the file.
    QLockFile lock(path + QLatin1String(".lock"));
    lock.setStaleLockTime(0);
    if (!lock.tryLock(0)) {
        if (lock.error() == QLockFile::LockFailedError) {
            qint64 pid = 0;
            QString host;
            QString application;
            const QString holder = lock.getLockInfo(&pid, &host, &application)
                                       ? SessionTr::tr("process %1").arg(pid)
                                       : SessionTr::tr("another process");
            *error = SessionTr::tr("Cannot delete the session %1: it is open in another AgentDesk "
                                   "window or headless run (%2).")
                         .arg(QDir::toNativeSeparators(path), holder);
            return false;
        }
        *error = SessionTr::tr("Cannot delete the session %1: its lock file cannot be written.")
                     .arg(QDir::toNativeSeparators(path));
        return false;
    }
    QFile file(path);
    if (!file.remove()) {
        *error = SessionTr::tr("Cannot delete the session %1: %2")
                     .arg(QDir::toNativeSeparators(path), file.errorString());
        return false;
    }
    SessionPictures::remove(path);
    return true; // the lock file goes when the lock is released
}

} // namespace AgentCore
