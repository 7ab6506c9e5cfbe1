// Custom commands and skills in agentdesk --print, end to end: a repository holding Claude
// Code-style `.claude/commands/` and `.agents/skills/` files, the real binary, a scripted
// provider on 127.0.0.1. The prompt `/NAME ARGS` is the command's text with its arguments,
// `@file` attachments and `!` lines (run through the permission policy as Bash calls); a
// skill's name and description are in the system prompt and the Skill tool loads its body.

#include "headlessrun.h"
#include "httptestserver.h"
#include "modelreplies.h"

#include <QDir>
#include <QFileInfo>
#include <QTest>
#include <testmain.h>

using namespace TestSupport;
using namespace Qt::StringLiterals;

namespace tst_headlessextending {

namespace {

bool writeExtendingFile(const HeadlessSandbox &sandbox,
                        const QString &relative,
                        const QByteArray &content)
{
    return QDir(sandbox.root()).mkpath(QFileInfo(relative).path())
           && sandbox.write(relative, content);
}

} // namespace

class tst_HeadlessExtending : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(agentdeskBinary()).isExecutable(), qPrintable(agentdeskBinary()));
    }

    // `frontend/test.md` is `/frontend:test`: $1 and $ARGUMENTS substituted, the `@` file
    // attached, the `!` line (read-only: it runs unasked) replaced by its output.
    void commandWithArgumentsSendsItsPrompt()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        QVERIFY(writeExtendingFile(sandbox,
                                   u".claude/commands/frontend/test.md"_s,
                                   "---\n"
                                   "description: Run the frontend tests\n"
                                   "argument-hint: <suite> [speed]\n"
                                   "---\n"
                                   "Run suite $1 at speed $2 (all: $ARGUMENTS).\n"
                                   "Notes follow: @notes.txt\n"
                                   "!`git status --short`\n"));
        HttpTestServer server;
        const ReplyApi api = ReplyApi::OpenAiChat;
        server.enqueue(scriptedReply(api, u"Ran them."_s));
        HeadlessRun run(sandbox, server, api, {}, u"/frontend:test unit fast"_s);
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(server.requests().size(), 1);
        const QByteArray body = server.requests().at(0).body;
        QVERIFY2(body.contains("Run suite unit at speed fast (all: unit fast)."), body.constData());
        QVERIFY2(body.contains("<file path=\\\"notes.txt\\\">\\napple pie\\n</file>"),
                 body.constData());
        // git status's output replaced the line: the untracked files are listed.
        QVERIFY2(body.contains("?? AGENTS.md"), body.constData());
        QVERIFY2(!body.contains("!`git status"), body.constData());
        QCOMPARE(run.out, QByteArray("Ran them.\n"));
    }

    // A reference outside the repository is refused and nothing is sent.
    void referenceOutsideTheRepositoryIsRefused()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        QVERIFY(writeExtendingFile(sandbox, u"../outside.txt"_s, "the neighbour's secret\n"));
        QVERIFY(writeExtendingFile(sandbox,
                                   u".agentdesk/commands/peek.md"_s,
                                   "Look at @../outside.txt please.\n"));
        HttpTestServer server;
        const ReplyApi api = ReplyApi::OpenAiChat;
        server.enqueue(scriptedReply(api, u"Peeked."_s));
        HeadlessRun run(sandbox, server, api, {}, u"/peek"_s);
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 2, qPrintable(run.report()));
        QVERIFY2(run.err.contains(u"/peek was not sent"_s), qPrintable(run.report()));
        QVERIFY2(run.err.contains(u"outside the repository"_s), qPrintable(run.report()));
        QVERIFY(server.requests().isEmpty());
    }

    // A `!` line goes through the permission policy: a deny rule keeps it from running, and
    // nothing is sent; a command that would ask is denied unattended.
    void shellLineDeniedByThePolicy()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        QVERIFY(writeExtendingFile(sandbox,
                                   u".agentdesk/settings.json"_s,
                                   R"json({"permissions": {"deny": ["Bash(git status:*)"]}})json"));
        QVERIFY(writeExtendingFile(sandbox,
                                   u".agentdesk/commands/status.md"_s,
                                   "What changed?\n!git status\n"));
        QVERIFY(writeExtendingFile(sandbox,
                                   u".agentdesk/commands/touch.md"_s,
                                   "!touch made-by-command.txt\n"));
        HttpTestServer server;
        const ReplyApi api = ReplyApi::OpenAiChat;
        HeadlessRun denied(sandbox, server, api, {}, u"/status"_s);
        denied.start();
        QVERIFY(denied.finish());
        QVERIFY2(denied.exitCode() == 2, qPrintable(denied.report()));
        QVERIFY2(denied.err.contains(u"its line \"!git status\" was not run"_s),
                 qPrintable(denied.report()));
        QVERIFY(server.requests().isEmpty());

        HeadlessRun unasked(sandbox, server, api, {}, u"/touch"_s);
        unasked.start();
        QVERIFY(unasked.finish());
        QVERIFY2(unasked.exitCode() == 2, qPrintable(unasked.report()));
        QVERIFY(!QFileInfo::exists(sandbox.root() + u"/made-by-command.txt"_s));
        QVERIFY(server.requests().isEmpty());
    }

    // Only the name and description go into the system prompt; the Skill tool returns the
    // body. A skill with broken front matter is named with its file and line on stderr.
    void skillLoadedOnDemand()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        QVERIFY(writeExtendingFile(sandbox,
                                   u".agents/skills/release-checklist/SKILL.md"_s,
                                   "---\n"
                                   "name: release-checklist\n"
                                   "description: Steps to cut a release of this project\n"
                                   "---\n"
                                   "1. Bump the version in BODY-ONLY-MARKER.\n"));
        QVERIFY(writeExtendingFile(sandbox,
                                   u".claude/skills/broken/SKILL.md"_s,
                                   "---\n"
                                   "description: fine\n"
                                   "this line is wrong\n"
                                   "---\n"
                                   "Body.\n"));
        HttpTestServer server;
        const ReplyApi api = ReplyApi::OpenAiChat;
        server.enqueue(
            scriptedReply(api,
                          {},
                          {{u"call_skill"_s, u"Skill"_s, {{u"name"_s, u"release-checklist"_s}}}}));
        server.enqueue(scriptedReply(api, u"Released."_s));
        HeadlessRun run(sandbox, server, api, {}, u"Cut a release."_s);
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(server.requests().size(), 2);
        const QByteArray first = server.requests().at(0).body;
        QVERIFY2(first.contains("- release-checklist: Steps to cut a release of this project"),
                 first.constData());
        QVERIFY2(first.contains("\"name\":\"Skill\""), first.constData());
        QVERIFY2(!first.contains("BODY-ONLY-MARKER"), first.constData());
        QVERIFY2(server.requests().at(1).body.contains("1. Bump the version in BODY-ONLY-MARKER."),
                 server.requests().at(1).body.constData());
        QVERIFY2(run.err.contains(u".claude/skills/broken/SKILL.md:3: not a \"key: value\" line"_s),
                 qPrintable(run.report()));
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_HeadlessExtending)

} // namespace tst_headlessextending

#include "tst_headlessextending.moc"
