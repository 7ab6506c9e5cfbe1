// Subagents (#37): the Task tool runs child agent loops with a fresh context through
// CodingSession, the same for the window and headless. Explore children in parallel whose
// answers reach the parent, the depth limit, the turn limit, the output cap, Stop mid-child,
// stopSubagent of one child while the parent goes on, a writing child asked through the same
// asker with its name, Markdown agent types from the three folders, the children's transcripts
// in the session file and on resume, the SubagentStop hook. A real git repository, real
// session files and checkpoints, a scripted model routed by conversation (children run at the
// same time, so their requests come in any order).
#include <coding/codingsession.h>
#include <coding/subagentrunner.h>
#include <loop/agent.h>
#include <session/sessionlog.h>
#include <session/sessionstore.h>
#include <testmain.h>

#include <scriptedmodel.h>
#include <sessionoptions.h>
#include <testfiles.h>
#include <testtools.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMutex>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <atomic>

using namespace AgentCore;
using namespace TestSupport;
using namespace Qt::StringLiterals;

namespace tst_subagents {

namespace {

ContentBlock taskCall(const QString &id,
                      const QString &type,
                      const QString &description,
                      const QString &prompt)
{
    return ContentBlock::makeToolCall(id,
                                      u"Task"_s,
                                      {{u"description"_s, description},
                                       {u"prompt"_s, prompt},
                                       {u"subagent_type"_s, type}});
}

QString conversationStart(const Context &context)
{
    return context.messages.isEmpty() ? QString() : context.messages.first().text();
}

int repliesIn(const Context &context)
{
    int replies = 0;
    for (const Message &message : context.messages)
        replies += message.isAssistant() ? 1 : 0;
    return replies;
}

QStringList toolNamesOf(const Context &context)
{
    QStringList names;
    for (const ToolDefinition &tool : context.tools)
        names.append(tool.name);
    names.sort();
    return names;
}

// Each conversation (by its first message) plays its own steps, one per reply it has had; the
// last step repeats.
class SubagentScripts
{
public:
    void add(const QString &start, QList<ModelStep> steps)
    {
        const QMutexLocker locker(&m_mutex);
        m_steps.insert(start, std::move(steps));
    }
    std::optional<ModelStep> operator()(const Context &context)
    {
        const QMutexLocker locker(&m_mutex);
        const auto found = m_steps.constFind(conversationStart(context));
        if (found == m_steps.constEnd() || found->isEmpty())
            return std::nullopt;
        return found->at(std::min<qsizetype>(repliesIn(context), found->size() - 1));
    }

private:
    QMutex m_mutex;
    QHash<QString, QList<ModelStep>> m_steps;
};

std::shared_ptr<ScriptedModel> routedModel(const std::shared_ptr<SubagentScripts> &scripts)
{
    auto model = std::make_shared<ScriptedModel>();
    model->setRouter([scripts](const Context &context) { return (*scripts)(context); });
    return model;
}

// The requests of the conversation that started with \a start, in order.
QList<Context> requestsOf(const ScriptedModel &model, const QString &start)
{
    QList<Context> found;
    for (const Context &context : model.contexts()) {
        if (conversationStart(context) == start)
            found.append(context);
    }
    return found;
}

class SubagentsReviewer final : public PermissionAsker
{
public:
    std::optional<PermissionAnswer> ask(const PermissionRequest &request,
                                        const AbortToken &) override
    {
        const QMutexLocker locker(&mutex);
        requests.append(request);
        PermissionAnswer answer;
        answer.choice = PermissionAnswer::Choice::AllowOnce;
        return answer;
    }
    QMutex mutex;
    QList<PermissionRequest> requests;
};

// What the session told, parent and children, in one list: "P start call_1",
// "C call_1 message_end", ...
struct SubagentsTold
{
    QStringList lines;
    QList<SubagentEvent> children;
    int agentEnds = 0;
};

bool writeSubagentsFile(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate)
           && file.write(bytes) == bytes.size();
}

} // namespace

class tst_Subagents : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_repo;
    QTemporaryDir m_data;
    QString m_parallelSession; // the session file of parallelExploreChildrenReachTheParent

    CodingAgentOptions options() const
    {
        CodingAgentOptions options = sessionOptionsIn(m_repo.path(), m_data.path());
        options.userCommandsFolder.clear();
        options.userSkillsFolder.clear();
        options.subagents.userFolder = m_data.filePath(u"user-agents"_s);
        return options;
    }

    static bool openAndWait(CodingSession &session)
    {
        QSignalSpy ready(&session, &CodingSession::ready);
        session.open();
        return ready.wait(20'000);
    }

    static void listen(CodingSession &session, SubagentsTold &told)
    {
        QObject::connect(&session, &CodingSession::eventEmitted, [&told](const AgentEvent &event) {
            if (event.type == AgentEvent::Type::ToolExecutionStart)
                told.lines.append(u"P start "_s + event.toolCallId);
            else if (event.type == AgentEvent::Type::ToolExecutionEnd)
                told.lines.append(u"P end "_s + event.toolCallId);
            else if (event.type == AgentEvent::Type::AgentEnd)
                ++told.agentEnds;
        });
        QObject::connect(&session, &CodingSession::subagentEvent, [&told](const SubagentEvent &event) {
            told.children.append(event);
            told.lines.append(u"C %1 %2"_s.arg(event.key(), agentEventTypeName(event.event.type)));
        });
    }

    // Every event of the child at \a key came after its Task call's start and before its end.
    static bool childInsideItsCall(const SubagentsTold &told, const QString &key, QString *why)
    {
        const QString callId = key.section(u'/', -1);
        const QString parent = key.contains(u'/') ? u"C "_s + key.section(u'/', 0, -2) + u' '
                                                  : u"P "_s;
        qsizetype start = -1;
        qsizetype end = -1;
        qsizetype first = -1;
        qsizetype last = -1;
        for (qsizetype i = 0; i < told.lines.size(); ++i) {
            const QString &line = told.lines.at(i);
            if (parent == u"P "_s && line == u"P start "_s + callId)
                start = i;
            if (parent == u"P "_s && line == u"P end "_s + callId)
                end = i;
            if (line.startsWith(u"C "_s + key + u' ')) {
                if (first < 0)
                    first = i;
                last = i;
            }
        }
        if (parent != u"P "_s)
            return first >= 0 || (*why = u"no event of "_s + key, false);
        *why = u"start %1, end %2, first %3, last %4"_s.arg(start).arg(end).arg(first).arg(last);
        return start >= 0 && end > start && first > start && last < end;
    }

    static bool waitForAgentEnd(const SubagentsTold &told, int ends = 1)
    {
        return QTest::qWaitFor([&] { return told.agentEnds >= ends; }, 30'000);
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_repo.isValid() && m_data.isValid());
        QVERIFY(gitInit(m_repo.path()));
        QVERIFY(writeSubagentsFile(m_repo.filePath(u"notes.txt"_s), "alpha\nbeta\n"));
        QVERIFY(
            writeSubagentsFile(m_repo.filePath(u"AGENTS.md"_s), "Rule: subagent-visible-rule\n"));
        qRegisterMetaType<AgentEvent>();
        qRegisterMetaType<SubagentEvent>();
    }

    // Two explore children of one reply run at the same time (each waits for the other's first
    // request); each starts from its prompt alone (the parent's history is not in its
    // request), with the explore prompt, the repository's instructions and read-only tools;
    // their answers come back as the Task results of the parent's next request; every child
    // event is told inside its Task call; the session file keeps each child's transcript.
    void parallelExploreChildrenReachTheParent()
    {
        auto scripts = std::make_shared<SubagentScripts>();
        std::atomic<int> firstRequests = 0;
        std::atomic<bool> overlapped = true;
        const auto waitForBoth = [&firstRequests, &overlapped] {
            ++firstRequests;
            QElapsedTimer timer;
            timer.start();
            while (firstRequests.load() < 2 && timer.elapsed() < 5000)
                QThread::msleep(5);
            if (firstRequests.load() < 2)
                overlapped = false;
        };
        scripts->add(u"Search for alpha and beta"_s,
                     {ModelStep::toolCalls(
                          {taskCall(u"call_a"_s, u"explore"_s, u"Find alpha"_s, u"find alpha"_s),
                           taskCall(u"call_b"_s, u"explore"_s, u"Find beta"_s, u"find beta"_s)}),
                      ModelStep::text(u"Both found."_s)});
        scripts->add(u"find alpha"_s,
                     {ModelStep::toolCall(u"read_a"_s,
                                          u"Read"_s,
                                          {{u"file_path"_s, m_repo.filePath(u"notes.txt"_s)}}),
                      ModelStep::text(u"alpha is on line 1 of notes.txt"_s)});
        scripts->add(u"find beta"_s, {ModelStep::text(u"beta is on line 2"_s)});
        auto model = routedModel(scripts);
        model->setRouter([scripts, waitForBoth](const Context &context) {
            if (repliesIn(context) == 0 && conversationStart(context).startsWith(u"find "_s))
                waitForBoth();
            return (*scripts)(context);
        });

        const SessionStore store(m_data.filePath(u"sessions"_s));
        CodingSessionFile file;
        file.path = store.newSessionPath();
        file.header = SessionStore::newHeader(m_repo.path());
        m_parallelSession = file.path;
        const QString sessionPath = file.path;
        CodingSession session(options(), std::move(file), true);
        session.setModelClient(model);
        SubagentsTold told;
        listen(session, told);
        QVERIFY(openAndWait(session));
        session.send(u"Search for alpha and beta"_s);
        QVERIFY(waitForAgentEnd(told));

        QVERIFY2(overlapped.load(), "the explore children did not run at the same time");
        const QList<Context> parent = requestsOf(*model, u"Search for alpha and beta"_s);
        QCOMPARE(parent.size(), 2);
        QVERIFY(toolNamesOf(parent.first()).contains(u"Task"_s));
        const QList<Message> &seen = parent.at(1).messages;
        QCOMPARE(seen.size(), 4);
        QVERIFY2(seen.at(2).text().startsWith(u"alpha is on line 1 of notes.txt"_s),
                 qPrintable(seen.at(2).text()));
        QVERIFY2(seen.at(2).text().contains(u"Read 1"_s), qPrintable(seen.at(2).text()));
        QVERIFY(seen.at(3).text().startsWith(u"beta is on line 2"_s));
        QVERIFY(!seen.at(2).isError && !seen.at(3).isError);

        for (const QString &prompt : {u"find alpha"_s, u"find beta"_s}) {
            const QList<Context> child = requestsOf(*model, prompt);
            QVERIFY(!child.isEmpty());
            // A fresh context: its prompt only, nothing of the parent's conversation.
            QCOMPARE(child.first().messages.size(), 1);
            QVERIFY(child.first().systemPrompt.startsWith(u"You are a read-only search agent"_s));
            QVERIFY(child.first().systemPrompt.contains(u"subagent-visible-rule"_s));
            QCOMPARE(toolNamesOf(child.first()),
                     (QStringList{u"Glob"_s, u"Grep"_s, u"LS"_s, u"Read"_s}));
        }
        QString why;
        QVERIFY2(childInsideItsCall(told, u"call_a"_s, &why), qPrintable(why));
        QVERIFY2(childInsideItsCall(told, u"call_b"_s, &why), qPrintable(why));
        QVERIFY(told.lines.contains(u"C call_a agent_end"_s));
        QCOMPARE(told.children.first().agentType, u"explore"_s);

        // Kept: each child's transcript under its call id, its prompt first.
        QString error;
        const std::optional<SessionLog::Contents> contents = SessionLog::load(sessionPath, &error);
        QVERIFY2(contents, qPrintable(error));
        QCOMPARE(contents->subagents.keys().size(), 2);
        const QList<Message> alpha = contents->subagents.value(u"call_a"_s);
        QCOMPARE(alpha.size(), 4); // prompt, Read call, its result, answer
        QCOMPARE(alpha.first().text(), u"find alpha"_s);
        QCOMPARE(alpha.last().text(), u"alpha is on line 1 of notes.txt"_s);
        QCOMPARE(contents->subagents.value(u"call_b"_s).last().text(), u"beta is on line 2"_s);
    }

    // A resumed session has its children's transcripts as they were recorded.
    void resumeKeepsTheChildren()
    {
        const QString sessionPath = m_parallelSession;
        QString error;
        std::optional<SessionLog::Contents> contents = SessionLog::load(sessionPath, &error);
        QVERIFY2(contents, qPrintable(error));
        CodingSessionFile file = CodingSessionFile::takeOver(sessionPath, *std::move(contents));
        QVERIFY(file.resumed);
        QCOMPARE(file.resumed->subagents.size(), 2);
        CodingSession session(options(), std::move(file), true);
        session.setModelClient(std::make_shared<ScriptedModel>());
        QVERIFY(openAndWait(session));
        QCOMPARE(session.file().resumed->subagents.value(u"call_b"_s).first().text(),
                 u"find beta"_s);
        QVERIFY(session.agent()->messages().size() >= 4);
    }

    // main -> general child -> general grandchild: the grandchild is offered no Task tool, and
    // a Task tool at that depth refuses with a message saying why.
    void depthIsLimitedToTwo()
    {
        auto scripts = std::make_shared<SubagentScripts>();
        scripts->add(u"Go deep"_s,
                     {ModelStep::toolCalls(
                          {taskCall(u"call_1"_s, u"general"_s, u"Level one"_s, u"level one"_s)}),
                      ModelStep::text(u"done"_s)});
        scripts->add(u"level one"_s,
                     {ModelStep::toolCalls(
                          {taskCall(u"call_7"_s, u"general"_s, u"Level two"_s, u"level two"_s)}),
                      ModelStep::text(u"level one done"_s)});
        scripts->add(u"level two"_s, {ModelStep::text(u"deepest answer"_s)});
        auto model = routedModel(scripts);
        CodingSession session(options(), {}, true);
        session.setModelClient(model);
        SubagentsTold told;
        listen(session, told);
        QVERIFY(openAndWait(session));
        session.send(u"Go deep"_s);
        QVERIFY(waitForAgentEnd(told));

        const QList<Context> one = requestsOf(*model, u"level one"_s);
        const QList<Context> two = requestsOf(*model, u"level two"_s);
        QVERIFY(!one.isEmpty() && !two.isEmpty());
        QVERIFY(toolNamesOf(one.first()).contains(u"Task"_s));
        QVERIFY(toolNamesOf(one.first()).contains(u"Edit"_s));
        QVERIFY(!toolNamesOf(two.first()).contains(u"Task"_s));
        QVERIFY(toolNamesOf(two.first()).contains(u"Edit"_s));
        QVERIFY(one.at(1).messages.last().text().startsWith(u"deepest answer"_s));
        // The grandchild's events carry its whole path, inside its parent's call.
        QVERIFY(told.lines.contains(u"C call_1/call_7 agent_end"_s));
        const qsizetype childStart = told.lines.indexOf(u"C call_1 tool_execution_start"_s);
        const qsizetype grandchild = told.lines.indexOf(u"C call_1/call_7 agent_start"_s);
        const qsizetype childEnd = told.lines.indexOf(u"C call_1 tool_execution_end"_s);
        QVERIFY(childStart >= 0 && childStart < grandchild && grandchild < childEnd);

        TaskTool tooDeep(session.parts().subagents, {u"call_1"_s, u"call_7"_s});
        ToolCallContext call;
        call.toolCallId = u"call_9"_s;
        call.toolName = u"Task"_s;
        call.arguments = {{u"description"_s, u"Level three"_s},
                          {u"prompt"_s, u"level three"_s},
                          {u"subagent_type"_s, u"general"_s}};
        const ToolResult refused = tooDeep.execute(call);
        QVERIFY(refused.isError);
        QVERIFY2(refused.text().contains(u"may not start subagents"_s), qPrintable(refused.text()));
        QVERIFY(requestsOf(*model, u"level three"_s).isEmpty());
    }

    // The tools a run takes at its start (the window's MCP servers, ToolOptions::perRun) are
    // the parent's too: a general child is offered them, an explore child only its read-only
    // tools.
    void aGeneralChildIsOfferedTheRunsTools()
    {
        auto scripts = std::make_shared<SubagentScripts>();
        scripts->add(u"Use the tracker"_s,
                     {ModelStep::toolCalls(
                          {taskCall(u"call_1"_s, u"general"_s, u"File it"_s, u"file it"_s),
                           taskCall(u"call_2"_s, u"explore"_s, u"Look"_s, u"look around"_s)}),
                      ModelStep::text(u"done"_s)});
        scripts->add(u"file it"_s, {ModelStep::text(u"filed"_s)});
        scripts->add(u"look around"_s, {ModelStep::text(u"looked"_s)});
        auto model = routedModel(scripts);
        CodingAgentOptions withServer = options();
        const auto tracker = FunctionTool::make(u"mcp__tracker__create_issue"_s,
                                                {},
                                                ExecutionMode::Sequential,
                                                [](const ToolCallContext &) {
                                                    return ToolResult::makeText(u"#12"_s);
                                                });
        withServer.tools.perRun = [tracker](const AbortToken &) {
            return QList<AgentToolPtr>{tracker};
        };
        CodingSession session(withServer, {}, true);
        session.setModelClient(model);
        SubagentsTold told;
        listen(session, told);
        QVERIFY(openAndWait(session));
        session.send(u"Use the tracker"_s);
        QVERIFY(waitForAgentEnd(told));

        const QList<Context> parent = requestsOf(*model, u"Use the tracker"_s);
        const QList<Context> general = requestsOf(*model, u"file it"_s);
        const QList<Context> explore = requestsOf(*model, u"look around"_s);
        QVERIFY(!parent.isEmpty() && !general.isEmpty() && !explore.isEmpty());
        QVERIFY(toolNamesOf(parent.first()).contains(u"mcp__tracker__create_issue"_s));
        QVERIFY2(toolNamesOf(general.first()).contains(u"mcp__tracker__create_issue"_s),
                 qPrintable(toolNamesOf(general.first()).join(u", "_s)));
        QVERIFY(!toolNamesOf(explore.first()).contains(u"mcp__tracker__create_issue"_s));
    }

    // Many server tools: a general child defers them as its parent does (ToolSearch lists
    // them) and loads for itself; the parent's offer is its own.
    void aGeneralChildDefersManyServerTools()
    {
        auto scripts = std::make_shared<SubagentScripts>();
        scripts->add(u"Use the big server"_s,
                     {ModelStep::toolCalls(
                          {taskCall(u"call_1"_s, u"general"_s, u"Use it"_s, u"use it"_s)}),
                      ModelStep::text(u"done"_s)});
        scripts->add(u"use it"_s,
                     {ModelStep::toolCall(u"s1"_s,
                                          u"ToolSearch"_s,
                                          {{u"query"_s, u"select:mcp__big__tool_7"_s}}),
                      ModelStep::text(u"used"_s)});
        auto model = routedModel(scripts);
        CodingAgentOptions withServer = options();
        QList<AgentToolPtr> big;
        for (int i = 0; i < 40; ++i) {
            big.append(FunctionTool::make(u"mcp__big__tool_%1"_s.arg(i),
                                          {u"first_argument"_s, u"second_argument"_s},
                                          ExecutionMode::Sequential,
                                          [](const ToolCallContext &) {
                                              return ToolResult::makeText(u"ok"_s);
                                          }));
        }
        withServer.tools.perRun = [big](const AbortToken &) { return big; };
        CodingSession session(withServer, {}, true);
        session.setModelClient(model);
        SubagentsTold told;
        listen(session, told);
        QVERIFY(openAndWait(session));
        session.send(u"Use the big server"_s);
        QVERIFY(waitForAgentEnd(told));

        const QList<Context> parent = requestsOf(*model, u"Use the big server"_s);
        const QList<Context> general = requestsOf(*model, u"use it"_s);
        QCOMPARE(general.size(), 2);
        for (const Context &context : {parent.first(), general.first()}) {
            const QStringList names = toolNamesOf(context);
            QVERIFY2(names.contains(u"ToolSearch"_s) && names.filter(u"mcp__"_s).isEmpty(),
                     qPrintable(names.join(u", "_s)));
        }
        QVERIFY(toolNamesOf(general.at(1)).contains(u"mcp__big__tool_7"_s));
        QCOMPARE(general.at(1).tools.last().name, u"mcp__big__tool_7"_s);
        QVERIFY(toolNamesOf(parent.last()).filter(u"mcp__"_s).isEmpty());
    }

    // A child that never ends by itself stops at its own turn limit; the parent is told.
    void aChildStopsAtItsTurnLimit()
    {
        auto scripts = std::make_shared<SubagentScripts>();
        scripts->add(u"Loop forever"_s,
                     {ModelStep::toolCalls(
                          {taskCall(u"call_1"_s, u"explore"_s, u"Loop"_s, u"read forever"_s)}),
                      ModelStep::text(u"gave up"_s)});
        scripts->add(u"read forever"_s,
                     {ModelStep::toolCall(u"read"_s,
                                          u"Read"_s,
                                          {{u"file_path"_s, m_repo.filePath(u"notes.txt"_s)}})});
        auto model = routedModel(scripts);
        CodingAgentOptions opts = options();
        opts.subagents.maxTurns = 3;
        CodingSession session(opts, {}, true);
        session.setModelClient(model);
        SubagentsTold told;
        listen(session, told);
        QVERIFY(openAndWait(session));
        session.send(u"Loop forever"_s);
        QVERIFY(waitForAgentEnd(told));
        QCOMPARE(requestsOf(*model, u"read forever"_s).size(), 3);
        const QList<Context> parent = requestsOf(*model, u"Loop forever"_s);
        QCOMPARE(parent.size(), 2);
        const Message &result = parent.at(1).messages.last();
        QVERIFY(result.isError);
        QVERIFY2(result.text().contains(u"turn limit (3 turns)"_s), qPrintable(result.text()));
    }

    // A child's answer reaches the parent cut at the cap, never inside a character, with a
    // note saying so.
    void aChildsAnswerIsCapped()
    {
        auto scripts = std::make_shared<SubagentScripts>();
        scripts->add(u"Talk a lot"_s,
                     {ModelStep::toolCalls(
                          {taskCall(u"call_1"_s, u"explore"_s, u"Chatter"_s, u"say much"_s)}),
                      ModelStep::text(u"ok"_s)});
        ModelStep long_ = ModelStep::text(QString(3000, QChar(0x00e9))); // 6000 bytes
        long_.chunkSize = 1000;
        scripts->add(u"say much"_s, {long_});
        auto model = routedModel(scripts);
        CodingAgentOptions opts = options();
        opts.subagents.maxOutputBytes = 1001; // falls inside a two-byte character
        CodingSession session(opts, {}, true);
        session.setModelClient(model);
        SubagentsTold told;
        listen(session, told);
        QVERIFY(openAndWait(session));
        session.send(u"Talk a lot"_s);
        QVERIFY(waitForAgentEnd(told));
        const QList<Context> parent = requestsOf(*model, u"Talk a lot"_s);
        QCOMPARE(parent.size(), 2);
        const QString result = parent.at(1).messages.last().text();
        QVERIFY2(result.startsWith(QString(500, QChar(0x00e9))
                                   + u"\n\n[... the subagent's answer "
                                     u"was cut here: it was 6 KB"_s),
                 qPrintable(result.left(600)));
        QVERIFY(result.size() < 1000);
    }

    // Stop while a child waits for the model: the parent and the child stop, nothing more is
    // asked of the model.
    void stopStopsTheChild()
    {
        auto scripts = std::make_shared<SubagentScripts>();
        scripts->add(u"Start a slow child"_s,
                     {ModelStep::toolCalls(
                          {taskCall(u"call_1"_s, u"general"_s, u"Slow"_s, u"be slow"_s)}),
                      ModelStep::text(u"never"_s)});
        scripts->add(u"be slow"_s, {ModelStep::waitForAbort()});
        auto model = routedModel(scripts);
        CodingSession session(options(), {}, true);
        session.setModelClient(model);
        SubagentsTold told;
        listen(session, told);
        connect(&session,
                &CodingSession::subagentEvent,
                &session,
                [&session](const SubagentEvent &e) {
                    if (e.event.type == AgentEvent::Type::MessageStart
                        && e.event.message.isAssistant())
                        session.stop();
                });
        QVERIFY(openAndWait(session));
        session.send(u"Start a slow child"_s);
        QVERIFY(waitForAgentEnd(told));
        QCOMPARE(requestsOf(*model, u"Start a slow child"_s).size(), 1);
        const Message last = session.agent()->messages().last();
        QVERIFY2(last.isToolResult() && last.isError && last.details.aborted,
                 qPrintable(last.text()));
        // The child's own loop ended too: nothing runs under its path any more.
        QTRY_VERIFY_WITH_TIMEOUT(!session.parts().subagents->isRunning({u"call_1"_s}), 10'000);
        QCOMPARE(requestsOf(*model, u"be slow"_s).size(), 1);
    }

    // stopSubagent stops that child only: its Task call ends with an error saying so, and the
    // parent goes on with its next request.
    void stopSubagentLetsTheParentGoOn()
    {
        auto scripts = std::make_shared<SubagentScripts>();
        scripts->add(u"Delegate and go on"_s,
                     {ModelStep::toolCalls(
                          {taskCall(u"call_1"_s, u"general"_s, u"Slow"_s, u"be slow too"_s)}),
                      ModelStep::text(u"parent went on"_s)});
        scripts->add(u"be slow too"_s, {ModelStep::waitForAbort()});
        auto model = routedModel(scripts);
        CodingSession session(options(), {}, true);
        session.setModelClient(model);
        SubagentsTold told;
        listen(session, told);
        connect(&session,
                &CodingSession::subagentEvent,
                &session,
                [&session](const SubagentEvent &e) {
                    if (e.event.type == AgentEvent::Type::MessageStart
                        && e.event.message.isAssistant())
                        session.stopSubagent(e.path);
                });
        QVERIFY(openAndWait(session));
        session.send(u"Delegate and go on"_s);
        QVERIFY(waitForAgentEnd(told));
        const QList<Context> parent = requestsOf(*model, u"Delegate and go on"_s);
        QCOMPARE(parent.size(), 2);
        const Message &result = parent.at(1).messages.last();
        QVERIFY(result.isError);
        QVERIFY2(result.text().contains(u"The user stopped this subagent"_s),
                 qPrintable(result.text()));
        QCOMPARE(session.agent()->messages().last().text(), u"parent went on"_s);
        QVERIFY(told.lines.contains(u"C call_1 agent_end"_s));
    }

    // A general child's Edit goes through the parent's permission policy and asker, which is
    // told who asks; the checkpoint of the parent's turn covers it.
    void aWritingChildIsAskedWithItsName()
    {
        QVERIFY(writeSubagentsFile(m_repo.filePath(u"todo.txt"_s), "old line\n"));
        QVERIFY(writeSubagentsFile(m_repo.filePath(u"todo2.txt"_s), "second\n"));
        auto scripts = std::make_shared<SubagentScripts>();
        scripts
            ->add(u"Have the todo fixed"_s,
                  {ModelStep::toolCalls(
                       {taskCall(u"call_1"_s, u"general"_s, u"Fix the todo"_s, u"fix todo.txt"_s)}),
                   ModelStep::text(u"fixed"_s)});
        scripts->add(u"fix todo.txt"_s,
                     {ModelStep::toolCall(u"read"_s,
                                          u"Read"_s,
                                          {{u"file_path"_s, m_repo.filePath(u"todo.txt"_s)}}),
                      ModelStep::toolCall(u"edit"_s,
                                          u"Edit"_s,
                                          {{u"file_path"_s, m_repo.filePath(u"todo.txt"_s)},
                                           {u"old_string"_s, u"old line"_s},
                                           {u"new_string"_s, u"new line"_s}}),
                      ModelStep::toolCall(u"read2"_s,
                                          u"Read"_s,
                                          {{u"file_path"_s, m_repo.filePath(u"todo2.txt"_s)}}),
                      ModelStep::toolCall(u"edit2"_s,
                                          u"Edit"_s,
                                          {{u"file_path"_s, m_repo.filePath(u"todo2.txt"_s)},
                                           {u"old_string"_s, u"second"_s},
                                           {u"new_string"_s, u"2nd"_s}}),
                      ModelStep::text(u"edited todo.txt"_s)});
        auto model = routedModel(scripts);
        auto reviewer = std::make_shared<SubagentsReviewer>();
        CodingAgentOptions opts = options();
        opts.permissions.mode = PermissionMode::Default;
        opts.permissions.asker = reviewer;
        opts.permissions.auditLogPath = m_data.filePath(u"audit.jsonl"_s);
        CodingSession session(opts, {}, true);
        session.setModelClient(model);
        SubagentsTold told;
        listen(session, told);
        QList<Checkpoint> checkpoints;
        connect(&session,
                &CodingSession::checkpointRecorded,
                &session,
                [&checkpoints](const Checkpoint &checkpoint) { checkpoints.append(checkpoint); });
        QVERIFY(openAndWait(session));
        session.send(u"Have the todo fixed"_s);
        QVERIFY(waitForAgentEnd(told));

        const QList<Context> childRequests = requestsOf(*model, u"fix todo.txt"_s);
        QVERIFY2(reviewer->requests.size() == 2,
                 qPrintable(childRequests.last().messages.last().text()));
        const PermissionRequest &request = reviewer->requests.first();
        QCOMPARE(request.toolName, u"Edit"_s);
        QCOMPARE(request.subagent, u"general: Fix the todo"_s);
        QCOMPARE(fileBytes(m_repo.filePath(u"todo.txt"_s)), QByteArray("new line\n"));
        // The audit log says whose call it was.
        int audited = 0;
        for (const QByteArray &line : fileBytes(m_data.filePath(u"audit.jsonl"_s)).split('\n')) {
            const QJsonObject entry = QJsonDocument::fromJson(line).object();
            if (entry.value(u"tool"_s) == u"Edit"_s
                && entry.value(u"subagent"_s) == u"general: Fix the todo"_s)
                ++audited;
            if (entry.value(u"tool"_s) == u"Task"_s)
                QVERIFY(!entry.contains(u"subagent"_s));
        }
        QCOMPARE(audited, 2);
        const Message &result = requestsOf(*model, u"Have the todo fixed"_s).at(1).messages.last();
        QVERIFY2(result.text().contains(u"changed: "_s + m_repo.filePath(u"todo.txt"_s)),
                 qPrintable(result.text()));
        QCOMPARE(fileBytes(m_repo.filePath(u"todo2.txt"_s)), QByteArray("2nd\n"));
        // The child's effects go through the parent's effect boundary: the turn's checkpoint
        // (before the child ran) would undo them, and the parent's next turn, after them,
        // took a checkpoint of its own.
        session.parts().checkpoints->waitForIdle();
        QTRY_VERIFY_WITH_TIMEOUT(checkpoints.size() >= 2, 10'000);
        QCOMPARE(checkpoints.first().reason, Checkpoint::Reason::UserMessage);
        QCOMPARE(checkpoints.last().reason, Checkpoint::Reason::BeforeTool);
        const CheckpointDiff diff = session.parts().checkpoints->store()->diff(checkpoints.first());
        QVERIFY2(diff.error.isEmpty(), qPrintable(diff.error));
        QStringList restored;
        for (const CheckpointFileChange &change : diff.files)
            restored.append(change.path);
        restored.sort();
        QCOMPARE(restored, (QStringList{u"todo.txt"_s, u"todo2.txt"_s}));
        QVERIFY(session.parts().checkpoints->store()->diff(checkpoints.last()).files.isEmpty());
    }

    // Agent types from `.agentdesk/agents/`, `.claude/agents/` and the user's folder, with
    // their tools, prompt and description; hostile files are skipped with a warning.
    void markdownTypesFromTheThreeFolders()
    {
        QVERIFY(writeSubagentsFile(m_repo.filePath(u".agentdesk/agents/reviewer.md"_s),
                                   "---\nname: reviewer\ndescription: Reviews a diff\ntools: Read, "
                                   "Grep\n---\nYou are the reviewer.\n"));
        QVERIFY(writeSubagentsFile(m_repo.filePath(u".claude/agents/tester.md"_s),
                                   "---\nname: tester\ndescription: Runs the tests\ntools: Read, "
                                   "Edit, Bash\nmodel: inherit\n---\nYou are the tester.\n"));
        QVERIFY(writeSubagentsFile(m_data.filePath(u"user-agents/helper.md"_s),
                                   "---\nname: helper\ndescription: Helps with anything\n---\nYou "
                                   "are the helper.\n"));
        QVERIFY(writeSubagentsFile(m_repo.filePath(u".agentdesk/agents/huge.md"_s),
                                   "---\nname: huge\ndescription: x\n---\n"
                                       + QByteArray(70 * 1024, 'x')));
        QVERIFY(writeSubagentsFile(m_repo.filePath(u".agentdesk/agents/bad.md"_s),
                                   "---\nname: ../evil\ndescription: x\n---\nbody\n"));
        QVERIFY(writeSubagentsFile(m_repo.filePath(u".claude/agents/mute.md"_s),
                                   "---\nname: mute\n---\nbody\n"));
        QVERIFY(writeSubagentsFile(m_repo.filePath(u".claude/agents/explore.md"_s),
                                   "---\nname: explore\ndescription: take over\n---\nbody\n"));

        const SubagentTypes types = SubagentTypes::discover(m_repo.path(),
                                                            m_data.filePath(u"user-agents"_s));
        QStringList names;
        for (const SubagentType &type : types.types)
            names.append(type.name);
        QCOMPARE(names,
                 (QStringList{u"explore"_s, u"general"_s, u"helper"_s, u"reviewer"_s, u"tester"_s}));
        const QString warnings = types.warnings.join(u'\n');
        QVERIFY2(warnings.contains(u"huge.md: skipped: larger than 64 KB"_s), qPrintable(warnings));
        QVERIFY2(warnings.contains(u"bad.md: skipped"_s), qPrintable(warnings));
        QVERIFY2(warnings.contains(u"mute.md: skipped: it has no description"_s),
                 qPrintable(warnings));
        QVERIFY2(warnings.contains(u"\"explore\" is a built-in agent type"_s), qPrintable(warnings));
        QCOMPARE(types.find(u"reviewer"_s)->scope, SubagentType::Scope::Project);
        QCOMPARE(types.find(u"tester"_s)->model, QString()); // inherit
        QCOMPARE(types.find(u"helper"_s)->scope, SubagentType::Scope::User);
        QVERIFY(types.find(u"reviewer"_s)->isReadOnly());
        QVERIFY(!types.find(u"tester"_s)->isReadOnly());

        auto scripts = std::make_shared<SubagentScripts>();
        scripts->add(u"Use the custom types"_s,
                     {ModelStep::toolCalls(
                          {taskCall(u"call_r"_s, u"reviewer"_s, u"Review"_s, u"review it"_s),
                           taskCall(u"call_t"_s, u"tester"_s, u"Test"_s, u"test it"_s),
                           taskCall(u"call_h"_s, u"helper"_s, u"Help"_s, u"help out"_s)}),
                      ModelStep::text(u"done"_s)});
        scripts->add(u"review it"_s, {ModelStep::text(u"looks fine"_s)});
        scripts->add(u"test it"_s, {ModelStep::text(u"tests pass"_s)});
        scripts->add(u"help out"_s, {ModelStep::text(u"helped"_s)});
        auto model = routedModel(scripts);
        CodingSession session(options(), {}, true);
        session.setModelClient(model);
        SubagentsTold told;
        listen(session, told);
        QSignalSpy warned(&session, &CodingSession::warning);
        QVERIFY(openAndWait(session));
        QVERIFY(!warned.isEmpty()); // the hostile files, told
        const QList<ToolDefinition> definitions = session.toolDefinitions();
        const auto task = std::find_if(definitions.cbegin(),
                                       definitions.cend(),
                                       [](const ToolDefinition &tool) {
                                           return tool.name == u"Task"_s;
                                       });
        QVERIFY(task != definitions.cend());
        QVERIFY2(task->description.contains(u"- reviewer: Reviews a diff"_s),
                 qPrintable(task->description));
        QVERIFY(task->description.contains(u"- helper: Helps with anything"_s));
        session.send(u"Use the custom types"_s);
        QVERIFY(waitForAgentEnd(told));

        const Context reviewer = requestsOf(*model, u"review it"_s).first();
        QVERIFY(reviewer.systemPrompt.startsWith(u"You are the reviewer."_s));
        QCOMPARE(toolNamesOf(reviewer), (QStringList{u"Grep"_s, u"Read"_s}));
        const Context tester = requestsOf(*model, u"test it"_s).first();
        QVERIFY(tester.systemPrompt.startsWith(u"You are the tester."_s));
        QCOMPARE(toolNamesOf(tester), (QStringList{u"Bash"_s, u"Edit"_s, u"Read"_s}));
        const Context helper = requestsOf(*model, u"help out"_s).first();
        QVERIFY(helper.systemPrompt.startsWith(u"You are the helper."_s));
        QVERIFY(toolNamesOf(helper).contains(u"Write"_s));
        QVERIFY(toolNamesOf(helper).contains(u"Task"_s));
        const QList<Message> results
            = requestsOf(*model, u"Use the custom types"_s).at(1).messages.mid(2);
        QCOMPARE(results.size(), 3);
        QVERIFY(results.at(0).text().startsWith(u"looks fine"_s));
        QVERIFY(results.at(1).text().startsWith(u"tests pass"_s));
        QVERIFY(results.at(2).text().startsWith(u"helped"_s));

        QDir(m_repo.filePath(u".agentdesk/agents"_s)).removeRecursively();
        QDir(m_repo.filePath(u".claude"_s)).removeRecursively();
        QDir(m_data.filePath(u"user-agents"_s)).removeRecursively();
    }

    // Claude Code's SubagentStop protocol: the hook reads session_id, transcript_path,
    // hook_event_name and stop_hook_active; its block makes the child go on with the reason.
    void subagentStopHookMakesTheChildGoOn()
    {
        const QString input = m_data.filePath(u"subagentstop-input.json"_s);
        const QString mark = m_data.filePath(u"subagentstop-mark"_s);
        const QString settings = m_data.filePath(u"subagentstop-settings.json"_s);
        const QString command = u"if [ ! -f '%1' ]; then touch '%1'; cat > '%2'; "
                                u"echo 'check the tests too' >&2; exit 2; fi; exit 0"_s.arg(mark,
                                                                                            input);
        const QJsonObject group{
            {u"hooks"_s,
             QJsonArray{QJsonObject{{u"type"_s, u"command"_s}, {u"command"_s, command}}}}};
        QVERIFY(writeSubagentsFile(settings,
                                   QJsonDocument(QJsonObject{{u"hooks"_s,
                                                              QJsonObject{{u"SubagentStop"_s,
                                                                           QJsonArray{group}}}}})
                                       .toJson()));
        auto scripts = std::make_shared<SubagentScripts>();
        scripts->add(u"Delegate once"_s,
                     {ModelStep::toolCalls(
                          {taskCall(u"call_1"_s, u"explore"_s, u"Look"_s, u"look around"_s)}),
                      ModelStep::text(u"done"_s)});
        scripts->add(u"look around"_s,
                     {ModelStep::text(u"first look"_s), ModelStep::text(u"second look"_s)});
        auto model = routedModel(scripts);
        CodingAgentOptions opts = options();
        opts.permissions.userSettingsPath = settings;
        CodingSession session(opts, {}, true);
        session.setModelClient(model);
        SubagentsTold told;
        listen(session, told);
        QVERIFY(openAndWait(session));
        session.send(u"Delegate once"_s);
        QVERIFY(waitForAgentEnd(told));

        const QList<Context> child = requestsOf(*model, u"look around"_s);
        QCOMPARE(child.size(), 2);
        QVERIFY2(child.at(1).messages.last().text().contains(
                     u"SubagentStop hook asks you to go on: check the tests too"_s),
                 qPrintable(child.at(1).messages.last().text()));
        const Message &result = requestsOf(*model, u"Delegate once"_s).at(1).messages.last();
        QVERIFY(result.text().startsWith(u"second look"_s));
        QFile seen(input);
        QVERIFY(seen.open(QIODevice::ReadOnly));
        const QJsonObject json = QJsonDocument::fromJson(seen.readAll()).object();
        QCOMPARE(json.value(u"hook_event_name"_s).toString(), u"SubagentStop"_s);
        QCOMPARE(json.value(u"stop_hook_active"_s), QJsonValue(false));
        QCOMPARE(json.value(u"session_id"_s).toString(), session.id());
        QVERIFY(json.contains(u"transcript_path"_s));
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_Subagents)

} // namespace tst_subagents

#include "tst_subagents.moc"
