// Custom commands and skills in the window: the composer's `/` list offers a repository's
// commands with their argument hints and descriptions (beside MCP prompts), a loaded skill's
// tool card names the skill and says what it is for, and the context view counts the skills'
// part of the system prompt in a row of its own. Real widgets, offscreen; real files.
#include <coding/skills.h>
#include <composer/composer.h>
#include <contextview/contextsnapshot.h>
#include <conversation/toolcarditem.h>
#include <testmain.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace tst_extendingwindow {

namespace {

bool writeSkillFile(const QString &path, const QByteArray &content)
{
    QFile file(path);
    return QDir().mkpath(QFileInfo(path).path()) && file.open(QIODevice::WriteOnly)
           && file.write(content) == content.size();
}

AgentCore::Skills releaseSkills(const QTemporaryDir &dir)
{
    writeSkillFile(dir.filePath(u".agents/skills/release-checklist/SKILL.md"_s),
                   "---\nname: release-checklist\ndescription: Steps to cut a release\n---\n"
                   "1. Bump the version.\n");
    return AgentCore::Skills::discover(dir.path(), {});
}

} // namespace

class tst_ExtendingWindow : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void slashListShowsCommandsWithTheirDescriptions()
    {
        QTemporaryDir dir;
        QVERIFY(writeSkillFile(dir.filePath(u".claude/commands/frontend/test.md"_s),
                               "---\ndescription: Run the frontend tests\n"
                               "argument-hint: <suite>\n---\nRun $1\n"));
        QVERIFY(writeSkillFile(dir.filePath(u".agentdesk/commands/review.md"_s),
                               "---\ndescription: Review the branch\n---\nReview\n"));
        const AgentCore::CustomCommands commands = AgentCore::CustomCommands::discover(dir.path(),
                                                                                       {});
        QCOMPARE(commands.commands.size(), 2);

        Ui::Composer composer;
        composer.setCustomCommands(commands.commands);
        composer.resize(480, composer.height());
        composer.show();
        composer.activateWindow();
        composer.setFocus();
        QVERIFY(QTest::qWaitForWindowExposed(&composer));
        QTRY_VERIFY(composer.hasFocus());
        QTest::keyClicks(&composer, u"/"_s);
        QTRY_VERIFY(composer.isCompletionVisible());
        QCOMPARE(composer.completions(), (QStringList{u"/frontend:test "_s, u"/review "_s}));
        QCOMPARE(composer.completionDetails(),
                 (QStringList{u"Run the frontend tests"_s, u"Review the branch"_s}));
        QTest::keyClicks(&composer, u"rev"_s);
        QCOMPARE(composer.completions(), QStringList{u"/review "_s});
        QTest::keyClick(&composer, Qt::Key_Tab);
        QCOMPARE(composer.toPlainText(), u"/review "_s);
        QVERIFY(!composer.isCompletionVisible());
    }

    void skillCardNamesTheSkill()
    {
        QTemporaryDir dir;
        AgentCore::SkillTool tool(releaseSkills(dir));
        AgentCore::ToolCallContext call;
        call.toolName = u"Skill"_s;
        call.arguments = {{u"name"_s, u"release-checklist"_s}};
        const AgentCore::ToolResult result = tool.execute(call);
        QVERIFY(!result.isError);

        Ui::ToolCardItem card(u"call_skill"_s, u"Skill"_s);
        card.setArguments(call.arguments);
        card.setRunning(0);
        card.setResult(result, 10);
        QCOMPARE(card.keyArgument(), u"release-checklist"_s);
        QVERIFY2(card.outputText().startsWith(
                     u"Skill \"release-checklist\": Steps to cut a release\n"_s),
                 qPrintable(card.outputText()));
    }

    void contextViewCountsTheSkills()
    {
        QTemporaryDir dir;
        const QString skills = releaseSkills(dir).promptSection();
        QVERIFY(!skills.isEmpty());
        AgentCore::ContextMeter meter;
        const QString prompt = u"You are AgentDesk, a coding agent.\n"_s.repeated(40) + skills;
        meter.setPreamble(prompt, {});
        const Ui::ContextSnapshot snapshot = Ui::ContextSnapshot::of(meter, {}, 200'000, skills);
        QCOMPARE(snapshot.items.size(), 2);
        const Ui::ContextItem &rest = snapshot.items.at(0);
        const Ui::ContextItem &listed = snapshot.items.at(1);
        QCOMPARE(listed.kind, Ui::ContextItem::Kind::Skills);
        QCOMPARE(listed.title, u"Skills (1, names and descriptions)"_s);
        QCOMPARE(listed.tokens, meter.estimate(skills));
        QCOMPARE(rest.tokens + listed.tokens, meter.estimate(prompt));
    }
};

AGENTDESK_TEST_MAIN(tst_ExtendingWindow)

} // namespace tst_extendingwindow

#include "tst_extendingwindow.moc"
