// What fills the context window, as the user sees it: the status bar's context figure (the
// last reply's count plus the estimate of what came since, against the model's window, the
// user's window for a local model), the model settings' window field, and the context view
// with real widgets, by mouse and by keyboard.
#include "../tools/toolstest.h"
#include "fakekeystore.h"

#include <agentsession/agentsession.h>
#include <ai/modelcatalog.h>
#include <common/usagelabel.h>
#include <composer/composer.h>
#include <context/contextview.h>
#include <contextview/contextdialog.h>
#include <loop/agent.h>
#include <page/conversationpage.h>
#include <scriptedmodel.h>
#include <settings/settingsdialog.h>
#include <statusbar/agentstatusbar.h>
#include <testmain.h>
#include <testtools.h>
#include <window/mainwindow.h>

#include <QAction>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QHash>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTreeWidget>

#include <cmath>
#include <memory>

using namespace AgentCore;
namespace tst_contextdialog {

using TestSupport::FunctionTool;
using TestSupport::ModelStep;
using TestSupport::ScriptedModel;
using Ui::AgentSession;
using Ui::ContextDialog;
using Ui::ContextItem;

namespace {

constexpr int runTimeoutMs = 15'000;
constexpr qint64 localWindow = 100'000;

Ui::ModelSelection localModel()
{
    Ui::ModelSelection selection;
    selection.provider = Ui::ProviderKind::OpenAiCompatible;
    selection.baseUrl = QStringLiteral("http://127.0.0.1:9/v1");
    selection.model = QStringLiteral("house-coder-7b");
    return selection;
}

ModelStep counted(ModelStep step, qint64 input, qint64 output)
{
    step.message.usage.input = input;
    step.message.usage.output = output;
    return step;
}

Message reply(const QList<ContentBlock> &content, qint64 input)
{
    Message message;
    message.role = Message::Role::Assistant;
    message.content = content;
    message.usage.input = input;
    message.usage.output = 100;
    return message;
}

QString percentText(qint64 tokens, qint64 window)
{
    return QStringLiteral("Context %1%").arg(std::lround(100.0 * double(tokens) / double(window)));
}

// A conversation of every kind of item, as the dialog tests show it.
struct Conversation
{
    AgentCore::ContextMeter meter;
    QList<AgentCore::InstructionFile> instructions;
};

Conversation conversation()
{
    Conversation result;
    AgentCore::InstructionFile agents;
    agents.path = QStringLiteral("/work/calc/AGENTS.md");
    agents.text = QStringLiteral("# Calc\nBuild with cmake. Run the tests before you commit.\n")
                      .repeated(20);
    const QString prompt = QStringLiteral("You are AgentDesk, a coding agent.\n").repeated(40)
                           + QStringLiteral("\n# Project instructions\n") + agents.text;
    result.instructions = {agents};
    result.meter.setPreamble(prompt,
                             {{"Read", "Reads a file of the repository.", {{"type", "object"}}},
                              {"Bash", "Runs a command.", {{"type", "object"}}}});
    result.meter.setMessages(
        {Message::makeUser(QStringLiteral("Why does add(INT_MAX, 1) overflow?")),
         reply({ContentBlock::makeToolCall("r1", "Read", {{"file_path", "src/calc.cpp"}}),
                ContentBlock::makeToolCall("b1", "Bash", {{"command", "ctest"}})},
               3'000),
         Message::makeToolResult("r1",
                                 "Read",
                                 QStringLiteral("int add(int a, int b)\n").repeated(900),
                                 false),
         Message::makeToolResult("b1",
                                 "Bash",
                                 QStringLiteral("100% tests passed\n").repeated(40),
                                 false),
         reply({ContentBlock::makeText(QStringLiteral("The sum is computed in int."))}, 9'000)});
    return result;
}

qint64 rowTokens(const QTreeWidgetItem *row)
{
    return row->data(ContextDialog::TokensColumn, Qt::UserRole).toLongLong();
}

} // namespace

class tst_ContextDialog : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AgentDeskTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_contextdialog"));
    }

    void statusBarCountsTheLastReplyAndWhatCameAfter();
    void contextFigureOpensTheViewByClickAndShortcut();

    void settingsTakeTheWindowOfAnUnknownModel();
    void settingsRefuseAWindowThatCannotBe_data();
    void settingsRefuseAWindowThatCannotBe();
    void settingsShowTheWindowOfAKnownModel();

    void viewListsTheLargestFirstAgainstTheWindow();
    void viewShowsInstructionsApartFromTheSystemPrompt();
    void viewSortsByEveryColumn();
    void selectingAToolOutputShowsItsBeginning();
    void keyboardDropsAndPins();
    void viewShowsTheStateItIsGiven();
    void viewShowsDeferredAndLoadedTools();
    void droppedOutputLeavesTheNextRequest();

private:
    void openWindow(const QList<ModelStep> &steps);
    AgentSession *session() const { return m_window->session(); }
    QString usageText() const { return m_window->agentStatusBar()->usageText(); }

    std::unique_ptr<ToolsTest::Repo> m_repo = std::make_unique<ToolsTest::Repo>();
    QTemporaryDir m_sessionsDir;
    std::shared_ptr<ScriptedModel> m_model;
    std::unique_ptr<Ui::MainWindow> m_window;
    FakeKeyStore m_keys;
};

void tst_ContextDialog::openWindow(const QList<ModelStep> &steps)
{
    m_window.reset();
    // The user gave this local model's window in the settings.
    {
        Ui::AppSettings settings;
        settings.contextWindows.insert(Ui::AppSettings::contextWindowKey(localModel()), localWindow);
        // These tests count the context; a summary in the background would take the scripted
        // model's replies (tst_contextmanager and tst_compactdialog test compaction).
        settings.autoCompact = false;
        QSettings stored;
        settings.save(stored);
    }
    m_model = std::make_shared<ScriptedModel>(steps);
    Ui::AgentSetup setup;
    setup.model.client = m_model;
    setup.model.selection = localModel();
    setup.model.label = localModel().label();
    setup.options.systemPrompt = QStringLiteral("You are tested.");
    setup.options.tools.extra = {FunctionTool::make(QStringLiteral("Probe"),
                                                    {},
                                                    ExecutionMode::Parallel,
                                                    [](const ToolCallContext &) {
                                                        return ToolResult::makeText(
                                                            QString(35'000, u'p'));
                                                    })};
    setup.sessionsDirectory = m_sessionsDir.path();
    setup.keyStore = &m_keys;
    m_window = std::make_unique<Ui::MainWindow>(setup);
    m_window->resize(1200, 760);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    QVERIFY(m_window->openRepository(m_repo->root()));
    QTRY_VERIFY_WITH_TIMEOUT(session()->agent(), runTimeoutMs);
}

void tst_ContextDialog::statusBarCountsTheLastReplyAndWhatCameAfter()
{
    QVERIFY(m_repo->isValid());
    openWindow({counted(ModelStep::toolCall(QStringLiteral("p1"), QStringLiteral("Probe"), {}),
                        20'000,
                        100),
                ModelStep::waitForAbort(),
                counted(ModelStep::text(QStringLiteral("Done.")), 50'000, 400),
                ModelStep::waitForAbort()});
    Ui::Composer *composer = m_window->conversationPage()->composer();
    QTest::keyClicks(composer, QStringLiteral("probe it"));
    QTest::keyClick(composer, Qt::Key_Return);
    // The tool's 35 KB output waits for the next request: the reply's 20,100 tokens plus its
    // calibrated estimate, against the 100,000 the user gave for this local model.
    QTRY_COMPARE_WITH_TIMEOUT(m_model->callCount(), 2, runTimeoutMs);
    const auto &messages = session()->contextMeter().context().messages;
    QTRY_VERIFY(!messages.isEmpty() && messages.last().isToolResult());
    const Message output = messages.last();
    const qint64 withOutput = 20'100
                              + session()->contextMeter().calibration().correct(
                                  estimateTokens(output));
    QVERIFY(withOutput > 25'000);
    QTRY_VERIFY2(usageText().startsWith(percentText(withOutput, localWindow)),
                 qPrintable(usageText()));
    // A large paste in the message box is not in the context until it is sent.
    const QString paste = QString(70'000, u'q');
    composer->setPlainText(paste);
    QTest::qWait(50);
    QVERIFY2(usageText().startsWith(percentText(withOutput, localWindow)), qPrintable(usageText()));
    composer->clear();
    m_window->session()->stop();
    QTRY_COMPARE_WITH_TIMEOUT(session()->state(), AgentSession::State::Idle, runTimeoutMs);

    // A reply with usage: exactly what the provider counted.
    QTest::keyClicks(composer, QStringLiteral("go on"));
    QTest::keyClick(composer, Qt::Key_Return);
    QTRY_COMPARE_WITH_TIMEOUT(m_model->callCount(), 3, runTimeoutMs);
    QTRY_COMPARE_WITH_TIMEOUT(session()->state(), AgentSession::State::Idle, runTimeoutMs);
    QVERIFY2(usageText().startsWith(QStringLiteral("Context 50%")), qPrintable(usageText()));

    // The pasted message, sent: counted from then on, before any reply.
    composer->setPlainText(paste);
    QVERIFY2(usageText().startsWith(QStringLiteral("Context 50%")), qPrintable(usageText()));
    composer->setFocus();
    QTest::keyClick(composer, Qt::Key_Return);
    QTRY_COMPARE_WITH_TIMEOUT(m_model->callCount(), 4, runTimeoutMs);
    const auto roles = [&messages] {
        QStringList list;
        for (const Message &message : messages)
            list.append(QString::number(int(message.role)) + QLatin1Char(':')
                        + message.text().left(12));
        return list.join(u' ');
    };
    QTRY_VERIFY2(messages.last().isUser(), qPrintable(roles()));
    const Message sent = messages.last();
    QCOMPARE(sent.text(), paste);
    const qint64 withPaste = 50'400
                             + session()->contextMeter().calibration().correct(estimateTokens(sent));
    QVERIFY(withPaste > 65'000);
    QTRY_VERIFY2(usageText().startsWith(percentText(withPaste, localWindow)),
                 qPrintable(usageText()));
    m_window->session()->stop();
    QTRY_COMPARE_WITH_TIMEOUT(session()->state(), AgentSession::State::Idle, runTimeoutMs);
}

void tst_ContextDialog::contextFigureOpensTheViewByClickAndShortcut()
{
    QVERIFY(m_repo->isValid());
    openWindow({counted(ModelStep::text(QStringLiteral("Hello.")), 12'000, 345)});
    Ui::Composer *composer = m_window->conversationPage()->composer();
    QTest::keyClicks(composer, QStringLiteral("hi"));
    QTest::keyClick(composer, Qt::Key_Return);
    QTRY_COMPARE_WITH_TIMEOUT(session()->state(), AgentSession::State::Idle, runTimeoutMs);
    QTRY_VERIFY(m_window->agentStatusBar()->usageLabel()->isVisible());

    QTest::mouseClick(m_window->agentStatusBar()->usageLabel(), Qt::LeftButton);
    QTRY_VERIFY(m_window->contextDialog() && m_window->contextDialog()->isVisible());
    ContextDialog *dialog = m_window->contextDialog();
    QCOMPARE(dialog->totalText(),
             QStringLiteral("Context: %1 of %2 tokens (12%)")
                 .arg(QLocale().toString(12'345), QLocale().toString(100'000)));
    auto bar = dialog->findChild<QProgressBar *>(QStringLiteral("contextBar"));
    QCOMPARE(bar->maximum(), 100'000);
    QCOMPARE(bar->value(), 12'345);
    // The system prompt, each tool, the message and the reply.
    const auto &items = dialog->snapshot().items;
    QCOMPARE(items.first().kind, ContextItem::Kind::SystemPrompt);
    QCOMPARE(std::count_if(items.cbegin(),
                           items.cend(),
                           [](const ContextItem &item) {
                               return item.kind == ContextItem::Kind::User;
                           }),
             1);
    QVERIFY(std::any_of(items.cbegin(), items.cend(), [](const ContextItem &item) {
        return item.title == QStringLiteral("Tool: Probe");
    }));
    // Esc closes it, from the list that has the focus.
    QTRY_VERIFY(dialog->list()->hasFocus());
    QTest::keyClick(dialog->list(), Qt::Key_Escape);
    QTRY_VERIFY(!m_window->contextDialog());

    // The menu's shortcut opens it again.
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    auto action = m_window->findChild<QAction *>(QStringLiteral("contextViewAction"));
    QVERIFY(action);
    QCOMPARE(action->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_I));
    QTest::keySequence(m_window.get(), action->shortcut());
    QTRY_VERIFY(m_window->contextDialog() && m_window->contextDialog()->isVisible());
    m_window->contextDialog()->close();
}

void tst_ContextDialog::settingsTakeTheWindowOfAnUnknownModel()
{
    Ui::AppSettings initial;
    initial.model = localModel();
    Ui::SettingsDialog dialog(initial, &m_keys);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    auto field = dialog.findChild<QLineEdit *>(QStringLiteral("contextWindowEdit"));
    QVERIFY(field->isEnabled());
    QCOMPARE(field->text(), QString());
    field->setFocus();
    QTest::keyClicks(field, QStringLiteral("32k"));
    QSignalSpy accepted(&dialog, &QDialog::accepted);
    QTest::mouseClick(dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok),
                      Qt::LeftButton);
    QTRY_COMPARE(accepted.size(), 1);
    const Ui::AppSettings chosen = dialog.settings();
    QCOMPARE(chosen.contextWindow(localModel()), 32'000);
    // Saved and read back, as the next start sees it.
    QSettings stored;
    chosen.save(stored);
    QCOMPARE(Ui::AppSettings::load(stored).contextWindow(localModel()), 32'000);

    // Opened again: the field shows it.
    Ui::SettingsDialog again(chosen, &m_keys);
    QCOMPARE(again.findChild<QLineEdit *>(QStringLiteral("contextWindowEdit"))->text(),
             QLocale().toString(32'000));
}

void tst_ContextDialog::settingsRefuseAWindowThatCannotBe_data()
{
    QTest::addColumn<QString>("typed");
    QTest::addColumn<QString>("message");
    QTest::newRow("zero") << QStringLiteral("0") << QStringLiteral("must hold some tokens");
    QTest::newRow("negative") << QStringLiteral("-4096") << QStringLiteral("must hold some tokens");
    QTest::newRow("too small") << QStringLiteral("100") << QStringLiteral("leave no room");
    QTest::newRow("absurd") << QStringLiteral("999999999999") << QStringLiteral("No model takes");
    QTest::newRow("not a number") << QStringLiteral("lots") << QStringLiteral("as a number");
}

void tst_ContextDialog::settingsRefuseAWindowThatCannotBe()
{
    QFETCH(QString, typed);
    QFETCH(QString, message);
    Ui::AppSettings initial;
    initial.model = localModel();
    Ui::SettingsDialog dialog(initial, &m_keys);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    auto field = dialog.findChild<QLineEdit *>(QStringLiteral("contextWindowEdit"));
    field->setFocus();
    QTest::keyClicks(field, typed);
    QSignalSpy accepted(&dialog, &QDialog::accepted);
    QTest::mouseClick(dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok),
                      Qt::LeftButton);
    QTest::qWait(50);
    QCOMPARE(accepted.size(), 0);
    QVERIFY(dialog.isVisible());
    auto shown = dialog.findChild<QLabel *>(QStringLiteral("contextWindowMessage"));
    QVERIFY(shown->isVisible());
    QVERIFY2(shown->text().contains(message), qPrintable(shown->text()));
    QVERIFY2(shown->text().contains(QLocale().toString(10'000'000)), qPrintable(shown->text()));
    QCOMPARE(dialog.focusWidget(), field); // where the user fixes it
    QVERIFY(!dialog.settings().contextWindow(localModel()));
}

void tst_ContextDialog::settingsShowTheWindowOfAKnownModel()
{
    Ui::AppSettings initial;
    initial.model = Ui::ModelSelection{Ui::ProviderKind::Anthropic,
                                       {},
                                       QStringLiteral("claude-sonnet-4-5"),
                                       Ui::ThinkingLevel::Off};
    const std::optional<qint64> known = contextWindowTokens(QStringLiteral("anthropic"),
                                                            QStringLiteral("claude-sonnet-4-5"));
    QVERIFY(known);
    Ui::SettingsDialog dialog(initial, &m_keys);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    auto field = dialog.findChild<QLineEdit *>(QStringLiteral("contextWindowEdit"));
    QVERIFY(!field->isEnabled());
    QVERIFY2(field->placeholderText().contains(QLocale().toString(*known)),
             qPrintable(field->placeholderText()));
    QCOMPARE(dialog.findChild<QLabel *>(QStringLiteral("contextWindowNote"))->text(),
             QStringLiteral("Known for this model."));
}

void tst_ContextDialog::viewListsTheLargestFirstAgainstTheWindow()
{
    const Conversation parts = conversation();
    ContextDialog dialog;
    dialog.setSnapshot(Ui::ContextSnapshot::of(parts.meter, parts.instructions, 200'000));
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QTreeWidget *list = dialog.list();
    // 1 prompt + 1 instructions file + 2 tools + 5 messages.
    QCOMPARE(list->topLevelItemCount(), 9);
    for (int row = 1; row < list->topLevelItemCount(); ++row)
        QVERIFY(rowTokens(list->topLevelItem(row - 1)) >= rowTokens(list->topLevelItem(row)));
    // The Read output (18 KB) is the largest.
    const ContextItem *largest = dialog.itemOf(list->topLevelItem(0));
    QCOMPARE(largest->kind, ContextItem::Kind::ToolOutput);
    QCOMPARE(largest->toolCallId, QStringLiteral("r1"));
    QCOMPARE(largest->title, QStringLiteral("Output of Read: src/calc.cpp"));
    QCOMPARE(list->topLevelItem(0)->text(ContextDialog::KindColumn), QStringLiteral("Tool output"));
    // The total is the meter's: the last reply's count (nothing came after it).
    QCOMPARE(dialog.totalText(),
             QStringLiteral("Context: %1 of %2 tokens (5%)")
                 .arg(QLocale().toString(9'100), QLocale().toString(200'000)));
    auto bar = dialog.findChild<QProgressBar *>(QStringLiteral("contextBar"));
    QCOMPARE(bar->value(), 9'100);
    QCOMPARE(bar->maximum(), 200'000);
    // The largest item is the current one, its share shown against the window.
    QCOMPARE(list->currentItem(), list->topLevelItem(0));
    const double share = 100.0 * double(largest->tokens) / 200'000.0;
    QCOMPARE(list->topLevelItem(0)->text(ContextDialog::ShareColumn),
             QStringLiteral("%1%").arg(QLocale().toString(share, 'f', 1)));

    // Unknown window: no bar, and the view says where to set it.
    dialog.setSnapshot(Ui::ContextSnapshot::of(parts.meter, parts.instructions, std::nullopt));
    QVERIFY(bar->isHidden());
    QVERIFY2(dialog.totalText().contains(QStringLiteral("unknown")), qPrintable(dialog.totalText()));
}

void tst_ContextDialog::viewShowsInstructionsApartFromTheSystemPrompt()
{
    const Conversation parts = conversation();
    const Ui::ContextSnapshot snapshot = Ui::ContextSnapshot::of(parts.meter,
                                                                 parts.instructions,
                                                                 200'000);
    const ContextItem &prompt = snapshot.items.at(0);
    const ContextItem &agents = snapshot.items.at(1);
    QCOMPARE(prompt.kind, ContextItem::Kind::SystemPrompt);
    QCOMPARE(agents.kind, ContextItem::Kind::Instructions);
    QCOMPARE(agents.title, QStringLiteral("AGENTS.md (/work/calc)"));
    QCOMPARE(agents.tokens, parts.meter.estimate(parts.instructions.first().text));
    // Together they are the prompt's estimate: nothing counted twice.
    QCOMPARE(prompt.tokens + agents.tokens,
             parts.meter.estimate(parts.meter.context().systemPrompt));
    QVERIFY(agents.preview.startsWith(QStringLiteral("# Calc")));
}

void tst_ContextDialog::viewSortsByEveryColumn()
{
    const Conversation parts = conversation();
    ContextDialog dialog;
    dialog.setSnapshot(Ui::ContextSnapshot::of(parts.meter, parts.instructions, 200'000));
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QTreeWidget *list = dialog.list();
    // A click on "#": the request's order, system prompt first.
    QHeaderView *header = list->header();
    const auto clickHeader = [header](int column) {
        QTest::mouseClick(header->viewport(),
                          Qt::LeftButton,
                          {},
                          QPoint(header->sectionViewportPosition(column) + 5, header->height() / 2));
    };
    clickHeader(ContextDialog::PositionColumn);
    if (list->header()->sortIndicatorOrder() == Qt::DescendingOrder)
        clickHeader(ContextDialog::PositionColumn);
    QCOMPARE(dialog.itemOf(list->topLevelItem(0))->kind, ContextItem::Kind::SystemPrompt);
    for (int row = 0; row < list->topLevelItemCount(); ++row)
        QCOMPARE(dialog.itemOf(list->topLevelItem(row))->position, row + 1);
    // The sort order stays when the snapshot is refreshed (the agent went on).
    dialog.setSnapshot(Ui::ContextSnapshot::of(parts.meter, parts.instructions, 200'000));
    QCOMPARE(dialog.itemOf(list->topLevelItem(0))->kind, ContextItem::Kind::SystemPrompt);
    // Tokens, smallest first, by clicking twice.
    clickHeader(ContextDialog::TokensColumn);
    if (list->header()->sortIndicatorOrder() == Qt::DescendingOrder)
        clickHeader(ContextDialog::TokensColumn);
    for (int row = 1; row < list->topLevelItemCount(); ++row)
        QVERIFY(rowTokens(list->topLevelItem(row - 1)) <= rowTokens(list->topLevelItem(row)));
}

void tst_ContextDialog::selectingAToolOutputShowsItsBeginning()
{
    const Conversation parts = conversation();
    ContextDialog dialog;
    dialog.setSnapshot(Ui::ContextSnapshot::of(parts.meter, parts.instructions, 200'000));
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    auto preview = dialog.findChild<QPlainTextEdit *>(QStringLiteral("contextPreview"));
    QVERIFY(preview->toPlainText().startsWith(QStringLiteral("int add(int a, int b)\n")));
    QVERIFY(preview->toPlainText().size() <= 4000); // the beginning, not all 18 KB
    // Down to the Bash output: its text.
    QTreeWidget *list = dialog.list();
    list->setFocus();
    while (dialog.itemOf(list->currentItem())->toolCallId != QStringLiteral("b1"))
        QTest::keyClick(list, Qt::Key_Down);
    QVERIFY(preview->toPlainText().startsWith(QStringLiteral("100% tests passed")));
    QCOMPARE(dialog.itemOf(list->currentItem())->title, QStringLiteral("Output of Bash: ctest"));
}

void tst_ContextDialog::keyboardDropsAndPins()
{
    const Conversation parts = conversation();
    ContextDialog dialog;
    dialog.setSnapshot(Ui::ContextSnapshot::of(parts.meter, parts.instructions, 200'000));
    dialog.show();
    QVERIFY(QTest::qWaitForWindowActive(&dialog));
    QSignalSpy drops(&dialog, &ContextDialog::dropRequested);
    QSignalSpy pins(&dialog, &ContextDialog::pinRequested);
    QTreeWidget *list = dialog.list();
    QVERIFY(list->hasFocus());
    // The largest item, the Read output: Delete drops it.
    QTest::keyClick(list, Qt::Key_Delete);
    QCOMPARE(drops.size(), 1);
    QCOMPARE(drops.first().first().toString(), QStringLiteral("r1"));
    // Space pins it (message 2 of the conversation).
    QTest::keyClick(list, Qt::Key_Space);
    QCOMPARE(pins.size(), 1);
    QCOMPARE(pins.first().at(0).toInt(), 2);
    QCOMPARE(pins.first().at(1).toBool(), true);
    // The system prompt is neither a tool output nor a message.
    while (dialog.itemOf(list->currentItem())->kind != ContextItem::Kind::SystemPrompt)
        QTest::keyClick(list, Qt::Key_Down);
    QTest::keyClick(list, Qt::Key_Delete);
    QTest::keyClick(list, Qt::Key_Space);
    QCOMPARE(drops.size(), 1);
    QCOMPARE(pins.size(), 1);
    QVERIFY(!dialog.findChild<QPushButton *>(QStringLiteral("dropButton"))->isEnabled());
    QVERIFY(!dialog.findChild<QPushButton *>(QStringLiteral("pinButton"))->isEnabled());
    // Nothing acts on the signals: the buttons say so, and keys do nothing.
    dialog.setEditsAvailable(false);
    QTest::keyClick(list, Qt::Key_Home);
    QTest::keyClick(list, Qt::Key_Delete);
    QCOMPARE(drops.size(), 1);
    QVERIFY(!dialog.findChild<QPushButton *>(QStringLiteral("dropButton"))->isEnabled());
    // Esc closes.
    QTest::keyClick(list, Qt::Key_Escape);
    QVERIFY(!dialog.isVisible());
}

void tst_ContextDialog::viewShowsTheStateItIsGiven()
{
    const Conversation parts = conversation();
    ContextDialog dialog;
    dialog.setSnapshot(Ui::ContextSnapshot::of(parts.meter, parts.instructions, 200'000));
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    Ui::ContextEdits edits;
    edits.droppedToolOutputs = {QStringLiteral("r1")};
    edits.pinnedMessages = {0};
    dialog.setEdits(edits);
    QTreeWidget *list = dialog.list();
    QTreeWidgetItem *dropped = nullptr;
    QTreeWidgetItem *pinned = nullptr;
    for (int row = 0; row < list->topLevelItemCount(); ++row) {
        const ContextItem *item = dialog.itemOf(list->topLevelItem(row));
        if (item->toolCallId == QStringLiteral("r1"))
            dropped = list->topLevelItem(row);
        if (item->messageIndex == 0)
            pinned = list->topLevelItem(row);
    }
    QCOMPARE(dropped->text(ContextDialog::StateColumn), QStringLiteral("Removed from context"));
    QVERIFY(dropped->foreground(ContextDialog::ItemColumn).color()
            != list->palette().color(QPalette::Active, QPalette::Text));
    QCOMPARE(pinned->text(ContextDialog::StateColumn), QStringLiteral("Pinned"));
    // A dropped output cannot be dropped again; a pinned message offers to unpin.
    QSignalSpy drops(&dialog, &ContextDialog::dropRequested);
    QSignalSpy pins(&dialog, &ContextDialog::pinRequested);
    list->setCurrentItem(dropped);
    QVERIFY(!dialog.findChild<QPushButton *>(QStringLiteral("dropButton"))->isEnabled());
    QTest::keyClick(list, Qt::Key_Delete);
    QCOMPARE(drops.size(), 0);
    list->setCurrentItem(pinned);
    QCOMPARE(dialog.findChild<QPushButton *>(QStringLiteral("pinButton"))->text(),
             QStringLiteral("Un&pin"));
    QTest::mouseClick(dialog.findChild<QPushButton *>(QStringLiteral("pinButton")), Qt::LeftButton);
    QCOMPARE(pins.size(), 1);
    QCOMPARE(pins.first().at(0).toInt(), 0);
    QCOMPARE(pins.first().at(1).toBool(), false);
}

// The tools the request carries show their bytes (and whether ToolSearch loaded them); the
// deferred ones, which it only names, are listed apart, greyed, without a place in it.
void tst_ContextDialog::viewShowsDeferredAndLoadedTools()
{
    const Conversation parts = conversation();
    const QList<AgentCore::ToolOfferEntry>
        offer{{"Read", {}, 828, false, false},
              {"Bash", {}, 1'204, true, true},
              {"mcp__github__create_issue", "Create a new issue.", 1'612, true, false}};
    const Ui::ContextSnapshot snapshot = Ui::ContextSnapshot::of(parts.meter,
                                                                 parts.instructions,
                                                                 200'000,
                                                                 {},
                                                                 offer);
    ContextDialog dialog;
    dialog.setSnapshot(snapshot);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QTreeWidget *list = dialog.list();
    QHash<QString, QTreeWidgetItem *> rows;
    for (int row = 0; row < list->topLevelItemCount(); ++row)
        rows.insert(list->topLevelItem(row)->text(ContextDialog::ItemColumn),
                    list->topLevelItem(row));
    QCOMPARE(rows.value("Tool: Read")->text(ContextDialog::StateColumn),
             QStringLiteral("%1 bytes").arg(QLocale().toString(828)));
    QCOMPARE(rows.value("Tool: Bash")->text(ContextDialog::StateColumn),
             QStringLiteral("Loaded with ToolSearch, %1 bytes").arg(QLocale().toString(1'204)));
    QTreeWidgetItem *deferred = rows.value("Tool: mcp__github__create_issue");
    QVERIFY(deferred);
    QCOMPARE(deferred->text(ContextDialog::StateColumn),
             QStringLiteral("Deferred (%1 bytes whole)").arg(QLocale().toString(1'612)));
    QCOMPARE(deferred->text(ContextDialog::TokensColumn), QStringLiteral("0"));
    QCOMPARE(deferred->text(ContextDialog::PositionColumn), QString());
    QVERIFY(deferred->foreground(ContextDialog::ItemColumn).color()
            != list->palette().color(QPalette::Active, QPalette::Text));
    list->setCurrentItem(deferred);
    QVERIFY(dialog.findChild<QPlainTextEdit *>()->toPlainText().contains("Create a new issue."));
}

// Delete in the context view drops a tool output from the requests from then on: the next one
// carries the stub under the same call id, the figure falls, and the session keeps the edit.
void tst_ContextDialog::droppedOutputLeavesTheNextRequest()
{
    QVERIFY(m_repo->isValid());
    openWindow({ModelStep::toolCall(QStringLiteral("p1"), QStringLiteral("Probe"), {}),
                ModelStep::text(QStringLiteral("It printed a lot.")),
                ModelStep::text(QStringLiteral("Fine."))});
    Ui::Composer *composer = m_window->conversationPage()->composer();
    QTest::keyClicks(composer, QStringLiteral("probe it"));
    QTest::keyClick(composer, Qt::Key_Return);
    QTRY_COMPARE_WITH_TIMEOUT(m_model->callCount(), 2, runTimeoutMs);
    QTRY_COMPARE_WITH_TIMEOUT(session()->state(), AgentSession::State::Idle, runTimeoutMs);
    const qint64 before = session()->contextMeter().tokens().total;

    QTest::mouseClick(m_window->agentStatusBar()->usageLabel(), Qt::LeftButton);
    ContextDialog *dialog = m_window->contextDialog();
    QVERIFY(dialog);
    QTRY_VERIFY(dialog->isVisible());
    QTreeWidget *list = dialog->list();
    for (int row = 0; row < list->topLevelItemCount(); ++row) {
        if (dialog->itemOf(list->topLevelItem(row))->toolCallId == QStringLiteral("p1"))
            list->setCurrentItem(list->topLevelItem(row));
    }
    QCOMPARE(dialog->itemOf(list->currentItem())->toolCallId, QStringLiteral("p1"));
    QPushButton *drop = dialog->findChild<QPushButton *>(QStringLiteral("dropButton"));
    QVERIFY(drop->isEnabled());
    QTest::mouseClick(drop, Qt::LeftButton);
    QVERIFY(session()->contextEdits().droppedToolOutputs.contains(QStringLiteral("p1")));
    QVERIFY2(session()->contextMeter().tokens().total < before - 5'000,
             qPrintable(QString::number(session()->contextMeter().tokens().total)));
    QTest::keyClick(list, Qt::Key_Escape);

    QTest::keyClicks(composer, QStringLiteral("and now?"));
    composer->setFocus();
    QTest::keyClick(composer, Qt::Key_Return);
    QTRY_COMPARE_WITH_TIMEOUT(m_model->callCount(), 3, runTimeoutMs);
    QTRY_COMPARE_WITH_TIMEOUT(session()->state(), AgentSession::State::Idle, runTimeoutMs);
    bool stubbed = false;
    for (const Message &message : m_model->contexts().last().messages) {
        if (message.isToolResult() && message.toolCallId == QStringLiteral("p1")) {
            QCOMPARE(message.text(), droppedToolOutputText());
            stubbed = true;
        }
    }
    QVERIFY(stubbed);
    // The history keeps the output (whole, or paged to the session file); only the requests
    // leave it out.
    bool kept = false;
    for (const Message &message : session()->agent()->messages()) {
        const qsizetype size = message.isPaged() ? message.pagedChars : message.text().size();
        kept = kept || (message.isToolResult() && size == 35'000);
    }
    QVERIFY(kept);
}

AGENTDESK_TEST_MAIN(tst_ContextDialog)

} // namespace tst_contextdialog

#include "tst_contextdialog.moc"
