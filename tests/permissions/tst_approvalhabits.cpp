// ApprovalHabits: after three "Allow once" answers to the same call, the rule that lets exactly
// that call through is offered, once; dangerous, unclear or sensitive calls never are.
#include <permissions/approvalhabits.h>
#include <permissions/bashanalysis.h>
#include <permissions/permissionpolicy.h>
#include <permissions/permissionreview.h>
#include <testmain.h>

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

using namespace AgentCore;

namespace tst_approvalhabits {

namespace {

PermissionAnswer answer(PermissionAnswer::Choice choice)
{
    PermissionAnswer result;
    result.choice = choice;
    return result;
}

const PermissionAnswer allowOnce = answer(PermissionAnswer::Choice::AllowOnce);

} // namespace

class tst_ApprovalHabits : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_root = QDir(m_dir.path()).canonicalPath();
        QVERIFY(QDir(m_root).mkpath(QStringLiteral("src")));
    }

    // The rule an approval is counted under: the most specific suggestion, never for what the
    // analysis finds risky or cannot follow, nor for secrets or AgentDesk's configuration.
    void habitRule_data()
    {
        QTest::addColumn<QString>("tool");
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("rule"); // empty: never offered

        QTest::newRow("command") << "Bash"
                                 << "npm test"
                                 << "Bash(npm test)";
        QTest::newRow("with arguments") << "Bash"
                                        << "make -j4 all"
                                        << "Bash(make -j4 all)";
        QTest::newRow("piped to read-only") << "Bash"
                                            << "npm test 2>&1 | tail -20"
                                            << "Bash(npm test)";
        QTest::newRow("quoted") << "Bash"
                                << "git commit -m 'fix bug'"
                                << "Bash(git commit -m 'fix bug')";
        QTest::newRow("deletes") << "Bash"
                                 << "rm -rf build"
                                 << "";
        QTest::newRow("network") << "Bash"
                                 << "curl https://example.com/x"
                                 << "";
        QTest::newRow("git push") << "Bash"
                                  << "git push origin main"
                                  << "";
        QTest::newRow("privileged") << "Bash"
                                    << "sudo make install"
                                    << "";
        QTest::newRow("writes outside") << "Bash"
                                        << "cp a.txt /tmp/a.txt"
                                        << "";
        QTest::newRow("not understood") << "Bash"
                                        << "for f in a b; do make $f; done"
                                        << "";
        QTest::newRow("expansion") << "Bash"
                                   << "make $TARGET"
                                   << "";
        QTest::newRow("assignment") << "Bash"
                                    << "CC=clang make"
                                    << "";
        QTest::newRow("writing redirection") << "Bash"
                                             << "npm test > out.txt"
                                             << "";
        QTest::newRow("two commands") << "Bash"
                                      << "npm test && make"
                                      << "";
        QTest::newRow("secret") << "Bash"
                                << "cp .env.example .env"
                                << "";
        QTest::newRow("own settings") << "Bash"
                                      << "cp a.json .agentdesk/settings.local.json"
                                      << "";
        QTest::newRow("edit") << "Edit"
                              << "src/a.cpp"
                              << "Edit(./src/a.cpp)";
        QTest::newRow("write") << "Write"
                               << "notes.md"
                               << "Edit(./notes.md)";
        QTest::newRow("edit outside") << "Edit"
                                      << "/etc/hosts"
                                      << "";
        QTest::newRow("edit secret") << "Edit"
                                     << ".env"
                                     << "";
        QTest::newRow("edit key") << "Write"
                                  << "certs/server.pem"
                                  << "";
        QTest::newRow("edit settings") << "Edit"
                                       << ".agentdesk/settings.json"
                                       << "";
        QTest::newRow("other tool") << "WebFetch"
                                    << ""
                                    << "";
    }

    void habitRule()
    {
        QFETCH(QString, tool);
        QFETCH(QString, target);
        QFETCH(QString, rule);
        const std::optional<PermissionRule> found = ApprovalHabits::habitRule(
            request(subject(tool, target)));
        QCOMPARE(found ? found->toString() : QString(), rule);
        if (found)
            QCOMPARE(found->behavior, PermissionBehavior::Allow);
    }

    // The offered rule lets exactly the approved call through next time, in default mode:
    // nothing broader (other arguments still ask).
    void ruleAllowsTheApprovedCallOnly_data()
    {
        QTest::addColumn<QString>("tool");
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("other");
        QTest::newRow("command") << "Bash"
                                 << "npm test"
                                 << "npm test -- --watch";
        QTest::newRow("piped") << "Bash"
                               << "npm test 2>&1 | tail -20"
                               << "npm run build";
        QTest::newRow("edit") << "Edit"
                              << "src/a.cpp"
                              << "src/b.cpp";
    }

    void ruleAllowsTheApprovedCallOnly()
    {
        QFETCH(QString, tool);
        QFETCH(QString, target);
        QFETCH(QString, other);
        PermissionPolicy policy(m_root, PermissionMode::Default);
        const PermissionSubject approved = subject(tool, target);
        QCOMPARE(policy.decide(approved).behavior, PermissionBehavior::Ask);
        ApprovalHabits habits;
        std::optional<ApprovalHabits::Offer> offer;
        for (int i = 0; i < ApprovalHabits::offerAfter; ++i)
            offer = habits.record(request(approved), allowOnce);
        QVERIFY(offer);
        policy.addRule(offer->rule);
        QCOMPARE(policy.decide(approved).behavior, PermissionBehavior::Allow);
        QCOMPARE(policy.decide(subject(tool, other)).behavior, PermissionBehavior::Ask);
    }

    void offersOnTheThirdApprovalOnce()
    {
        ApprovalHabits habits;
        const PermissionRequest npmTest = request(
            subject(QStringLiteral("Bash"), QStringLiteral("npm test")));
        QVERIFY(!habits.record(npmTest, allowOnce));
        QVERIFY(!habits.record(npmTest, allowOnce));
        const std::optional<ApprovalHabits::Offer> offer = habits.record(npmTest, allowOnce);
        QVERIFY(offer);
        QCOMPARE(offer->rule.toString(), QStringLiteral("Bash(npm test)"));
        QCOMPARE(offer->approved, QStringLiteral("npm test"));
        QCOMPARE(offer->approvals, 3);
        QVERIFY(offer->explanation.contains(QStringLiteral("npm test")));
        QVERIFY(habits.wasOffered(offer->rule));
        // Declined or added, it is not offered again in this session.
        for (int i = 0; i < 5; ++i)
            QVERIFY(!habits.record(npmTest, allowOnce));
        QCOMPARE(habits.approvals(offer->rule), 8);
    }

    void differentCallsCountApart()
    {
        ApprovalHabits habits;
        const auto bash = [this](const QString &command) {
            return request(subject(QStringLiteral("Bash"), command));
        };
        QVERIFY(!habits.record(bash(QStringLiteral("npm test")), allowOnce));
        QVERIFY(!habits.record(bash(QStringLiteral("npm test -- a")), allowOnce));
        QVERIFY(!habits.record(bash(QStringLiteral("make")), allowOnce));
        QVERIFY(!habits.record(bash(QStringLiteral("npm test")), allowOnce));
        QVERIFY(habits.record(bash(QStringLiteral("npm test")), allowOnce));
    }

    // Only "Allow once" of the whole call counts; a deny starts again.
    void answersThatDoNotCount()
    {
        ApprovalHabits habits;
        const PermissionRequest edit = request(
            subject(QStringLiteral("Edit"), QStringLiteral("src/a.cpp")));
        PermissionAnswer partial = allowOnce;
        partial.rejectedHunks = {1};
        QVERIFY(!habits.record(edit, allowOnce));
        QVERIFY(!habits.record(edit, allowOnce));
        QVERIFY(!habits.record(edit, answer(PermissionAnswer::Choice::Deny)));
        QVERIFY(!habits.record(edit, allowOnce));
        QVERIFY(!habits.record(edit, partial));
        QVERIFY(!habits.record(edit, answer(PermissionAnswer::Choice::AllowSession)));
        QVERIFY(!habits.record(edit, allowOnce));
        QVERIFY(habits.record(edit, allowOnce));
    }

    void dangerousIsNeverOffered()
    {
        ApprovalHabits habits;
        const PermissionRequest rm = request(
            subject(QStringLiteral("Bash"), QStringLiteral("rm -rf build")));
        QVERIFY(!rm.suggestedRules.isEmpty()); // the review itself offers rules
        for (int i = 0; i < 10; ++i)
            QVERIFY(!habits.record(rm, allowOnce));
    }

private:
    PermissionSubject subject(const QString &tool, const QString &target) const
    {
        PermissionSubject result;
        result.toolName = tool;
        result.sideEffects = true;
        if (tool == QLatin1String("Bash")) {
            result.arguments = {{QStringLiteral("command"), target}};
            result.bash = BashAnalyzer(m_root, QStringLiteral("-")).analyze(target);
        } else if (!target.isEmpty()) {
            result.arguments = {{QStringLiteral("file_path"), target}};
            PermissionSubject::Path path;
            const bool inside = !QDir::isAbsolutePath(target);
            path.absolute = inside ? m_root + QLatin1Char('/') + target : target;
            path.relative = inside ? target : QString();
            path.write = true;
            path.insideWritableRoot = inside;
            result.paths.append(path);
        }
        return result;
    }

    static PermissionRequest request(const PermissionSubject &subject)
    {
        PermissionRequest result;
        PermissionReview::describe(nullptr, subject, result);
        return result;
    }

    QTemporaryDir m_dir;
    QString m_root;
};

AGENTDESK_GUILESS_TEST_MAIN(tst_ApprovalHabits)

} // namespace tst_approvalhabits

#include "tst_approvalhabits.moc"
