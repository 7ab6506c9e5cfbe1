// A CodingSession over a session file keeps its large tool outputs on disk (issue 39): after a
// run its history holds stubs (bounded however many 100 KB outputs it read), while every
// request still carries the whole outputs, so a session resumed with paging sends the same
// bytes as the same session read whole. A real git repository, the real Read tool and
// session files, a scripted model.
#include <ai/requestbuilder.h>
#include <coding/codingsession.h>
#include <loop/agent.h>
#include <loop/toolprotocol.h>
#include <session/sessionlog.h>
#include <session/sessionpages.h>
#include <session/sessionstore.h>
#include <testmain.h>

#include <scriptedmodel.h>
#include <sessionoptions.h>
#include <testfiles.h>

#include <QFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace AgentCore;
using namespace TestSupport;
using namespace Qt::StringLiterals;

namespace tst_pagedsession {

class tst_PagedSession : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_repo;
    QTemporaryDir m_data;

    // A file of about 100 KB for Read to show (1,500 lines of 64 characters).
    QString bigFile(int index) const
    {
        const QString path = m_repo.filePath(u"big%1.txt"_s.arg(index));
        if (!QFile::exists(path)) {
            QFile file(path);
            if (!file.open(QIODevice::WriteOnly))
                return {};
            for (int line = 0; line < 1500; ++line)
                file.write(
                    u"file %1 line %2 %3\n"_s.arg(index).arg(line).arg(QString(44, u'x')).toUtf8());
        }
        return path;
    }

    // \a turns Read calls, one a turn, then an answer. \a delayMs before each reply: the
    // session's thread records the outputs meanwhile, as a real model's time lets it.
    QList<ModelStep> readingSteps(int first, int turns, int delayMs = 0) const
    {
        QList<ModelStep> steps;
        for (int i = first; i < first + turns; ++i) {
            ModelStep step = ModelStep::toolCall(u"read_%1"_s.arg(i),
                                                 u"Read"_s,
                                                 {{u"file_path"_s, bigFile(i)}});
            steps.append(step.withDelay(delayMs));
        }
        steps.append(ModelStep::text(u"Read them."_s));
        return steps;
    }

    std::unique_ptr<CodingSession> openPaged(std::shared_ptr<ModelClient> model,
                                             CodingSessionFile file)
    {
        auto session = std::make_unique<CodingSession>(sessionOptionsIn(m_repo.path(),
                                                                        m_data.path()),
                                                       std::move(file),
                                                       true);
        session->setModelClient(std::move(model));
        QSignalSpy ready(session.get(), &CodingSession::ready);
        session->open();
        if (!ready.wait(20'000))
            return nullptr;
        return session;
    }

    CodingSessionFile newPagedFile() const
    {
        const SessionStore store(m_data.filePath(u"sessions"_s));
        CodingSessionFile file;
        file.path = store.newSessionPath();
        file.header = SessionStore::newHeader(m_repo.path());
        return file;
    }

    static bool pagedRunEnds(CodingSession &session, const QString &prompt)
    {
        QSignalSpy idle(session.agent(), &Agent::idleChanged);
        session.send(prompt);
        return QTest::qWaitFor(
            [&] {
                return !idle.isEmpty() && idle.last().first().toBool() && session.agent()->isIdle();
            },
            60'000);
    }

    // The characters of text the messages hold.
    static qsizetype heldChars(const QList<Message> &messages)
    {
        qsizetype chars = 0;
        for (const Message &message : messages) {
            for (const ContentBlock &block : message.content)
                chars += block.text.size();
        }
        return chars;
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_repo.isValid() && m_data.isValid());
        QVERIFY(gitInit(m_repo.path()));
        qRegisterMetaType<AgentEvent>();
    }

    // Two runs of twelve turns, each reading 100 KB: afterwards the agent holds stubs (a few
    // KB each), the session's pages index all 24, and every request carried whole outputs.
    void liveRunsLeaveStubsInTheHistory()
    {
        auto model = std::make_shared<ScriptedModel>(readingSteps(0, 12, 50) + readingSteps(12, 12));
        auto session = openPaged(model, newPagedFile());
        QVERIFY(session);
        QVERIFY(session->pages());
        QSignalSpy events(session.get(), &CodingSession::eventEmitted);
        QVERIFY(pagedRunEnds(*session, u"read the first twelve"_s));
        // The run itself let go of its outputs as it went: those recorded before a turn
        // started are stubs in what it hands back (its own lists held them).
        int pagedByTheRun = 0;
        for (const QList<QVariant> &args : std::as_const(events)) {
            const AgentEvent event = args.first().value<AgentEvent>();
            if (event.type == AgentEvent::Type::AgentEnd) {
                for (const Message &message : event.newMessages)
                    pagedByTheRun += message.isPaged();
            }
            if (event.type == AgentEvent::Type::MessageEnd)
                QVERIFY(!event.message.isPaged());
        }
        QVERIFY2(pagedByTheRun >= 6, qPrintable(QString::number(pagedByTheRun)));
        QVERIFY(pagedRunEnds(*session, u"and the next twelve"_s));

        const QList<Message> history = session->agent()->messages();
        int stubs = 0;
        for (const Message &message : history) {
            if (message.isToolResult()) {
                QVERIFY2(message.isPaged(), qPrintable(message.toolCallId));
                QVERIFY(message.pagedChars > 90'000);
                ++stubs;
            }
        }
        QCOMPARE(stubs, 24);
        QCOMPARE(session->pages()->size(), 24);
        // Whole, the outputs would be 24 x ~100 KB; as stubs at most 2 K characters each.
        QVERIFY2(heldChars(history) < 24 * (SessionPages::previewChars + 200),
                 qPrintable(QString::number(heldChars(history))));

        // What the model was sent: never a stub, every Read output whole (the first turns of
        // the second run carry the first run's outputs, by then stubs in the history).
        const QList<Context> requests = model->contexts();
        QCOMPARE(requests.size(), 26);
        for (const Context &request : requests) {
            for (const Message &message : request.messages) {
                QVERIFY(!message.isPaged());
                if (message.isToolResult())
                    QVERIFY2(message.text().size() > 90'000, qPrintable(message.toolCallId));
            }
        }
        QCOMPARE(heldChars(requests.last().messages) > 24 * 90'000, true);
        qInfo("the history holds %lld characters of text; the last request carried %lld",
              qint64(heldChars(history)),
              qint64(heldChars(requests.last().messages)));
    }

    // Resumed with paging, the history holds stubs and the next request is, byte for byte,
    // the request the whole session makes: the provider's cache prefix stays as it was.
    void aResumedPagedSessionSendsTheSameBytes()
    {
        CodingSessionFile file = newPagedFile();
        const QString path = file.path;
        {
            auto model = std::make_shared<ScriptedModel>(readingSteps(30, 5));
            auto session = openPaged(model, std::move(file));
            QVERIFY(session);
            QVERIFY(pagedRunEnds(*session, u"read five"_s));
        }
        QString error;
        std::optional<SessionLog::Contents> whole = SessionLog::load(path, &error);
        QVERIFY2(whole, qPrintable(error));
        QVERIFY(!MessagePages::holdsStub(whole->messages));

        std::optional<SessionLog::Contents> paged = SessionLog::load(path,
                                                                     &error,
                                                                     SessionLog::Paging::Paged);
        QVERIFY2(paged, qPrintable(error));
        auto model = std::make_shared<ScriptedModel>(QList{ModelStep::text(u"Done."_s)});
        auto session = openPaged(model, CodingSessionFile::takeOver(path, std::move(*paged)));
        QVERIFY(session);
        QCOMPARE(session->agent()->messages().size(), whole->messages.size());
        QVERIFY(MessagePages::holdsStub(session->agent()->messages()));
        QVERIFY(pagedRunEnds(*session, u"go on"_s));

        QCOMPARE(model->contexts().size(), 1);
        const Context sent = model->contexts().constFirst();
        // What the file held, read whole, then what this run added (the prompt).
        Context expected = sent;
        const QList<Message> before = projectToolCallProtocol(whole->messages);
        QVERIFY(sent.messages.size() > before.size());
        expected.messages = before + sent.messages.mid(before.size());
        QCOMPARE(sent.messages.mid(0, before.size()), before);
        ProviderConfig anthropic;
        anthropic.api = WireApi::AnthropicMessages;
        anthropic.model = u"claude-sonnet-4-5"_s;
        ProviderConfig chat;
        chat.model = u"gpt-4.1"_s;
        for (const ProviderConfig &config : {anthropic, chat})
            QCOMPARE(buildRequest(config, sent).body, buildRequest(config, expected).body);
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_PagedSession)

} // namespace tst_pagedsession

#include "tst_pagedsession.moc"
