// Issue #34, item 11: a Bash command's output too long for its result is cut, and the result
// names the log file that holds all of it. The model's own tools must be able to read it: Read
// without a question (it is the session's own scratch, not a file of the user's outside the
// repository), and Bash inside the sandbox, whose private /tmp hid it. A whole CodingAgent loop:
// scripted model, the real Bash in the real sandbox (required), the real permission gate.
#include "../tools/toolstest.h"

#include <coding/codingagent.h>
#include <loop/agentloop.h>
#include <permissions/permissionasker.h>
#include <scriptedmodel.h>
#include <testmain.h>
#include <testtools.h>
#include <tools/sandboxprobe.h>

#include <QDir>
#include <QMutex>
#include <QSemaphore>
#include <QTest>
#include <QtConcurrent/QtConcurrentRun>

using namespace AgentCore;
using namespace TestSupport;

namespace tst_fulloutputlog {

namespace {

// Says yes to everything, and remembers what it was asked.
class FullOutputAsker final : public PermissionAsker
{
public:
    std::optional<PermissionAnswer> ask(const PermissionRequest &request,
                                        const AbortToken &) override
    {
        QMutexLocker locker(&m_mutex);
        m_asked.append(request.toolName + QStringLiteral(": ") + request.reason);
        PermissionAnswer answer;
        answer.choice = PermissionAnswer::Choice::AllowOnce;
        return answer;
    }
    QStringList asked() const
    {
        QMutexLocker locker(&m_mutex);
        return m_asked;
    }

private:
    mutable QMutex m_mutex;
    QStringList m_asked;
};

const Message *fullOutputResultOf(const QList<Message> &messages, const QString &id)
{
    for (const Message &message : messages) {
        if (message.isToolResult() && message.toolCallId == id)
            return &message;
    }
    return nullptr;
}

} // namespace

class tst_FullOutputLog : public QObject
{
    Q_OBJECT

private slots:
    void theModelReadsTheWholeOutputWithoutAQuestion()
    {
        if (const SandboxProbe::Result probe = SandboxProbe::probe(); !probe.available)
            QSKIP(qPrintable(probe.error));
        ToolsTest::Repo repo;
        QVERIFY(repo.isValid());
        auto asker = std::make_shared<FullOutputAsker>();
        // Holds the run after the long command until the test has read where its log is.
        QSemaphore gate;
        auto wait = FunctionTool::make(QStringLiteral("Wait"),
                                       {},
                                       ExecutionMode::Sequential,
                                       [&gate](const ToolCallContext &) {
                                           gate.tryAcquire(1, 30'000);
                                           return ToolResult::makeText(QStringLiteral("ok"));
                                       });
        CodingAgentOptions options;
        options.permissions.mode = PermissionMode::Default;
        options.permissions.asker = asker;
        options.repositoryRoot = repo.root();
        options.systemPrompt = QStringLiteral("You are tested.");
        options.sandbox.mode = SandboxMode::Required;
        options.sandbox.hiddenPaths = SandboxPolicy::defaultHiddenPaths(QDir::homePath());
        options.tools.extra = {wait};
        const CodingAgent coding = CodingAgent::assemble(options);

        auto model = std::make_shared<ScriptedModel>(
            QList<ModelStep>{ModelStep::toolCall(QStringLiteral("b1"),
                                                 QStringLiteral("Bash"),
                                                 {{"command", "seq 1 40000"}}),
                             ModelStep::toolCall(QStringLiteral("w1"), QStringLiteral("Wait"), {})});
        AgentLoopConfig config = coding.config.loop;
        config.model = model;
        AgentContext context;
        context.systemPrompt = coding.config.systemPrompt;
        context.tools = coding.config.tools;
        QMutex mutex;
        QString logPath;
        QString said;
        const AgentEventSink events = [&](const AgentEvent &event) {
            if (event.type == AgentEvent::Type::ToolExecutionEnd && event.toolCallId == "b1") {
                QMutexLocker locker(&mutex);
                logPath = event.result.details.logPath;
                said = event.result.text();
            }
        };
        QFuture<QList<Message>> run = QtConcurrent::run([&] {
            return agentLoop({Message::makeUser(QStringLiteral("count"))},
                             context,
                             config,
                             AbortToken(),
                             events);
        });
        QTRY_VERIFY_WITH_TIMEOUT(wait->calls() == 1, 30'000);
        QString log;
        {
            QMutexLocker locker(&mutex);
            log = logPath;
            QVERIFY2(!log.isEmpty() && said.contains(log), qPrintable(said.right(400)));
        }
        model->enqueue(ModelStep::toolCall(QStringLiteral("r1"),
                                           QStringLiteral("Read"),
                                           {{"file_path", log}, {"offset", 39999}}));
        model->enqueue(ModelStep::toolCall(QStringLiteral("b2"),
                                           QStringLiteral("Bash"),
                                           {{"command", QStringLiteral("tail -n 2 %1").arg(log)}}));
        model->enqueue(ModelStep::text(QStringLiteral("done")));
        gate.release();
        QTRY_VERIFY_WITH_TIMEOUT(run.isFinished(), 60'000);
        const QList<Message> added = run.result();

        const Message *read = fullOutputResultOf(added, QStringLiteral("r1"));
        QVERIFY(read);
        QVERIFY2(!read->isError && read->text().contains(QStringLiteral("40000")),
                 qPrintable(read->text()));
        const Message *tail = fullOutputResultOf(added, QStringLiteral("b2"));
        QVERIFY(tail);
        QVERIFY2(!tail->isError && tail->text().contains(QStringLiteral("39999\n40000")),
                 qPrintable(tail->text()));
        // Nothing asked but the test's own tool: `seq` is read-only, and the log is the
        // session's own.
        QCOMPARE(asker->asked(),
                 QStringList{QStringLiteral("Wait: Wait asks in “Ask before changes” mode")});
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_FullOutputLog)

} // namespace tst_fulloutputlog

#include "tst_fulloutputlog.moc"
