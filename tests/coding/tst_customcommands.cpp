// Custom commands and skills in CodingSession: front matter (errors named with file and line),
// where commands and skills are found and which wins, `$ARGUMENTS`/`$1` substitution, `@file`
// attachments (the repository's only), `!` lines run through the session's permission policy
// as Bash calls, and skills: their names and descriptions in the system prompt, the body only
// from the Skill tool, a user skill's folder readable by Read and nothing beside it. Real
// files in temporary git repositories, a scripted model.
#include <coding/codingsession.h>
#include <coding/frontmatter.h>
#include <loop/agent.h>
#include <permissions/permissionpolicy.h>
#include <testmain.h>

#include <scriptedmodel.h>
#include <testfiles.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace AgentCore;
using namespace TestSupport;
using namespace Qt::StringLiterals;

namespace tst_customcommands {

namespace {

bool writeCommandFile(const QString &path, const QByteArray &content)
{
    if (!QDir().mkpath(QFileInfo(path).path()))
        return false;
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate)
           && file.write(content) == content.size();
}

} // namespace

class tst_CustomCommands : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir; // repo/, user/ (commands, skills), data/, settings.json
    QString repo() const { return m_dir.filePath(u"repo"_s); }
    QString user() const { return m_dir.filePath(u"user"_s); }

    CodingAgentOptions options(PermissionMode mode = PermissionMode::AcceptEdits) const
    {
        CodingAgentOptions options = CodingSession::defaultOptions();
        options.repositoryRoot = QFileInfo(repo()).canonicalFilePath();
        options.permissions.userSettingsPath = m_dir.filePath(u"settings.json"_s);
        options.permissions.projectTrustPath.clear();
        options.permissions.auditLogPath.clear();
        options.checkpoints.storeRoot.clear();
        options.shellWrites.folder = m_dir.filePath(u"data/shell-writes"_s);
        options.sandbox.mode = SandboxMode::Off;
        options.permissions.mode = mode;
        options.userCommandsFolder = user() + u"/commands"_s;
        options.userSkillsFolder = user() + u"/skills"_s;
        return options;
    }

    std::unique_ptr<CodingSession> readySession(std::shared_ptr<ScriptedModel> model,
                                                CodingAgentOptions opts)
    {
        auto session = std::make_unique<CodingSession>(std::move(opts),
                                                       CodingSessionFile(),
                                                       /*interactive=*/false);
        session->setModelClient(std::move(model));
        QSignalSpy ready(session.get(), &CodingSession::ready);
        session->open();
        if (!ready.wait(20'000))
            return nullptr;
        return session;
    }

    static bool waitForAgentEnd(QSignalSpy &events)
    {
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

private slots:
    void init()
    {
        QDir(repo()).removeRecursively();
        QDir(user()).removeRecursively();
        QFile::remove(m_dir.filePath(u"settings.json"_s));
        QVERIFY(gitInit(repo()));
        QVERIFY(writeCommandFile(repo() + u"/notes.txt"_s, "apple pie\n"));
    }

    void frontMatterErrorsNameTheFileAndLine()
    {
        const FrontMatter matter = FrontMatter::parse(u"---\n"
                                                      "description: \"Runs the tests\"\n"
                                                      "allowed-tools: [Bash(git status:*), Read]\n"
                                                      "no colon here\n"
                                                      "model: 'sonnet'\n"
                                                      "---\n"
                                                      "Body $1\n"_s,
                                                      u"/r/x.md"_s);
        QCOMPARE(matter.errors, QStringList{u"/r/x.md:4: not a \"key: value\" line"_s});
        QCOMPARE(matter.fields.value(u"description"_s), u"Runs the tests"_s);
        QCOMPARE(matter.fields.value(u"model"_s), u"sonnet"_s);
        QCOMPARE(FrontMatter::listOf(matter.fields.value(u"allowed-tools"_s)),
                 (QStringList{u"Bash(git status:*)"_s, u"Read"_s}));
        QCOMPARE(matter.body, u"Body $1\n"_s);
        QCOMPARE(matter.bodyLine, 7);

        const FrontMatter open = FrontMatter::parse(u"---\nname: x\nBody\n"_s, u"/r/y.md"_s);
        QCOMPARE(open.errors,
                 QStringList{u"/r/y.md:1: the front matter has no closing \"---\" line"_s});
        QVERIFY(open.fields.isEmpty());
        QCOMPARE(FrontMatter::parse(u"No front matter\n"_s, u"z"_s).body, u"No front matter\n"_s);
    }

    void argumentsAreSubstituted()
    {
        const auto invocation = CustomCommandInvocation::parse(u"/fix 123 \"New York\" extra"_s);
        QVERIFY(invocation);
        QCOMPARE(invocation->name, u"fix"_s);
        QCOMPARE(invocation->positional(), (QStringList{u"123"_s, u"New York"_s, u"extra"_s}));
        QCOMPARE(substituteArguments(u"Fix #$1 in $2 ($ARGUMENTS), not $4."_s, *invocation),
                 u"Fix #123 in New York (123 \"New York\" extra), not ."_s);
        // No placeholder: the arguments follow, as in Claude Code.
        QCOMPARE(substituteArguments(u"Review."_s, *invocation),
                 u"Review.\n\nARGUMENTS: 123 \"New York\" extra"_s);
        QVERIFY(!CustomCommandInvocation::parse(u"no command"_s));
        QVERIFY(!CustomCommandInvocation::parse(u"/ x"_s));
    }

    // .agentdesk/ before .claude/ before the user's folder; subfolders give "a:b" names.
    void commandsAreFoundWithTheirNamespaces()
    {
        QVERIFY(writeCommandFile(repo() + u"/.agentdesk/commands/review.md"_s,
                                 "---\ndescription: ours\n---\nOurs\n"));
        QVERIFY(writeCommandFile(repo() + u"/.claude/commands/review.md"_s,
                                 "---\ndescription: claude's\n---\nTheirs\n"));
        QVERIFY(
            writeCommandFile(repo() + u"/.claude/commands/frontend/test.md"_s,
                             "---\ndescription: Frontend tests\nargument-hint: <suite>\n---\nT\n"));
        QVERIFY(writeCommandFile(user() + u"/commands/mine.md"_s, "Mine\n"));
        QVERIFY(writeCommandFile(user() + u"/commands/bad name.md"_s, "x\n"));
        const CustomCommands found = CustomCommands::discover(repo(), user() + u"/commands"_s);
        QStringList names;
        for (const CustomCommand &command : found.commands)
            names.append(command.name);
        QCOMPARE(names, (QStringList{u"frontend:test"_s, u"mine"_s, u"review"_s}));
        QCOMPARE(found.find(u"review"_s)->description, u"ours"_s);
        QCOMPARE(found.find(u"frontend:test"_s)->argumentHint, u"<suite>"_s);
        QCOMPARE(found.find(u"mine"_s)->scope, CustomCommand::Scope::User);
        QCOMPARE(found.warnings.size(), 1);
        QVERIFY2(found.warnings.first().contains(u"bad name.md: skipped"_s),
                 qPrintable(found.warnings.first()));
    }

    // The prompt the model gets: arguments, the attached file, a `!` line's output.
    void commandExpandsIntoThePromptSent()
    {
        QVERIFY(writeCommandFile(repo() + u"/.agentdesk/commands/check.md"_s,
                                 "---\ndescription: Check\n---\nCheck $1 against @notes.txt.\n"
                                 "!git status --short\n"));
        auto model = std::make_shared<ScriptedModel>(QList{ModelStep::text(u"Checked."_s)});
        auto session = readySession(model, options());
        QVERIFY(session);
        QCOMPARE(session->customCommands().size(), 1);
        QSignalSpy events(session.get(), &CodingSession::eventEmitted);
        QSignalSpy expanded(session.get(), &CodingSession::commandExpanded);
        session->send(u"/check the-spec"_s);
        QVERIFY(waitForAgentEnd(events));
        QCOMPARE(expanded.size(), 1);
        const QString sent = model->contexts().first().messages.first().text();
        QVERIFY2(sent.startsWith(u"Check the-spec against @notes.txt.\n"_s), qPrintable(sent));
        QVERIFY2(sent.contains(u"?? notes.txt"_s), qPrintable(sent));
        QVERIFY2(sent.contains(u"<file path=\"notes.txt\">\napple pie\n</file>"_s),
                 qPrintable(sent));
    }

    void referencesOutsideOrBinaryAreRefused()
    {
        QVERIFY(writeCommandFile(m_dir.filePath(u"outside.txt"_s), "secret\n"));
        QVERIFY(writeCommandFile(repo() + u"/blob.bin"_s, QByteArray("\0\1\2\3", 4)));
        QVERIFY(
            writeCommandFile(repo() + u"/.agentdesk/commands/out.md"_s, "See @../outside.txt\n"));
        QVERIFY(writeCommandFile(repo() + u"/.agentdesk/commands/bin.md"_s, "See @blob.bin\n"));
        QVERIFY(writeCommandFile(repo() + u"/.agentdesk/commands/mail.md"_s,
                                 "Write to @nobody about it.\n"));
        auto model = std::make_shared<ScriptedModel>(QList{ModelStep::text(u"Written."_s)});
        auto session = readySession(model, options());
        QVERIFY(session);
        QSignalSpy failed(session.get(), &CodingSession::commandFailed);
        session->send(u"/out"_s);
        QVERIFY(failed.wait(10'000));
        QVERIFY2(failed.last().first().toString().contains(u"outside the repository"_s),
                 qPrintable(failed.last().first().toString()));
        session->send(u"/bin"_s);
        QVERIFY(failed.wait(10'000));
        QVERIFY2(failed.last().first().toString().contains(u"binary"_s),
                 qPrintable(failed.last().first().toString()));
        QCOMPARE(model->callCount(), 0);
        // A word that names no file stays text.
        QSignalSpy events(session.get(), &CodingSession::eventEmitted);
        session->send(u"/mail"_s);
        QVERIFY(waitForAgentEnd(events));
        QCOMPARE(model->contexts().first().messages.first().text(), u"Write to @nobody about it."_s);
    }

    // A deny rule keeps a `!` line from running; a command that asks is denied with nobody
    // to ask; nothing is sent either way.
    void shellLinesGoThroughThePolicy()
    {
        QVERIFY(writeCommandFile(m_dir.filePath(u"settings.json"_s),
                                 R"json({"permissions": {"deny": ["Bash(git status:*)"]}})json"));
        QVERIFY(writeCommandFile(repo() + u"/.agentdesk/commands/st.md"_s, "!git status\n"));
        QVERIFY(writeCommandFile(repo() + u"/.agentdesk/commands/mk.md"_s,
                                 "!`touch made.txt`\nDone?\n"));
        auto model = std::make_shared<ScriptedModel>();
        auto session = readySession(model, options(PermissionMode::Default));
        QVERIFY(session);
        QSignalSpy failed(session.get(), &CodingSession::commandFailed);
        session->send(u"/st"_s);
        QVERIFY(failed.wait(10'000));
        QVERIFY2(failed.last().first().toString().contains(u"\"!git status\" was not run"_s),
                 qPrintable(failed.last().first().toString()));
        session->send(u"/mk"_s);
        QVERIFY(failed.wait(10'000));
        QVERIFY(!QFileInfo::exists(repo() + u"/made.txt"_s));
        QCOMPARE(model->callCount(), 0);
    }

    void skillsAreListedAndLoadedOnDemand()
    {
        QVERIFY(writeCommandFile(repo() + u"/.agents/skills/pdf-forms/SKILL.md"_s,
                                 "---\nname: pdf-forms\ndescription: Fill in PDF forms\n---\n"
                                 "Use fill.py beside this file. SKILL-BODY-MARKER\n"));
        QVERIFY(writeCommandFile(user() + u"/skills/notes/SKILL.md"_s,
                                 "---\ndescription: Keep the user's notes\n---\nNotes body.\n"));
        QVERIFY(writeCommandFile(user() + u"/skills/notes/reference.md"_s, "ref\n"));
        QVERIFY(writeCommandFile(user() + u"/private.txt"_s, "not a skill's\n"));
        QVERIFY(writeCommandFile(repo() + u"/.claude/skills/broken/SKILL.md"_s,
                                 "---\ndescription: x\nwhat\n---\nB\n"));
        auto model = std::make_shared<ScriptedModel>();
        CodingAgentOptions opts = options();
        auto session = std::make_unique<CodingSession>(std::move(opts),
                                                       CodingSessionFile(),
                                                       /*interactive=*/false);
        session->setModelClient(model);
        QSignalSpy warnings(session.get(), &CodingSession::warning);
        QSignalSpy ready(session.get(), &CodingSession::ready);
        session->open();
        QVERIFY(ready.wait(20'000));
        QStringList said;
        for (const QList<QVariant> &args : std::as_const(warnings))
            said.append(args.first().toString());
        QVERIFY2(said.contains(repo()
                               + u"/.claude/skills/broken/SKILL.md:3: not a \"key: value\" line"_s),
                 qPrintable(said.join(u'\n')));

        const QString prompt = session->systemPrompt();
        // Sorted by name: the prompt is the same at every start.
        QVERIFY2(prompt.contains(u"- broken: x\n- notes: Keep the user's notes\n- pdf-forms: "
                                 "Fill in PDF forms\n"_s),
                 qPrintable(prompt));
        QVERIFY(!prompt.contains(u"SKILL-BODY-MARKER"_s));
        const QList<ToolDefinition> tools = session->toolDefinitions();
        QVERIFY(std::any_of(tools.cbegin(), tools.cend(), [](const ToolDefinition &tool) {
            return tool.name == u"Skill"_s;
        }));

        SkillTool tool(session->parts().skills);
        ToolCallContext call;
        call.toolName = u"Skill"_s;
        call.arguments = {{u"name"_s, u"pdf-forms"_s}};
        const ToolResult loaded = tool.execute(call);
        QVERIFY(!loaded.isError);
        QVERIFY(loaded.text().contains(u"SKILL-BODY-MARKER"_s));
        QCOMPARE(loaded.details.other.value(u"description"_s).toString(), u"Fill in PDF forms"_s);

        // The user skill's folder is read without a question; the folder beside it is not.
        const auto readDecision = [&](const QString &path) {
            PermissionSubject subject;
            subject.toolName = u"Read"_s;
            subject.arguments = {{u"file_path"_s, path}};
            PermissionSubject::Path touched;
            touched.absolute = QFileInfo(path).canonicalFilePath();
            subject.paths.append(touched);
            return session->parts().policy->decide(subject).behavior;
        };
        QCOMPARE(readDecision(user() + u"/skills/notes/reference.md"_s), PermissionBehavior::Allow);
        QCOMPARE(readDecision(user() + u"/private.txt"_s), PermissionBehavior::Ask);
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_CustomCommands)

} // namespace tst_customcommands

#include "tst_customcommands.moc"
