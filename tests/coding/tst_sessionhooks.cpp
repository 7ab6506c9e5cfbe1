// The hooks CodingSession raises for the window and headless alike that a headless run cannot
// drive: PreCompact before "compact now" (trigger "manual", the user's instructions, exit 2
// keeps the conversation) and Notification when a permission question waits for the user. A
// real git repository, the user's settings file with real sh hooks, a scripted model.
#include <coding/codingsession.h>
#include <context/compaction.h>
#include <loop/agent.h>
#include <session/sessionlog.h>
#include <testmain.h>

#include <scriptedmodel.h>
#include <sessionoptions.h>
#include <testfiles.h>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <atomic>

using namespace AgentCore;
using namespace TestSupport;
using namespace Qt::StringLiterals;

namespace tst_sessionhooks {

namespace {

// Says no, and counts the questions (on the tool's thread).
class SessionHooksReviewer final : public PermissionAsker
{
public:
    std::optional<PermissionAnswer> ask(const PermissionRequest &, const AbortToken &) override
    {
        ++asked;
        return PermissionAnswer{};
    }
    std::atomic<int> asked = 0;
};

QList<Message> sessionHooksConversation()
{
    QList<Message> messages{Message::makeUser(u"Fix the build"_s)};
    for (int i = 0; i < 10; ++i) {
        Message call;
        call.role = Message::Role::Assistant;
        call.stopReason = StopReason::ToolUse;
        const QString id = u"old_%1"_s.arg(i);
        call.content = {ContentBlock::makeToolCall(id, u"Bash"_s, {{u"command"_s, u"make"_s}})};
        messages.append(call);
        messages.append(Message::makeToolResult(id, u"Bash"_s, QString(4'000, u'x'), false));
    }
    return messages;
}

QJsonObject sessionHooksJsonFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

} // namespace

class tst_SessionHooks : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_repo;
    QTemporaryDir m_data;

    // The user's settings with one hook of \a event.
    CodingAgentOptions optionsWithHook(const QString &event,
                                       const QString &matcher,
                                       const QString &command) const
    {
        CodingAgentOptions options = sessionOptionsIn(m_repo.path(), m_data.path());
        const QString settings = m_data.filePath(u"settings-%1.json"_s.arg(event));
        QFile file(settings);
        if (file.open(QIODevice::WriteOnly)) {
            const QJsonObject group{{u"matcher"_s, matcher},
                                    {u"hooks"_s,
                                     QJsonArray{QJsonObject{{u"type"_s, u"command"_s},
                                                            {u"command"_s, command}}}}};
            file.write(
                QJsonDocument(QJsonObject{{u"hooks"_s, QJsonObject{{event, QJsonArray{group}}}}})
                    .toJson());
        }
        options.permissions.userSettingsPath = settings;
        options.permissions.mode = PermissionMode::Default;
        return options;
    }

    static bool openAndWait(CodingSession &session)
    {
        QSignalSpy ready(&session, &CodingSession::ready);
        session.open();
        return ready.wait(20'000);
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_repo.isValid() && m_data.isValid());
        QVERIFY(gitInit(m_repo.path()));
        qRegisterMetaType<AgentEvent>();
        qRegisterMetaType<HookRun>();
    }

    // A manual compaction's PreCompact hook reads trigger "manual" and the instructions; its
    // exit 2 keeps the conversation, its stderr told as the compaction's failure.
    void preCompactBlocksACompactNow()
    {
        const QString seen = m_data.filePath(u"precompact-manual.json"_s);
        CodingSessionFile file;
        file.resumed = SessionLog::Contents();
        file.resumed->messages = sessionHooksConversation();
        CodingAgentOptions options
            = optionsWithHook(u"PreCompact"_s,
                              u"manual"_s,
                              u"cat > '%1'; echo 'not before the release' >&2; exit 2"_s.arg(seen));
        options.context.windowTokens = 100'000;
        auto summaries = std::make_shared<ScriptedModel>(QList{ModelStep::text(u"summary"_s)});
        CodingSession session(options, std::move(file), true);
        session.setModelClient(std::make_shared<ScriptedModel>(), [summaries] { return summaries; });
        QVERIFY(openAndWait(session));
        QSignalSpy failed(&session, &CodingSession::compactionFailed);
        QSignalSpy ran(&session, &CodingSession::hookRan);
        QVERIFY(session.compactNow(u"keep the API notes"_s));
        QVERIFY(failed.wait(20'000));
        QCOMPARE(failed.first().first().toString(), u"not before the release"_s);
        QCOMPARE(ran.size(), 1);
        QCOMPARE(ran.first().first().value<HookRun>().hook.event, HookEventName::PreCompact);
        const QJsonObject input = sessionHooksJsonFile(seen);
        QCOMPARE(input.value(u"hook_event_name"_s).toString(), u"PreCompact"_s);
        QCOMPARE(input.value(u"trigger"_s).toString(), u"manual"_s);
        QCOMPARE(input.value(u"custom_instructions"_s).toString(), u"keep the API notes"_s);
        QCOMPARE(summaries->callCount(), 0);
        QVERIFY(!Compaction::of(session.agent()->messages().last()));
    }

    // A PreCompact hook that exits 0 lets the compaction go on.
    void preCompactLetsACompactNowGoOn()
    {
        const QString seen = m_data.filePath(u"precompact-ok.json"_s);
        CodingSessionFile file;
        file.resumed = SessionLog::Contents();
        file.resumed->messages = sessionHooksConversation();
        CodingAgentOptions options = optionsWithHook(u"PreCompact"_s, {}, u"cat > '%1'"_s.arg(seen));
        options.context.windowTokens = 100'000;
        auto summaries = std::make_shared<ScriptedModel>(QList{ModelStep::text(u"summary"_s)});
        CodingSession session(options, std::move(file), true);
        session.setModelClient(std::make_shared<ScriptedModel>(), [summaries] { return summaries; });
        QVERIFY(openAndWait(session));
        QSignalSpy compacted(&session, &CodingSession::compacted);
        QVERIFY(session.compactNow({}));
        QVERIFY(compacted.wait(20'000));
        QCOMPARE(sessionHooksJsonFile(seen).value(u"trigger"_s).toString(), u"manual"_s);
        QCOMPARE(sessionHooksJsonFile(seen).value(u"custom_instructions"_s).toString(), QString());
        QCOMPARE(summaries->callCount(), 1);
    }

    // A Write asks in default mode: the question waits for the user, the Notification hook
    // reads its message.
    void notificationWhenAPermissionQuestionWaits()
    {
        const QString seen = m_data.filePath(u"notification.json"_s);
        CodingAgentOptions options = optionsWithHook(u"Notification"_s,
                                                     u"permission_prompt"_s,
                                                     u"cat > '%1'"_s.arg(seen));
        auto reviewer = std::make_shared<SessionHooksReviewer>();
        options.permissions.asker = reviewer;
        auto model = std::make_shared<ScriptedModel>(
            QList{ModelStep::toolCall(u"w1"_s,
                                      u"Write"_s,
                                      {{u"file_path"_s, m_repo.filePath(u"made.txt"_s)},
                                       {u"content"_s, u"made\n"_s}}),
                  ModelStep::text(u"Not written."_s)});
        CodingSession session(options, {}, true);
        session.setModelClient(model);
        QSignalSpy ran(&session, &CodingSession::hookRan);
        QVERIFY(openAndWait(session));
        session.send(u"write it"_s);
        QTRY_VERIFY_WITH_TIMEOUT(!ran.isEmpty() && reviewer->asked == 1, 20'000);
        QCOMPARE(ran.first().first().value<HookRun>().hook.event, HookEventName::Notification);
        const QJsonObject input = sessionHooksJsonFile(seen);
        QCOMPARE(input.value(u"hook_event_name"_s).toString(), u"Notification"_s);
        QCOMPARE(input.value(u"message"_s).toString(),
                 u"AgentDesk needs your permission to use Write"_s);
        QCOMPARE(input.value(u"notification_type"_s).toString(), u"permission_prompt"_s);
        QVERIFY(!QFile::exists(m_repo.filePath(u"made.txt"_s)));
    }

    // A hook that ran for a call is told after the call's start (the window lists it on the
    // call's card, which the start makes), even when the session's thread was busy while the
    // call started and the hook ran: before, it was told first, and the card missed it.
    void aHookIsToldAfterTheStartOfItsCall()
    {
        CodingAgentOptions options = optionsWithHook(u"PreToolUse"_s, u"Bash"_s, u"true"_s);
        options.permissions.mode = PermissionMode::Bypass;
        auto model = std::make_shared<ScriptedModel>(
            QList{ModelStep::toolCall(u"b1"_s, u"Bash"_s, {{u"command"_s, u"true"_s}}),
                  ModelStep::text(u"Done."_s)});
        CodingSession session(options, {}, true);
        session.setModelClient(model);
        QStringList told;
        bool busy = false;
        connect(&session,
                &CodingSession::eventEmitted,
                this,
                [&told, &busy](const AgentEvent &event) {
                    if (event.type == AgentEvent::Type::MessageEnd
                        && event.message.role == Message::Role::Assistant && !busy) {
                        busy = true;
                        // Busy: meanwhile the worker starts the call and its hook runs.
                        QThread::msleep(600);
                        told.append(u"asked"_s);
                    }
                    if (event.type == AgentEvent::Type::ToolExecutionStart)
                        told.append(u"start "_s + event.toolCallId);
                    if (event.type == AgentEvent::Type::ToolExecutionEnd)
                        told.append(u"end "_s + event.toolCallId);
                });
        connect(&session, &CodingSession::hookRan, this, [&told](const HookRun &run) {
            told.append(u"hook "_s + run.toolCallId);
        });
        QVERIFY(openAndWait(session));
        session.send(u"run it"_s);
        QTRY_VERIFY_WITH_TIMEOUT(session.agent()->isIdle() && told.contains(u"end b1"_s), 20'000);
        QCOMPARE(told.join(u", "_s), u"asked, start b1, hook b1, end b1"_s);
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_SessionHooks)

} // namespace tst_sessionhooks

#include "tst_sessionhooks.moc"
