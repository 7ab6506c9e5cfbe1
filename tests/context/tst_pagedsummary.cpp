// A conversation whose tool outputs are stubs of the session file (issue 39): its compaction's
// summary is written from the whole outputs, read back on the summary's thread, and its token
// estimates count the whole outputs. A real session file.
#include <context/compaction.h>
#include <context/contextmanager.h>
#include <context/tokenestimate.h>
#include <session/sessionlog.h>
#include <session/sessionpages.h>
#include <testmain.h>

#include <scriptedmodel.h>

#include <QElapsedTimer>
#include <QMutex>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

using namespace AgentCore;
using namespace TestSupport;
using namespace Qt::StringLiterals;

namespace tst_pagedsummary {

namespace {

// A tool output of about 20,000 characters whose last line names it: a stub's preview (its
// first lines) never holds that line.
QString summaryOutput(int index)
{
    QString text;
    for (int line = 0; text.size() < 20'000; ++line)
        text += u"build %1 step %2 compiled %3\n"_s.arg(index).arg(line).arg(QString(30, u'z'));
    return text + u"tail marker %1: the build failed here\n"_s.arg(index);
}

// The session file of a task and \a turns Bash calls with summaryOutput()s, read with paging.
std::optional<SessionLog::Contents> pagedSummarySession(const QString &path, int turns)
{
    QString error;
    {
        const std::unique_ptr<SessionLog> log = SessionLog::open(path, {}, &error);
        if (!log || !log->appendMessage(Message::makeUser(u"Fix the build"_s), &error))
            return std::nullopt;
        for (int i = 0; i < turns; ++i) {
            Message call;
            call.role = Message::Role::Assistant;
            call.stopReason = StopReason::ToolUse;
            const QString id = u"build_%1"_s.arg(i);
            call.content = {ContentBlock::makeToolCall(id, u"Bash"_s, {{u"command"_s, u"make"_s}})};
            if (!log->appendMessage(call, &error)
                || !log->appendMessage(Message::makeToolResult(id,
                                                               u"Bash"_s,
                                                               summaryOutput(i),
                                                               false),
                                       &error))
                return std::nullopt;
        }
    }
    return SessionLog::load(path, &error, SessionLog::Paging::Paged);
}

// The summary request \a pages gives for \a conversation ("compact now"), or empty.
QString summaryRequestText(const QList<Message> &conversation,
                           std::shared_ptr<const MessagePages> pages)
{
    auto summaries = std::make_shared<ScriptedModel>(QList{ModelStep::text(u"summary"_s)});
    auto manager = std::make_shared<ContextManager>(ContextSettings{}, [summaries] {
        return std::shared_ptr<ModelClient>(summaries);
    });
    ContextSettings settings;
    settings.windowTokens = 100'000;
    manager->setSettings(settings);
    manager->setPages(std::move(pages));
    Context context;
    context.messages = conversation;
    if (!manager->compactNow(context))
        return {};
    QElapsedTimer timer;
    timer.start();
    while (summaries->contexts().isEmpty() || manager->isCompacting()) {
        if (timer.elapsed() > 10'000)
            return {};
        QThread::msleep(2);
    }
    return summaries->contexts().first().messages.first().text();
}

} // namespace

class tst_PagedSummary : public QObject
{
    Q_OBJECT

private slots:
    void theSummaryIsWrittenFromTheWholeOutputs()
    {
        QTemporaryDir dir;
        const auto contents = pagedSummarySession(dir.filePath(u"s.jsonl"_s), 10);
        QVERIFY(contents);
        QVERIFY(contents->messages.at(2).isPaged());
        QVERIFY(!contents->messages.at(2).text().contains(u"tail marker"_s));

        const QString whole = summaryRequestText(contents->messages, contents->pages);
        QVERIFY(!whole.isEmpty());
        QVERIFY2(whole.contains(u"tail marker 0"_s), qPrintable(whole.left(2000)));
        QVERIFY(!whole.contains(u"could not read"_s));

        // Without the pages nothing can be read back: the request says so, never passing a
        // preview off as the output.
        const QString cut = summaryRequestText(contents->messages, nullptr);
        QVERIFY(!cut.contains(u"tail marker 0"_s));
        QVERIFY2(cut.contains(u"could not read"_s), qPrintable(cut.left(2000)));
    }

    // A stub counts as the output it stands for, within a few percent.
    void aStubIsEstimatedAsItsWholeOutput()
    {
        const Message whole = Message::makeToolResult(u"b"_s, u"Bash"_s, summaryOutput(3), false);
        const Message stub = SessionPages::stub(whole);
        QVERIFY(stub.isPaged());
        const double ratio = double(estimateTokens(stub)) / double(estimateTokens(whole));
        QVERIFY2(ratio > 0.95 && ratio < 1.05, qPrintable(QString::number(ratio)));
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_PagedSummary)

} // namespace tst_pagedsummary

#include "tst_pagedsummary.moc"
