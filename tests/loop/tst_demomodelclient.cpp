// The offline demo model, run for real: a CodingAgent with the coding tools and the permission
// middleware on a temporary git repository, an Agent on its worker thread, and a reviewer that
// approves or denies. The tests check what a user would see: the calls, the files, the answer.
#include "../tools/toolstest.h"

#include <ai/demomodelclient.h>
#include <ai/demoscript.h>
#include <coding/codingagent.h>
#include <context/summaryprompt.h>
#include <loop/agent.h>
#include <testmain.h>
#include <tools/unifieddiff.h>

#include <QElapsedTimer>
#include <QFileInfo>
#include <QMutex>
#include <QStandardPaths>
#include <QTest>

using namespace AgentCore;

namespace tst_demomodelclient {

namespace {

/// Approves every request, or denies edits and writes; records what it was asked.
class Reviewer final : public PermissionAsker
{
public:
    explicit Reviewer(bool denyChanges = false)
        : m_denyChanges(denyChanges)
    {}

    std::optional<PermissionAnswer> ask(const PermissionRequest &request,
                                        const AbortToken &) override
    {
        std::function<void(const PermissionRequest &)> hook;
        {
            QMutexLocker locker(&m_mutex);
            m_asked.append(request.toolName);
            hook = m_onAsk;
        }
        if (hook)
            hook(request);
        PermissionAnswer answer;
        const bool change = request.toolName == QLatin1String("Edit")
                            || request.toolName == QLatin1String("Write");
        answer.choice = m_denyChanges && change ? PermissionAnswer::Choice::Deny
                                                : PermissionAnswer::Choice::AllowOnce;
        return answer;
    }

    QStringList asked() const
    {
        QMutexLocker locker(&m_mutex);
        return m_asked;
    }
    void setOnAsk(std::function<void(const PermissionRequest &)> hook)
    {
        QMutexLocker locker(&m_mutex);
        m_onAsk = std::move(hook);
    }

private:
    mutable QMutex m_mutex;
    QStringList m_asked;
    std::function<void(const PermissionRequest &)> m_onAsk;
    bool m_denyChanges = false;
};

/// A repository, and once started an Agent on it with the demo model, recording its events.
class Session
{
public:
    /// Assembles the coding agent (reading the repository's settings) and starts nothing yet.
    Agent *start(bool denyChanges = false,
                 int chunkPauseMs = 0,
                 PermissionMode mode = PermissionMode::Default)
    {
        reviewer = std::make_shared<Reviewer>(denyChanges);
        CodingAgentOptions options;
        options.permissions.mode = mode;
        options.repositoryRoot = repo.root();
        options.permissions.asker = reviewer;
        options.systemPrompt = QStringLiteral("You are AgentDesk.");
        CodingAgent coding = CodingAgent::assemble(options);
        warnings = coding.warnings;
        coding.config.loop.model = std::make_shared<DemoModelClient>(chunkPauseMs);
        agent = std::make_unique<Agent>(coding.config);
        QObject::connect(agent.get(),
                         &Agent::eventEmitted,
                         agent.get(),
                         [this](const AgentEvent &e) { events.append(e); });
        return agent.get();
    }

    /// Commits everything written so far, so `git status --short` shows only the demo's change.
    bool commit() const
    {
        repo.git({QStringLiteral("add"), QStringLiteral("-A")});
        repo.git({QStringLiteral("-c"),
                  QStringLiteral("user.name=Test"),
                  QStringLiteral("-c"),
                  QStringLiteral("user.email=test@example.com"),
                  QStringLiteral("commit"),
                  QStringLiteral("-qm"),
                  QStringLiteral("initial")});
        return repo.git({QStringLiteral("status"), QStringLiteral("--short")}).isEmpty();
    }

    QList<Message> assistantMessages() const
    {
        QList<Message> result;
        for (const Message &message : agent->messages()) {
            if (message.isAssistant())
                result.append(message);
        }
        return result;
    }

    /// The ToolExecutionEnd events (of tool \a name), in order.
    QList<AgentEvent> toolEnds(const QString &name = {}) const
    {
        QList<AgentEvent> result;
        for (const AgentEvent &event : events) {
            if (event.type == AgentEvent::Type::ToolExecutionEnd
                && (name.isEmpty() || event.toolName == name))
                result.append(event);
        }
        return result;
    }

    ToolsTest::Repo repo;
    std::shared_ptr<Reviewer> reviewer;
    QStringList warnings;
    std::unique_ptr<Agent> agent;
    QList<AgentEvent> events;
};

QStringList callNames(const Message &message)
{
    QStringList names;
    for (const ContentBlock &call : message.toolCalls())
        names.append(call.name);
    return names;
}

QStringList readPaths(const QList<Message> &assistants)
{
    QStringList paths;
    for (const Message &message : assistants) {
        for (const ContentBlock &call : message.toolCalls()) {
            if (call.name == QLatin1String("Read"))
                paths.append(call.arguments.value(QLatin1String("file_path")).toString());
        }
    }
    return paths;
}

// Long enough for the demo's edit in two places (note at the top, closing line at the end).
const QByteArray readme = "# Sample\n\nA small project.\n\n## Build\n\nRun cmake, then make.\n\n"
                          "## Use\n\nStart it.\n";
const QByteArray readmeEnd = "Start it.\n";

/// \a count numbered paragraphs of three lines each, blank lines between.
QByteArray paragraphs(int count)
{
    QByteArray text;
    for (int i = 1; i <= count; ++i) {
        const QByteArray n = QByteArray::number(i);
        text += "\nParagraph " + n + " starts.\nIt goes on.\nParagraph " + n + " ends.\n";
    }
    return text;
}

/// The Edit requests the reviewer was asked, as they arrive.
class EditRequests
{
public:
    explicit EditRequests(Reviewer &reviewer)
    {
        reviewer.setOnAsk([this](const PermissionRequest &request) {
            QMutexLocker locker(&m_mutex);
            if (request.toolName == QLatin1String("Edit"))
                m_edits.append(request);
        });
    }
    QList<PermissionRequest> edits() const
    {
        QMutexLocker locker(&m_mutex);
        return m_edits;
    }

private:
    mutable QMutex m_mutex;
    QList<PermissionRequest> m_edits;
};

} // namespace

class tst_DemoModelClient : public QObject
{
    Q_OBJECT

private slots:
    void answersSummaryRequestsFromTheTranscript();
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void showsTheWholeFlow()
    {
        Session session;
        QVERIFY(session.repo.isValid());
        QVERIFY(session.repo.write(QStringLiteral("README.md"), readme));
        QVERIFY(session.repo.write(QStringLiteral("docs/guide.md"), "Guide\n=====\n\nSteps.\n"));
        QVERIFY(session.repo.write(QStringLiteral("src/main.cpp"), "int main() {}\n"));
        QVERIFY(session.commit());
        session.start();

        QCOMPARE(session.agent->prompt(QStringLiteral("Show me what you can do")),
                 Agent::PromptResult::Started);
        session.agent->followUp(QStringLiteral("Now refactor the parser"));
        QVERIFY(session.agent->waitForIdle());

        const QList<Message> assistants = session.assistantMessages();
        QCOMPARE(assistants.size(), 10); // five for the task, five for the follow-up
        QCOMPARE(callNames(assistants.at(0)), (QStringList{"LS", "Glob"}));
        QCOMPARE(assistants.at(0).stopReason, StopReason::ToolUse);
        QCOMPARE(assistants.at(0).text(),
                 QStringLiteral("I'll start by looking at the repository."));
        // The README first, the other document alongside it: two reads in one message.
        QCOMPARE(callNames(assistants.at(1)), (QStringList{"Read", "Read"}));
        QCOMPARE(readPaths(assistants).mid(0, 2), (QStringList{"README.md", "docs/guide.md"}));
        QCOMPARE(session.toolEnds(QStringLiteral("Read")).size(), 4); // two in each task
        QVERIFY(!session.toolEnds(QStringLiteral("Read")).first().isError);
        QCOMPARE(callNames(assistants.at(2)), QStringList{"Edit"});
        QCOMPARE(callNames(assistants.at(3)), QStringList{"Bash"});

        QVERIFY(session.reviewer->asked().contains(QStringLiteral("Edit")));
        // (The edit is checked after the follow-up's run below, which changes it again.)
        const QList<AgentEvent> bash = session.toolEnds(QStringLiteral("Bash"));
        QCOMPARE(bash.size(), 2); // one in each task
        QVERIFY(!bash.first().isError);
        QCOMPARE(bash.first().arguments.value(QLatin1String("command")).toString(),
                 QStringLiteral("git status --short"));
        QVERIFY2(bash.first().result.text().contains(QLatin1String(" M README.md")),
                 qPrintable(bash.first().result.text()));

        const Message &answer = assistants.at(4);
        QCOMPARE(answer.stopReason, StopReason::Stop);
        QVERIFY(answer.toolCalls().isEmpty());
        const QString text = answer.text();
        QVERIFY2(text.contains(QLatin1String("the edit was applied")), qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("**Read** `README.md` and `docs/guide.md`.")),
                 qPrintable(text));
        QVERIFY2(text.contains(QLatin1String(" M README.md")), qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("offline demo")), qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("Settings")), qPrintable(text));

        // The follow-up queued during the run is a second task: another run like the first,
        // which names it and updates the note it left.
        const Message &second = assistants.at(5);
        QCOMPARE(callNames(second), (QStringList{"LS", "Glob"}));
        QVERIFY2(second.text().contains(QStringLiteral("\u201cNow refactor the parser\u201d")),
                 qPrintable(second.text()));
        QVERIFY2(!second.text().contains(QStringLiteral("cannot")), qPrintable(second.text()));
        QCOMPARE(callNames(assistants.at(7)), QStringList{"Edit"});
        QCOMPARE(session.repo.read(QStringLiteral("README.md")),
                 QByteArray("# Sample\n\n> Tried twice with AgentDesk's offline demo.\n")
                     + readme.mid(9).chopped(1) + "\n\n" + DemoScript::closingNote().toUtf8()
                     + "\n");
        QCOMPARE(assistants.at(9).stopReason, StopReason::Stop);
        QVERIFY2(assistants.at(9).text().contains(QLatin1String("the edit was applied")),
                 qPrintable(assistants.at(9).text()));
        QVERIFY(session.agent->followUpQueue().isEmpty());

        for (const Message &message : assistants) {
            QCOMPARE(message.model, QStringLiteral("demo"));
            QCOMPARE(message.provider, QStringLiteral("demo"));
            QCOMPARE(message.api, QStringLiteral("demo"));
            QVERIFY(message.usage.input > 0);
            QVERIFY(message.usage.output > 0);
            QCOMPARE(message.usage.cost, 0.0);
        }
    }

    // Whatever the README (a short one, an empty one, none, a huge one that Read shows only
    // in part), the demo's edit has two hunks the reviewer can take or leave one by one: in
    // the README when it is long enough, else in the notes the demo writes first.
    void editHasTwoHunks_data()
    {
        QTest::addColumn<QByteArray>("text"); // the README's; "none": no README
        QTest::addColumn<QString>("edited");
        QTest::addColumn<int>("assistants");
        QTest::addColumn<QByteArray>("ending"); // of the edited file's first part, or the file's

        const QByteArray closing = DemoScript::closingNote().toUtf8();
        const QByteArray sections = "# Sample\n\nA small project.\n" + paragraphs(12);
        QTest::newRow("of some length")
            << sections << "README.md" << 5 << "Paragraph 12 ends.\n\n" + closing + '\n';
        QTest::newRow("just long enough")
            << readme << "README.md" << 5 << readmeEnd + '\n' + closing + '\n';
        const QByteArray notesEnd = "in the Agent menu.\n\n" + closing + '\n';
        QTest::newRow("short") << QByteArray("# Sample\n\nA small project.\n") << "DEMO_NOTES.md"
                               << 6 << notesEnd;
        QTest::newRow("one line") << QByteArray("# calculator\n") << "DEMO_NOTES.md" << 6
                                  << notesEnd;
        QTest::newRow("empty") << QByteArray() << "DEMO_NOTES.md" << 6 << notesEnd;
        QTest::newRow("missing") << QByteArray("none") << "DEMO_NOTES.md" << 5 << notesEnd;
        // 300 lines: the whole file, too long to send whole; 1500 paragraphs: Read shows the
        // first 2000 lines only. The closing line goes after the first paragraph that ends at
        // least 8 lines below the note.
        const QByteArray firstParagraph = "Paragraph 2 ends.\n\n" + closing
                                          + "\n\nParagraph 3 starts.\n";
        QTest::newRow("longer than an edit")
            << "# Big\n" + paragraphs(75) << "README.md" << 5 << firstParagraph;
        QTest::newRow("huge") << "# Huge\n" + paragraphs(1500) << "README.md" << 5
                              << firstParagraph;
    }

    void editHasTwoHunks()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, edited);
        QFETCH(int, assistants);
        QFETCH(QByteArray, ending);
        Session session;
        if (text != "none")
            QVERIFY(session.repo.write(QStringLiteral("README.md"), text));
        QVERIFY(session.repo.write(QStringLiteral("main.c"), "int main(void) { return 0; }\n"));
        QVERIFY(session.commit());
        session.start();
        const EditRequests requests(*session.reviewer);
        session.agent->prompt(QStringLiteral("Tidy up the README"));
        QVERIFY(session.agent->waitForIdle());

        const QList<PermissionRequest> edits = requests.edits();
        QCOMPARE(edits.size(), 1);
        QCOMPARE(QFileInfo(edits.first().filePath).fileName(), edited);
        QCOMPARE(edits.first().diff.hunks().size(), 2); // what the review shows
        const QList<AgentEvent> ends = session.toolEnds(QStringLiteral("Edit"));
        QCOMPARE(ends.size(), 1);
        QVERIFY2(!ends.first().isError, qPrintable(ends.first().result.text()));
        const QByteArray after = session.repo.read(edited);
        QVERIFY2(after.contains("\n\n> Tried with AgentDesk's offline demo.\n"), after.constData());
        QVERIFY2(after.contains(ending), after.right(300).constData());
        if (edited == QLatin1String("README.md")) { // nothing but the two places changed
            QCOMPARE(after.size(),
                     text.size() + DemoScript::note().toUtf8().size()
                         + DemoScript::closingNote().toUtf8().size() + 4);
        } else if (text != "none") {
            QCOMPARE(session.repo.read(QStringLiteral("README.md")), text);
        }
        QCOMPARE(session.assistantMessages().size(), assistants);
        const QString answer = session.assistantMessages().last().text();
        QVERIFY2(answer.contains(QLatin1String("the edit was applied")), qPrintable(answer));
    }

    void rejectedEditLeavesTheFile()
    {
        Session session;
        QVERIFY(session.repo.write(QStringLiteral("README.md"), readme));
        QVERIFY(session.commit());
        session.start(/*denyChanges=*/true);

        session.agent->prompt(QStringLiteral("Go"));
        QVERIFY(session.agent->waitForIdle());

        QCOMPARE(session.repo.read(QStringLiteral("README.md")), readme);
        const QList<AgentEvent> edits = session.toolEnds(QStringLiteral("Edit"));
        QCOMPARE(edits.size(), 1);
        QVERIFY(edits.first().isError);
        // Rejected, the demo still goes on: the command runs and it answers.
        QCOMPARE(session.toolEnds(QStringLiteral("Bash")).size(), 1);
        const QList<Message> assistants = session.assistantMessages();
        QCOMPARE(assistants.size(), 5);
        const QString text = assistants.last().text();
        QCOMPARE(assistants.last().stopReason, StopReason::Stop);
        QVERIFY2(text.contains(QLatin1String("you rejected the change to `README.md`, so the file "
                                             "is unchanged")),
                 qPrintable(text));
        QVERIFY2(!text.contains(QLatin1String("applied")), qPrintable(text));
    }

    // Where the note goes at the top of files of every shape; each goes on for long enough
    // (the same ten lines) for the closing line at its end.
    void editsBelievably_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QByteArray>("before");
        QTest::addColumn<QByteArray>("after");

        const QByteArray note = "> Tried with AgentDesk's offline demo.";
        QByteArray tail = "\n"; // after a blank line, "Line 1." to "Line 10."
        for (int i = 1; i <= 10; ++i)
            tail += "Line " + QByteArray::number(i) + ".\n";
        const QByteArray end = tail + "\n" + DemoScript::closingNote().toUtf8() + "\n";
        QTest::newRow("heading then text")
            << "README.md"
            << "# Title\nText right below.\n" + tail
            << "# Title\n\n" + note + "\n\nText right below.\n" + end;
        QTest::newRow("setext heading")
            << "README.md"
            << "Title\n=====\n\nText.\n" + tail << "Title\n=====\n\n" + note + "\n\nText.\n" + end;
        QTest::newRow("front matter") << "README.md"
                                      << "---\ntitle: x\n---\n# Title\n" + tail
                                      << "---\ntitle: x\n---\n# Title\n\n" + note + "\n" + end;
        QTest::newRow("first line repeated")
            << "README.md"
            << "Hello\n\nHello\nWorld\n" + tail << "Hello\n\nHello\nWorld\n\n" + note + "\n" + end;
        QTest::newRow("no trailing newline")
            << "README.md"
            << "Only line\n" + tail.chopped(1)
            << "Only line\n\n" + note + "\n" + tail + "\n" + DemoScript::closingNote().toUtf8();
        QByteArray crlfTail = tail;
        crlfTail.replace("\n", "\r\n");
        QTest::newRow("CRLF") << "README.md"
                              << "# Title\r\n\r\nText.\r\n" + crlfTail
                              << "# Title\r\n\r\n" + note + "\r\n\r\nText.\r\n" + crlfTail + "\r\n"
                                     + DemoScript::closingNote().toUtf8() + "\r\n";
        QTest::newRow("README without extension")
            << "README"
            << "Project\n" + tail << "Project\n\n" + note + "\n" + end;
        QTest::newRow("notes in a text file")
            << "notes.txt"
            << "\n\n  indented first\n" + tail << "\n\n  indented first\n\n" + note + "\n" + end;
    }

    void editsBelievably()
    {
        QFETCH(QString, file);
        QFETCH(QByteArray, before);
        QFETCH(QByteArray, after);
        Session session;
        QVERIFY(session.repo.write(file, before));
        session.start();

        session.agent->prompt(QStringLiteral("Go"));
        QVERIFY(session.agent->waitForIdle());

        QCOMPARE(readPaths(session.assistantMessages()), QStringList{file});
        QCOMPARE(session.repo.read(file), after);
        QVERIFY(session.assistantMessages().last().text().contains(
            QLatin1String("the edit was applied")));
    }

    void withoutTextFilesProposesANewFile_data()
    {
        QTest::addColumn<QStringList>("files");
        QTest::newRow("empty repository") << QStringList{};
        QTest::newRow("code only") << QStringList{"main.c", "CMakeLists.txt"};
    }

    void withoutTextFilesProposesANewFile()
    {
        QFETCH(QStringList, files);
        Session session;
        for (const QString &file : std::as_const(files))
            QVERIFY(session.repo.write(file, "int x;\n"));
        session.start();

        session.agent->prompt(QStringLiteral("Go"));
        QVERIFY(session.agent->waitForIdle());

        const QList<Message> assistants = session.assistantMessages();
        QCOMPARE(assistants.size(), 5); // explore, write, edit of what it wrote, command, answer
        QVERIFY(readPaths(assistants).isEmpty());
        QCOMPARE(callNames(assistants.at(1)), QStringList{"Write"});
        QCOMPARE(callNames(assistants.at(2)), QStringList{"Edit"});
        QVERIFY(session.reviewer->asked().contains(QStringLiteral("Write")));
        QVERIFY(session.repo.read(DemoScript::notesFileName())
                    .startsWith("# Demo notes\n\n> Tried with AgentDesk's offline demo.\n"));
        for (const QString &file : std::as_const(files))
            QCOMPARE(session.repo.read(file), QByteArray("int x;\n"));
        const QString text = assistants.last().text();
        QCOMPARE(assistants.last().stopReason, StopReason::Stop);
        QVERIFY2(text.contains(QLatin1String("**Created** `DEMO_NOTES.md`")), qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("?? DEMO_NOTES.md")), qPrintable(text));
    }

    void steeringIsAcknowledged()
    {
        Session session;
        QVERIFY(session.repo.write(QStringLiteral("README.md"), readme));
        session.start();
        // Sent while the edit waits for review: the loop takes it before the next model call.
        Agent *agent = session.agent.get();
        session.reviewer->setOnAsk([agent](const PermissionRequest &request) {
            if (request.toolName == QLatin1String("Edit"))
                agent->steer(QStringLiteral("Please hurry up"));
        });

        agent->prompt(QStringLiteral("Go"));
        QVERIFY(agent->waitForIdle());

        const QList<Message> assistants = session.assistantMessages();
        QCOMPARE(assistants.size(), 5); // steering does not derail the task
        QCOMPARE(callNames(assistants.at(3)), QStringList{"Bash"});
        QVERIFY2(assistants.at(3).text().startsWith(
                     QStringLiteral("You said: \u201cPlease hurry up\u201d.")),
                 qPrintable(assistants.at(3).text()));
        QVERIFY(!assistants.at(4).text().contains(QLatin1String("You said")));
        QVERIFY(assistants.at(4).text().contains(QLatin1String("the edit was applied")));
    }

    void failedToolsDoNotDerailIt()
    {
        // A deny rule for Bash in the project's settings: the command fails, the demo answers.
        Session session;
        QVERIFY(session.repo.write(QStringLiteral("README.md"), readme));
        QVERIFY(session.repo.write(QStringLiteral(".agentdesk/settings.json"),
                                   R"({"permissions": {"deny": ["Bash"]}})"));
        Agent *agent = session.start();
        QVERIFY2(session.warnings.isEmpty(), qPrintable(session.warnings.join('\n')));

        agent->prompt(QStringLiteral("Go"));
        QVERIFY(agent->waitForIdle());

        const QList<AgentEvent> bash = session.toolEnds(QStringLiteral("Bash"));
        QCOMPARE(bash.size(), 1);
        QVERIFY(bash.first().isError);
        const Message answer = agent->messages().last();
        QCOMPARE(answer.stopReason, StopReason::Stop);
        QVERIFY2(answer.text().contains(QLatin1String("`git status --short` did not work: ")),
                 qPrintable(answer.text()));
        QVERIFY(answer.text().contains(QLatin1String("the edit was applied")));
    }

    void planModeOnlyLooks()
    {
        Session session;
        QVERIFY(session.repo.write(QStringLiteral("README.md"), readme));
        Agent *agent = session.start(false, 0, PermissionMode::Plan);

        agent->prompt(QStringLiteral("Go"));
        QVERIFY(agent->waitForIdle());

        const QList<Message> assistants = session.assistantMessages();
        QCOMPARE(assistants.size(), 4); // explore, read, git status, answer
        QCOMPARE(session.repo.read(QStringLiteral("README.md")), readme);
        QVERIFY(session.reviewer->asked().isEmpty());
        // Plan mode runs read-only commands (issue #15): git status, unasked.
        const QList<AgentEvent> bash = session.toolEnds(QStringLiteral("Bash"));
        QCOMPARE(bash.size(), 1);
        QVERIFY2(!bash.first().isError, qPrintable(bash.first().result.text()));
        const QString text = assistants.last().text();
        QVERIFY2(text.contains(QLatin1String("**No edit proposed**")), qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("**Read** `README.md`.")), qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("**Ran** `git status --short`")), qPrintable(text));
    }

    void abortEndsAtOnce()
    {
        Session session;
        QVERIFY(session.repo.write(QStringLiteral("README.md"), readme));
        session.start(false, /*chunkPauseMs=*/100);
        QElapsedTimer timer;
        QObject::connect(session.agent.get(),
                         &Agent::eventEmitted,
                         session.agent.get(),
                         [&](const AgentEvent &event) {
                             if (event.type == AgentEvent::Type::MessageUpdate
                                 && event.streamEvent.type == StreamEvent::Type::TextDelta
                                 && !timer.isValid()) {
                                 timer.start();
                                 session.agent->abort();
                             }
                         });

        session.agent->prompt(QStringLiteral("Go"));
        QVERIFY(session.agent->waitForIdle(5000));
        QVERIFY(timer.isValid());
        QVERIFY2(timer.elapsed() < 1000, qPrintable(QString::number(timer.elapsed())));

        const QList<Message> assistants = session.assistantMessages();
        QCOMPARE(assistants.size(), 1);
        QCOMPARE(assistants.first().stopReason, StopReason::Aborted);
        const QString partial = assistants.first().text();
        QVERIFY2(!partial.isEmpty()
                     && QStringLiteral("I'll start by looking at the repository.").startsWith(partial)
                     && partial.size() < 20,
                 qPrintable(partial));
        QVERIFY(assistants.first().toolCalls().isEmpty());
        QVERIFY(session.toolEnds().isEmpty());
    }

    void labelSaysOfflineAndScripted()
    {
        QVERIFY(DemoModelClient::label().contains(QLatin1String("offline")));
        QVERIFY(DemoModelClient::label().contains(QLatin1String("scripted")));
    }
};

void tst_DemoModelClient::answersSummaryRequestsFromTheTranscript()
{
    Message read;
    read.role = Message::Role::Assistant;
    read.content = {ContentBlock::makeToolCall("c1", "Read", {{"file_path", "src/parser.cpp"}})};
    const QList<Message> prefix{Message::makeUser("Fix the parser"),
                                read,
                                Message::makeToolResult("c1", "Read", "int parse();", false)};
    const Context request = summaryContext(prefix, {}, {Message::makeUser("then the docs")}, 0);
    DemoModelClient demo(0);
    const Message reply = demo.complete(request, AbortToken(), {});
    QCOMPARE(reply.stopReason, StopReason::Stop);
    const QString summary = reply.text();
    QVERIFY2(summary.contains("Fix the parser"), qPrintable(summary));
    QVERIFY(summary.contains("src/parser.cpp"));
    QVERIFY(summary.contains("Read x1"));
    QVERIFY(summary.contains("then the docs"));
    QVERIFY(!summary.contains("int parse();")); // a summary, not the transcript
    QCOMPARE(demo.complete(request, AbortToken(), {}).text(), summary); // deterministic
}

AGENTDESK_GUILESS_TEST_MAIN(tst_DemoModelClient)

} // namespace tst_demomodelclient

#include "tst_demomodelclient.moc"
