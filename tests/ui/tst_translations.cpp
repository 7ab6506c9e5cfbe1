// AgentDesk in Simplified Chinese: the window, its menus, the reviews and every dialog, built
// as a user sees them with the zh_CN translation installed, must show no English left over.
// Also: English stays English, the language follows the system locale, and a new language
// applies to what is built after the switch.
#include "../tools/toolstest.h"
#include "fakekeystore.h"

#include <agentsession/agentsession.h>
#include <composer/composer.h>
#include <conversation/conversationitem.h>
#include <conversation/conversationview.h>
#include <i18n/translations.h>
#include <page/conversationpage.h>
#include <review/reviewqueue.h>
#include <scriptedmodel.h>
#include <sessions/sessionspanel.h>
#include <settings/settingsdialog.h>
#include <testmain.h>
#include <window/mainwindow.h>

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QGroupBox>
#include <QLabel>
#include <QLibraryInfo>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTabBar>
#include <QTest>
#include <QTextDocumentFragment>
#include <QTimer>
#include <QTreeWidget>

#include <functional>
#include <memory>

using namespace AgentCore;
namespace tst_translations {

using TestSupport::ModelStep;
using TestSupport::ScriptedModel;

namespace {

constexpr int runTimeoutMs = 15'000;

// Names, protocols and terms that stay as they are in the Chinese interface.
const QStringList keptWords = {
    // The sandbox's program and the commands its network setting names (before "git").
    QStringLiteral("bubblewrap"),
    // settings.json and the keys of its network rules and sandbox paths, as the file spells them.
    QStringLiteral("settings.json"),
    QStringLiteral("permissions"),
    QStringLiteral("network"),
    QStringLiteral("sandboxReadable"),
    QStringLiteral("bwrap"),
    QStringLiteral("npm install"),
    QStringLiteral("git fetch"),
    QStringLiteral("curl"),
    QStringLiteral("AgentDesk"),
    // Language servers, by their programs' names, and what clangd reads.
    QStringLiteral("clangd"),
    QStringLiteral("pylsp"),
    QStringLiteral("compile_commands.json"),
    QStringLiteral("PATH"),
    QStringLiteral("OpenAI"),
    QStringLiteral("Anthropic"),
    QStringLiteral("Ollama"),
    QStringLiteral("vLLM"),
    QStringLiteral("llama.cpp"),
    QStringLiteral("DeepSeek"),
    QStringLiteral("Qwen"),
    QStringLiteral("OpenRouter"),
    QStringLiteral("LM Studio"),
    QStringLiteral("Mistral"),
    QStringLiteral("Kimi"),
    QStringLiteral("Moonshot"),
    // /v1/models's field that tells a server, as the settings quote it.
    QStringLiteral("owned_by"),
    QStringLiteral("Responses"),
    QStringLiteral("API"),
    QStringLiteral("URL"),
    QStringLiteral("Git"),
    QStringLiteral("git"),
    QStringLiteral("Qt"),
    QStringLiteral("Bash"),
    QStringLiteral("shell"),
    QStringLiteral("token"),
    QStringLiteral("KiB"),
    QStringLiteral("MiB"),
    QStringLiteral("Esc"),
    QStringLiteral("Enter"),
    QStringLiteral("Tab"),
    QStringLiteral("Del"),
    QStringLiteral("Delete"),
    QStringLiteral("End"),
    QStringLiteral("Home"),
    QStringLiteral("README"),
    QStringLiteral("JSON"),
    QStringLiteral("http"),
    QStringLiteral("https"),
    QStringLiteral("localhost"),
    QStringLiteral("DashScope"),
    QStringLiteral("Read"),
    QStringLiteral("Edit"),
    QStringLiteral("Write"),
    QStringLiteral("Grep"),
    QStringLiteral("Glob"),
    QStringLiteral("LS"),
    QStringLiteral("English"), // the language menu's native name
    // Permission modes as .agentdesk/settings.json and --permission-mode spell them; the
    // review's reason line names them so.
    QStringLiteral("default"),
    QStringLiteral("acceptEdits"),
    QStringLiteral("plan"),
    QStringLiteral("bypass"),
    // The keys of an MCP server's entry in .mcp.json, as the file spells them.
    QStringLiteral("env"),
    QStringLiteral("args"),
    QStringLiteral("url"),
};

// Things that are not words of the interface: shortcuts, paths, URLs, identifiers (model
// ids such as gpt-5 or qwen3-coder, ANTHROPIC_API_KEY), markup entities.
const QList<QRegularExpression> &keptPatterns()
{
    static const QList<QRegularExpression> patterns = {
        // Permission rules: Bash(npm test:*), Edit(src/**).
        QRegularExpression(QStringLiteral(R"(\b[A-Z]\w*\([^)]*\))")),
        QRegularExpression(QStringLiteral(R"(\b(Ctrl|Alt|Shift|Meta)\+\S+)")),
        QRegularExpression(QStringLiteral(R"(\b\w+://\S+)")),
        QRegularExpression(QStringLiteral(R"(\S*[/\\]\S*)")),
        QRegularExpression(QStringLiteral(R"(\S+\.[A-Za-z]{1,5}\b)")),
        QRegularExpression(QStringLiteral(R"(\b[\w.]*[\d_-][\w.-]*\b)")),
        QRegularExpression(QStringLiteral(R"(\b[A-Z][A-Z0-9_]{2,}\b)")),
        QRegularExpression(QStringLiteral(R"(&\w+;)")),
        // ${VAR}, ${keyring:NAME}; a JSON example (the MCP servers' placeholder).
        QRegularExpression(QStringLiteral(R"(\$\{[^}]*\})")),
        QRegularExpression(QStringLiteral(R"(^\{[\s\S]*\}$)")),
    };
    return patterns;
}

/// Collects the visible strings of widgets and says which are still English.
class TextScanner
{
public:
    /// \a userData: text the user or the repository brings (names, prompts): never flagged.
    explicit TextScanner(QStringList userData = {})
        : m_userData(std::move(userData))
    {}

    void scanWidgetTree(QWidget *root)
    {
        scanWidget(root);
        const QList<QWidget *> widgets = root->findChildren<QWidget *>();
        for (QWidget *widget : widgets)
            scanWidget(widget);
        const QList<QMenu *> menus = root->findChildren<QMenu *>();
        for (QMenu *menu : menus)
            scanActions(menu->actions(), menu);
    }

    void scanActions(const QList<QAction *> &actions, QObject *owner)
    {
        for (QAction *action : actions) {
            if (action->isSeparator())
                continue;
            const QString where = nameOf(owner) + QStringLiteral(" > action ")
                                  + (action->objectName().isEmpty() ? action->text()
                                                                    : action->objectName());
            check(where, action->text());
            if (action->toolTip() != QString(action->text()).remove(QLatin1Char('&')))
                check(where + QStringLiteral(" tooltip"), action->toolTip());
            check(where + QStringLiteral(" status tip"), action->statusTip());
            if (action->menu())
                scanActions(action->menu()->actions(), action->menu());
        }
    }

    void check(const QString &where, const QString &text)
    {
        if (text.isEmpty())
            return;
        m_checked.append(text);
        if (isEnglish(text))
            m_untranslated.append(where + QStringLiteral(": \"") + text + QLatin1Char('"'));
    }

    bool isEnglish(QString text) const
    {
        if (Qt::mightBeRichText(text))
            text = QTextDocumentFragment::fromHtml(text).toPlainText();
        for (const QString &data : m_userData)
            text.remove(data);
        text.remove(QLatin1Char('&'));
        text.remove(QRegularExpression(QStringLiteral("%\\d+")));
        for (const QRegularExpression &pattern : keptPatterns())
            text.remove(pattern);
        for (const QString &word : keptWords)
            text.remove(QRegularExpression(QStringLiteral("\\b") + QRegularExpression::escape(word)
                                           + QStringLiteral("\\b")));
        static const QRegularExpression latinWord(QStringLiteral("[A-Za-z]{2,}"));
        return latinWord.match(text).hasMatch();
    }

    QStringList untranslated() const
    {
        QStringList list = m_untranslated;
        list.removeDuplicates();
        return list;
    }
    QStringList checked() const { return m_checked; }

private:
    static QString nameOf(QObject *object)
    {
        const QString name = object->objectName().isEmpty() ? QStringLiteral("(no objectName)")
                                                            : object->objectName();
        return name + QStringLiteral(" [") + QLatin1String(object->metaObject()->className())
               + QLatin1Char(']');
    }

    void scanWidget(QWidget *widget)
    {
        const QString where = nameOf(widget);
        if (widget->isWindow())
            check(where + QStringLiteral(" window title"), widget->windowTitle());
        check(where + QStringLiteral(" tooltip"), widget->toolTip());
        check(where + QStringLiteral(" accessible name"), widget->accessibleName());
        if (auto label = qobject_cast<QLabel *>(widget))
            check(where, label->text());
        if (auto button = qobject_cast<QAbstractButton *>(widget))
            check(where, button->text());
        if (auto group = qobject_cast<QGroupBox *>(widget))
            check(where, group->title());
        if (auto edit = qobject_cast<QLineEdit *>(widget))
            check(where + QStringLiteral(" placeholder"), edit->placeholderText());
        if (auto edit = qobject_cast<QPlainTextEdit *>(widget))
            check(where + QStringLiteral(" placeholder"), edit->placeholderText());
        // The model field suggests model ids ("devstral"): names, not interface text.
        auto combo = qobject_cast<QComboBox *>(widget);
        if (combo && combo->objectName() != QLatin1String("modelCombo")) {
            for (int i = 0; i < combo->count(); ++i) {
                check(where + QStringLiteral(" item %1").arg(i), combo->itemText(i));
                check(where + QStringLiteral(" item %1 tooltip").arg(i),
                      combo->itemData(i, Qt::ToolTipRole).toString());
            }
        }
        if (auto tabs = qobject_cast<QTabBar *>(widget)) {
            for (int i = 0; i < tabs->count(); ++i)
                check(where + QStringLiteral(" tab %1").arg(i), tabs->tabText(i));
        }
        if (auto list = qobject_cast<QListWidget *>(widget)) {
            for (int i = 0; i < list->count(); ++i) {
                check(where + QStringLiteral(" row %1").arg(i), list->item(i)->text());
                check(where + QStringLiteral(" row %1 tooltip").arg(i), list->item(i)->toolTip());
            }
        }
        if (auto tree = qobject_cast<QTreeWidget *>(widget)) {
            for (int column = 0; column < tree->columnCount(); ++column)
                check(where + QStringLiteral(" header"), tree->headerItem()->text(column));
        }
        if (auto menuBar = qobject_cast<QMenuBar *>(widget))
            scanActions(menuBar->actions(), menuBar);
        scanActions(widget->actions(), widget);
    }

    QStringList m_userData;
    QStringList m_checked;
    QStringList m_untranslated;
};

// The fake key store's own sentences are the test's, not the application's.
QStringList fakeKeyStoreTexts()
{
    return {FakeKeyStore().locationText()};
}

// AGENTDESK_SHOTS=dir saves what the test saw, for a look at the Chinese layout.
void saveShot(QWidget *widget, const QString &name)
{
    const QString dir = qEnvironmentVariable("AGENTDESK_SHOTS");
    if (!dir.isEmpty())
        widget->grab().save(dir + QLatin1Char('/') + name + QStringLiteral(".png"));
}

QString report(const QString &what, const TextScanner &scanner)
{
    return what + QStringLiteral(": still English in zh_CN (")
           + QString::number(scanner.untranslated().size()) + QStringLiteral("):\n  ")
           + scanner.untranslated().join(QStringLiteral("\n  "));
}

/// Runs \a inspect on the next modal dialog or popup menu, once it is open.
void whenModalOpens(std::function<void(QWidget *)> inspect)
{
    auto timer = new QTimer(qApp);
    timer->setInterval(20);
    QObject::connect(timer, &QTimer::timeout, qApp, [timer, inspect] {
        QWidget *modal = QApplication::activeModalWidget();
        if (!modal)
            modal = QApplication::activePopupWidget();
        if (!modal)
            return;
        timer->deleteLater();
        timer->stop();
        inspect(modal);
    });
    timer->start();
}

} // namespace

class tst_Translations final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void resolveFollowsTheSystemLocale_data();
    void resolveFollowsTheSystemLocale();
    void mainWindowIsChinese();
    void reviewsAreChinese();
    void sessionDeleteConfirmationIsChinese();
    void aboutBoxIsChinese();
    void settingsDialogIsChinese();
    void languagesAreNamedInTheirOwnScript();
    void englishStaysEnglish();
    void newLanguageAppliesToWhatIsBuiltNext();

private:
    void openWindow(const QList<ModelStep> &steps);
    void type(const QString &text);
    /// A review that just appeared is laid out on the next event loop turn: click it then.
    static void clickWhenShown(QAbstractButton *button)
    {
        QTRY_VERIFY(button->isVisible() && button->isEnabled() && button->width() > 0);
        QTest::mouseClick(button, Qt::LeftButton);
    }
    void waitForIdle()
    {
        QTRY_COMPARE_WITH_TIMEOUT(m_window->session()->state(),
                                  Ui::AgentSession::State::Idle,
                                  runTimeoutMs);
    }
    Ui::ConversationPage *page() const { return m_window->conversationPage(); }
    /// The repository's folder name and the scripted texts are the user's, not the interface.
    TextScanner scanner() const
    {
        return TextScanner({QFileInfo(m_repo->root()).fileName(),
                            QStringLiteral("master"),
                            QStringLiteral("main"),
                            QStringLiteral("scripted"),
                            QStringLiteral("add answer"),
                            QStringLiteral("Clean"), // the Bash call's description
                            QStringLiteral("Done")});
    }

    std::unique_ptr<ToolsTest::Repo> m_repo;
    std::unique_ptr<Ui::MainWindow> m_window;
    std::unique_ptr<FakeKeyStore> m_keys;
};

void tst_Translations::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("AgentDeskTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_translations"));
}

void tst_Translations::init()
{
    QCOMPARE(Ui::Translations::install(QStringLiteral("zh_CN")), QStringLiteral("zh_CN"));
    QCOMPARE(Ui::Translations::current(), QStringLiteral("zh_CN"));
}

void tst_Translations::cleanup()
{
    m_window.reset();
    m_repo.reset();
    m_keys.reset();
}

void tst_Translations::resolveFollowsTheSystemLocale_data()
{
    QTest::addColumn<QString>("setting");
    QTest::addColumn<QStringList>("uiLanguages");
    QTest::addColumn<QString>("expected");
    const QStringList chinese = {QStringLiteral("zh-Hans-CN"), QStringLiteral("zh-CN")};
    const QStringList english = {QStringLiteral("en-US"), QStringLiteral("zh-CN")};
    QTest::newRow("system Chinese") << QString() << chinese << QStringLiteral("zh_CN");
    QTest::newRow("system English first") << QString() << english << QStringLiteral("en");
    QTest::newRow("system Taiwan")
        << QString() << QStringList{QStringLiteral("zh-Hant-TW")} << QStringLiteral("zh_CN");
    QTest::newRow("system German")
        << QString() << QStringList{QStringLiteral("de-DE")} << QStringLiteral("en");
    QTest::newRow("German, then Chinese")
        << QString() << QStringList{QStringLiteral("de-DE"), QStringLiteral("zh-CN")}
        << QStringLiteral("zh_CN");
    QTest::newRow("chosen English") << QStringLiteral("en") << chinese << QStringLiteral("en");
    QTest::newRow("chosen Chinese")
        << QStringLiteral("zh_CN") << english << QStringLiteral("zh_CN");
    QTest::newRow("unknown code") << QStringLiteral("fr") << chinese << QStringLiteral("en");
}

void tst_Translations::resolveFollowsTheSystemLocale()
{
    QFETCH(QString, setting);
    QFETCH(QStringList, uiLanguages);
    QFETCH(QString, expected);
    QCOMPARE(Ui::Translations::resolve(setting, uiLanguages), expected);
}

void tst_Translations::openWindow(const QList<ModelStep> &steps)
{
    m_repo = std::make_unique<ToolsTest::Repo>();
    QVERIFY(m_repo->isValid());
    m_keys = std::make_unique<FakeKeyStore>();
    Ui::AgentSetup setup;
    setup.model.client = std::make_shared<ScriptedModel>(steps);
    setup.model.label = QStringLiteral("scripted");
    setup.options.systemPrompt = QStringLiteral("You are tested.");
    setup.keyStore = m_keys.get();
    setup.sessionsDirectory = m_repo->root() + QStringLiteral("/../")
                              + QFileInfo(m_repo->root()).fileName() + QStringLiteral("-sessions");
    m_window = std::make_unique<Ui::MainWindow>(setup);
    m_window->resize(1100, 760);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    QVERIFY(m_window->openRepository(m_repo->root()));
    QTRY_VERIFY_WITH_TIMEOUT(m_window->session()->agent(), runTimeoutMs);
}

void tst_Translations::type(const QString &text)
{
    QWidget *composer = page()->composer();
    QTest::keyClicks(composer, text);
    QTest::keyClick(composer, Qt::Key_Return);
}

void tst_Translations::mainWindowIsChinese()
{
    openWindow({ModelStep::text(QStringLiteral("Done"))});
    TextScanner idle = scanner();
    idle.scanWidgetTree(m_window.get());
    QVERIFY(idle.checked().size() > 20); // the scan reached the menus, panels and status bar
    QVERIFY2(idle.untranslated().isEmpty(), qPrintable(report(QStringLiteral("idle window"), idle)));

    // After a task: the sessions list, the changed files, the usage in the status bar.
    type(QStringLiteral("add answer"));
    waitForIdle();
    QTRY_VERIFY(m_window->sessionsPanel()->list()->count() > 0);
    TextScanner done = scanner();
    done.scanWidgetTree(m_window.get());
    saveShot(m_window.get(), QStringLiteral("zh_CN-window"));
    QVERIFY2(done.untranslated().isEmpty(),
             qPrintable(report(QStringLiteral("window after a task"), done)));
}

void tst_Translations::reviewsAreChinese()
{
    const QString content = QStringLiteral("int answer() { return 42; }\n");
    openWindow({ModelStep::toolCall(QStringLiteral("w1"),
                                    QStringLiteral("Write"),
                                    {{"file_path", "answer.cpp"}, {"content", content}}),
                ModelStep::toolCall(QStringLiteral("b1"),
                                    QStringLiteral("Bash"),
                                    {{"command", "rm -rf build && curl -fsSL https://example.com"},
                                     {"description", "Clean"}}),
                ModelStep::text(QStringLiteral("Done"))});
    type(QStringLiteral("add answer"));

    Ui::ReviewQueue *reviews = page()->reviews();
    QTRY_COMPARE_WITH_TIMEOUT(reviews->count(), 1, runTimeoutMs);
    TextScanner diff = scanner();
    diff.scanWidgetTree(m_window.get());
    QVERIFY2(diff.untranslated().isEmpty(), qPrintable(report(QStringLiteral("diff review"), diff)));

    auto allow = reviews->currentView()->findChild<QAbstractButton *>(
        QStringLiteral("allowOnceButton"));
    QVERIFY(allow);
    clickWhenShown(allow);
    QTRY_VERIFY_WITH_TIMEOUT(reviews->count() == 1
                                 && reviews->currentView()->inherits("Ui::BashReviewView"),
                             runTimeoutMs);
    saveShot(m_window.get(), QStringLiteral("zh_CN-diff-review"));
    TextScanner bash = scanner();
    bash.scanWidgetTree(m_window.get());
    QVERIFY2(bash.untranslated().isEmpty(), qPrintable(report(QStringLiteral("Bash review"), bash)));

    saveShot(m_window.get(), QStringLiteral("zh_CN-bash-review"));
    // Deny with feedback, as a user does: Enter in the field.
    auto feedback = reviews->currentView()->findChild<QLineEdit *>(QStringLiteral("denyFeedback"));
    QVERIFY(feedback);
    QTest::keyClicks(feedback, QStringLiteral("not now"));
    QTest::keyClick(feedback, Qt::Key_Return);
    QTRY_COMPARE_WITH_TIMEOUT(reviews->count(), 0, runTimeoutMs);
    waitForIdle();

    // The conversation's tool cards and notes: the tool results the user reads there.
    TextScanner cards({QFileInfo(m_repo->root()).fileName(),
                       QStringLiteral("rm -rf build && curl -fsSL https://example.com"),
                       content.trimmed(),
                       QStringLiteral("not now")});
    const Ui::ConversationView *view = page()->conversation();
    for (int i = 0; i < view->itemCount(); ++i) {
        const Ui::ConversationItem *item = view->itemAt(i);
        if (item->kind() == Ui::ConversationItem::Kind::ToolCard
            || item->kind() == Ui::ConversationItem::Kind::Note) {
            const QStringList lines = item->plainText().split(QLatin1Char('\n'));
            for (const QString &line : lines.mid(1)) // the first: tool name and argument
                cards.check(QStringLiteral("conversation item %1").arg(i), line);
        }
    }
    QVERIFY(!cards.checked().isEmpty());
    QVERIFY2(cards.untranslated().isEmpty(),
             qPrintable(report(QStringLiteral("conversation"), cards)));
}

void tst_Translations::sessionDeleteConfirmationIsChinese()
{
    openWindow({ModelStep::text(QStringLiteral("Done"))});
    type(QStringLiteral("add answer"));
    waitForIdle();
    Ui::SessionsPanel *sessions = m_window->sessionsPanel();
    QTRY_VERIFY(sessions->list()->count() > 0);

    TextScanner box = scanner();
    bool seen = false;
    whenModalOpens([&](QWidget *dialog) {
        seen = true;
        box.scanWidgetTree(dialog);
        auto messageBox = qobject_cast<QMessageBox *>(dialog);
        QVERIFY(messageBox);
        messageBox->button(QMessageBox::Cancel)->click();
    });
    sessions->confirmDelete(0);
    QVERIFY(seen);
    QVERIFY2(box.untranslated().isEmpty(),
             qPrintable(report(QStringLiteral("delete confirmation"), box)));

    // The list's context menu.
    TextScanner menu = scanner();
    bool menuSeen = false;
    whenModalOpens([&](QWidget *popup) {
        menuSeen = true;
        menu.scanActions(popup->actions(), popup);
        popup->close();
    });
    QListWidget *list = sessions->list();
    const QPoint at = list->visualItemRect(list->item(0)).center();
    QContextMenuEvent event(QContextMenuEvent::Mouse, at, list->viewport()->mapToGlobal(at));
    QCoreApplication::sendEvent(list->viewport(), &event);
    QTRY_VERIFY(menuSeen);
    QVERIFY(!menu.checked().isEmpty());
    QVERIFY2(menu.untranslated().isEmpty(),
             qPrintable(report(QStringLiteral("sessions context menu"), menu)));
}

void tst_Translations::aboutBoxIsChinese()
{
    openWindow({});
    QAction *about = nullptr;
    const QList<QAction *> actions = m_window->findChildren<QAction *>();
    for (QAction *action : actions) {
        if (action->text() == QCoreApplication::translate("Ui::MainWindow", "&About AgentDesk"))
            about = action;
    }
    QVERIFY(about);
    TextScanner box = scanner();
    bool seen = false;
    whenModalOpens([&](QWidget *dialog) {
        seen = true;
        box.scanWidgetTree(dialog);
        dialog->close();
    });
    about->trigger();
    QVERIFY(seen);
    QVERIFY(box.checked().join(QLatin1Char(' ')).contains(QStringLiteral("原生桌面编程智能体")));
    QVERIFY2(box.untranslated().isEmpty(), qPrintable(report(QStringLiteral("About box"), box)));
}

void tst_Translations::languagesAreNamedInTheirOwnScript()
{
    // Whatever the window's language, each language is offered under its own name, so a
    // user who cannot read the current one still finds theirs.
    FakeKeyStore keys;
    Ui::SettingsDialog dialog(Ui::AppSettings(), &keys);
    auto language = dialog.findChild<QComboBox *>(QStringLiteral("languageCombo"));
    QVERIFY(language);
    QStringList names;
    for (int i = 1; i < language->count(); ++i)
        names.append(language->itemText(i));
    QCOMPARE(names, (QStringList{QStringLiteral("English"), QStringLiteral("简体中文")}));
    // And the machine can draw them: a CJK font is installed (fonts-noto-cjk in the build
    // root, a Recommends of the package); without one Chinese shows as empty boxes.
    QVERIFY2(!QFontDatabase::families(QFontDatabase::SimplifiedChinese).isEmpty(),
             "no font for Simplified Chinese: install fonts-noto-cjk");
}

void tst_Translations::settingsDialogIsChinese()
{
    FakeKeyStore keys;
    Ui::AppSettings settings;
    Ui::SettingsDialog dialog(settings, &keys);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));

    TextScanner demo(fakeKeyStoreTexts());
    demo.scanWidgetTree(&dialog);
    QVERIFY2(demo.untranslated().isEmpty(),
             qPrintable(report(QStringLiteral("settings (demo)"), demo)));

    // Every provider shows its own labels, placeholders and notes.
    QComboBox *providers = nullptr;
    const QList<QComboBox *> combos = dialog.findChildren<QComboBox *>();
    for (QComboBox *combo : combos) {
        if (combo->findText(QStringLiteral("Anthropic")) >= 0)
            providers = combo;
    }
    QVERIFY(providers);
    const QList<QAbstractButton *> buttons = dialog.findChildren<QAbstractButton *>();
    for (QAbstractButton *button : buttons) {
        if (button->isCheckable() && button->isChecked() && button->inherits("QCheckBox"))
            button->click(); // leave the demo: the model fields appear
    }
    for (int i = 0; i < providers->count(); ++i) {
        providers->setCurrentIndex(i);
        TextScanner provider(fakeKeyStoreTexts());
        provider.scanWidgetTree(&dialog);
        QVERIFY2(provider.untranslated().isEmpty(),
                 qPrintable(report(QStringLiteral("settings, provider ") + providers->itemText(i),
                                   provider)));
    }
    providers->setCurrentIndex(providers->count() - 1);
    saveShot(&dialog, QStringLiteral("zh_CN-settings"));
    // OK with missing fields shows the messages beside them.
    dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->click();
    TextScanner messages(fakeKeyStoreTexts());
    messages.scanWidgetTree(&dialog);
    QVERIFY2(messages.untranslated().isEmpty(),
             qPrintable(report(QStringLiteral("settings, messages"), messages)));
}

void tst_Translations::englishStaysEnglish()
{
    QCOMPARE(Ui::Translations::install(QStringLiteral("en")), QStringLiteral("en"));
    FakeKeyStore keys;
    Ui::SettingsDialog dialog(Ui::AppSettings{}, &keys);
    QCOMPARE(dialog.windowTitle(), QStringLiteral("AgentDesk Settings"));
    QCOMPARE(dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Cancel)->text(),
             QStringLiteral("Cancel"));
    // The English translation only adds the plural forms of the "(s)" strings.
    const char *context = "Ui::SessionsPanel";
    QCOMPARE(QCoreApplication::translate(context, "%n day(s) ago", nullptr, 1),
             QStringLiteral("1 day ago"));
    QCOMPARE(QCoreApplication::translate(context, "%n day(s) ago", nullptr, 3),
             QStringLiteral("3 days ago"));
    QCOMPARE(QCoreApplication::translate("Ui::MainWindow", "&File"), QStringLiteral("&File"));
}

void tst_Translations::newLanguageAppliesToWhatIsBuiltNext()
{
    FakeKeyStore keys;
    Ui::SettingsDialog chinese(Ui::AppSettings{}, &keys);
    QCOMPARE(chinese.windowTitle(), QStringLiteral("AgentDesk 设置"));
    // Qt's own buttons come from qtbase_zh_CN.qm when Qt's translations are installed.
    QDialogButtonBox *buttons = chinese.findChild<QDialogButtonBox *>();
    if (QFile::exists(QLibraryInfo::path(QLibraryInfo::TranslationsPath)
                      + QStringLiteral("/qtbase_zh_CN.qm"))) {
        QCOMPARE(buttons->button(QDialogButtonBox::Cancel)->text(), QStringLiteral("取消"));
    }

    QCOMPARE(Ui::Translations::install(QStringLiteral("en")), QStringLiteral("en"));
    QCOMPARE(Ui::Translations::current(), QStringLiteral("en"));
    Ui::SettingsDialog english(Ui::AppSettings{}, &keys);
    QCOMPARE(english.windowTitle(), QStringLiteral("AgentDesk Settings"));
    QCOMPARE(english.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Cancel)->text(),
             QStringLiteral("Cancel"));
    QCOMPARE(Ui::Translations::restartNote(),
             QStringLiteral("The new language applies when AgentDesk starts again."));

    QCOMPARE(Ui::Translations::install(QStringLiteral("zh_CN")), QStringLiteral("zh_CN"));
    QCOMPARE(Ui::Translations::restartNote(),
             QStringLiteral("新的语言将在 AgentDesk 下次启动时生效。"));
}

AGENTDESK_TEST_MAIN(tst_Translations)

} // namespace tst_translations

#include "tst_translations.moc"
