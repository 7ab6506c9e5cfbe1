#include "sessionlog.h"
#include "sessionpages.h"
#include "sessionpictures.h"
#include "translation.h"

#include <loop/toolcallids.h>

#include <ai/messagejson.h>
#include <files/privatefiles.h>

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include <QRegularExpression>
#include <QSysInfo>
#include <QThread>

#include <thread>

#ifdef Q_OS_UNIX
#    include <cerrno>
#    include <signal.h>
#    include <unistd.h>
#endif

namespace AgentCore {

namespace {

const QLatin1String typeKey("type");

// SessionLog::load() reads the second half of a file at least twice this long on a thread of
// its own.
constexpr qint64 splitAbove = 1 << 20;

std::optional<QJsonObject> parseLine(QByteArrayView line)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(QByteArray::fromRawData(line.data(),
                                                                                   line.size()),
                                                           &parseError);
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
QString addToTree(SessionLog::Contents &contents,
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
    return id;
}

} // namespace

namespace {

// A tool result's message record, read without its pictures: whether it is paged
// (SessionPages::isPageable, judged from its JSON so that no picture is read for nothing), and
// then its stub.
// \a wholeChars >= 0: \a record's one text was cut (withTextCut()) from a text of that length.
std::optional<Message> stubOfRecord(const QJsonObject &record, qsizetype wholeChars = -1)
{
    QJsonObject json = record.value(QLatin1String("message")).toObject();
    if (json.value(QLatin1String("role")).toString() != QLatin1String("toolResult"))
        return std::nullopt;
    const QJsonArray blocks = json.value(QLatin1String("content")).toArray();
    QJsonArray texts;
    bool image = false;
    qsizetype chars = 0;
    for (const QJsonValue &block : blocks) {
        const QJsonObject object = block.toObject();
        if (object.value(typeKey).toString() == QLatin1String("image")) {
            image = true;
            continue;
        }
        chars += object.value(QLatin1String("text")).toString().size();
        texts.append(block);
    }
    if (wholeChars >= 0) {
        if (image || texts.size() != 1)
            return std::nullopt; // read whole: the cut text alone cannot tell the preview
        chars = wholeChars;
    }
    if (!image && chars < SessionPages::pageAbove)
        return std::nullopt;
    json.insert(QLatin1String("content"), texts);
    Message message;
    if (!messageFromJson(json, &message) || message.isPaged())
        return std::nullopt;
    // A stub even of pictures with little text: they are what is paged then.
    Message stub = message;
    stub.content = {ContentBlock::makeText(SessionPages::preview(message.text()))};
    stub.pagedChars = chars;
    return stub;
}

// Where the JSON string starting at \a from (after its opening quote) ends: its closing quote.
qsizetype jsonStringEnd(QByteArrayView line, qsizetype from)
{
    for (qsizetype quote = line.indexOf('"', from); quote >= 0;
         quote = line.indexOf('"', quote + 1)) {
        qsizetype backslashes = 0;
        while (quote - 1 - backslashes >= from && line.at(quote - 1 - backslashes) == '\\')
            ++backslashes;
        if (backslashes % 2 == 0)
            return quote;
    }
    return -1;
}

// The UTF-16 length of the text a JSON string's bytes (between its quotes, UTF-8) stand for:
// its bytes counted as UTF-8 first, then what each escape takes off. The count runs in blocks
// the compiler can vectorise: byte by byte it took six times as long, a fifth of the long
// session's resume (2,000 outputs of 100 KB).
qsizetype jsonStringChars(QByteArrayView raw)
{
    const auto startsCharacter = [](char c) {
        const auto byte = static_cast<unsigned char>(c);
        // Four UTF-8 bytes are a surrogate pair: two.
        return int((byte & 0xC0) != 0x80) + int(byte >= 0xF0);
    };
    constexpr qsizetype block = 64;
    qsizetype chars = 0;
    qsizetype at = 0;
    for (; at + block <= raw.size(); at += block) {
        int inBlock = 0;
        for (qsizetype i = 0; i < block; ++i)
            inBlock += startsCharacter(raw[at + i]);
        chars += inBlock;
    }
    for (; at < raw.size(); ++at)
        chars += startsCharacter(raw[at]);
    // \n counted two characters, \uXXXX six: each is one UTF-16 unit (a surrogate pair is two
    // escapes).
    for (qsizetype escape = raw.indexOf('\\'); escape >= 0;) {
        const qsizetype length = escape + 1 < raw.size() && raw.at(escape + 1) == 'u' ? 6 : 2;
        chars -= length - 1;
        escape = raw.indexOf('\\', escape + length);
    }
    return chars;
}

// How many of a JSON string's bytes hold its first \a chars UTF-16 units (or a little more:
// no escape and no character is split).
qsizetype jsonStringPrefix(QByteArrayView raw, qsizetype chars)
{
    qsizetype at = 0;
    for (qsizetype counted = 0; at < raw.size() && counted < chars; ++counted) {
        const auto byte = static_cast<unsigned char>(raw.at(at));
        if (byte == '\\') {
            at += at + 1 < raw.size() && raw.at(at + 1) == 'u' ? 6 : 2;
            continue;
        }
        if (byte >= 0xF0)
            ++counted; // a surrogate pair
        for (++at; at < raw.size() && (static_cast<unsigned char>(raw.at(at)) & 0xC0) == 0x80;)
            ++at;
    }
    return std::min(at, raw.size());
}

// A long tool output's record with its text cut to its first characters, and the length of the
// whole text: a stub needs its preview and length, and parsing 100 KB of JSON to drop it was
// most of a paged resume. A little more than a preview is kept (SessionPages::previewChars),
// so the cut text previews as the whole one: kept longer (16 KB), its parsing was half of a
// long session's resume. The first "text" value longer than that before any "details" key
// (keys are written sorted: the message's content comes first) is cut; nullopt when there is
// none to cut.
std::optional<std::pair<QByteArray, qsizetype>> withTextCut(QByteArrayView line)
{
    // One more than a preview can take, and one more so that half a surrogate pair at the cut
    // (\ud83d of \ud83d\ude00) is never what the preview ends on.
    constexpr qsizetype keptChars = SessionPages::previewChars + 2;
    bool textKey = false;
    for (qsizetype start = line.indexOf('"'); start >= 0;) {
        const qsizetype end = jsonStringEnd(line, start + 1);
        if (end < 0)
            return std::nullopt;
        const QByteArrayView raw = line.sliced(start + 1, end - start - 1);
        const bool key = end + 1 < line.size() && line.at(end + 1) == ':';
        if (key && raw == "details")
            return std::nullopt;
        if (!key && textKey && raw.size() > 2 * keptChars) {
            const qsizetype chars = jsonStringChars(raw);
            const qsizetype kept = jsonStringPrefix(raw, keptChars);
            if (kept < raw.size()) {
                QByteArray shortened = line.first(start + 1 + kept).toByteArray();
                shortened += line.sliced(end);
                return std::pair{shortened, chars};
            }
        }
        textKey = key && raw == "text";
        start = line.indexOf('"', end + 1);
    }
    return std::nullopt;
}

// Reads a file's lines in large chunks, telling each line's offset: the file is read once,
// without holding all of it (a session of long tool outputs is hundreds of megabytes).
class LineReader
{
public:
    /// From where \a file is now to \a end (a line's start), or to its end (-1).
    explicit LineReader(QFile &file, qint64 end = -1)
        : m_file(file)
        , m_offset(file.pos())
        , m_end(end)
    {}

    /// The next line (with its newline, if it has one), valid until the next call; false at the
    /// end. Seen in place: copying each line was a tenth of a long session's load.
    bool next(QByteArrayView *line, qint64 *offset, bool *torn)
    {
        if (m_end >= 0 && endOffset() >= m_end)
            return false;
        for (;;) {
            const qsizetype end = m_buffer.indexOf('\n', m_start);
            if (end >= 0 || m_atEnd) {
                if (end < 0 && m_start == m_buffer.size())
                    return false;
                const qsizetype next = end >= 0 ? end + 1 : m_buffer.size();
                *line = QByteArrayView(m_buffer).sliced(m_start, next - m_start);
                *offset = m_offset + m_start;
                *torn = end < 0;
                m_start = next;
                return true;
            }
            // Keep what is left of the buffer, read the next chunk after it.
            m_buffer.remove(0, m_start);
            m_offset += m_start;
            m_start = 0;
            const qsizetype kept = m_buffer.size();
            m_buffer.resize(kept + chunkBytes);
            const qint64 read = m_file.read(m_buffer.data() + kept, chunkBytes);
            m_buffer.resize(kept + std::max<qint64>(read, 0));
            m_atEnd = read <= 0;
        }
    }

    qint64 endOffset() const { return m_offset + m_start; }

private:
    static constexpr qint64 chunkBytes = 1 << 20;
    QFile &m_file;
    QByteArray m_buffer;
    qsizetype m_start = 0; // of the next line in m_buffer
    qint64 m_offset = 0;   // of m_buffer's first byte in the file
    qint64 m_end = -1;
    bool m_atEnd = false;
};

// One line of a session file read on its own (parsed, a long output's text cut): what
// SessionLog::load() then takes into the contents, in the file's order.
struct ReadLine
{
    std::optional<QJsonObject> record; ///< nullopt: it could not be read
    QString type;
    std::optional<Message> stub;    ///< a long tool output's (Paging::Paged)
    std::optional<Message> message; ///< a message record's, when it could be read
    qint64 offset = 0;
    qint64 length = 0; ///< without its newline
    size_t digest = 0; ///< a stub's record's (SessionPages::digest)
    bool blank = false;
    bool torn = false; ///< the last line, without its newline
};

ReadLine readLine(QByteArrayView line, qint64 offset, bool torn, bool paged, const QString &path)
{
    ReadLine read;
    read.offset = offset;
    read.length = line.size() - (torn ? 0 : 1);
    read.torn = torn;
    read.blank = line.trimmed().isEmpty();
    if (read.blank)
        return read;
    std::optional<QJsonObject> &record = read.record;
    std::optional<Message> &stub = read.stub;
    if (paged && line.size() > 4 * SessionPages::pageAbove) {
        if (const auto cut = withTextCut(line)) {
            record = parseLine(cut->first);
            if (record && record->value(typeKey).toString() == QLatin1String("message"))
                stub = stubOfRecord(*record, cut->second);
            if (!stub)
                record.reset();
        }
    }
    if (!record)
        record = parseLine(line);
    read.type = record ? record->value(typeKey).toString() : QString();
    if (paged && !stub && read.type == QLatin1String("message"))
        stub = stubOfRecord(*record);
    if (record && !stub) // the pictures kept beside the file come back into their blocks
        record = SessionPictures::restored(*record, path);
    if (stub) {
        read.digest = SessionPages::digest(line.first(read.length));
    } else if (record && read.type == QLatin1String("message")) {
        Message message;
        if (messageFromJson(record->value(QLatin1String("message")).toObject(), &message))
            read.message = std::move(message);
    }
    if (stub || read.message)
        record->remove(QLatin1String("message")); // the tree needs its id and parent alone
    return read;
}

// Takes \a read, line \a lineNumber of the session file \a path, into \a contents.
void takeLine(SessionLog::Contents &contents,
              const ReadLine &read,
              int lineNumber,
              qsizetype *messageRecords,
              const QString &path)
{
    const std::optional<QJsonObject> &record = read.record;
    const QString &type = read.type;
    if (record && type == QLatin1String("partial")) {
        const QJsonValue more = record->value(QLatin1String("more"));
        const QJsonValue partial = record->value(QLatin1String("message"));
        Message message;
        if (more.isObject() && contents.partial && messageFromJson(more.toObject(), &message))
            continuePartial(*contents.partial, message);
        else if (partial.isObject() && messageFromJson(partial.toObject(), &message))
            contents.partial = message;
        else
            contents.partial.reset();
        return;
    }
    if (record && type == QLatin1String("toolOutput")) {
        const QString id = record->value(QLatin1String("toolCallId")).toString();
        if (!id.isEmpty())
            contents.toolOutputs.insert(id, record->value(QLatin1String("text")).toString());
        return;
    }
    if (record && type == QLatin1String("subagent")) {
        const QString key = record->value(QLatin1String("path")).toString();
        Message message;
        if (!key.isEmpty()
            && messageFromJson(record->value(QLatin1String("message")).toObject(), &message))
            contents.subagents[key].append(message);
        return;
    }
    if (read.stub) {
        contents.toolOutputs.remove(read.stub->toolCallId); // it ended: not cut off
        const QString id = addToTree(contents, *record, *read.stub, ++*messageRecords);
        contents.pages->addRecord(id, read.offset, read.length, read.digest);
        contents.partial.reset();
    } else if (read.message) {
        if (read.message->isToolResult())
            contents.toolOutputs.remove(read.message->toolCallId); // it ended: not cut off
        addToTree(contents, *record, *read.message, ++*messageRecords);
        contents.partial.reset(); // the answer ended (or the run went on): not cut off
    } else if (record && type == QLatin1String("branch")) {
        const QString leaf = record->value(QLatin1String("leaf")).toString();
        if (leaf.isEmpty() || contents.tree.contains(leaf))
            contents.activeLeaf = leaf;
    } else if (record && type == QLatin1String("state")) {
        contents.state = *record;
        contents.state.remove(typeKey);
    } else if (record && type != QLatin1String("message")) {
        return; // a record of a newer AgentDesk: not ours to judge
    } else {
        contents.warnings.append(
            read.torn
                ? SessionTr::tr("The last line of %1 was cut off (AgentDesk stopped while writing "
                                "it) and was skipped.")
                      .arg(QDir::toNativeSeparators(path))
                : SessionTr::tr("Line %1 of %2 could not be read and was skipped.")
                      .arg(lineNumber)
                      .arg(QDir::toNativeSeparators(path)));
    }
}

} // namespace

std::optional<SessionLog::Contents> SessionLog::load(const QString &path,
                                                     QString *error,
                                                     Paging paging)
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
    if (paging == Paging::Paged)
        contents.pages = std::make_shared<SessionPages>(path);
    // In chunks, each split into lines: QFile::readLine goes through QIODevice one byte at a
    // time, which was about a third of a long session's load (perf, 2,000 messages), and
    // reading it all at once held the whole file.
    // A long file's second half is read meanwhile on a thread of its own, from the first line
    // that starts in it: reading a line (parsing it) is most of the work and needs no other
    // line; only taking the lines in is done in order, the second half's after the first's.
    // The long session's resume (bench_ui resume, 228 MiB) reached its first paint in 1.46 s
    // on one thread and 0.97 s on two, taken in turns in one run on a busy machine; its
    // resident memory grew by 10 MiB (the second thread's malloc arena).
    const bool paged = contents.pages != nullptr;
    QFile secondFile(path);
    std::optional<LineReader> second;
    const qint64 half = file.size() / 2;
    if (half >= splitAbove && QThread::idealThreadCount() > 1
        && secondFile.open(QIODevice::ReadOnly) && secondFile.seek(half - 1)) {
        second.emplace(secondFile);
        QByteArrayView rest; // of the line that started in the first half (or its newline)
        qint64 offset = 0;
        bool torn = false;
        if (!second->next(&rest, &offset, &torn) || torn)
            second.reset();
    }
    const qint64 split = second ? second->endOffset() : -1; // read before the thread starts
    QList<ReadLine> secondLines;
    std::thread reading;
    if (second) {
        reading = std::thread([&second, &secondLines, paged, &path] {
            QByteArrayView line;
            qint64 offset = 0;
            bool torn = false;
            while (second->next(&line, &offset, &torn))
                secondLines.append(readLine(line, offset, torn, paged, path));
        });
    }
    bool endsWithNewline = false;
    int lineNumber = 1;
    qsizetype messageRecords = 0;
    const auto take = [&](const ReadLine &read) {
        ++lineNumber;
        endsWithNewline = !read.torn;
        if (!read.blank)
            takeLine(contents, read, lineNumber, &messageRecords, path);
    };
    LineReader reader(file, split);
    QByteArrayView line;
    qint64 offset = 0;
    bool torn = false;
    while (reader.next(&line, &offset, &torn))
        take(readLine(line, offset, torn, paged, path));
    if (reading.joinable())
        reading.join();
    for (const ReadLine &read : std::as_const(secondLines))
        take(read);
    secondLines.clear();
    if (file.error() != QFileDevice::NoError) {
        *error = cannotRead(file);
        return std::nullopt;
    }
    if (second && secondFile.error() != QFileDevice::NoError) {
        *error = cannotRead(secondFile);
        return std::nullopt;
    }
    contents.bytes = second ? second->endOffset() : reader.endOffset();
    contents.endsWithNewline = endsWithNewline;
    // Files written before the loop gave every call its own id may repeat ids from one reply
    // to the next; the window and the agent then key calls as a live run does.
    contents.messages = ToolCallIds::madeUnique(contents.tree.messagesTo(contents.activeLeaf));
    if (contents.pages)
        contents.pages->indexBranch(contents.tree.pathTo(contents.activeLeaf), contents.messages);
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
    if (message.isPaged()) {
        // Written, its preview would stand for the whole output from then on.
        *error = SessionTr::tr("Cannot write to the session %1: the output of the tool call %2 "
                               "was not read back from its session file first.")
                     .arg(QDir::toNativeSeparators(m_file.fileName()), message.toolCallId);
        return false;
    }
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
    qint64 offset = -1;
    size_t digest = 0;
    qint64 length = 0;
    if (!appendRecord(record, error, &offset, &length, &digest))
        return false;
    if (m_pages && SessionPages::isPageable(message)) {
        m_pages->add(message.toolCallId, offset, length, digest);
        if (!newId.isEmpty())
            m_pages->addRecord(newId, offset, length, digest);
    }
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

bool SessionLog::appendRecord(
    const QJsonObject &record, QString *error, qint64 *offset, qint64 *length, size_t *digest)
{
    // One write per line: a crash leaves at most this line torn. The pictures go beside the
    // file first, so the line only names them.
    const QByteArray line = QJsonDocument(SessionPictures::stored(record, path()))
                                .toJson(QJsonDocument::Compact)
                            + '\n';
    // Appending (O_APPEND), the line starts where the file ends now: every record before it
    // was flushed, and only this SessionLog writes the file (its lock).
    if (offset) {
        *offset = m_file.size();
        *length = line.size() - 1; // without its newline
        *digest = SessionPages::digest(QByteArrayView(line).first(*length));
    }
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
