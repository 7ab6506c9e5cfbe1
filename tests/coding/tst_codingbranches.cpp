// Branches of a CodingSession (SessionTree): "Edit and resend" and "Fork from here" start a new
// branch, the request carries only the active branch's messages, the session file keeps every
// branch and a resumed session goes on with the active one; a switch while the agent works is
// refused. A real git repository, a scripted model, the real session files.
#include <coding/codingsession.h>
#include <loop/agent.h>
#include <session/sessionlog.h>
#include <session/sessionresumption.h>
#include <session/sessionstore.h>
#include <testmain.h>

#include <scriptedmodel.h>
#include <sessionoptions.h>
#include <testfiles.h>

#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace AgentCore;
using namespace TestSupport;
using namespace Qt::StringLiterals;

namespace tst_codingbranches {

class tst_CodingBranches : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_repo;
    QTemporaryDir m_data;

    CodingAgentOptions branchOptions() const
    {
        CodingAgentOptions options = sessionOptionsIn(m_repo.path(), m_data.path());
        return options;
    }

    std::unique_ptr<CodingSession> openBranchSession(std::shared_ptr<ModelClient> model,
                                                     CodingSessionFile file)
    {
        auto session = std::make_unique<CodingSession>(branchOptions(), std::move(file), true);
        session->setModelClient(std::move(model));
        QSignalSpy ready(session.get(), &CodingSession::ready);
        session->open();
        if (!ready.wait(20'000))
            return nullptr;
        return session;
    }

    std::unique_ptr<CodingSession> resumeBranchSession(std::shared_ptr<ModelClient> model,
                                                       const QString &path)
    {
        QString error;
        std::optional<SessionLog::Contents> contents = SessionLog::load(path, &error);
        if (!contents)
            return nullptr;
        return openBranchSession(std::move(model),
                                 CodingSessionFile::takeOver(path, std::move(*contents)));
    }

    static bool runEnds(CodingSession &session, const std::function<void()> &start)
    {
        QSignalSpy events(&session, &CodingSession::eventEmitted);
        start();
        return QTest::qWaitFor(
            [&] {
                for (const QList<QVariant> &args : std::as_const(events)) {
                    if (args.first().value<AgentEvent>().type == AgentEvent::Type::AgentEnd)
                        return true;
                }
                return false;
            },
            20'000);
    }

    static QStringList texts(const QList<Message> &messages)
    {
        QStringList texts;
        for (const Message &message : messages)
            texts.append(message.text());
        return texts;
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_repo.isValid() && m_data.isValid());
        QVERIFY(gitInit(m_repo.path()));
        qRegisterMetaType<AgentEvent>();
    }

    // Edit and resend: the request carries the earlier messages and the edited one, not the
    // first attempt; the file keeps both branches; after a restart the active one is there,
    // and switching back brings the first attempt again, for the next request too.
    void editAndResendMakesABranchThatSurvivesRestart()
    {
        const SessionStore store(m_data.filePath(u"sessions"_s));
        CodingSessionFile file;
        file.path = store.newSessionPath();
        file.header = SessionStore::newHeader(m_repo.path());
        const QString path = file.path;
        auto model = std::make_shared<ScriptedModel>(
            QList{ModelStep::text(u"A"_s), ModelStep::text(u"B"_s), ModelStep::text(u"B2"_s)});
        QStringList firstBranch;
        {
            auto session = openBranchSession(model, std::move(file));
            QVERIFY(session);
            QVERIFY(runEnds(*session, [&] { session->send(u"first"_s); }));
            QVERIFY(runEnds(*session, [&] { session->send(u"second"_s); }));
            firstBranch = session->activeBranch();
            QCOMPARE(firstBranch.size(), 4);
            QSignalSpy switched(session.get(), &CodingSession::branchSwitched);
            QString error;
            QVERIFY(!session->editAndResend(1, u"not a user message"_s, {}, &error));
            QVERIFY(runEnds(*session, [&] {
                QVERIFY2(session->editAndResend(2, u"second, edited"_s, {}, &error),
                         qPrintable(error));
            }));
            QCOMPARE(switched.size(), 1);
            QCOMPARE(texts(model->contexts().last().messages),
                     (QStringList{u"first"_s, u"A"_s, u"second, edited"_s}));
            QCOMPARE(texts(session->agent()->messages()),
                     (QStringList{u"first"_s, u"A"_s, u"second, edited"_s, u"B2"_s}));
            QCOMPARE(session->branches().size(), 6);
            QCOMPARE(session->branches().children(firstBranch.at(1)).size(), 2);
        }
        auto again = std::make_shared<ScriptedModel>(QList{ModelStep::text(u"C"_s)});
        {
            auto session = resumeBranchSession(again, path);
            QVERIFY(session);
            QCOMPARE(texts(session->agent()->messages()),
                     (QStringList{u"first"_s, u"A"_s, u"second, edited"_s, u"B2"_s}));
            QString error;
            QVERIFY2(session->switchBranch(firstBranch.last(), &error), qPrintable(error));
            QCOMPARE(session->activeBranch(), firstBranch);
            QVERIFY(runEnds(*session, [&] { session->send(u"third"_s); }));
            QCOMPARE(texts(again->contexts().last().messages),
                     (QStringList{u"first"_s, u"A"_s, u"second"_s, u"B"_s, u"third"_s}));
        }
        auto third = resumeBranchSession(std::make_shared<ScriptedModel>(), path);
        QVERIFY(third);
        QCOMPARE(texts(third->agent()->messages()),
                 (QStringList{u"first"_s, u"A"_s, u"second"_s, u"B"_s, u"third"_s, u"C"_s}));
        QCOMPARE(third->branches().leaves().size(), 2);
    }

    // Fork from here: the new branch ends at the message; the next prompt continues from it.
    // While the agent works, a switch is refused with a reason, and the run goes on.
    void forkFromHereAndRefusalWhileRunning()
    {
        const SessionStore store(m_data.filePath(u"sessions"_s));
        CodingSessionFile file;
        file.path = store.newSessionPath();
        file.header = SessionStore::newHeader(m_repo.path());
        auto model = std::make_shared<ScriptedModel>(QList{ModelStep::text(u"A"_s),
                                                           ModelStep::text(u"B"_s),
                                                           ModelStep::text(u"forked"_s),
                                                           ModelStep::waitForAbort()});
        auto session = openBranchSession(model, std::move(file));
        QVERIFY(session);
        QVERIFY(runEnds(*session, [&] { session->send(u"one"_s); }));
        QVERIFY(runEnds(*session, [&] { session->send(u"two"_s); }));
        QString error;
        QVERIFY2(session->forkAt(1, &error), qPrintable(error));
        QCOMPARE(texts(session->agent()->messages()), (QStringList{u"one"_s, u"A"_s}));
        QVERIFY(runEnds(*session, [&] { session->send(u"other"_s); }));
        QCOMPARE(texts(model->contexts().last().messages),
                 (QStringList{u"one"_s, u"A"_s, u"other"_s}));

        session->send(u"wait"_s);
        QVERIFY(QTest::qWaitFor([&] { return model->callCount() == 4; }, 20'000));
        QVERIFY(!session->forkAt(0, &error));
        QVERIFY2(error.contains(u"working"_s), qPrintable(error));
        QVERIFY(!session->branchRefusal().isEmpty());
        QVERIFY(runEnds(*session, [&] { session->stop(); }));
        QVERIFY(session->branchRefusal().isEmpty());
    }

    // Markers stay on their branch: a rewind made on a branch applies there (the request after
    // it leaves out what it rewound), is kept when the conversation goes to another branch and
    // back, and never reaches the other branch's requests.
    void aRewindOnABranchStaysOnIt()
    {
        const SessionStore store(m_data.filePath(u"sessions"_s));
        CodingSessionFile file;
        file.path = store.newSessionPath();
        file.header = SessionStore::newHeader(m_repo.path());
        auto model = std::make_shared<ScriptedModel>(QList{ModelStep::text(u"A"_s),
                                                           ModelStep::text(u"B"_s),
                                                           ModelStep::text(u"B2"_s),
                                                           ModelStep::text(u"C"_s),
                                                           ModelStep::text(u"D"_s),
                                                           ModelStep::text(u"E"_s)});
        auto session = openBranchSession(model, std::move(file));
        QVERIFY(session);
        QVERIFY(runEnds(*session, [&] { session->send(u"one"_s); }));
        QVERIFY(runEnds(*session, [&] { session->send(u"two"_s); }));
        const QString firstLeaf = session->activeBranch().constLast();
        QString error;
        QVERIFY(runEnds(*session, [&] { session->editAndResend(2, u"two again"_s, {}, &error); }));
        QVERIFY(runEnds(*session, [&] { session->send(u"three"_s); }));
        // On this branch: rewind to right before "three".
        Rewind rewind;
        rewind.scope = Rewind::Scope::Conversation;
        rewind.toIndex = 4;
        QVERIFY2(session->rewind(rewind, &error), qPrintable(error));
        const QString rewoundLeaf = session->activeBranch().constLast();
        QVERIFY(runEnds(*session, [&] { session->send(u"four"_s); }));
        QCOMPARE(texts(model->contexts().last().messages),
                 (QStringList{u"one"_s, u"A"_s, u"two again"_s, u"B2"_s, u"four"_s}));
        // The other branch knows nothing of it.
        QVERIFY2(session->switchBranch(firstLeaf, &error), qPrintable(error));
        QVERIFY(runEnds(*session, [&] { session->send(u"five"_s); }));
        QCOMPARE(texts(model->contexts().last().messages),
                 (QStringList{u"one"_s, u"A"_s, u"two"_s, u"B"_s, u"five"_s}));
        // Back on the rewound branch: the rewind still applies.
        QVERIFY2(session->switchBranch(rewoundLeaf, &error), qPrintable(error));
        QVERIFY(runEnds(*session, [&] { session->send(u"six"_s); }));
        QCOMPARE(texts(model->contexts().last().messages),
                 (QStringList{u"one"_s, u"A"_s, u"two again"_s, u"B2"_s, u"six"_s}));
    }

    // Nothing recorded, nothing to branch: said, not done.
    void unrecordedSessionKeepsNoBranches()
    {
        auto session = openBranchSession(std::make_shared<ScriptedModel>(
                                             QList{ModelStep::text(u"A"_s)}),
                                         {});
        QVERIFY(session);
        QVERIFY(runEnds(*session, [&] { session->send(u"one"_s); }));
        QString error;
        QVERIFY(!session->forkAt(0, &error));
        QVERIFY(error.contains(u"not recorded"_s));
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_CodingBranches)

} // namespace tst_codingbranches

#include "tst_codingbranches.moc"
