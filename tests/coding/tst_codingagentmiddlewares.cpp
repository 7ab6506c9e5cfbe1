// The production onion of a CodingAgent, run for real on a temporary repository: extensions
// (with the audit log) outside the permission review, and the first argument validation before
// both. What a user would notice: an extension's block spares them a review, and a call that
// cannot run is never put to them.
#include "../tools/toolstest.h"

#include <coding/codingagent.h>
#include <loop/agentloop.h>
#include <testmain.h>

#include <scriptedmodel.h>

#include <QMutex>
#include <QTest>

using namespace AgentCore;
using namespace TestSupport;
using namespace Qt::StringLiterals;

namespace tst_codingagentmiddlewares {

namespace {

// What the extension and the reviewer saw, in order (they run on tool threads).
struct Trace
{
    void add(const QString &line)
    {
        QMutexLocker locker(&mutex);
        lines << line;
    }
    QStringList all() const
    {
        QMutexLocker locker(&mutex);
        return lines;
    }
    mutable QMutex mutex;
    QStringList lines;
};

class Reviewer final : public PermissionAsker
{
public:
    explicit Reviewer(Trace *trace)
        : m_trace(trace)
    {}

    std::optional<PermissionAnswer> ask(const PermissionRequest &request,
                                        const AbortToken &) override
    {
        m_trace->add(u"review "_s + request.toolName);
        PermissionAnswer answer;
        answer.choice = PermissionAnswer::Choice::AllowOnce;
        return answer;
    }

private:
    Trace *m_trace;
};

class Recorder final : public Extension
{
public:
    Recorder(Trace *trace, bool block)
        : m_trace(trace)
        , m_block(block)
    {}

    QString name() const override { return u"recorder"_s; }

    std::optional<ToolResult> before(ToolCallContext &context) override
    {
        m_trace->add(u"before "_s + context.toolName);
        if (m_block)
            return ToolResult::makeError(u"blocked by the recorder"_s);
        return std::nullopt;
    }

    void after(const ToolCallContext &context, const ToolResult &, qint64) override
    {
        m_trace->add(u"after "_s + context.toolName);
    }

private:
    Trace *m_trace;
    bool m_block;
};

struct Outcome
{
    QStringList trace;
    QList<Message> newMessages;
};

Outcome runWrite(const ToolsTest::Repo &repo, const QJsonObject &arguments, bool block)
{
    Trace trace;
    CodingAgentOptions options;
    options.permissions.mode = PermissionMode::Default;
    options.repositoryRoot = repo.root();
    options.permissions.asker = std::make_shared<Reviewer>(&trace);
    options.tools.extensions = {std::make_shared<Recorder>(&trace, block)};
    options.systemPrompt = u"You are AgentDesk."_s;
    CodingAgent coding = CodingAgent::assemble(options);
    auto model = std::make_shared<ScriptedModel>(
        QList{ModelStep::toolCall(u"w1"_s, u"Write"_s, arguments), ModelStep::text(u"done"_s)});
    AgentLoopConfig config = coding.config.loop;
    config.model = model;
    AgentContext context;
    context.systemPrompt = coding.config.systemPrompt;
    context.tools = coding.config.tools;
    Outcome outcome;
    outcome.newMessages = agentLoop({Message::makeUser(u"write new.txt"_s)},
                                    context,
                                    config,
                                    AbortToken(),
                                    {});
    outcome.trace = trace.all();
    return outcome;
}

Message resultOf(const QList<Message> &messages)
{
    for (const Message &message : messages) {
        if (message.isToolResult())
            return message;
    }
    return {};
}

} // namespace

class tst_CodingAgentMiddlewares : public QObject
{
    Q_OBJECT

private slots:
    // Extensions sit outside the review: they see (and may rewrite or block) the call before
    // the user is asked, and hear how it ended after.
    void extensionsSeeTheCallBeforeTheReview()
    {
        ToolsTest::Repo repo;
        QVERIFY(repo.isValid());
        const Outcome outcome = runWrite(repo,
                                         QJsonObject{{u"file_path"_s, repo.path(u"new.txt"_s)},
                                                     {u"content"_s, u"hello\n"_s}},
                                         false);
        QCOMPARE(outcome.trace,
                 (QStringList{u"before Write"_s, u"review Write"_s, u"after Write"_s}));
        QCOMPARE(repo.read(u"new.txt"_s), QByteArray("hello\n"));
    }

    void anExtensionsBlockSparesTheReview()
    {
        ToolsTest::Repo repo;
        QVERIFY(repo.isValid());
        const Outcome outcome = runWrite(repo,
                                         QJsonObject{{u"file_path"_s, repo.path(u"new.txt"_s)},
                                                     {u"content"_s, u"hello\n"_s}},
                                         true);
        QCOMPARE(outcome.trace, (QStringList{u"before Write"_s, u"after Write"_s}));
        QCOMPARE(resultOf(outcome.newMessages).text(), u"blocked by the recorder"_s);
        QCOMPARE(repo.read(u"new.txt"_s), QByteArray("<missing>"));
    }

    // The first argument validation runs before the onion: neither an extension nor the
    // reviewer is consulted about a call that cannot run.
    void invalidArgumentsReachNoExtensionAndNoReview()
    {
        ToolsTest::Repo repo;
        QVERIFY(repo.isValid());
        const Outcome outcome = runWrite(repo,
                                         QJsonObject{{u"file_path"_s, repo.path(u"new.txt"_s)}},
                                         false);
        QCOMPARE(outcome.trace, QStringList());
        const Message result = resultOf(outcome.newMessages);
        QVERIFY(result.isError);
        QVERIFY2(result.text().contains(u"content"_s), qPrintable(result.text()));
        QCOMPARE(repo.read(u"new.txt"_s), QByteArray("<missing>"));
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_CodingAgentMiddlewares)

} // namespace tst_codingagentmiddlewares

#include "tst_codingagentmiddlewares.moc"
