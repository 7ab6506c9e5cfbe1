#include <coding/requeststages.h>
#include <testmain.h>

#include <checkpoint/checkpointrecorder.h>
#include <checkpoint/checkpointstore.h>
#include <permissions/bashanalysis.h>

#include <QDir>
#include <QFile>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace AgentCore;

namespace tst_requeststages {

namespace {

ToolCallContext call(const QString &toolName, const QString &command = {})
{
    ToolCallContext context;
    context.toolName = toolName;
    if (!command.isEmpty())
        context.arguments.insert(QStringLiteral("command"), command);
    return context;
}

// The message a turn after a tool call starts from: not the user's.
Message toolResult()
{
    Message message;
    message.role = Message::Role::ToolResult;
    return message;
}

} // namespace

class tst_RequestStages : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_root;

private slots:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        m_root = m_dir->path() + QStringLiteral("/work");
        QVERIFY(QDir().mkpath(m_root));
        QFile file(m_root + QStringLiteral("/a.txt"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        QVERIFY(file.write("one\n") == 4);
    }

    // The effect guard tells the recorder about an effect only when it saw its start: a
    // read-only Bash command is none, so the next turn takes no snapshot after it; an Edit
    // is, so the next turn does. (It kept this in a thread_local flag before; now in the
    // stage, by call.)
    void effectGuardCountsOnlyTheEffectsItSaw()
    {
        auto store = std::make_shared<CheckpointStore>(m_root,
                                                       m_dir->path() + QStringLiteral("/store"));
        auto recorder = std::make_shared<CheckpointRecorder>(store, CheckpointRecorder::Events());
        CheckpointTurnStage turn(recorder);
        EffectGuardStage guard(recorder, std::make_shared<BashAnalyzer>(m_root));
        Context conversation;
        conversation.messages = {Message::makeUser(QStringLiteral("go"))};
        turn.beforeRequest(conversation, AbortToken());
        recorder->waitForIdle();
        QCOMPARE(recorder->checkpoints().size(), 1);

        const ToolCallContext listing = call(QStringLiteral("Bash"), QStringLiteral("ls"));
        guard.beforeEffect(listing);
        guard.afterEffect(listing, ToolResult());
        conversation.messages.append(toolResult());
        turn.beforeRequest(conversation, AbortToken());
        recorder->waitForIdle();
        QCOMPARE(recorder->checkpoints().size(), 1);

        // An Edit whose hooks a read-only command's hooks interleave with.
        const ToolCallContext edit = call(QStringLiteral("Edit"));
        guard.beforeEffect(edit);
        guard.beforeEffect(listing);
        guard.afterEffect(listing, ToolResult());
        guard.afterEffect(edit, ToolResult());
        conversation.messages.append(toolResult());
        turn.beforeRequest(conversation, AbortToken());
        recorder->waitForIdle();
        QCOMPARE(recorder->checkpoints().size(), 2);
    }

    void stagesSayWhatTheyAre()
    {
        const RequestPipeline pipeline(
            {std::make_shared<SandboxWarmUpStage>(QString()),
             std::make_shared<FileChangeStage>([](const FileChange &) {})});
        QCOMPARE(pipeline.names(),
                 (QStringList{QStringLiteral("sandbox warm-up"), QStringLiteral("file changes")}));
        QCOMPARE(pipeline.stages().front()->hooks(),
                 RequestStage::Hooks(RequestStage::Hook::BeforeRequest));
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_RequestStages)

} // namespace tst_requeststages

#include "tst_requeststages.moc"
