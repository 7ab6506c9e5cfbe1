// The settings dialog with real widgets: what OK returns, where the key goes (the key store,
// never a file in clear), the stored key shown masked, validation next to the fields.
#include "fakekeystore.h"
#include "httptestserver.h"

#include <coding/codingagentoptions.h>
#include <keys/filekeystore.h>
#include <settings/languageserverspage.h>
#include <settings/providerpresets.h>
#include <settings/settingsdialog.h>
#include <settings/theme.h>
#include <testmain.h>

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDirIterator>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStyle>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QTreeWidget>

namespace tst_settingsdialog {

using Ui::AppSettings;
using Ui::KeyResult;
using Ui::ModelSelection;
using Ui::ProviderKind;
using Ui::SettingsDialog;
using Ui::ThinkingLevel;

namespace {

const QString secret = QStringLiteral("sk-ant-api03-unit-test-secret-4f9a");

template<typename T>
T *field(const QWidget &dialog, const char *name)
{
    T *widget = dialog.findChild<T *>(QLatin1String(name));
    if (!widget)
        qWarning("No %s in the dialog", name);
    return widget;
}

void selectCombo(QComboBox *combo, const QString &text)
{
    const int index = combo->findText(text);
    QVERIFY2(index >= 0, qPrintable(text));
    combo->setFocus();
    // Keyboard, as a user would: Home then Down to the entry.
    QTest::keyClick(combo, Qt::Key_Home);
    for (int step = 0; step < index; ++step)
        QTest::keyClick(combo, Qt::Key_Down);
    QCOMPARE(combo->currentText(), text);
}

void typeInto(QWidget *widget, const QString &text)
{
    widget->setFocus();
    QTest::keyClick(widget, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClick(widget, Qt::Key_Delete);
    QTest::keyClicks(widget, text);
}

void clickOk(QDialog &dialog)
{
    auto buttons = dialog.findChild<QDialogButtonBox *>();
    QTest::mouseClick(buttons->button(QDialogButtonBox::Ok), Qt::LeftButton);
}

ModelSelection anthropic()
{
    ModelSelection selection;
    selection.provider = ProviderKind::Anthropic;
    selection.model = QStringLiteral("claude-sonnet-4-5");
    return selection;
}

} // namespace

class tst_SettingsDialog : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();

    void okReturnsWhatWasChosen();
    void compatibleShowsAndValidatesTheBaseUrl();
    void serverPresetFillsUrlAndModel();
    void modelIsRequired();
    void keyGoesToTheKeyStoreOnly();
    void storedKeyIsShownMasked();
    void keyRequiredForRemoteUnlessInEnvironment();
    void localServerNeedsNoKey();
    void failedKeyWriteKeepsTheDialogOpen();
    void demoClearsTheModel();
    void keyFromFallbackStoreSaysWhereItIs();

    void modelInUseIsShownWithWhyAndKeepsTheDefault();
    void serverListsItsModels();
    void serverListFailureLeavesFreeText();
    void serverProfileShowsWhyAndCanBeSet();
    void silentServerNeverBlocksTheDialog();

    void themeAppliesAndRestores();
    void hooksPageShowsEachHookWhole();
    void languageServersAreChosenAndKept();
    void screenshots();

private:
    FakeKeyStore m_keys;
};

// Settings > Language servers, with the keyboard: a server switched off, another's arguments
// changed, the wait longer; a row that is no server is said and left out; what the dialog
// returns is what QSettings keeps and what a session gets.
void tst_SettingsDialog::languageServersAreChosenAndKept()
{
    SettingsDialog dialog(AppSettings(), &m_keys);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowActive(&dialog)); // the keys go to the focus widget
    auto tabs = field<QTabWidget>(dialog, "settingsTabs");
    tabs->setCurrentWidget(dialog.languageServersPage());
    auto table = field<QTableWidget>(dialog, "languageServers");
    QTRY_VERIFY(table->isVisible());
    QCOMPARE(table->item(0, 0)->text(), QStringLiteral("clangd"));
    QCOMPARE(table->item(0, 2)->text(), QStringLiteral("--log=error --background-index=false"));
    QCOMPARE(table->item(1, 0)->text(), QStringLiteral("pylsp"));
    QVERIFY(field<QCheckBox>(dialog, "languageServersCheck")->isChecked());

    // pylsp off: Space on its row's first cell.
    table->setFocus();
    table->setCurrentCell(1, 0);
    QTest::keyClick(table, Qt::Key_Space);
    QCOMPARE(table->item(1, 0)->checkState(), Qt::Unchecked);
    // clangd's arguments, typed into the cell (F2 edits it).
    table->setCurrentCell(0, 2);
    QTest::keyClick(table, Qt::Key_F2);
    QTRY_VERIFY(QApplication::focusWidget() && QApplication::focusWidget() != table);
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(QApplication::focusWidget(), QStringLiteral("--log=error \"-j 1\""));
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
    // The view commits an edit after the key press is done with (queued).
    QTRY_COMPARE(table->item(0, 2)->text(), QStringLiteral("--log=error \"-j 1\""));
    typeInto(field<QSpinBox>(dialog, "languageServerWaitSpin"), QStringLiteral("5"));
    // A row with no command is not a server: said, and left out.
    auto problems = field<QLabel>(dialog, "languageServerProblems");
    QVERIFY(!problems->isVisible());
    QTest::mouseClick(field<QPushButton>(dialog, "addLanguageServerButton"), Qt::LeftButton);
    QTRY_VERIFY(QApplication::focusWidget() && QApplication::focusWidget() != table);
    QTest::keyClicks(QApplication::focusWidget(), QStringLiteral("halfdone"));
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
    QTRY_VERIFY(problems->isVisible());
    QVERIFY2(problems->text().contains(QStringLiteral("Row %1 is left out").arg(table->rowCount())),
             qPrintable(problems->text()));

    const AppSettings chosen = dialog.settings();
    QTemporaryDir home;
    QSettings stored(QDir(home.path()).filePath(QStringLiteral("servers.ini")),
                     QSettings::IniFormat);
    chosen.save(stored);
    const AppSettings kept = AppSettings::load(stored);
    for (const AppSettings &settings : {chosen, kept}) {
        QVERIFY(settings.languageServers);
        QCOMPARE(settings.languageServerWaitSeconds, 5);
        QCOMPARE(settings.disabledLanguageServers, QStringList{QStringLiteral("pylsp")});
        QCOMPARE(settings.languageServerConfigs.size(),
                 AgentCore::LspServerConfig::defaults().size()); // not the half-done row
        QCOMPARE(settings.languageServerConfigs.first().args,
                 (QStringList{QStringLiteral("--log=error"), QStringLiteral("-j 1")}));
    }
    AgentCore::LanguageServerOptions session;
    kept.applyLanguageServers(session);
    QVERIFY(session.enabled);
    QCOMPARE(session.editWaitMs, 5000);
    QCOMPARE(session.servers.first().name, QStringLiteral("clangd"));
    QVERIFY(std::none_of(session.servers.cbegin(), session.servers.cend(), [](const auto &server) {
        return server.name == QLatin1String("pylsp");
    }));

    // Every server off is none at all (an empty list would mean the defaults).
    AppSettings none = kept;
    for (const AgentCore::LspServerConfig &server : none.languageServerConfigs)
        none.disabledLanguageServers.append(server.name);
    AgentCore::LanguageServerOptions off;
    none.applyLanguageServers(off);
    QVERIFY(!off.enabled);
    // And the defaults as they were are kept as "the defaults".
    SettingsDialog untouched(AppSettings(), &m_keys);
    QVERIFY(untouched.settings().languageServerConfigs.isEmpty());
}

void tst_SettingsDialog::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    qunsetenv("ANTHROPIC_API_KEY");
    qunsetenv("OPENAI_API_KEY");
}

void tst_SettingsDialog::init()
{
    m_keys.keys.clear();
    m_keys.failWith = KeyResult::Status::Ok;
    m_keys.secure = true;
    qunsetenv("ANTHROPIC_API_KEY");
}

void tst_SettingsDialog::okReturnsWhatWasChosen()
{
    AppSettings initial;
    initial.model = anthropic();
    m_keys.keys.insert(QStringLiteral("openai"), QStringLiteral("sk-openai"));
    SettingsDialog dialog(initial, &m_keys);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QSignalSpy accepted(&dialog, &QDialog::accepted);

    selectCombo(field<QComboBox>(dialog, "providerCombo"), QStringLiteral("OpenAI (Responses)"));
    // The model follows the provider; the user picks another.
    QCOMPARE(field<QComboBox>(dialog, "modelCombo")->currentText(),
             Ui::suggestedModels(ProviderKind::OpenAiResponses).value(0));
    QVERIFY(field<QComboBox>(dialog, "modelCombo")->currentText().startsWith(u"gpt-"));
    typeInto(field<QComboBox>(dialog, "modelCombo"), QStringLiteral("gpt-5-codex"));
    selectCombo(field<QComboBox>(dialog, "thinkingCombo"), QStringLiteral("High"));
    typeInto(field<QSpinBox>(dialog, "maxTurnsSpin"), QStringLiteral("25"));
    QCheckBox *autoCompact = field<QCheckBox>(dialog, "autoCompactCheck");
    QVERIFY(autoCompact->isChecked()); // on unless the user turned it off
    autoCompact->setFocus();
    QTest::keyClick(autoCompact, Qt::Key_Space);
    // The sandbox is on and offline unless the user changes it.
    QCOMPARE(field<QComboBox>(dialog, "sandboxCombo")->currentText(),
             QStringLiteral("On, where bubblewrap works"));
    QCheckBox *sandboxNetwork = field<QCheckBox>(dialog, "sandboxNetworkCheck");
    QVERIFY(!sandboxNetwork->isChecked());
    selectCombo(field<QComboBox>(dialog, "sandboxCombo"),
                QStringLiteral("Required: refuse commands without it"));
    sandboxNetwork->setFocus();
    QTest::keyClick(sandboxNetwork, Qt::Key_Space);
    selectCombo(field<QComboBox>(dialog, "themeCombo"), QStringLiteral("Dark"));
    QVERIFY(!field<QLabel>(dialog, "languageNote")->isVisible());
    selectCombo(field<QComboBox>(dialog, "languageCombo"), QStringLiteral("简体中文"));
    QVERIFY(field<QLabel>(dialog, "languageNote")->isVisible()); // applies at the next start
    // OpenAI's stored key is read in for the new provider: nothing to type.
    QTRY_COMPARE(field<QLineEdit>(dialog, "apiKeyEdit")->text(), QStringLiteral("sk-openai"));
    clickOk(dialog);
    QTRY_COMPARE(accepted.size(), 1);

    const AppSettings settings = dialog.settings();
    QVERIFY(settings.model);
    QCOMPARE(settings.model->provider, ProviderKind::OpenAiResponses);
    QCOMPARE(settings.model->model, QStringLiteral("gpt-5-codex"));
    QCOMPARE(settings.model->thinking, ThinkingLevel::High);
    QCOMPARE(settings.model->baseUrl, QString());
    QCOMPARE(settings.maxTurns, 25);
    QCOMPARE(settings.autoCompact, false);
    QTemporaryDir home;
    QSettings stored(QDir(home.path()).filePath(QStringLiteral("roundtrip.ini")),
                     QSettings::IniFormat);
    settings.save(stored);
    QCOMPARE(AppSettings::load(stored).autoCompact, false);
    QCOMPARE(settings.sandboxMode, AgentCore::SandboxMode::Required);
    QCOMPARE(AppSettings::load(stored).sandboxMode, AgentCore::SandboxMode::Required);
    QCOMPARE(AppSettings::load(stored).sandboxNetwork, true);
    QCOMPARE(settings.theme, Ui::Theme::Dark);
    QCOMPARE(settings.language, QStringLiteral("zh_CN"));
    QCOMPARE(settings.recentModels.value(0), *settings.model);
}

void tst_SettingsDialog::compatibleShowsAndValidatesTheBaseUrl()
{
    AppSettings initial;
    initial.model = anthropic();
    m_keys.keys.insert(QStringLiteral("anthropic"), secret);
    SettingsDialog dialog(initial, &m_keys);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    auto baseUrl = field<QLineEdit>(dialog, "baseUrlEdit");
    auto message = field<QLabel>(dialog, "baseUrlMessage");
    auto presets = field<QPushButton>(dialog, "baseUrlPresets");
    QVERIFY(baseUrl->isVisible());
    QVERIFY(baseUrl->placeholderText().contains(QStringLiteral("https://api.anthropic.com")));
    QVERIFY(!presets->isVisible());

    selectCombo(field<QComboBox>(dialog, "providerCombo"), QStringLiteral("OpenAI-compatible"));
    QVERIFY(baseUrl->isVisible());
    QVERIFY(presets->isVisible());
    QVERIFY(baseUrl->placeholderText().contains(QStringLiteral("localhost:11434")));

    QSignalSpy accepted(&dialog, &QDialog::accepted);
    clickOk(dialog); // no URL yet
    QVERIFY(dialog.isVisible());
    QVERIFY(message->isVisible());
    QVERIFY2(message->text().contains(QStringLiteral("address")), qPrintable(message->text()));

    typeInto(baseUrl, QStringLiteral("localhost:11434"));
    clickOk(dialog);
    QVERIFY(dialog.isVisible());
    QVERIFY2(message->text().contains(QStringLiteral("http or https")), qPrintable(message->text()));

    typeInto(baseUrl, QStringLiteral("http://localhost:11434/v1"));
    QVERIFY(!message->isVisible());
    typeInto(field<QComboBox>(dialog, "modelCombo"), QStringLiteral("qwen3-coder"));
    clickOk(dialog);
    QTRY_COMPARE(accepted.size(), 1);
    const ModelSelection model = dialog.settings().model.value();
    QCOMPARE(model.provider, ProviderKind::OpenAiCompatible);
    QCOMPARE(model.baseUrl, QStringLiteral("http://localhost:11434/v1"));
    QCOMPARE(model.model, QStringLiteral("qwen3-coder"));
}

void tst_SettingsDialog::serverPresetFillsUrlAndModel()
{
    AppSettings initial;
    initial.model = anthropic();
    SettingsDialog dialog(initial, &m_keys);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    selectCombo(field<QComboBox>(dialog, "providerCombo"), QStringLiteral("OpenAI-compatible"));
    QMenu *menu = field<QPushButton>(dialog, "baseUrlPresets")->menu();
    QVERIFY(menu);
    QAction *deepseek = nullptr;
    const QList<QAction *> actions = menu->actions();
    for (QAction *action : actions) {
        if (action->text().startsWith(u"DeepSeek"))
            deepseek = action;
    }
    QVERIFY(deepseek);
    deepseek->trigger();
    QCOMPARE(field<QLineEdit>(dialog, "baseUrlEdit")->text(),
             QStringLiteral("https://api.deepseek.com/v1"));
    QCOMPARE(field<QComboBox>(dialog, "modelCombo")->currentText(), QStringLiteral("deepseek-chat"));
    // DeepSeek is remote: a key is asked for.
    QSignalSpy accepted(&dialog, &QDialog::accepted);
    clickOk(dialog);
    QVERIFY(field<QLabel>(dialog, "keyMessage")->isVisible());
    QVERIFY(field<QLineEdit>(dialog, "apiKeyEdit")->hasFocus());
    QCOMPARE(accepted.size(), 0);
}

void tst_SettingsDialog::modelIsRequired()
{
    AppSettings initial;
    initial.model = anthropic();
    m_keys.keys.insert(QStringLiteral("anthropic"), secret);
    SettingsDialog dialog(initial, &m_keys);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    typeInto(field<QComboBox>(dialog, "modelCombo"), QString());
    clickOk(dialog);
    QVERIFY(dialog.isVisible());
    QVERIFY(field<QLabel>(dialog, "modelMessage")->isVisible());
    QVERIFY(field<QComboBox>(dialog, "modelCombo")->hasFocus());
}

void tst_SettingsDialog::keyGoesToTheKeyStoreOnly()
{
    const QString config = QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation);
    const QString data = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    {
        AppSettings initial;
        initial.model = anthropic();
        SettingsDialog dialog(initial, &m_keys);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QSignalSpy accepted(&dialog, &QDialog::accepted);
        typeInto(field<QLineEdit>(dialog, "apiKeyEdit"), secret);
        clickOk(dialog);
        QTRY_COMPARE(accepted.size(), 1);
        QCOMPARE(m_keys.keys.value(QStringLiteral("anthropic")), secret);

        // What the window does with the result: save it.
        QVERIFY(QDir().mkpath(config));
        QSettings settings(config + QStringLiteral("/agentdesk.ini"), QSettings::IniFormat);
        dialog.settings().save(settings);
        settings.sync();
        QCOMPARE(settings.status(), QSettings::NoError);
    }
    int scanned = 0;
    for (const QString &root : {config, data}) {
        QDirIterator files(root, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
        while (files.hasNext()) {
            QFile file(files.next());
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QByteArray content = file.readAll();
            QVERIFY2(!content.contains(secret.toUtf8()), qPrintable(file.fileName()));
            QVERIFY2(!content.contains(secret.toUtf8().toBase64()), qPrintable(file.fileName()));
            ++scanned;
        }
    }
    QVERIFY(scanned > 0); // the settings file itself was looked at
}

void tst_SettingsDialog::storedKeyIsShownMasked()
{
    m_keys.keys.insert(QStringLiteral("anthropic"), secret);
    AppSettings initial;
    initial.model = anthropic();
    SettingsDialog dialog(initial, &m_keys);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    auto key = field<QLineEdit>(dialog, "apiKeyEdit");
    QTRY_COMPARE(key->text(), secret);
    QCOMPARE(key->echoMode(), QLineEdit::Password);
    QVERIFY(key->displayText() != secret);
    QTest::mouseClick(field<QToolButton>(dialog, "showKeyButton"), Qt::LeftButton);
    QCOMPARE(key->echoMode(), QLineEdit::Normal);
    QVERIFY2(field<QLabel>(dialog, "keyNote")->text().contains(QStringLiteral("fake keyring")),
             qPrintable(field<QLabel>(dialog, "keyNote")->text()));

    // Unchanged: OK writes nothing.
    const int operations = m_keys.operations;
    QSignalSpy accepted(&dialog, &QDialog::accepted);
    clickOk(dialog);
    QTRY_COMPARE(accepted.size(), 1);
    QCOMPARE(m_keys.operations, operations);
}

void tst_SettingsDialog::keyRequiredForRemoteUnlessInEnvironment()
{
    AppSettings initial;
    initial.model = anthropic();
    {
        SettingsDialog dialog(initial, &m_keys);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        clickOk(dialog);
        QVERIFY(dialog.isVisible());
        auto message = field<QLabel>(dialog, "keyMessage");
        QVERIFY(message->isVisible());
        QVERIFY2(message->text().contains(QStringLiteral("ANTHROPIC_API_KEY")),
                 qPrintable(message->text()));
    }
    qputenv("ANTHROPIC_API_KEY", "sk-from-env");
    SettingsDialog dialog(initial, &m_keys);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    auto note = field<QLabel>(dialog, "keyNote");
    QTRY_VERIFY(note->text().contains(QStringLiteral("ANTHROPIC_API_KEY")));
    QVERIFY(note->text().contains(QStringLiteral("will be used")));
    QSignalSpy accepted(&dialog, &QDialog::accepted);
    clickOk(dialog);
    QTRY_COMPARE(accepted.size(), 1);
    QVERIFY(m_keys.keys.isEmpty()); // the environment's key is not copied anywhere
}

void tst_SettingsDialog::localServerNeedsNoKey()
{
    ModelSelection ollama;
    ollama.provider = ProviderKind::OpenAiCompatible;
    ollama.baseUrl = QStringLiteral("http://127.0.0.1:11434/v1");
    ollama.model = QStringLiteral("qwen3-coder");
    AppSettings initial;
    initial.model = ollama;
    SettingsDialog dialog(initial, &m_keys);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QVERIFY(field<QLabel>(dialog, "keyNote")->text().contains(QStringLiteral("Not needed")));
    QSignalSpy accepted(&dialog, &QDialog::accepted);
    clickOk(dialog);
    QTRY_COMPARE(accepted.size(), 1);
    QCOMPARE(dialog.settings().model, ollama);
}

void tst_SettingsDialog::failedKeyWriteKeepsTheDialogOpen()
{
    AppSettings initial;
    initial.model = anthropic();
    SettingsDialog dialog(initial, &m_keys);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QTRY_VERIFY(m_keys.operations > 0); // the initial read
    m_keys.failWith = KeyResult::Status::Failed;
    typeInto(field<QLineEdit>(dialog, "apiKeyEdit"), secret);
    QSignalSpy accepted(&dialog, &QDialog::accepted);
    clickOk(dialog);
    auto message = field<QLabel>(dialog, "keyMessage");
    QTRY_VERIFY(message->isVisible());
    QVERIFY2(message->text().contains(QStringLiteral("The fake keyring is locked.")),
             qPrintable(message->text()));
    QVERIFY(!message->text().contains(secret));
    QVERIFY(dialog.isVisible());
    QCOMPARE(accepted.size(), 0);
    QVERIFY(dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->isEnabled());

    m_keys.failWith = KeyResult::Status::Ok;
    clickOk(dialog);
    QTRY_COMPARE(accepted.size(), 1);
    QCOMPARE(m_keys.keys.value(QStringLiteral("anthropic")), secret);
}

void tst_SettingsDialog::demoClearsTheModel()
{
    AppSettings initial;
    initial.model = anthropic();
    initial.rememberModel(anthropic());
    m_keys.keys.insert(QStringLiteral("anthropic"), secret);
    SettingsDialog dialog(initial, &m_keys);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    auto demo = field<QCheckBox>(dialog, "demoCheck");
    QVERIFY(!demo->isChecked());
    QVERIFY(field<QComboBox>(dialog, "providerCombo")->isEnabled());
    QTest::mouseClick(demo, Qt::LeftButton, {}, QPoint(8, demo->height() / 2));
    QVERIFY(demo->isChecked());
    QVERIFY(!field<QComboBox>(dialog, "providerCombo")->isEnabled());
    QSignalSpy accepted(&dialog, &QDialog::accepted);
    clickOk(dialog);
    QTRY_COMPARE(accepted.size(), 1);
    const AppSettings settings = dialog.settings();
    QCOMPARE(settings.model, std::nullopt);
    QCOMPARE(settings.recentModels, initial.recentModels);
    QCOMPARE(m_keys.keys.value(QStringLiteral("anthropic")), secret); // the key stays

    // And back: the demo opens with the demo checked, the last model in the fields.
    SettingsDialog again(settings, &m_keys);
    QVERIFY(field<QCheckBox>(again, "demoCheck")->isChecked());
    QCOMPARE(field<QComboBox>(again, "modelCombo")->currentText(),
             QStringLiteral("claude-sonnet-4-5"));
}

void tst_SettingsDialog::keyFromFallbackStoreSaysWhereItIs()
{
    m_keys.secure = false;
    AppSettings initial;
    initial.model = anthropic();
    SettingsDialog dialog(initial, &m_keys);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QTRY_VERIFY(field<QLabel>(dialog, "keyNote")->text().contains(QStringLiteral("fake file")));
}

void tst_SettingsDialog::modelInUseIsShownWithWhyAndKeepsTheDefault()
{
    AppSettings initial;
    initial.model = anthropic();
    ModelSelection commandLine;
    commandLine.provider = ProviderKind::OpenAiCompatible;
    commandLine.baseUrl = QStringLiteral("http://127.0.0.1:9/v1");
    commandLine.model = QStringLiteral("qwen3-coder");
    SettingsDialog dialog(initial, &m_keys);
    dialog.setModelInUse(commandLine, QStringLiteral("Given on the command line."));
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    // The fields show the model the window talks to, and say why it is not the default.
    QCOMPARE(field<QComboBox>(dialog, "providerCombo")->currentText(),
             QStringLiteral("OpenAI-compatible"));
    QCOMPARE(field<QLineEdit>(dialog, "baseUrlEdit")->text(), commandLine.baseUrl);
    QCOMPARE(field<QComboBox>(dialog, "modelCombo")->currentText(), commandLine.model);
    auto note = field<QLabel>(dialog, "modelInUseNote");
    QVERIFY(note->isVisible());
    QCOMPARE(note->text(), QStringLiteral("Given on the command line."));
    QVERIFY(!dialog.modelChanged());
    // OK without touching the model: the saved default stays.
    QCOMPARE(dialog.settings().model, initial.model);
    QCOMPARE(dialog.settings().recentModels, initial.recentModels);

    typeInto(field<QComboBox>(dialog, "modelCombo"), QStringLiteral("qwen3-coder:30b"));
    QVERIFY(dialog.modelChanged());
    QSignalSpy accepted(&dialog, &QDialog::accepted);
    clickOk(dialog);
    QTRY_COMPARE(accepted.size(), 1);
    ModelSelection chosen = commandLine;
    chosen.model = QStringLiteral("qwen3-coder:30b");
    QCOMPARE(dialog.settings().model, chosen);
}

void tst_SettingsDialog::serverListsItsModels()
{
    TestSupport::HttpTestServer server;
    QVERIFY(server.isListening());
    server.enqueue(TestSupport::ScriptedResponse::error(
        200,
        R"({"object":"list","data":[{"id":"qwen3-coder:30b","object":"model"},)"
        R"({"id":"llama3.2:latest","object":"model"}]})"));
    ModelSelection local;
    local.provider = ProviderKind::OpenAiCompatible;
    local.baseUrl = server.url(QStringLiteral("/v1")).toString();
    local.model = QStringLiteral("llama3.2:latest");
    m_keys.keys.insert(local.keyAccount(), QStringLiteral("sk-local-key"));
    AppSettings initial;
    initial.model = local;
    SettingsDialog dialog(initial, &m_keys);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));

    auto model = field<QComboBox>(dialog, "modelCombo");
    QTRY_COMPARE(model->count(), 2);
    QCOMPARE(model->itemText(0), QStringLiteral("qwen3-coder:30b"));
    QCOMPARE(model->itemText(1), QStringLiteral("llama3.2:latest"));
    QCOMPARE(model->currentText(), local.model); // the choice is kept
    QTRY_VERIFY(!field<QLabel>(dialog, "modelNote")->isVisible());
    // Asked once, with the configured key.
    QCOMPARE(server.requests().size(), 1);
    QCOMPARE(server.requests().first().path, QByteArray("/v1/models"));
    QCOMPARE(server.requests().first().header("authorization"), QByteArray("Bearer sk-local-key"));

    // Picked from the list with the keyboard, as a user would.
    model->setFocus();
    QTest::keyClick(model, Qt::Key_Up);
    QCOMPARE(model->currentText(), QStringLiteral("qwen3-coder:30b"));
    QSignalSpy accepted(&dialog, &QDialog::accepted);
    clickOk(dialog);
    QTRY_COMPARE(accepted.size(), 1);
    QCOMPARE(dialog.settings().model->model, QStringLiteral("qwen3-coder:30b"));
}

// Issue #33: which server a compatible endpoint is, and why; the user's choice overrides it and
// is what the saved selection (and so every request) uses.
void tst_SettingsDialog::serverProfileShowsWhyAndCanBeSet()
{
    TestSupport::HttpTestServer server;
    QVERIFY(server.isListening());
    server.enqueue(TestSupport::ScriptedResponse::error(
        200,
        R"({"object":"list","data":[{"id":"gpt-oss-20b","object":"model","owned_by":"llamacpp"}]})"));
    SettingsDialog dialog(AppSettings{}, &m_keys);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    auto profile = field<QComboBox>(dialog, "serverProfileCombo");
    auto note = field<QLabel>(dialog, "serverProfileNote");
    QVERIFY(profile && note);
    QVERIFY(!profile->isVisible()); // Anthropic: no such thing
    field<QCheckBox>(dialog, "demoCheck")->setChecked(false);
    selectCombo(field<QComboBox>(dialog, "providerCombo"),
                providerKindName(ProviderKind::OpenAiCompatible));
    QVERIFY(profile->isVisible());
    QCOMPARE(profile->currentText(), QStringLiteral("Automatic"));

    // A vendor's host says it at once.
    typeInto(field<QLineEdit>(dialog, "baseUrlEdit"), QStringLiteral("https://api.deepseek.com/v1"));
    QTRY_COMPARE(note->text(),
                 QStringLiteral("In use: DeepSeek, from the base URL (api.deepseek.com)."));
    // The server's list says it: llama.cpp's owned_by.
    typeInto(field<QLineEdit>(dialog, "baseUrlEdit"), server.url(QStringLiteral("/v1")).toString());
    QTRY_COMPARE_WITH_TIMEOUT(note->text(),
                              QStringLiteral(
                                  "In use: llama.cpp, from /v1/models: owned_by llamacpp."),
                              10'000);
    // The user's choice wins, and is saved with the model.
    selectCombo(profile, QStringLiteral("vLLM"));
    QCOMPARE(note->text(), QStringLiteral("In use: vLLM, set by you."));
    QSignalSpy accepted(&dialog, &QDialog::accepted);
    clickOk(dialog);
    QTRY_COMPARE(accepted.size(), 1);
    const ModelSelection saved = *dialog.settings().model;
    QVERIFY(saved.serverProfile == AgentCore::ServerProfile::Id::Vllm);
    QCOMPARE(saved.servedOwnedBy, QStringLiteral("llamacpp"));
    QVERIFY(saved.providerConfig({}).serverProfile == AgentCore::ServerProfile::Id::Vllm);
    QVERIFY(ModelSelection::fromJson(saved.toJson()) == saved);
}

void tst_SettingsDialog::serverListFailureLeavesFreeText()
{
    TestSupport::HttpTestServer server;
    server.enqueue(TestSupport::ScriptedResponse::error(500, R"({"error":"model runner crashed"})"));
    AppSettings initial;
    initial.model = anthropic();
    SettingsDialog dialog(initial, &m_keys);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    selectCombo(field<QComboBox>(dialog, "providerCombo"), QStringLiteral("OpenAI-compatible"));
    typeInto(field<QLineEdit>(dialog, "baseUrlEdit"), server.url(QStringLiteral("/v1")).toString());
    auto note = field<QLabel>(dialog, "modelNote");
    QTRY_VERIFY(note->isVisible() && note->text().contains(QStringLiteral("model runner crashed")));
    QVERIFY2(note->text().contains(QStringLiteral("could not be listed")), qPrintable(note->text()));
    QCOMPARE(server.requests().size(), 1); // asked once the typing stopped, not per key

    typeInto(field<QComboBox>(dialog, "modelCombo"), QStringLiteral("my-own-model"));
    QSignalSpy accepted(&dialog, &QDialog::accepted);
    clickOk(dialog);
    QTRY_COMPARE(accepted.size(), 1);
    QCOMPARE(dialog.settings().model->model, QStringLiteral("my-own-model"));
}

void tst_SettingsDialog::silentServerNeverBlocksTheDialog()
{
    TestSupport::HttpTestServer server;
    TestSupport::ScriptedResponse silent;
    silent.ending = TestSupport::ScriptedResponse::Ending::Silent;
    server.enqueue(silent);
    ModelSelection local;
    local.provider = ProviderKind::OpenAiCompatible;
    local.baseUrl = server.url(QStringLiteral("/v1")).toString();
    local.model = QStringLiteral("qwen3-coder");
    AppSettings initial;
    initial.model = local;
    auto dialog = std::make_unique<SettingsDialog>(initial, &m_keys);
    dialog->show();
    QVERIFY(QTest::qWaitForWindowExposed(dialog.get()));
    QTRY_COMPARE(server.requests().size(), 1);
    auto note = field<QLabel>(*dialog, "modelNote");
    QVERIFY(note->isVisible());
    QVERIFY(note->text().startsWith(QStringLiteral("Asking the server")));
    // While the server says nothing, the dialog answers the keyboard and closes.
    typeInto(field<QComboBox>(*dialog, "modelCombo"), QStringLiteral("typed-meanwhile"));
    QCOMPARE(field<QComboBox>(*dialog, "modelCombo")->currentText(),
             QStringLiteral("typed-meanwhile"));
    QSignalSpy accepted(dialog.get(), &QDialog::accepted);
    clickOk(*dialog);
    QTRY_COMPARE(accepted.size(), 1);
    dialog.reset(); // the request still running goes with it
    server.closeConnections();
}

void tst_SettingsDialog::themeAppliesAndRestores()
{
    const QString startStyle = QApplication::style()->name();
    const QColor startWindow = QApplication::palette().color(QPalette::Window);

    Ui::applyTheme(Ui::Theme::Dark);
    QCOMPARE(QApplication::style()->name().toLower(), QStringLiteral("fusion"));
    const QPalette dark = QApplication::palette();
    QVERIFY(dark.color(QPalette::Window).lightness() < 80);
    QVERIFY(dark.color(QPalette::Text).lightness() > 180);
    // Links and selections stay readable on the dark base.
    QVERIFY(dark.color(QPalette::Link).lightness() > dark.color(QPalette::Base).lightness() + 80);
    QVERIFY(dark.color(QPalette::HighlightedText).lightness()
            > dark.color(QPalette::Highlight).lightness() + 80);

    Ui::applyTheme(Ui::Theme::Light);
    const QPalette light = QApplication::palette();
    QVERIFY(light.color(QPalette::Window).lightness() > 180);
    QVERIFY(light.color(QPalette::Link).lightness() + 80 < light.color(QPalette::Base).lightness());

    Ui::applyTheme(Ui::Theme::System);
    QCOMPARE(QApplication::style()->name(), startStyle);
    QCOMPARE(QApplication::palette().color(QPalette::Window), startWindow);
}

// The Hooks page lists each hook of the session's settings files: its event, matcher, the whole
// command (the column that takes the room), and its file by folder and name, the whole path in
// the tooltip; a repository's hook the user did not trust says so, greyed.
void tst_SettingsDialog::hooksPageShowsEachHookWhole()
{
    SettingsDialog dialog(AppSettings{}, &m_keys);
    AgentCore::HookEntry project;
    project.event = AgentCore::HookEventName::PreToolUse;
    project.matcher = QStringLiteral("Bash");
    project.command = QStringLiteral("sh .agentdesk/hooks/no-push.sh --strict");
    project.file = QStringLiteral("/home/ada/src/calculator/.agentdesk/settings.json");
    project.sourceLabel = QStringLiteral("project settings");
    project.fromProject = true;
    AgentCore::HookEntry user;
    user.event = AgentCore::HookEventName::Stop;
    user.command = QStringLiteral("notify-send done");
    user.file = QStringLiteral("/home/ada/.config/agentdesk/settings.json");
    user.sourceLabel = QStringLiteral("user settings");
    dialog.setHooks({project, user}, {project.grant()});
    dialog.resize(760, 480);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    auto tabs = field<QTabWidget>(dialog, "settingsTabs");
    auto hooks = field<QTreeWidget>(dialog, "hooks");
    tabs->setCurrentWidget(hooks->parentWidget());
    QTRY_VERIFY(hooks->isVisible());

    QCOMPARE(hooks->topLevelItemCount(), 2);
    const QTreeWidgetItem *first = hooks->topLevelItem(0);
    QCOMPARE(first->text(0), QStringLiteral("PreToolUse"));
    QCOMPARE(first->text(1), QStringLiteral("Bash"));
    QCOMPARE(first->text(2), project.command);
    QCOMPARE(first->text(3),
             QStringLiteral("project settings: .agentdesk/settings.json (not trusted)"));
    QVERIFY(!(first->flags() & Qt::ItemIsEnabled)); // greyed: it does not run
    QCOMPARE(first->toolTip(3),
             QDir::toNativeSeparators(project.file)
                 + QStringLiteral(": not trusted, so it does not run"));
    QVERIFY(hooks->topLevelItem(1)->flags() & Qt::ItemIsEnabled);
    QCOMPARE(hooks->topLevelItem(1)->text(3),
             QStringLiteral("user settings: agentdesk/settings.json"));
    // The whole command is on screen, not cut for the file's path.
    const int commandWidth = hooks->fontMetrics().horizontalAdvance(project.command);
    QVERIFY2(hooks->columnWidth(2) > commandWidth,
             qPrintable(QStringLiteral("%1 <= %2").arg(hooks->columnWidth(2)).arg(commandWidth)));
}

void tst_SettingsDialog::screenshots()
{
    const QString folder = qEnvironmentVariable("AGENTDESK_SHOTS");
    if (folder.isEmpty())
        QSKIP("Set AGENTDESK_SHOTS to a folder to save the dialog as PNG files.");
    QDir().mkpath(folder);
    m_keys.keys.insert(QStringLiteral("anthropic"), secret);
    for (const Ui::Theme theme : {Ui::Theme::Light, Ui::Theme::Dark}) {
        Ui::applyTheme(theme);
        const QString suffix = theme == Ui::Theme::Dark ? QStringLiteral("dark")
                                                        : QStringLiteral("light");
        AppSettings initial;
        initial.model = anthropic();
        SettingsDialog dialog(initial, &m_keys);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QTRY_COMPARE(field<QLineEdit>(dialog, "apiKeyEdit")->text(), secret);
        QVERIFY(dialog.grab().save(folder + QStringLiteral("/settings-anthropic-") + suffix
                                   + QStringLiteral(".png")));
        field<QTabWidget>(dialog, "settingsTabs")->setCurrentWidget(dialog.languageServersPage());
        QCoreApplication::processEvents();
        QVERIFY(dialog.grab().save(folder + QStringLiteral("/settings-language-servers-") + suffix
                                   + QStringLiteral(".png")));
        field<QTabWidget>(dialog, "settingsTabs")->setCurrentIndex(0);

        {
            // Where keys go without a keyring: the real file store's note.
            QTemporaryDir dir;
            Ui::FileKeyStore file(dir.filePath(QStringLiteral("config/AgentDesk/api-keys.json")));
            SettingsDialog fileDialog(initial, &file);
            fileDialog.show();
            QVERIFY(QTest::qWaitForWindowExposed(&fileDialog));
            QTRY_VERIFY(field<QLabel>(fileDialog, "keyNote")->text().contains(dir.path()));
            QCoreApplication::processEvents();
            QVERIFY(fileDialog.grab().save(folder + QStringLiteral("/settings-keyfile-") + suffix
                                           + QStringLiteral(".png")));
        }

        selectCombo(field<QComboBox>(dialog, "providerCombo"), QStringLiteral("OpenAI-compatible"));
        clickOk(dialog);
        QVERIFY(dialog.isVisible());
        QCoreApplication::processEvents(); // the dialog grows for the messages
        QVERIFY(dialog.grab().save(folder + QStringLiteral("/settings-compatible-errors-") + suffix
                                   + QStringLiteral(".png")));
        typeInto(field<QLineEdit>(dialog, "baseUrlEdit"),
                 QStringLiteral("http://localhost:11434/v1"));
        typeInto(field<QComboBox>(dialog, "modelCombo"), QStringLiteral("qwen3-coder"));
        QCoreApplication::processEvents(); // and shrinks back once they are gone
        QVERIFY(dialog.grab().save(folder + QStringLiteral("/settings-compatible-") + suffix
                                   + QStringLiteral(".png")));
    }
    Ui::applyTheme(Ui::Theme::System);
}

AGENTDESK_TEST_MAIN(tst_SettingsDialog)

} // namespace tst_settingsdialog

#include "tst_settingsdialog.moc"
