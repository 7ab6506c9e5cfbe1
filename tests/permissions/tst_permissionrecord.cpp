// PermissionRecord::text is the audit's line of a permission decision, written in one place.
// The texts are the ones the middleware wrote by concatenation before (tools read the audit
// log): each case here is one of its paths, spelled out.

#include <permissions/permissionrecord.h>
#include <testmain.h>

#include <QTest>

using namespace AgentCore;

Q_DECLARE_METATYPE(AgentCore::PermissionRecord)

namespace tst_permissionrecord {

using Answer = PermissionRecord::Answer;
using Writes = PermissionRecord::Writes;

class tst_PermissionRecord : public QObject
{
    Q_OBJECT

private:
    static PermissionRecord decided(PermissionBehavior behavior, const QString &reason)
    {
        PermissionRecord record;
        record.decision.behavior = behavior;
        record.decision.reason = reason;
        return record;
    }

    static PermissionRecord answered(Answer answer, const QString &feedback = {})
    {
        PermissionRecord record = decided(PermissionBehavior::Ask, QStringLiteral("Edit asks"));
        record.answer = answer;
        record.feedback = feedback;
        return record;
    }

private slots:
    void text_data()
    {
        QTest::addColumn<PermissionRecord>("record");
        QTest::addColumn<QString>("text");

        QTest::newRow("allow") << decided(PermissionBehavior::Allow, "read-only command")
                               << "allow: read-only command";
        QTest::newRow("deny") << decided(PermissionBehavior::Deny, "denied by Bash(rm:*)")
                              << "deny: denied by Bash(rm:*)";
        QTest::newRow("not asked")
            << answered(Answer::NotAsked) << "ask: not asked, the call cannot succeed";
        QTest::newRow("nobody") << answered(Answer::NobodyToAsk)
                                << "deny: nobody to ask (Edit asks)";
        QTest::newRow("aborted") << answered(Answer::Aborted) << "ask: aborted";
        QTest::newRow("denied") << answered(Answer::Denied) << "ask: denied by the user";
        QTest::newRow("denied, said why")
            << answered(Answer::Denied, "not now") << "ask: denied by the user: not now";
        QTest::newRow("every hunk")
            << answered(Answer::DeniedEveryHunk) << "ask: denied by the user (every hunk rejected)";
        QTest::newRow("every hunk, said why")
            << answered(Answer::DeniedEveryHunk, "no")
            << "ask: denied by the user (every hunk rejected): no";
        QTest::newRow("once") << answered(Answer::AllowedOnce) << "ask: allowed once";
        QTest::newRow("own settings")
            << answered(Answer::AllowedOnceOwnSettings)
            << "ask: allowed once (AgentDesk's own settings: no rule remembered)";
        QTest::newRow("session, no rule")
            << answered(Answer::AllowedForSession) << "ask: allowed for this session";

        PermissionRecord session = answered(Answer::AllowedForSession);
        session.rememberedRules = QStringList{"Bash(touch:*)", "Bash(ls:*)"};
        QTest::newRow("session") << session
                                 << "ask: allowed for this session (Bash(touch:*), Bash(ls:*))";
        PermissionRecord always = answered(Answer::AlwaysAllowed);
        always.rememberedRules = QStringList{"Edit(src/**)"};
        always.notSaved = QStringList{"cannot write a.json.", "read-only."};
        QTest::newRow("always, not saved")
            << always
            << "ask: always allowed (Edit(src/**)); not saved: cannot write a.json. read-only.";

        PermissionRecord partial = answered(Answer::AllowedOnce);
        partial.partialChange = QStringLiteral("rejected hunk 2 of 3");
        QTest::newRow("partial") << partial
                                 << "ask: allowed once; partially applied, rejected hunk 2 of 3";

        PermissionRecord network = decided(PermissionBehavior::Allow, "bypass mode");
        network.networkRule = QStringLiteral("Bash(./fetch.sh) in settings.json");
        QTest::newRow("network") << network
                                 << "allow: bypass mode; network by Bash(./fetch.sh) in "
                                    "settings.json";

        PermissionRecord reviewed = network;
        reviewed.writes = Writes::Reviewed;
        reviewed.writesApplied = 1;
        reviewed.writesTotal = 2;
        QTest::newRow("reviewed") << reviewed
                                  << "allow: bypass mode; network by Bash(./fetch.sh) in "
                                     "settings.json; writes reviewed: 1 of 2 applied";
        PermissionRecord notReviewed = answered(Answer::AllowedOnce);
        notReviewed.writes = Writes::NotReviewed;
        notReviewed.writesError = QStringLiteral("cannot create the folder /x");
        QTest::newRow("not reviewed")
            << notReviewed << "ask: allowed once; writes not reviewed: cannot create the folder /x";
        PermissionRecord lost = notReviewed;
        lost.writes = Writes::Lost;
        QTest::newRow("lost") << lost
                              << "ask: allowed once; writes lost: cannot create the folder /x";
        PermissionRecord aborted = answered(Answer::AllowedOnce);
        aborted.writes = Writes::DiscardedAborted;
        QTest::newRow("writes aborted")
            << aborted << "ask: allowed once; writes discarded (aborted)";
        aborted.writes = Writes::DiscardedInReview;
        QTest::newRow("review aborted")
            << aborted << "ask: allowed once; writes discarded (aborted in review)";
    }

    void text()
    {
        QFETCH(PermissionRecord, record);
        QFETCH(QString, text);
        QCOMPARE(record.text(), text);
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_PermissionRecord)

} // namespace tst_permissionrecord

#include "tst_permissionrecord.moc"
