// The status bar on real widgets: the model menu, the thinking level, switching only between
// turns, and the usage summary (context, tokens, cost).
#include <common/usagelabel.h>
#include <common/usagesummary.h>
#include <statusbar/agentstatusbar.h>
#include <testmain.h>

#include <ai/pricing.h>

#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QPainter>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QTimer>
#include <QToolButton>

using namespace AgentCore;
Q_DECLARE_METATYPE(AgentCore::Usage)

namespace tst_agentstatusbar {

using Ui::AgentStatusBar;
using Ui::ModelSelection;
using Ui::ProviderKind;
using Ui::ThinkingLevel;
using Ui::UsageSummary;

namespace {

using OptionalSelection = std::optional<ModelSelection>;

ModelSelection selection(ProviderKind provider,
                         const QString &model,
                         ThinkingLevel thinking = ThinkingLevel::Off,
                         const QString &baseUrl = {})
{
    ModelSelection result;
    result.provider = provider;
    result.model = model;
    result.thinking = thinking;
    result.baseUrl = baseUrl;
    return result;
}

Ui::ModelChoice choice(const QString &label, const QString &problem = {}, bool demo = false)
{
    Ui::ModelChoice result;
    result.label = label;
    result.problem = problem;
    result.isDemo = demo;
    return result;
}

Message reply(const QString &provider, const QString &model, const Usage &usage)
{
    Message message;
    message.role = Message::Role::Assistant;
    message.provider = provider;
    message.model = model;
    message.usage = withCost(usage, provider, model);
    return message;
}

Message userMessage(const QString &text)
{
    Message message;
    message.role = Message::Role::User;
    message.content.append(ContentBlock::makeText(text));
    return message;
}

Usage usage(qint64 input, qint64 output, qint64 cacheRead, qint64 cacheWrite)
{
    Usage result;
    result.input = input;
    result.output = output;
    result.cacheRead = cacheRead;
    result.cacheWrite = cacheWrite;
    return result;
}

/// A two-turn conversation: 25,800 tokens in all, 13,300 in the context after the second reply.
QList<Message> conversation(const QString &provider, const QString &model)
{
    return {userMessage(QStringLiteral("Fix the overflow.")),
            reply(provider, model, usage(10'000, 500, 0, 2'000)),
            userMessage(QStringLiteral("And the test.")),
            reply(provider, model, usage(200, 800, 12'000, 300))};
}

QToolButton *modelButton(AgentStatusBar &bar)
{
    return bar.findChild<QToolButton *>(QStringLiteral("modelButton"));
}

QComboBox *thinkingBox(AgentStatusBar &bar)
{
    return bar.findChild<QComboBox *>(QStringLiteral("thinkingLevel"));
}

QStringList menuTexts(QMenu *menu)
{
    QStringList texts;
    for (QAction *action : menu->actions()) {
        if (!action->text().isEmpty()) // sections are separators with a text
            texts.append(action->isChecked() ? u'*' + action->text() : action->text());
    }
    return texts;
}

QPalette darkPalette()
{
    QPalette palette;
    const QColor window(0x2b, 0x2d, 0x31), base(0x1e, 0x1f, 0x22), text(0xdf, 0xe1, 0xe5);
    palette.setColor(QPalette::Window, window);
    palette.setColor(QPalette::WindowText, text);
    palette.setColor(QPalette::Base, base);
    palette.setColor(QPalette::AlternateBase, window);
    palette.setColor(QPalette::Text, text);
    palette.setColor(QPalette::Button, window);
    palette.setColor(QPalette::ButtonText, text);
    palette.setColor(QPalette::ToolTipBase, base);
    palette.setColor(QPalette::ToolTipText, text);
    palette.setColor(QPalette::Highlight, QColor(0x35, 0x74, 0xf0));
    palette.setColor(QPalette::HighlightedText, Qt::white);
    palette.setColor(QPalette::Link, QColor(0x6c, 0xa0, 0xff));
    palette.setColor(QPalette::Mid, QColor(0x45, 0x48, 0x4e));
    palette.setColor(QPalette::Dark, QColor(0x18, 0x19, 0x1c));
    palette.setColor(QPalette::Light, QColor(0x3c, 0x3f, 0x44));
    palette.setColor(QPalette::Disabled, QPalette::Text, QColor(0x70, 0x73, 0x7a));
    palette.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x70, 0x73, 0x7a));
    palette.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x70, 0x73, 0x7a));
    return palette;
}

} // namespace

class tst_AgentStatusBar : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();

    void menuOffersTheProvidersModels();
    void oneEntryPerEndpoint();
    void choosingAModelKeepsTheProvider();
    void choosingARecentSelection();
    void choosingTheDemo();
    void settingsFromTheMenu();
    void switchingOnlyBetweenTurns_data();
    void switchingOnlyBetweenTurns();
    void thinkingLevel();
    void demoHasNoThinking();
    void problemIsShown();
    void usageText_data();
    void usageText();
    void usageToolTipBreaksDown();
    void bypassToolTipNamesWhatStillHolds();
    void bypassAsksOnceAndWarns();
    void startedInBypassWarnsWithoutAsking();
    void noUsageNoLabel();
    void cacheHits_data();
    void cacheHits();
    void compactNumbers_data();
    void compactNumbers();
    void summarizeSumsEveryReply();
    void contextIsTheLastReply();
    void incrementalEqualsSummary();
    void longMessageEndsBeforeTheWidgets();
    void screenshot();

private:
    /// Opens the model menu with a real click and clicks the entry \a text in it.
    void chooseFromMenu(AgentStatusBar &bar, const QString &text);
    void chooseMode(AgentStatusBar &bar, AgentCore::PermissionMode mode);
};

void tst_AgentStatusBar::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
}

void tst_AgentStatusBar::chooseFromMenu(AgentStatusBar &bar, const QString &text)
{
    QToolButton *button = modelButton(bar);
    QVERIFY(button);
    bool clicked = false;
    // The menu runs its own event loop once open: click in it from there.
    QTimer::singleShot(0, this, [&] {
        QMenu *menu = button->menu();
        QTRY_VERIFY(menu->isVisible());
        for (QAction *action : menu->actions()) {
            if (action->text() == text) {
                // QMenu ignores a release where the menu opened: move there like a hand does.
                const QPoint where = menu->actionGeometry(action).center();
                for (int step = 8; step >= 0; --step)
                    QTest::mouseMove(menu, where + QPoint(step * 3, 0));
                QTest::mouseClick(menu, Qt::LeftButton, {}, where);
                clicked = true;
                return;
            }
        }
        menu->close();
    });
    QTest::mouseClick(button, Qt::LeftButton);
    QTRY_VERIFY(!button->menu()->isVisible());
    QVERIFY2(clicked, qPrintable(QStringLiteral("no menu entry \"%1\"").arg(text)));
}

void tst_AgentStatusBar::menuOffersTheProvidersModels()
{
    AgentStatusBar bar;
    bar.setModelSelection(selection(ProviderKind::Anthropic, QStringLiteral("claude-opus-4-1")),
                          {selection(ProviderKind::OpenAi, QStringLiteral("gpt-5")),
                           selection(ProviderKind::Anthropic, QStringLiteral("claude-haiku-4-5"))});
    const QStringList texts = menuTexts(modelButton(bar)->menu());
    // The current model checked among Anthropic's; a recent Anthropic model is not repeated.
    QCOMPARE(texts,
             (QStringList{"Anthropic",
                          "claude-sonnet-4-5",
                          "claude-opus-4-5",
                          "*claude-opus-4-1",
                          "claude-haiku-4-5",
                          "Recently used",
                          "gpt-5 (OpenAI)",
                          "Demo (offline)",
                          "Settings…"}));

    // A model the catalog does not know is still listed, checked, first.
    bar.setModelSelection(selection(ProviderKind::OpenAiCompatible,
                                    QStringLiteral("qwen3-coder:30b"),
                                    ThinkingLevel::Off,
                                    QStringLiteral("http://localhost:11434/v1")));
    QCOMPARE(menuTexts(modelButton(bar)->menu()),
             (QStringList{"localhost:11434", "*qwen3-coder:30b", "Demo (offline)", "Settings…"}));

    // A model from the command line: no selection, and not the demo either.
    bar.setModelSelection(std::nullopt);
    QCOMPARE(menuTexts(modelButton(bar)->menu()), (QStringList{"Demo (offline)", "Settings…"}));

    bar.setModel(choice(QStringLiteral("Demo (offline)"), {}, true));
    QCOMPARE(menuTexts(modelButton(bar)->menu()), (QStringList{"*Demo (offline)", "Settings…"}));
}

void tst_AgentStatusBar::oneEntryPerEndpoint()
{
    // The same endpoint spelled differently (a trailing slash, OpenAI's default URL given or
    // not) or at another thinking level is one entry with one label.
    AgentStatusBar bar;
    const QString ollama = QStringLiteral("http://localhost:11434/v1");
    bar.setModelSelection(selection(ProviderKind::OpenAiCompatible,
                                    QStringLiteral("qwen3"),
                                    ThinkingLevel::Off,
                                    ollama),
                          {selection(ProviderKind::OpenAiCompatible,
                                     QStringLiteral("qwen3"),
                                     ThinkingLevel::High,
                                     ollama + u'/'),
                           selection(ProviderKind::OpenAiCompatible,
                                     QStringLiteral("llama3"),
                                     ThinkingLevel::Off,
                                     ollama + u'/'),
                           selection(ProviderKind::OpenAi,
                                     QStringLiteral("gpt-5"),
                                     ThinkingLevel::Off,
                                     QStringLiteral("https://api.openai.com/v1")),
                           selection(ProviderKind::OpenAi,
                                     QStringLiteral("gpt-5"),
                                     ThinkingLevel::High)});
    QCOMPARE(menuTexts(modelButton(bar)->menu()),
             (QStringList{"localhost:11434",
                          "*qwen3",
                          "Recently used",
                          "llama3 (localhost:11434)",
                          "gpt-5 (OpenAI)",
                          "Demo (offline)",
                          "Settings…"}));
}

void tst_AgentStatusBar::choosingAModelKeepsTheProvider()
{
    AgentStatusBar bar;
    const ModelSelection current = selection(ProviderKind::OpenAiResponses,
                                             QStringLiteral("gpt-5"),
                                             ThinkingLevel::Medium);
    bar.setModelSelection(current);
    bar.show();
    QVERIFY(QTest::qWaitForWindowExposed(&bar));
    QSignalSpy chosen(&bar, &AgentStatusBar::modelSelectionChosen);
    // The owner switches at once, from within the menu's signal.
    connect(&bar, &AgentStatusBar::modelSelectionChosen, &bar, [&bar](const OptionalSelection &s) {
        bar.setModelSelection(s);
    });

    chooseFromMenu(bar, QStringLiteral("gpt-5-codex"));

    QCOMPARE(chosen.size(), 1);
    const auto choice = chosen.at(0).at(0).value<OptionalSelection>();
    QVERIFY(choice);
    QCOMPARE(choice->model, QStringLiteral("gpt-5-codex"));
    QCOMPARE(choice->provider, ProviderKind::OpenAiResponses);
    QCOMPARE(choice->thinking, ThinkingLevel::Medium);
    QVERIFY(menuTexts(modelButton(bar)->menu()).contains(QStringLiteral("*gpt-5-codex")));
}

void tst_AgentStatusBar::choosingARecentSelection()
{
    AgentStatusBar bar;
    const ModelSelection recent = selection(ProviderKind::Anthropic,
                                            QStringLiteral("claude-sonnet-4-5"),
                                            ThinkingLevel::High);
    bar.setModelSelection(selection(ProviderKind::OpenAi, QStringLiteral("gpt-5")), {recent});
    bar.show();
    QVERIFY(QTest::qWaitForWindowExposed(&bar));
    QSignalSpy chosen(&bar, &AgentStatusBar::modelSelectionChosen);

    chooseFromMenu(bar, recent.label());

    QCOMPARE(chosen.size(), 1);
    QCOMPARE(chosen.at(0).at(0).value<OptionalSelection>(), OptionalSelection(recent));
}

void tst_AgentStatusBar::choosingTheDemo()
{
    AgentStatusBar bar;
    bar.setModelSelection(selection(ProviderKind::Anthropic, QStringLiteral("claude-haiku-4-5")));
    bar.show();
    QVERIFY(QTest::qWaitForWindowExposed(&bar));
    QSignalSpy chosen(&bar, &AgentStatusBar::modelSelectionChosen);

    chooseFromMenu(bar, QStringLiteral("Demo (offline)"));

    QCOMPARE(chosen.size(), 1);
    QCOMPARE(chosen.at(0).at(0).value<OptionalSelection>(), std::nullopt);
}

void tst_AgentStatusBar::settingsFromTheMenu()
{
    AgentStatusBar bar;
    bar.show();
    QVERIFY(QTest::qWaitForWindowExposed(&bar));
    QSignalSpy settings(&bar, &AgentStatusBar::settingsRequested);
    QSignalSpy chosen(&bar, &AgentStatusBar::modelSelectionChosen);

    chooseFromMenu(bar, QStringLiteral("Settings…"));

    QCOMPARE(settings.size(), 1);
    QCOMPARE(chosen.size(), 0);
}

void tst_AgentStatusBar::switchingOnlyBetweenTurns_data()
{
    QTest::addColumn<Ui::AgentSession::State>("state");
    QTest::addColumn<bool>("switchable");

    QTest::newRow("preparing") << Ui::AgentSession::State::Preparing << true;
    QTest::newRow("idle") << Ui::AgentSession::State::Idle << true;
    QTest::newRow("running") << Ui::AgentSession::State::Running << false;
    QTest::newRow("stopping") << Ui::AgentSession::State::Stopping << false;
}

void tst_AgentStatusBar::switchingOnlyBetweenTurns()
{
    QFETCH(Ui::AgentSession::State, state);
    QFETCH(bool, switchable);

    AgentStatusBar bar;
    bar.setModelSelection(selection(ProviderKind::Anthropic, QStringLiteral("claude-sonnet-4-5")));
    bar.setRunState(Ui::AgentSession::State::Running); // from a run, so that Idle re-enables
    bar.setRunState(state);

    QCOMPARE(modelButton(bar)->isEnabled(), switchable);
    QCOMPARE(thinkingBox(bar)->isEnabled(), switchable);
    QCOMPARE(modelButton(bar)->toolTip().contains(QStringLiteral("between turns")), !switchable);
    QCOMPARE(thinkingBox(bar)->toolTip().contains(QStringLiteral("between turns")), !switchable);
    // The permission mode is switched at any time.
    QVERIFY(bar.findChild<QComboBox *>(QStringLiteral("permissionMode"))->isEnabled());
}

void tst_AgentStatusBar::thinkingLevel()
{
    AgentStatusBar bar;
    bar.setModelSelection(
        selection(ProviderKind::Anthropic, QStringLiteral("claude-sonnet-4-5"), ThinkingLevel::Low));
    bar.show();
    QVERIFY(QTest::qWaitForWindowExposed(&bar));
    QComboBox *box = thinkingBox(bar);
    QVERIFY(box->isVisible());
    QCOMPARE(box->currentText(), QStringLiteral("Thinking: Low"));

    QSignalSpy chosen(&bar, &AgentStatusBar::thinkingLevelChosen);
    // A real pick: open the list, go down twice, accept.
    box->showPopup();
    QTRY_VERIFY(box->view()->isVisible());
    QTest::keyClick(box->view(), Qt::Key_Down);
    QTest::keyClick(box->view(), Qt::Key_Down);
    QTest::keyClick(box->view(), Qt::Key_Return);

    QCOMPARE(chosen.size(), 1);
    QCOMPARE(chosen.at(0).at(0).value<ThinkingLevel>(), ThinkingLevel::High);
}

void tst_AgentStatusBar::demoHasNoThinking()
{
    AgentStatusBar bar;
    bar.show();
    QVERIFY(QTest::qWaitForWindowExposed(&bar));
    bar.setModelSelection(selection(ProviderKind::OpenAi, QStringLiteral("gpt-5")));
    QVERIFY(thinkingBox(bar)->isVisible());
    bar.setModelSelection(std::nullopt);
    QVERIFY(!thinkingBox(bar)->isVisible());
}

void tst_AgentStatusBar::problemIsShown()
{
    AgentStatusBar bar;
    bar.setModel(choice(QStringLiteral("gpt-5 (OpenAI)")));
    QCOMPARE(bar.modelText(), QStringLiteral("gpt-5 (OpenAI)"));
    const QString problem = QStringLiteral("No API key for OpenAI: add one in Settings.");
    bar.setModel(choice(QStringLiteral("gpt-5 (OpenAI)"), problem));
    QCOMPARE(bar.modelText(), QStringLiteral("No model"));
    QCOMPARE(modelButton(bar)->toolTip(), problem);
}

void tst_AgentStatusBar::usageText_data()
{
    QTest::addColumn<QString>("provider");
    QTest::addColumn<QString>("model");
    QTest::addColumn<qint64>("window");  // -1: unknown
    QTest::addColumn<QString>("source"); // where the model came from
    QTest::addColumn<QString>("expected");

    // 13,300 of 200,000 is 6.65%; sonnet: $0.045 + $0.017325
    QTest::newRow("priced, window known") << "anthropic"
                                          << "claude-sonnet-4-5" << qint64(200'000) << "settings"
                                          << "Context 7% · 25.8k tokens · 49% cached · $0.06";
    QTest::newRow("priced, window unknown") << "openai"
                                            << "gpt-5" << qint64(-1) << "settings"
                                            << "Context 13.3k · 25.8k tokens · 49% cached · $0.03";
    QTest::newRow("unpriced") << "ollama"
                              << "qwen3-coder:30b" << qint64(-1) << "settings"
                              << "Context 13.3k · 25.8k tokens · 49% cached · cost unknown";
    QTest::newRow("unpriced, window given")
        << "openrouter"
        << "some/model" << qint64(32'768) << "settings"
        << "Context 41% · 25.8k tokens · 49% cached · cost unknown";
    QTest::newRow("command line model, no selection")
        << "openai"
        << "gpt-5" << qint64(400'000) << "command line"
        << "Context 3% · 25.8k tokens · 49% cached · $0.03";
    QTest::newRow("demo: tokens only") << "demo"
                                       << "scripted" << qint64(200'000) << "demo"
                                       << "25.8k tokens · 49% cached";
}

void tst_AgentStatusBar::usageText()
{
    QFETCH(QString, provider);
    QFETCH(QString, model);
    QFETCH(qint64, window);
    QFETCH(QString, source);
    QFETCH(QString, expected);

    AgentStatusBar bar;
    bar.show();
    QVERIFY(QTest::qWaitForWindowExposed(&bar));
    bar.setModel(choice(model, {}, source == QLatin1StringView("demo")));
    if (source == QLatin1StringView("settings"))
        bar.setModelSelection(selection(ProviderKind::OpenAiCompatible, model));
    else
        bar.setModelSelection(std::nullopt);
    bar.setUsage(Ui::summarizeUsage(conversation(provider, model),
                                    window < 0 ? std::nullopt : std::optional<qint64>(window)));

    QCOMPARE(bar.usageText(), expected);
    QVERIFY(bar.findChild<QLabel *>(QStringLiteral("usage"))->isVisible());
}

// Issue #14: bypass skips the questions, not the path capability nor the protected settings.
void tst_AgentStatusBar::bypassToolTipNamesWhatStillHolds()
{
    AgentStatusBar bar;
    bar.setPermissionMode(AgentCore::PermissionMode::Bypass);
    const QString tip = bar.findChild<QComboBox *>(QStringLiteral("permissionMode"))->toolTip();
    QVERIFY2(tip.contains(QStringLiteral("not the limits")), qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("AgentDesk's own settings")), qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("outside the repository stay impossible, also for "
                                         "commands")),
             qPrintable(tip));
}

// A real pick in the mode switch: open its list, go to the entry, accept.
void tst_AgentStatusBar::chooseMode(AgentStatusBar &bar, AgentCore::PermissionMode mode)
{
    auto box = bar.findChild<QComboBox *>(QStringLiteral("permissionMode"));
    QVERIFY(box);
    const int index = box->findData(int(mode));
    QVERIFY(index >= 0);
    box->showPopup();
    QTRY_VERIFY(box->view()->isVisible());
    box->view()->setCurrentIndex(box->model()->index(index, 0));
    QTest::keyClick(box->view(), Qt::Key_Return);
    QTRY_VERIFY(!box->view()->isVisible());
}

namespace {

QMessageBox *bypassConfirmation(const AgentStatusBar &bar)
{
    auto box = bar.findChild<QMessageBox *>(QStringLiteral("bypassConfirmation"));
    return box && box->isVisible() ? box : nullptr;
}

QWidget *bypassWarning(const AgentStatusBar &bar)
{
    return bar.findChild<QWidget *>(QStringLiteral("bypassWarning"));
}

} // namespace

// Issue #15: choosing bypass asks once per session; Cancel (also Esc and a stray Enter) keeps
// the mode in force, and the switch shows it; while bypass is on a warning stays in sight.
void tst_AgentStatusBar::bypassAsksOnceAndWarns()
{
    QMainWindow window;
    auto *bar = new AgentStatusBar(&window);
    window.setStatusBar(bar);
    window.setCentralWidget(new QWidget(&window));
    window.resize(1100, 300);
    bar->setPermissionMode(PermissionMode::Default);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto mode = bar->findChild<QComboBox *>(QStringLiteral("permissionMode"));
    QSignalSpy chosen(bar, &AgentStatusBar::permissionModeChosen);
    QVERIFY(!bypassWarning(*bar)->isVisible());

    // Esc, then Enter (Cancel is the default button): still the previous mode.
    for (const Qt::Key key : {Qt::Key_Escape, Qt::Key_Return}) {
        chooseMode(*bar, PermissionMode::Bypass);
        QTRY_VERIFY(bypassConfirmation(*bar));
        QCOMPARE(bar->permissionMode(), PermissionMode::Default);
        QCOMPARE(mode->currentText(), permissionModeTitle(PermissionMode::Default));
        QTest::keyClick(bypassConfirmation(*bar), key);
        QTRY_VERIFY(!bypassConfirmation(*bar));
        QCOMPARE(chosen.size(), 0);
        QCOMPARE(bar->permissionMode(), PermissionMode::Default);
        QVERIFY(!bypassWarning(*bar)->isVisible());
    }

    chooseMode(*bar, PermissionMode::Bypass);
    QTRY_VERIFY(bypassConfirmation(*bar));
    QMessageBox *box = bypassConfirmation(*bar);
    QVERIFY(box->informativeText().contains(QStringLiteral("outside the repository")));
    QTest::mouseClick(box->findChild<QPushButton *>(QStringLiteral("confirmBypassButton")),
                      Qt::LeftButton);
    QTRY_VERIFY(!bypassConfirmation(*bar));
    QCOMPARE(chosen.size(), 1);
    QCOMPARE(chosen.at(0).at(0).value<PermissionMode>(), PermissionMode::Bypass);
    QCOMPARE(bar->permissionMode(), PermissionMode::Bypass);
    QWidget *warning = bypassWarning(*bar);
    QVERIFY(warning->isVisible());
    QVERIFY(!warning->findChild<QLabel *>(QStringLiteral("bypassWarningText"))->text().isEmpty());
    QVERIFY2(warning->toolTip().contains(QStringLiteral("AgentDesk's own settings")),
             qPrintable(warning->toolTip()));
    QVERIFY2(warning->toolTip().contains(QStringLiteral("outside the repository stay impossible")),
             qPrintable(warning->toolTip()));

    // Once per session: back and forth without asking again.
    chooseMode(*bar, PermissionMode::AcceptEdits);
    QVERIFY(!bypassWarning(*bar)->isVisible());
    chooseMode(*bar, PermissionMode::Bypass);
    QTest::qWait(50);
    QVERIFY(!bypassConfirmation(*bar));
    QCOMPARE(chosen.size(), 3);
    QCOMPARE(chosen.last().at(0).value<PermissionMode>(), PermissionMode::Bypass);
    QVERIFY(bypassWarning(*bar)->isVisible());

    // The next session asks again.
    bar->resetBypassConfirmation();
    bar->setPermissionMode(PermissionMode::Plan);
    chooseMode(*bar, PermissionMode::Bypass);
    QTRY_VERIFY(bypassConfirmation(*bar));
    QCOMPARE(mode->currentText(), permissionModeTitle(PermissionMode::Plan));
    QTest::keyClick(bypassConfirmation(*bar), Qt::Key_Escape);
    QTRY_VERIFY(!bypassConfirmation(*bar));
    QCOMPARE(chosen.size(), 3);
}

// A session started (or resumed) in bypass was the user's choice: warned, not asked.
void tst_AgentStatusBar::startedInBypassWarnsWithoutAsking()
{
    QMainWindow window;
    auto *bar = new AgentStatusBar(&window);
    window.setStatusBar(bar);
    window.setCentralWidget(new QWidget(&window));
    bar->resetBypassConfirmation();
    bar->setPermissionMode(PermissionMode::Bypass);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(bypassWarning(*bar)->isVisible());
    QVERIFY(!bypassConfirmation(*bar));

    QSignalSpy chosen(bar, &AgentStatusBar::permissionModeChosen);
    chooseMode(*bar, PermissionMode::Default);
    chooseMode(*bar, PermissionMode::Bypass);
    QTest::qWait(50);
    QVERIFY(!bypassConfirmation(*bar));
    QCOMPARE(chosen.size(), 2);
    QVERIFY(bypassWarning(*bar)->isVisible());
}

void tst_AgentStatusBar::usageToolTipBreaksDown()
{
    AgentStatusBar bar;
    bar.setModelSelection(selection(ProviderKind::Anthropic, QStringLiteral("claude-sonnet-4-5")));
    bar.setUsage(Ui::summarizeUsage(conversation(QStringLiteral("anthropic"),
                                                 QStringLiteral("claude-sonnet-4-5")),
                                    200'000));
    const QString tip = bar.findChild<QLabel *>(QStringLiteral("usage"))->toolTip();
    for (const char *part : {"13,300 of 200,000 (6.7%)",
                             "Input",
                             "10,200",
                             "Output",
                             "1,300",
                             "Cache read",
                             "12,000",
                             "Cache write",
                             "2,300",
                             "Cache hits",
                             "49.0% of input", // 12,000 of 10,200 + 12,000 + 2,300
                             "25,800",
                             "$0.0623"}) {
        QVERIFY2(tip.contains(QLatin1StringView(part)), part);
    }
}

void tst_AgentStatusBar::cacheHits_data()
{
    QTest::addColumn<QString>("provider");
    QTest::addColumn<QString>("model");
    QTest::addColumn<Usage>("first");
    QTest::addColumn<Usage>("second");
    QTest::addColumn<QString>("expected");
    QTest::addColumn<QString>("expectedTip"); // empty: no "Cache hits" row

    // Usage as the assemblers fill it in. OpenAI's prompt_tokens 10,000 with 9,000
    // cached_tokens is input 1,000 + cacheRead 9,000; Anthropic's input_tokens already leaves
    // out cache reads and writes.
    QTest::newRow("openai, warm cache")
        << "openai"
        << "gpt-5" << usage(10'000, 200, 0, 0) << usage(1'000, 300, 9'000, 0)
        << "Context 5% · 20.5k tokens · 45% cached · $0.02"
        << "45.0% of input";
    QTest::newRow("anthropic, written then read")
        << "anthropic"
        << "claude-sonnet-4-5" << usage(50, 200, 0, 20'000) << usage(30, 300, 20'000, 400)
        << "Context 10% · 41k tokens · 49% cached · $0.09"
        << "49.4% of input";
    QTest::newRow("local server: no cache reported")
        << "ollama"
        << "qwen3-coder:30b" << usage(3'000, 200, 0, 0) << usage(3'500, 300, 0, 0)
        << "Context 3.8k · 7k tokens · cost unknown"
        << "0.0% of input";
}

// The share of input the provider read from its cache, next to the token figures: what a
// stable request prefix saves.
void tst_AgentStatusBar::cacheHits()
{
    QFETCH(QString, provider);
    QFETCH(QString, model);
    QFETCH(Usage, first);
    QFETCH(Usage, second);
    QFETCH(QString, expected);
    QFETCH(QString, expectedTip);

    AgentStatusBar bar;
    bar.show();
    QVERIFY(QTest::qWaitForWindowExposed(&bar));
    bar.setModel(choice(model, {}, false));
    bar.setModelSelection(selection(ProviderKind::OpenAiCompatible, model));
    const std::optional<qint64> window = provider == QLatin1StringView("ollama")
                                             ? std::nullopt
                                             : std::optional<qint64>(200'000);
    bar.setUsage(Ui::summarizeUsage({userMessage(QStringLiteral("Fix it.")),
                                     reply(provider, model, first),
                                     userMessage(QStringLiteral("And the test.")),
                                     reply(provider, model, second)},
                                    window));

    QCOMPARE(bar.usageText(), expected);
    const QString tip = bar.findChild<QLabel *>(QStringLiteral("usage"))->toolTip();
    QVERIFY2(tip.contains(QLatin1StringView("Cache hits")), qPrintable(tip));
    QVERIFY2(tip.contains(expectedTip), qPrintable(tip));
}

void tst_AgentStatusBar::noUsageNoLabel()
{
    AgentStatusBar bar;
    bar.show();
    QVERIFY(QTest::qWaitForWindowExposed(&bar));
    bar.setUsage(Ui::summarizeUsage({userMessage(QStringLiteral("Hello"))}, 200'000));
    QCOMPARE(bar.usageText(), QString());
    QVERIFY(!bar.findChild<QLabel *>(QStringLiteral("usage"))->isVisible());
}

void tst_AgentStatusBar::compactNumbers_data()
{
    QTest::addColumn<qint64>("value");
    QTest::addColumn<QString>("english");
    QTest::addColumn<QString>("german");

    QTest::newRow("small") << qint64(950) << "950"
                           << "950";
    QTest::newRow("thousands") << qint64(15'234) << "15.2k"
                               << "15,2k";
    QTest::newRow("round thousands") << qint64(15'000) << "15k"
                                     << "15k";
    QTest::newRow("hundreds of thousands") << qint64(152'340) << "152k"
                                           << "152k";
    QTest::newRow("rounds up to a million") << qint64(999'700) << "1M"
                                            << "1M";
    QTest::newRow("millions") << qint64(1'250'000) << "1.25M"
                              << "1,25M";
}

void tst_AgentStatusBar::compactNumbers()
{
    QFETCH(qint64, value);
    QFETCH(QString, english);
    QFETCH(QString, german);

    QCOMPARE(Ui::UsageLabel::compactNumber(value, QLocale(QLocale::English)), english);
    QCOMPARE(Ui::UsageLabel::compactNumber(value, QLocale(QLocale::German)), german);
}

void tst_AgentStatusBar::summarizeSumsEveryReply()
{
    const UsageSummary summary = Ui::summarizeUsage(conversation(QStringLiteral("anthropic"),
                                                                 QStringLiteral(
                                                                     "claude-sonnet-4-5")),
                                                    200'000);
    QCOMPARE(summary.input, 10'200);
    QCOMPARE(summary.output, 1'300);
    QCOMPARE(summary.cacheRead, 12'000);
    QCOMPARE(summary.cacheWrite, 2'300);
    QCOMPARE(summary.totalTokens(), 25'800);
    QCOMPARE(qRound64(summary.cost * 1e6), 62'325); // $0.062325
    QVERIFY(summary.costKnown);
    QCOMPARE(summary.contextWindow, std::optional<qint64>(200'000));

    // One reply from a model without a price makes the whole cost unknown.
    QList<Message> mixed = conversation(QStringLiteral("anthropic"),
                                        QStringLiteral("claude-sonnet-4-5"));
    mixed.append(reply(QStringLiteral("ollama"), QStringLiteral("llama3"), usage(10, 10, 0, 0)));
    QVERIFY(!Ui::summarizeUsage(mixed, std::nullopt).costKnown);
}

void tst_AgentStatusBar::contextIsTheLastReply()
{
    QList<Message> messages = conversation(QStringLiteral("openai"), QStringLiteral("gpt-5"));
    // The last reply's input, cache and output; not the first's, not the sum.
    QCOMPARE(Ui::summarizeUsage(messages, 400'000).contextTokens, 13'300);
    QCOMPARE(Ui::summarizeUsage(messages.mid(0, 2), 400'000).contextTokens, 12'500);

    // An aborted reply that carries no usage leaves the context as it was.
    Message aborted = reply(QStringLiteral("openai"), QStringLiteral("gpt-5"), Usage{});
    aborted.stopReason = StopReason::Aborted;
    messages.append(userMessage(QStringLiteral("Stop.")));
    messages.append(aborted);
    QCOMPARE(Ui::summarizeUsage(messages, 400'000).contextTokens, 13'300);

    // A tool result after the reply changes nothing either: only replies are counted.
    Message result;
    result.role = Message::Role::ToolResult;
    messages.append(result);
    QCOMPARE(Ui::summarizeUsage(messages, 400'000).contextTokens, 13'300);
}

void tst_AgentStatusBar::incrementalEqualsSummary()
{
    const QList<Message> messages = conversation(QStringLiteral("anthropic"),
                                                 QStringLiteral("claude-haiku-4-5"));
    UsageSummary running;
    running.contextWindow = 200'000;
    for (const Message &message : messages)
        running.add(message);
    QCOMPARE(running, Ui::summarizeUsage(messages, 200'000));
}

void tst_AgentStatusBar::screenshot()
{
    const QString directory = qEnvironmentVariable("AGENTDESK_SHOTS");
    if (directory.isEmpty())
        QSKIP("Set AGENTDESK_SHOTS to a directory to save screenshots.");
    QDir().mkpath(directory);
    const QPalette light = QApplication::palette();
    for (const bool dark : {false, true}) {
        QApplication::setPalette(dark ? darkPalette() : light);
        const QString suffix = dark ? QStringLiteral("-dark.png") : QStringLiteral("-light.png");
        QMainWindow window;
        auto *bar = new AgentStatusBar(&window);
        window.setStatusBar(bar);
        window.setCentralWidget(new QWidget(&window));
        window.resize(960, 330);
        bar->setModel(choice(QStringLiteral("claude-sonnet-4-5 (Anthropic)")));
        bar->setModelSelection(selection(ProviderKind::Anthropic,
                                         QStringLiteral("claude-sonnet-4-5"),
                                         ThinkingLevel::Medium),
                               {selection(ProviderKind::OpenAi, QStringLiteral("gpt-5")),
                                selection(ProviderKind::OpenAiCompatible,
                                          QStringLiteral("qwen3-coder:30b"),
                                          ThinkingLevel::Off,
                                          QStringLiteral("http://localhost:11434/v1"))});
        bar->setUsage(Ui::summarizeUsage(conversation(QStringLiteral("anthropic"),
                                                      QStringLiteral("claude-sonnet-4-5")),
                                         200'000));
        bar->setRunState(Ui::AgentSession::State::Idle);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCoreApplication::processEvents();
        QVERIFY(bar->grab().save(directory + QStringLiteral("/statusbar") + suffix));

        // The window with the model menu open over it.
        QToolButton *button = modelButton(*bar);
        QPixmap composite;
        QTimer::singleShot(0, this, [&] {
            QMenu *menu = button->menu();
            QTRY_VERIFY(menu->isVisible());
            const QRect area = window.frameGeometry().united(menu->geometry());
            composite = QPixmap(area.size());
            composite.fill(window.palette().color(QPalette::Window));
            QPainter painter(&composite);
            painter.drawPixmap(window.geometry().topLeft() - area.topLeft(), window.grab());
            painter.drawPixmap(menu->geometry().topLeft() - area.topLeft(), menu->grab());
            painter.end();
            menu->close();
        });
        QTest::mouseClick(button, Qt::LeftButton);
        QTRY_VERIFY(!composite.isNull());
        QVERIFY(composite.save(directory + QStringLiteral("/statusbar-menu") + suffix));

        // The usage tool tip as QToolTip shows it (a label with the tool tip palette).
        QLabel tip(bar->findChild<QLabel *>(QStringLiteral("usage"))->toolTip());
        tip.setForegroundRole(QPalette::ToolTipText);
        tip.setBackgroundRole(QPalette::ToolTipBase);
        tip.setAutoFillBackground(true);
        tip.setMargin(6);
        tip.setWordWrap(true);
        tip.adjustSize();
        QVERIFY(tip.grab().save(directory + QStringLiteral("/statusbar-usage-tip") + suffix));

        bar->setRunState(Ui::AgentSession::State::Running);
        QCoreApplication::processEvents(); // the longer run state's layout
        QVERIFY(bar->grab().save(directory + QStringLiteral("/statusbar-running") + suffix));

        bar->setPermissionMode(AgentCore::PermissionMode::Bypass);
        QCoreApplication::processEvents();
        QVERIFY(bar->grab().save(directory + QStringLiteral("/statusbar-bypass") + suffix));
    }
    QApplication::setPalette(light);
}

// Issue #34, item 12: the keyring's notice ran into "Ready" beside it, cut mid-word with no
// gap. It ends with "…" before the first widget, and says itself whole in the tooltip.
void tst_AgentStatusBar::longMessageEndsBeforeTheWidgets()
{
    QWidget host;
    host.resize(700, 40);
    auto bar = new AgentStatusBar(&host);
    bar->setGeometry(0, 0, 700, 30);
    host.show();
    QVERIFY(QTest::qWaitForWindowExposed(&host));
    const QString notice = QStringLiteral(
        "The desktop keyring is not available: keys are kept in "
        "~/.local/share/AgentDesk/keys.json, readable by you only.");
    bar->showMessage(notice);
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    auto runState = bar->findChild<QLabel *>(QStringLiteral("runState"));
    QVERIFY(runState && runState->isVisible());
    QVERIFY2(bar->messageRect().right() + 6 < runState->x(),
             qPrintable(QStringLiteral("%1 %2").arg(bar->messageRect().right()).arg(runState->x())));
    QVERIFY2(bar->shownMessage().endsWith(QChar(0x2026)), qPrintable(bar->shownMessage()));
    QVERIFY(bar->fontMetrics().horizontalAdvance(bar->shownMessage()) <= bar->messageRect().width());
    QCOMPARE(bar->toolTip(), notice);
}

AGENTDESK_TEST_MAIN(tst_AgentStatusBar)

} // namespace tst_agentstatusbar

#include "tst_agentstatusbar.moc"
