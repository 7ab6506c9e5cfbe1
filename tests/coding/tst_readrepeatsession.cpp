// Repeated Reads through a whole CodingAgent loop (scripted model, real files): a compaction
// takes the earlier output away from the model, so the next Read sends the text again, and an
// "unchanged" answer whose output was compacted away is sent with that output. Also the figure
// the change is for: the bytes a session that reads the same files again and again sends.
#include "../tools/toolstest.h"

#include <ai/requestbuilder.h>
#include <coding/codingagent.h>
#include <context/compaction.h>
#include <context/contextview.h>
#include <loop/agentloop.h>
#include <testmain.h>

#include <scriptedmodel.h>

#include <QRegularExpression>
#include <QTest>

#include <algorithm>

using namespace AgentCore;
using namespace TestSupport;
using namespace Qt::StringLiterals;

namespace tst_readrepeatsession {

namespace {

QByteArray sourceLines(int count, const QByteArray &word)
{
    QByteArray content;
    for (int i = 1; i <= count; ++i) {
        content += "    int " + word + QByteArray::number(i) + " = compute(" + QByteArray::number(i)
                   + ", options);\n";
    }
    return content;
}

CodingAgent assembleFor(const ToolsTest::Repo &repo, const ContextSettings &context)
{
    CodingAgentOptions options;
    options.permissions.mode = PermissionMode::AcceptEdits;
    options.repositoryRoot = repo.root();
    options.systemPrompt = u"You are AgentDesk."_s;
    options.context = context;
    return CodingAgent::assemble(options);
}

QList<Message> run(const CodingAgent &coding,
                   const std::shared_ptr<ScriptedModel> &model,
                   const QString &prompt)
{
    AgentLoopConfig config = coding.config.loop;
    config.model = model;
    AgentContext context;
    context.systemPrompt = coding.config.systemPrompt;
    context.tools = coding.config.tools;
    return agentLoop({Message::makeUser(prompt)}, context, config, AbortToken(), {});
}

ModelStep read(const QString &id, const QString &path)
{
    return ModelStep::toolCall(id, u"Read"_s, {{u"file_path"_s, path}});
}

const Message *resultOf(const QList<Message> &messages, const QString &id)
{
    for (const Message &message : messages) {
        if (message.isToolResult() && message.toolCallId == id)
            return &message;
    }
    return nullptr;
}

bool isUnchanged(const Message &result)
{
    return result.details.other.value(u"unchanged"_s).toBool();
}

// Read's output as it was before the line numbers were made compact: six columns.
QString withSixColumnNumbers(const QString &text)
{
    static const QRegularExpression number(u"^ *(\\d+)\\t"_s, QRegularExpression::MultilineOption);
    QString out;
    qsizetype at = 0;
    for (QRegularExpressionMatchIterator it = number.globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch match = it.next();
        out += QStringView(text).mid(at, match.capturedStart() - at);
        out += u"%1\t"_s.arg(match.captured(1), 6);
        at = match.capturedEnd();
    }
    return out + QStringView(text).mid(at);
}

/// The bytes of every request body of a run (Anthropic Messages, the whole history each time).
qint64 requestBytes(const QList<Context> &contexts, bool sixColumns)
{
    ProviderConfig provider;
    provider.api = WireApi::AnthropicMessages;
    provider.provider = u"anthropic"_s;
    provider.baseUrl = QUrl(u"http://127.0.0.1:1"_s);
    provider.model = u"claude-sonnet-4-5"_s;
    qint64 bytes = 0;
    for (Context context : contexts) {
        if (sixColumns) {
            for (Message &message : context.messages) {
                if (message.isToolResult() && message.toolName == u"Read"_s)
                    message.content = {ContentBlock::makeText(withSixColumnNumbers(message.text()))};
            }
        }
        bytes += buildRequest(provider, context).body.size();
    }
    return bytes;
}

} // namespace

class tst_ReadRepeatSession : public QObject
{
    Q_OBJECT

private slots:
    // Read, Read again ("unchanged"), then the provider says the context overflowed: the
    // compaction summarises the first Read away and keeps the second. The retried request
    // carries the file's text in place of "unchanged", and the next Read sends the text.
    void compactionMakesTheNextReadSendTheText()
    {
        ToolsTest::Repo repo;
        QVERIFY(repo.write(u"src/a.cpp"_s, sourceLines(60, "alpha")));
        ContextSettings settings;      // no window known: compacted when the provider says so
        settings.keepRecentTokens = 1; // only the latest turn stays verbatim
        CodingAgent coding = assembleFor(repo, settings);
        auto summaries = std::make_shared<ScriptedModel>(
            QList{ModelStep::text(u"The user asked to look at src/a.cpp; it was read."_s)});
        coding.context->setModelFactory([summaries] { return summaries; });
        auto model = std::make_shared<ScriptedModel>(
            QList{read(u"r1"_s, u"src/a.cpp"_s),
                  read(u"r2"_s, u"src/a.cpp"_s),
                  ModelStep::failure(StopReason::ContextOverflow, u"prompt is too long"_s),
                  read(u"r3"_s, u"src/a.cpp"_s),
                  ModelStep::text(u"done"_s)});

        const QList<Message> added
            = run(coding, model, u"Look at src/a.cpp and tell me what it computes. "_s.repeated(40));
        QCOMPARE(added.last().text(), u"done"_s);
        const Message *first = resultOf(added, u"r1"_s);
        const Message *second = resultOf(added, u"r2"_s);
        const Message *third = resultOf(added, u"r3"_s);
        QVERIFY(first && second && third);
        QVERIFY(first->text().contains(u"60\t    int alpha60"_s));
        QVERIFY2(isUnchanged(*second), qPrintable(second->text())); // before the compaction
        QVERIFY(std::any_of(added.cbegin(), added.cend(), [](const Message &message) {
            return Compaction::of(message).has_value();
        }));

        // The request after the compaction: the first output is summarised away, so the
        // "unchanged" answer carries its text.
        QCOMPARE(model->callCount(), 5);
        const Context retried = model->contexts().at(3);
        QVERIFY(!resultOf(retried.messages, u"r1"_s));
        const Message *kept = resultOf(retried.messages, u"r2"_s);
        QVERIFY(kept);
        QVERIFY2(kept->text().contains(u"60\t    int alpha60"_s), qPrintable(kept->text()));

        QVERIFY2(!isUnchanged(*third), qPrintable(third->text()));
        QVERIFY(third->text().contains(u"60\t    int alpha60"_s));
    }

    // The user dropped the first output from the context after the model was told
    // "unchanged": the answer is sent with that output; the user's own drop of the answer
    // stays a drop, and an answer whose output the conversation lost says to read again.
    void droppedOutputIsSentWithTheAnswer()
    {
        auto callOf = [](const QString &id) {
            Message call;
            call.role = Message::Role::Assistant;
            call.stopReason = StopReason::ToolUse;
            call.content = {ContentBlock::makeToolCall(id, u"Read"_s, {{u"file_path"_s, u"a"_s}})};
            return call;
        };
        Message unchanged = Message::makeToolResult(u"r2"_s, u"Read"_s, u"a is unchanged"_s, false);
        unchanged.details.other.insert(u"unchanged"_s, true);
        unchanged.details.other.insert(u"unchangedSince"_s, u"r1"_s);
        const QList<Message> conversation{Message::makeUser(u"read a"_s),
                                          callOf(u"r1"_s),
                                          Message::makeToolResult(u"r1"_s,
                                                                  u"Read"_s,
                                                                  u"1\tthe text"_s,
                                                                  false),
                                          callOf(u"r2"_s),
                                          unchanged};
        QCOMPARE(contextView(conversation).at(4).text(), u"a is unchanged"_s);

        ContextEdits edits;
        edits.droppedToolOutputs = {u"r1"_s};
        QList<Message> view = contextView(conversation, edits);
        QCOMPARE(view.at(2).text(), droppedToolOutputText());
        QCOMPARE(view.at(4).text(), u"1\tthe text"_s);

        edits.droppedToolOutputs = {u"r1"_s, u"r2"_s};
        QCOMPARE(contextView(conversation, edits).at(4).text(), droppedToolOutputText());

        edits.droppedToolOutputs = {u"r1"_s};
        view = contextView(conversation.mid(3), edits); // r1's output is not there at all
        QVERIFY2(view.at(1).text().contains(u"Read it again"_s), qPrintable(view.at(1).text()));
    }

    // Five rounds of reading the same three files, with one edit after the second round: what
    // the requests weigh with repeated Reads answered "unchanged" against every Read sending
    // its text (the figure in the report, printed). The Read after the edit shows the edit.
    void repeatedReadsSendFewerBytes()
    {
        ToolsTest::Repo repo;
        QVERIFY(repo.write(u"src/a.cpp"_s, sourceLines(150, "alpha")));
        QVERIFY(repo.write(u"src/b.cpp"_s, sourceLines(80, "beta")));
        QVERIFY(repo.write(u"src/c.cpp"_s, sourceLines(300, "gamma")));
        CodingAgent coding = assembleFor(repo, {});
        QList<ModelStep> steps;
        for (int round = 1; round <= 5; ++round) {
            QList<ContentBlock> calls;
            for (const QString &file : {u"a"_s, u"b"_s, u"c"_s}) {
                calls.append(
                    ContentBlock::makeToolCall(u"r%1%2"_s.arg(round).arg(file),
                                               u"Read"_s,
                                               {{u"file_path"_s, u"src/%1.cpp"_s.arg(file)}}));
            }
            steps.append(ModelStep::toolCalls(calls));
            if (round == 2) {
                steps.append(ModelStep::toolCall(u"e1"_s,
                                                 u"Edit"_s,
                                                 {{u"file_path"_s, u"src/a.cpp"_s},
                                                  {u"old_string"_s, u"int alpha7 = compute(7"_s},
                                                  {u"new_string"_s, u"int alpha7 = compute(70"_s}}));
            }
        }
        steps.append(ModelStep::text(u"done"_s));
        auto model = std::make_shared<ScriptedModel>(steps);
        const QList<Message> added = run(coding, model, u"Study src/a.cpp, b.cpp and c.cpp."_s);
        QCOMPARE(added.last().text(), u"done"_s);
        QVERIFY(!resultOf(added, u"e1"_s)->isError);

        // Round 1 sends the text, round 2 does not; after the edit a.cpp is sent once more.
        QVERIFY(!isUnchanged(*resultOf(added, u"r1a"_s)));
        QVERIFY(isUnchanged(*resultOf(added, u"r2a"_s)));
        QVERIFY(isUnchanged(*resultOf(added, u"r2c"_s)));
        const Message *afterEdit = resultOf(added, u"r3a"_s);
        QVERIFY(!isUnchanged(*afterEdit));
        QVERIFY(afterEdit->text().contains(u"7\t    int alpha7 = compute(70, options);"_s));
        QVERIFY(isUnchanged(*resultOf(added, u"r3b"_s)));
        QVERIFY(isUnchanged(*resultOf(added, u"r4a"_s)));
        QVERIFY(isUnchanged(*resultOf(added, u"r5c"_s)));

        // Every Read sending its text: the same session with each "unchanged" answer replaced
        // by its earlier output, as it was before.
        const QList<Context> contexts = model->contexts();
        QList<Context> everyText = contexts;
        for (Context &context : everyText) {
            QHash<QString, QList<ContentBlock>> outputs;
            for (Message &message : context.messages) {
                if (!message.isToolResult())
                    continue;
                const QString since = message.details.other.value(u"unchangedSince"_s).toString();
                if (!since.isEmpty())
                    message.content = outputs.value(since);
                else
                    outputs.insert(message.toolCallId, message.content);
            }
        }
        const qint64 before = requestBytes(everyText, true);
        const qint64 compactNumbers = requestBytes(everyText, false);
        const qint64 after = requestBytes(contexts, false);
        qInfo("%lld requests: %lld bytes with every Read's text and six-column numbers, %lld "
              "with compact numbers, %lld with repeated Reads answered unchanged (%.0f%% fewer)",
              qint64(contexts.size()),
              before,
              compactNumbers,
              after,
              100.0 * double(before - after) / double(before));
        QVERIFY(compactNumbers < before);
        QVERIFY(after * 2 < before); // most of what these requests carried was repeated text
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_ReadRepeatSession)

} // namespace tst_readrepeatsession

#include "tst_readrepeatsession.moc"
