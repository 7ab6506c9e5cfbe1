// A repeated Read of a file the model already has in front of it answers "unchanged" instead of
// sending the same lines again; anything that may have changed the file, or taken its text away
// from the model, makes Read send the text. Real files in a temporary repository; "shown" is
// what a request carried (ReadLedger::retainShown, as CodingAgent calls it before each request).
#include "toolstest.h"

#include <testmain.h>
#include <tools/bashtool.h>
#include <tools/edittool.h>
#include <tools/readtool.h>

#include <QJsonObject>
#include <QTest>

using namespace AgentCore;
using namespace Qt::StringLiterals;

namespace tst_readrepeat {

namespace {

QByteArray sourceLines(int count, const QByteArray &word = "value")
{
    QByteArray content;
    for (int i = 1; i <= count; ++i)
        content += "int " + word + QByteArray::number(i) + " = " + QByteArray::number(i) + ";\n";
    return content;
}

/// Calls \a tool as the loop would, under the call id \a id.
ToolResult callAs(AgentTool &tool, const QString &id, const QJsonObject &arguments)
{
    ToolCallContext context;
    context.toolCallId = id;
    context.toolName = tool.definition().name;
    context.arguments = arguments;
    context.tool = &tool;
    return tool.execute(context);
}

/// The conversation the model is sent: one tool result per (id, result).
class Conversation
{
public:
    void add(const QString &id, const ToolResult &result)
    {
        m_messages.append(Message::makeToolResult(id, u"Read"_s, result.text(), result.isError));
    }
    /// A request carrying every result so far.
    void send(ToolWorkspace &workspace) const { workspace.readLedger().retainShown(m_messages); }
    QList<Message> &messages() { return m_messages; }

private:
    QList<Message> m_messages;
};

bool isUnchanged(const ToolResult &result)
{
    return result.details.other.value(u"unchanged"_s).toBool();
}

} // namespace

class tst_ReadRepeat : public QObject
{
    Q_OBJECT

private slots:
    void repeatedReadOfUnchangedFileSaysSo()
    {
        ToolsTest::Repo repo;
        QVERIFY(repo.write(u"src/a.cpp"_s, sourceLines(120)));
        ReadTool read(repo.workspace());
        Conversation conversation;
        const ToolResult first = callAs(read, u"r1"_s, {{"file_path", "src/a.cpp"}});
        QVERIFY(first.text().contains(u"120\tint value120 = 120;"_s));
        conversation.add(u"r1"_s, first);
        conversation.send(*repo.workspace());

        const ToolResult again = callAs(read, u"r2"_s, {{"file_path", "src/a.cpp"}});
        QVERIFY(!again.isError);
        QVERIFY(isUnchanged(again));
        QCOMPARE(again.details.other.value(u"unchangedSince"_s).toString(), u"r1"_s);
        QVERIFY2(again.text().contains(u"src/a.cpp is unchanged since your last Read of it "
                                       "(lines 1-120 of 120)"_s),
                 qPrintable(again.text()));
        QVERIFY(!again.text().contains(u"int value"_s));
        QVERIFY(again.text().size() < 200);
        QVERIFY(again.text().size() * 10 < first.text().size());
    }

    // Two Reads of one file in the same reply: the first output was never sent, so the second
    // cannot point at it.
    void notYetSentOutputIsNotReferredTo()
    {
        ToolsTest::Repo repo;
        QVERIFY(repo.write(u"a.txt"_s, sourceLines(5)));
        ReadTool read(repo.workspace());
        QVERIFY(!isUnchanged(callAs(read, u"r1"_s, {{"file_path", "a.txt"}})));
        const ToolResult second = callAs(read, u"r2"_s, {{"file_path", "a.txt"}});
        QVERIFY(!isUnchanged(second));
        QVERIFY(second.text().contains(u"5\tint value5 = 5;"_s));
    }

    void ranges_data()
    {
        QTest::addColumn<int>("firstOffset");
        QTest::addColumn<int>("firstLimit");
        QTest::addColumn<int>("offset");
        QTest::addColumn<int>("limit");
        QTest::addColumn<bool>("unchanged");
        QTest::newRow("same window") << 10 << 20 << 10 << 20 << true;
        QTest::newRow("inside the first") << 1 << 2000 << 40 << 5 << true;
        QTest::newRow("to the end, already read") << 1 << 2000 << 90 << 2000 << true;
        QTest::newRow("overlapping") << 1 << 50 << 40 << 20 << false;
        QTest::newRow("further on") << 1 << 50 << 51 << 50 << false;
        QTest::newRow("wider than the first") << 10 << 5 << 1 << 2000 << false;
    }

    void ranges()
    {
        QFETCH(int, firstOffset);
        QFETCH(int, firstLimit);
        QFETCH(int, offset);
        QFETCH(int, limit);
        QFETCH(bool, unchanged);
        ToolsTest::Repo repo;
        QVERIFY(repo.write(u"a.cpp"_s, sourceLines(100)));
        ReadTool read(repo.workspace());
        Conversation conversation;
        conversation.add(u"r1"_s,
                         callAs(read,
                                u"r1"_s,
                                {{"file_path", "a.cpp"},
                                 {"offset", firstOffset},
                                 {"limit", firstLimit}}));
        conversation.send(*repo.workspace());
        const ToolResult second
            = callAs(read, u"r2"_s, {{"file_path", "a.cpp"}, {"offset", offset}, {"limit", limit}});
        QCOMPARE(isUnchanged(second), unchanged);
        const QString firstShown = u"%1\tint value%1 = %1;"_s.arg(offset);
        QCOMPARE(second.text().contains(firstShown), !unchanged);
        if (unchanged) {
            QVERIFY2(second.text().contains(u"your"_s) && second.text().contains(u"above"_s),
                     qPrintable(second.text()));
        }
    }

    // A Read after an Edit shows the edited text; so does one after two Edits that put the
    // bytes back as the first Read saw them: the model's latest view of the file is its edits.
    void readAfterEditShowsTheText()
    {
        ToolsTest::Repo repo;
        QVERIFY(repo.write(u"a.cpp"_s, sourceLines(3)));
        ReadTool read(repo.workspace());
        EditTool edit(repo.workspace());
        Conversation conversation;
        conversation.add(u"r1"_s, callAs(read, u"r1"_s, {{"file_path", "a.cpp"}}));
        conversation.send(*repo.workspace());
        auto replace = [&edit](const QString &id, const QString &from, const QString &to) {
            const ToolResult result = callAs(edit,
                                             id,
                                             {{"file_path", "a.cpp"},
                                              {"old_string", from},
                                              {"new_string", to}});
            return !result.isError;
        };

        QVERIFY(replace(u"e1"_s, u"int value2 = 2;"_s, u"int value2 = 22;"_s));
        QVERIFY(replace(u"e2"_s, u"int value2 = 22;"_s, u"int value2 = 2;"_s));
        QCOMPARE(repo.read(u"a.cpp"_s), sourceLines(3));
        const ToolResult reverted = callAs(read, u"r2"_s, {{"file_path", "a.cpp"}});
        QVERIFY(!isUnchanged(reverted));
        QVERIFY(reverted.text().contains(u"2\tint value2 = 2;"_s));
        conversation.add(u"r2"_s, reverted);
        conversation.send(*repo.workspace());

        QVERIFY(replace(u"e3"_s, u"int value3 = 3;"_s, u"int value3 = 33;"_s));
        const ToolResult afterEdit = callAs(read, u"r3"_s, {{"file_path", "a.cpp"}});
        QVERIFY(!isUnchanged(afterEdit));
        QVERIFY(afterEdit.text().contains(u"3\tint value3 = 33;"_s));
    }

    // Changed by a command or by someone outside AgentDesk: the content decides.
    void changedOnDiskShowsTheText_data()
    {
        QTest::addColumn<bool>("byBash");
        QTest::newRow("outside AgentDesk") << false;
        QTest::newRow("by a Bash command") << true;
    }

    void changedOnDiskShowsTheText()
    {
        QFETCH(bool, byBash);
        ToolsTest::Repo repo;
        QVERIFY(repo.write(u"a.txt"_s, sourceLines(4)));
        ReadTool read(repo.workspace());
        Conversation conversation;
        conversation.add(u"r1"_s, callAs(read, u"r1"_s, {{"file_path", "a.txt"}}));
        conversation.send(*repo.workspace());
        QVERIFY(isUnchanged(callAs(read, u"r2"_s, {{"file_path", "a.txt"}})));

        if (byBash) {
            BashTool bash(repo.workspace());
            const ToolResult ran = callAs(bash,
                                          u"b1"_s,
                                          {{"command", "echo 'int added = 5;' >> a.txt"}});
            QVERIFY2(!ran.isError, qPrintable(ran.text()));
        } else {
            QVERIFY(repo.write(u"a.txt"_s, sourceLines(4) + "int added = 5;\n"));
        }
        const ToolResult changed = callAs(read, u"r3"_s, {{"file_path", "a.txt"}});
        QVERIFY(!isUnchanged(changed));
        QVERIFY2(changed.text().contains(u"5\tint added = 5;"_s), qPrintable(changed.text()));
    }

    // The output is no longer in what the model is sent: compacted away (the request does not
    // carry it) or dropped by the user (carried as a stub). The next Read sends the text.
    void outputTheModelNoLongerHasIsNotReferredTo_data()
    {
        QTest::addColumn<bool>("dropped");
        QTest::newRow("compacted") << false;
        QTest::newRow("dropped by the user") << true;
    }

    void outputTheModelNoLongerHasIsNotReferredTo()
    {
        QFETCH(bool, dropped);
        ToolsTest::Repo repo;
        QVERIFY(repo.write(u"a.txt"_s, sourceLines(6)));
        ReadTool read(repo.workspace());
        Conversation conversation;
        conversation.add(u"r1"_s, callAs(read, u"r1"_s, {{"file_path", "a.txt"}}));
        conversation.send(*repo.workspace());
        QVERIFY(isUnchanged(callAs(read, u"r2"_s, {{"file_path", "a.txt"}})));

        ReadLedger &ledger = repo.workspace()->readLedger();
        if (dropped) {
            ledger.retainShown(conversation.messages(), {u"r1"_s});
        } else {
            ledger.retainShown({Message::makeUser(u"summary of the earlier conversation"_s)});
        }
        const ToolResult third = callAs(read, u"r3"_s, {{"file_path", "a.txt"}});
        QVERIFY(!isUnchanged(third));
        QVERIFY(third.text().contains(u"6\tint value6 = 6;"_s));
    }

    // Each conversation has its own record: another agent on the same repository has not seen
    // what this one read.
    void eachWorkspaceHasItsOwnRecord()
    {
        ToolsTest::Repo repo;
        QVERIFY(repo.write(u"a.txt"_s, sourceLines(3)));
        ReadTool read(repo.workspace());
        Conversation conversation;
        conversation.add(u"r1"_s, callAs(read, u"r1"_s, {{"file_path", "a.txt"}}));
        conversation.send(*repo.workspace());
        auto other = std::make_shared<ToolWorkspace>(repo.root());
        ReadTool otherRead(other);
        conversation.send(*other);
        QVERIFY(!isUnchanged(callAs(otherRead, u"r1"_s, {{"file_path", "a.txt"}})));
        QVERIFY(isUnchanged(callAs(read, u"r2"_s, {{"file_path", "a.txt"}})));
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_ReadRepeat)

} // namespace tst_readrepeat

#include "tst_readrepeat.moc"
