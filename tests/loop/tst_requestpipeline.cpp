#include <loop/requestpipeline.h>
#include <testmain.h>

#include <QTest>

using namespace AgentCore;

namespace tst_requestpipeline {

namespace {

// A stage that writes what it was called with into a shared log, under its name.
class LoggingStage final : public RequestStage
{
public:
    LoggingStage(QString name, Hooks hooks, QStringList *log)
        : m_name(std::move(name))
        , m_hooks(hooks)
        , m_log(log)
    {}
    QLatin1String name() const override { return QLatin1String(m_latin1); }
    Hooks hooks() const override { return m_hooks; }
    QList<Message> view(const QList<Message> &messages) const override
    {
        m_log->append(m_name + QStringLiteral(" view ") + QString::number(messages.size()));
        return messages + QList<Message>{Message::makeUser(m_name)};
    }
    QList<Message> beforeRequest(const Context &conversation, const AbortToken &) override
    {
        m_log->append(m_name + QStringLiteral(" before ")
                      + QString::number(conversation.messages.size()));
        return {Message::makeUser(m_name)};
    }
    std::optional<Message> onContextOverflow(const Message &,
                                             const Context &,
                                             const AbortToken &) override
    {
        m_log->append(m_name + QStringLiteral(" overflow"));
        return Message::makeUser(m_name);
    }
    Context prepare(Context context) const override
    {
        m_log->append(m_name + QStringLiteral(" prepare"));
        context.systemPrompt += m_name;
        return context;
    }
    void beforeEffect(const ToolCallContext &) override
    {
        m_log->append(m_name + QStringLiteral(" beforeEffect"));
    }
    void afterEffect(const ToolCallContext &, const ToolResult &) override
    {
        m_log->append(m_name + QStringLiteral(" afterEffect"));
    }

private:
    QString m_name;
    QByteArray m_latin1 = m_name.toLatin1();
    Hooks m_hooks;
    QStringList *m_log;
};

using Hook = RequestStage::Hook;

} // namespace

class tst_RequestPipeline : public QObject
{
    Q_OBJECT

private slots:
    void stagesRunInListOrderAtEachSeam()
    {
        QStringList log;
        const RequestStage::Hooks all = Hook::View | Hook::BeforeRequest | Hook::ContextOverflow
                                        | Hook::Prepare | Hook::BeforeEffect | Hook::AfterEffect;
        RequestPipeline pipeline;
        pipeline.add(std::make_shared<LoggingStage>(QStringLiteral("a"), all, &log))
            .add(nullptr) // a stage that does not apply
            .add(std::make_shared<LoggingStage>(QStringLiteral("b"), all, &log));
        QCOMPARE(pipeline.names(), (QStringList{QStringLiteral("a"), QStringLiteral("b")}));
        AgentLoopConfig loop;
        pipeline.installInto(loop);

        // The view: each stage maps what the one before made.
        QCOMPARE(loop.contextView({Message::makeUser(QStringLiteral("hi"))}).size(), 3);
        // beforeRequest: each sees the loop's conversation; their messages in order.
        Context conversation;
        conversation.messages = {Message::makeUser(QStringLiteral("hi"))};
        const QList<Message> added = loop.beforeRequest(conversation, AbortToken());
        QCOMPARE(added.size(), 2);
        QCOMPARE(added.at(0).text(), QStringLiteral("a"));
        QCOMPARE(added.at(1).text(), QStringLiteral("b"));
        // The first overflow answer wins.
        QCOMPARE(loop.onContextOverflow(Message(), conversation, AbortToken())->text(),
                 QStringLiteral("a"));
        QCOMPARE(loop.prepareContext(Context()).systemPrompt, QStringLiteral("ab"));
        ToolCallContext call;
        loop.effects.beforeEffect(call);
        loop.effects.afterEffect(call, ToolResult());
        QCOMPARE(log,
                 (QStringList{QStringLiteral("a view 1"),
                              QStringLiteral("b view 2"),
                              QStringLiteral("a before 1"),
                              QStringLiteral("b before 1"),
                              QStringLiteral("a overflow"),
                              QStringLiteral("a prepare"),
                              QStringLiteral("b prepare"),
                              QStringLiteral("a beforeEffect"),
                              QStringLiteral("b beforeEffect"),
                              QStringLiteral("a afterEffect"),
                              QStringLiteral("b afterEffect")}));
    }

    // A seam no stage takes part in keeps what the config had: an unset contextView stays
    // unset (the loop then uses the history without a copy).
    void seamsNoStageTakesAreLeftAlone()
    {
        QStringList log;
        AgentLoopConfig loop;
        loop.prepareContext = [](Context context) {
            context.systemPrompt = QStringLiteral("kept");
            return context;
        };
        RequestPipeline()
            .add(std::make_shared<LoggingStage>(QStringLiteral("a"), Hook::BeforeRequest, &log))
            .installInto(loop);
        QVERIFY(!loop.contextView);
        QVERIFY(!loop.onContextOverflow);
        QVERIFY(!loop.effects.beforeEffect);
        QVERIFY(!loop.effects.afterEffect);
        QCOMPARE(loop.prepareContext(Context()).systemPrompt, QStringLiteral("kept"));
        QVERIFY(loop.beforeRequest);
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_RequestPipeline)

} // namespace tst_requestpipeline

#include "tst_requestpipeline.moc"
