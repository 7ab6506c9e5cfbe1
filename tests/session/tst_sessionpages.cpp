// Tool outputs paged from the session file (SessionPages, issue 39): a session read with
// paging holds stubs that load back whole, what the log appends is indexed as it is written,
// a file changed or cut short behind AgentDesk's back gives an error (never another text), the
// cache keeps to its bound, branches and copies of a paged session keep the whole outputs.
// Real files throughout.
#include <session/sessionlog.h>
#include <session/sessionpages.h>
#include <session/sessionstore.h>
#include <testmain.h>

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace AgentCore;
using namespace Qt::StringLiterals;

namespace tst_sessionpages {

namespace {

// About \a chars characters of numbered lines, different for each \a seed.
QString pagedOutputText(int seed, qsizetype chars)
{
    QString text;
    text.reserve(chars + 80);
    for (int line = 0; text.size() < chars; ++line)
        text += u"output %1 line %2: %3\n"_s.arg(seed).arg(line).arg(
            QString(40, QChar(u'a' + seed % 26)));
    return text;
}

Message pagedCall(const QString &id)
{
    Message assistant;
    assistant.role = Message::Role::Assistant;
    assistant.stopReason = StopReason::ToolUse;
    assistant.content = {ContentBlock::makeToolCall(id, u"Bash"_s, {{"command", "cat big.log"}})};
    return assistant;
}

// A task, then \a count calls whose outputs are \a chars long each, then one small one.
QList<Message> pagedConversation(int count, qsizetype chars)
{
    QList<Message> messages{Message::makeUser(u"read the logs"_s)};
    for (int i = 0; i < count; ++i) {
        const QString id = u"call_%1"_s.arg(i);
        messages.append(pagedCall(id));
        messages.append(Message::makeToolResult(id, u"Bash"_s, pagedOutputText(i, chars), false));
    }
    messages.append(pagedCall(u"call_small"_s));
    messages.append(Message::makeToolResult(u"call_small"_s, u"Bash"_s, u"ok\n"_s, false));
    Message done;
    done.role = Message::Role::Assistant;
    done.content = {ContentBlock::makeText(u"Read them all."_s)};
    messages.append(done);
    return messages;
}

bool writePagedSession(const QString &path,
                       const QList<Message> &messages,
                       std::shared_ptr<SessionPages> pages = {})
{
    QString error;
    const std::unique_ptr<SessionLog> log = SessionLog::open(path, {}, &error);
    if (!log)
        return false;
    log->setPages(std::move(pages));
    for (const Message &message : messages) {
        if (!log->appendMessage(message, &error))
            return false;
    }
    return log->sync(&error);
}

QByteArray pagedFileBytes(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

bool writePagedFileBytes(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate)
           && file.write(bytes) == bytes.size();
}

} // namespace

class tst_SessionPages : public QObject
{
    Q_OBJECT

private slots:
    // Resumed with paging, the large results are stubs (a preview of whole lines, the whole
    // length) in the branch and the tree, indexed by their ids; each loads back as it was
    // written, and the whole conversation equals the one read without paging.
    void aPagedSessionHoldsStubsThatLoadWhole()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"s.jsonl"_s);
        // 12 outputs of 100 KB: the file is read in chunks of 1 MiB, so records span them.
        const QList<Message> written = pagedConversation(12, 100 * 1024);
        QVERIFY(writePagedSession(path, written));

        QString error;
        const auto whole = SessionLog::load(path, &error);
        QVERIFY2(whole, qPrintable(error));
        QCOMPARE(whole->messages, written);
        QVERIFY(!whole->pages);

        const auto paged = SessionLog::load(path, &error, SessionLog::Paging::Paged);
        QVERIFY2(paged, qPrintable(error));
        QVERIFY(paged->pages);
        QCOMPARE(paged->pages->sessionFile(), path);
        QCOMPARE(paged->messages.size(), written.size());
        QCOMPARE(paged->bytes, whole->bytes);
        QCOMPARE(paged->pages->size(), 12);
        int stubs = 0;
        for (qsizetype i = 0; i < written.size(); ++i) {
            const Message &message = paged->messages.at(i);
            if (!written.at(i).isToolResult() || written.at(i).toolCallId == u"call_small"_s) {
                QCOMPARE(message, written.at(i));
                continue;
            }
            ++stubs;
            QVERIFY(message.isPaged());
            QCOMPARE(message.pagedChars, written.at(i).text().size());
            QVERIFY(message.text().size() <= SessionPages::previewChars);
            QVERIFY(message.text().endsWith(u'\n'));
            QVERIFY(written.at(i).text().startsWith(message.text()));
            QVERIFY(paged->pages->contains(message.toolCallId));
            const std::optional<Message> loaded = paged->pages->load(message.toolCallId, &error);
            QVERIFY2(loaded, qPrintable(error));
            QCOMPARE(*loaded, written.at(i));
        }
        QCOMPARE(stubs, 12);
        for (const SessionTree::Entry &entry : paged->tree.entries())
            QVERIFY(!entry.message.isToolResult() || entry.message.text().size() < 1000
                    || entry.message.isPaged());
        QVERIFY(!paged->pages->contains(u"call_small"_s));
        QCOMPARE(MessagePages::whole(paged->messages, paged->pages.get()), written);
    }

    // A long output's stub is made without parsing all of its text: its length still counts
    // every character as the whole text does (escapes, accents, emoji), and its preview is the
    // whole text's first lines.
    void aStubCountsEveryCharacterOfItsText()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"s.jsonl"_s);
        QString text;
        for (int line = 0; text.size() < 60'000; ++line)
            text += u"%1 \"quoted\" back\\slash\ttab \u0001 äöü €uro 😀 日本語\n"_s.arg(line);
        const QString single = QString(40'000, u'é') + u"😀"_s; // one line, no newline
        QList<Message> written{Message::makeUser(u"go"_s)};
        for (const auto &[id, output] :
             {std::pair{u"mixed"_s, text}, std::pair{u"single"_s, single}}) {
            written.append(pagedCall(id));
            written.append(Message::makeToolResult(id, u"Bash"_s, output, false));
        }
        QVERIFY(writePagedSession(path, written));
        QString error;
        const auto paged = SessionLog::load(path, &error, SessionLog::Paging::Paged);
        QVERIFY2(paged, qPrintable(error));
        for (const qsizetype i : {2, 4}) {
            const Message &stub = paged->messages.at(i);
            QVERIFY(stub.isPaged());
            QCOMPARE(stub.pagedChars, written.at(i).text().size());
            QCOMPARE(stub.text(), SessionPages::preview(written.at(i).text()));
            QCOMPARE(*paged->pages->load(stub.toolCallId), written.at(i));
        }
    }

    // The stub's text is cut from the record a little past its preview: whatever stands there
    // (a character of two or four UTF-8 bytes, a surrogate pair, an escape), the preview and
    // the length are the whole text's.
    void aStubPreviewsItsWholeTextWhateverStandsAtTheCut_data()
    {
        QTest::addColumn<QString>("character");
        QTest::addColumn<int>("at");
        for (const auto &[name, character] : {std::pair{"emoji", u"😀"_s},
                                              std::pair{"accent", u"é"_s},
                                              std::pair{"euro", u"€"_s},
                                              std::pair{"control", u"\u0001"_s},
                                              std::pair{"quote", u"\""_s},
                                              std::pair{"backslash", u"\\"_s},
                                              std::pair{"newline", u"\n"_s}}) {
            for (int at = -3; at <= 3; ++at) {
                QTest::addRow("%s at preview%+d", name, at)
                    << character << int(SessionPages::previewChars + at);
            }
        }
    }

    void aStubPreviewsItsWholeTextWhateverStandsAtTheCut()
    {
        QFETCH(QString, character);
        QFETCH(int, at);
        QTemporaryDir dir;
        const QString path = dir.filePath(u"s.jsonl"_s);
        // Runs of it up to the cut, so that it stands there however the text before counts.
        QString text = QString(at, u'x');
        while (text.size() < at + 8)
            text += character;
        text += QString(30'000, u'y');
        const QList<Message> written{Message::makeUser(u"go"_s),
                                     pagedCall(u"call_0"_s),
                                     Message::makeToolResult(u"call_0"_s, u"Bash"_s, text, false)};
        QVERIFY(writePagedSession(path, written));
        QString error;
        const auto paged = SessionLog::load(path, &error, SessionLog::Paging::Paged);
        QVERIFY2(paged, qPrintable(error));
        const Message &stub = paged->messages.at(2);
        QVERIFY(stub.isPaged());
        QCOMPARE(stub.pagedChars, text.size());
        QCOMPARE(stub.text(), SessionPages::preview(text));
        QCOMPARE(*paged->pages->load(stub.toolCallId), written.at(2));
    }

    // The log indexes each large result as it appends it (where its record starts, O_APPEND),
    // and refuses to write a stub as if it were the message.
    void theLogIndexesWhatItWrites()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"s.jsonl"_s);
        auto pages = std::make_shared<SessionPages>(path);
        const QList<Message> written = pagedConversation(3, 20 * 1024);
        QVERIFY(writePagedSession(path, written, pages));
        QCOMPARE(pages->size(), 3);
        QVERIFY(!pages->contains(u"call_small"_s));
        QString error;
        for (int i = 0; i < 3; ++i) {
            const std::optional<Message> loaded = pages->load(u"call_%1"_s.arg(i), &error);
            QVERIFY2(loaded, qPrintable(error));
            QCOMPARE(*loaded, written.at(2 + 2 * i));
        }

        auto log = SessionLog::open(path, {}, &error);
        QVERIFY(log);
        const QByteArray before = pagedFileBytes(path);
        QVERIFY(!log->appendMessage(SessionPages::stub(written.at(2)), &error));
        QVERIFY2(error.contains(u"not read back"_s), qPrintable(error));
        QCOMPARE(pagedFileBytes(path), before);
    }

    // A result is paged in several histories at once (the run's lists, the Agent's, the
    // recorder's, the window's): they share one preview, not a copy each (heaptrack on
    // bench_ui's live session counted six).
    void theHistoriesShareOneStub()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"s.jsonl"_s);
        auto pages = std::make_shared<SessionPages>(path);
        const QList<Message> written = pagedConversation(2, 20 * 1024);
        QVERIFY(writePagedSession(path, written, pages));
        const Message whole = written.at(2);
        const Message first = pages->stubOf(whole);
        QVERIFY(first.isPaged());
        QCOMPARE(first, SessionPages::stub(whole));
        const QList<Message> history = pages->pagedOut(written);
        QCOMPARE(history.at(2), first);
        QCOMPARE(history.at(2).content.first().text.constData(),
                 first.content.first().text.constData());
        // Read back whole for a request (cached): the stub stays the one they share.
        QVERIFY(pages->load(whole.toolCallId));
        QCOMPARE(pages->stubOf(whole).content.first().text.constData(),
                 first.content.first().text.constData());
        // Indexed anew (a branch switch): the next stub is made from what it is given.
        pages->add(whole.toolCallId, 0, 1);
        QVERIFY(pages->stubOf(whole).content.first().text.constData()
                != first.content.first().text.constData());
    }

    // A record changed in place (same length) or a file cut short: an error that says so.
    void aChangedOrShortenedFileGivesAnErrorNeverAnotherText()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"s.jsonl"_s);
        QVERIFY(writePagedSession(path, pagedConversation(3, 20 * 1024)));
        QString error;
        const auto paged = SessionLog::load(path, &error, SessionLog::Paging::Paged);
        QVERIFY2(paged, qPrintable(error));

        QByteArray bytes = pagedFileBytes(path);
        const qsizetype at = bytes.indexOf("output 1 line 7:");
        QVERIFY(at > 0);
        bytes[at + 7] = '9'; // "output 9 line 7": still valid JSON, the same length
        QVERIFY(writePagedFileBytes(path, bytes));
        QVERIFY(!paged->pages->load(u"call_1"_s, &error));
        QVERIFY2(error.contains(u"changed"_s), qPrintable(error));
        QVERIFY2(paged->pages->load(u"call_0"_s, &error), qPrintable(error));

        QVERIFY(writePagedFileBytes(path, bytes.left(bytes.indexOf("output 2 line 3:"))));
        QVERIFY(!paged->pages->load(u"call_2"_s, &error));
        QVERIFY2(error.contains(u"shorter"_s), qPrintable(error));
        QVERIFY(!paged->pages->load(u"call_unknown"_s, &error));
        QVERIFY(!error.isEmpty());
    }

    // Read back, outputs stay in the cache up to its bound, the most recent first: the oldest
    // are read from the file again.
    void theCacheKeepsToItsBound()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"s.jsonl"_s);
        constexpr qint64 bound = 512 * 1024;
        auto pages = std::make_shared<SessionPages>(path, bound);
        const QList<Message> written = pagedConversation(10, 100 * 1024); // 200 KB each held
        QVERIFY(writePagedSession(path, written, pages));
        QString error;
        for (int i = 0; i < 10; ++i) {
            QVERIFY2(pages->load(u"call_%1"_s.arg(i), &error), qPrintable(error));
            QVERIFY(pages->cachedBytes() > 0);
            QVERIFY2(pages->cachedBytes() <= bound,
                     qPrintable(QString::number(pages->cachedBytes())));
        }
        // With the file gone, only what the cache holds can still be read.
        QVERIFY(QFile::remove(path));
        QVERIFY(pages->load(u"call_9"_s, &error));
        QCOMPARE(pages->load(u"call_9"_s)->text(), written.at(2 + 2 * 9).text());
        QVERIFY(!pages->load(u"call_0"_s, &error));
        // One larger than the whole cache is never kept (it would push out everything).
        auto tiny = std::make_shared<SessionPages>(path, 1024);
        QVERIFY(writePagedSession(path, pagedConversation(1, 20 * 1024), tiny));
        QVERIFY(tiny->load(u"call_0"_s));
        QCOMPARE(tiny->cachedBytes(), 0);
    }

    // A branch's stubs are known by the ids the branch gives them: the same call id in two
    // branches loads each branch's own output.
    void eachBranchLoadsItsOwnOutputs()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"s.jsonl"_s);
        QString error;
        QString task;
        QString firstLeaf;
        {
            auto log = SessionLog::open(path, {}, &error);
            QVERIFY(log);
            QVERIFY(log->appendMessage(Message::makeUser(u"go"_s), &error, &task));
            QVERIFY(log->appendMessage(pagedCall(u"call_1"_s), &error));
            QVERIFY(log->appendMessage(Message::makeToolResult(u"call_1"_s,
                                                               u"Bash"_s,
                                                               pagedOutputText(1, 20'000),
                                                               false),
                                       &error,
                                       &firstLeaf));
            QVERIFY(log->appendBranch(task, &error));
            QVERIFY(log->appendMessage(pagedCall(u"call_1"_s), &error));
            QVERIFY(log->appendMessage(Message::makeToolResult(u"call_1"_s,
                                                               u"Bash"_s,
                                                               pagedOutputText(2, 20'000),
                                                               false),
                                       &error));
        }
        auto contents = SessionLog::load(path, &error, SessionLog::Paging::Paged);
        QVERIFY2(contents, qPrintable(error));
        QVERIFY(contents->messages.last().isPaged());
        QCOMPARE(contents->pages->load(u"call_1"_s)->text(), pagedOutputText(2, 20'000));
        QVERIFY(SessionStore::cutAtMessage(*contents, firstLeaf, &error));
        QVERIFY(contents->messages.last().isPaged());
        QCOMPARE(contents->pages->load(u"call_1"_s)->text(), pagedOutputText(1, 20'000));
    }

    // A copy or fork of a paged session holds the whole outputs: read back one at a time.
    void aCopyOfAPagedSessionHoldsTheWholeOutputs()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"s.jsonl"_s);
        const QList<Message> written = pagedConversation(4, 50 * 1024);
        QVERIFY(writePagedSession(path, written));
        QString error;
        for (const QString &copy : {SessionStore::fork(path, &error),
                                    SessionStore::forkAtMessage(path, u"4"_s, &error)}) {
            QVERIFY2(!copy.isEmpty(), qPrintable(error));
            QVERIFY(!pagedFileBytes(copy).contains("pagedChars"));
            const auto contents = SessionLog::load(copy, &error);
            QVERIFY2(contents, qPrintable(error));
            QVERIFY(!MessagePages::holdsStub(contents->messages));
            QCOMPARE(contents->messages, written.mid(0, contents->messages.size()));
            QVERIFY(contents->messages.size() >= 4);
        }
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_SessionPages)

} // namespace tst_sessionpages

#include "tst_sessionpages.moc"
