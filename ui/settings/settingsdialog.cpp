#include "settingsdialog.h"
#include "languageserverspage.h"

#include "mcp/mcpserverspage.h"

#include "common/background.h"
#include "i18n/translations.h"

#include "keys/keystore.h"
#include "providerpresets.h"

#include "common/themecolors.h"

#include <ai/modelcatalog.h>
#include <ai/servedmodels.h>
#include <ai/serverprofile.h>
#include <tools/shelloverlay.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QFrame>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QSpinBox>
#include <QTabWidget>
#include <QTimer>
#include <QToolButton>
#include <QTreeWidget>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace Ui {

namespace {

// Read again once the user stops typing a base URL: every URL is an account of its own.
constexpr int keyReadDelayMs = 400;
// Ask a server for its models once the user stops typing its address or key.
constexpr int modelFetchDelayMs = 400;

constexpr ProviderKind providerKinds[] = {ProviderKind::Anthropic,
                                          ProviderKind::OpenAi,
                                          ProviderKind::OpenAiResponses,
                                          ProviderKind::OpenAiCompatible};

QLabel *sectionTitle(const QString &text, QWidget *parent)
{
    auto label = new QLabel(text, parent);
    QFont font = label->font();
    font.setBold(true);
    label->setFont(font);
    return label;
}

QFrame *separator(QWidget *parent)
{
    auto line = new QFrame(parent);
    line->setFrameShape(QFrame::HLine);
    line->setFrameShadow(QFrame::Sunken);
    return line;
}

// A section's title and the line below it.
void addSectionHeading(QVBoxLayout *page, const QString &title, QWidget *parent)
{
    page->addWidget(sectionTitle(title, parent));
    page->addWidget(separator(parent));
}

QLabel *messageLabel(const QString &objectName, QWidget *parent)
{
    auto label = new QLabel(parent);
    label->setObjectName(objectName);
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);
    label->setVisible(false);
    return label;
}

void makeSmall(QLabel *label)
{
    QFont font = label->font();
    font.setPointSizeF(font.pointSizeF() * 0.9);
    label->setFont(font);
}

// The label columns of the sections' forms line up, whatever the translation.
void alignLabelColumns(const QList<QFormLayout *> &forms)
{
    QList<QWidget *> labels;
    int width = 0;
    for (QFormLayout *form : forms) {
        for (int row = 0; form && row < form->rowCount(); ++row) {
            QLayoutItem *item = form->itemAt(row, QFormLayout::LabelRole);
            if (item && item->widget()) {
                labels.append(item->widget());
                width = std::max(width, item->widget()->sizeHint().width());
            }
        }
    }
    for (QWidget *label : std::as_const(labels))
        label->setMinimumWidth(width);
}

bool isHttpUrl(const QString &text)
{
    const QUrl url(text, QUrl::StrictMode);
    return url.isValid() && !url.host().isEmpty()
           && (url.scheme() == QLatin1String("http") || url.scheme() == QLatin1String("https"));
}

} // namespace

SettingsDialog::SettingsDialog(const AppSettings &settings, KeyStore *keyStore, QWidget *parent)
    : QDialog(parent)
    , m_initial(settings)
    , m_keyStore(keyStore)
{
    setWindowTitle(tr("AgentDesk Settings"));
    setObjectName(QStringLiteral("settingsDialog"));

    auto top = new QVBoxLayout(this);
    QVBoxLayout *general = addPages(top, settings, keyStore);
    addModelSection(general);
    QFormLayout *agentForm = addAgentSection(general);
    QFormLayout *notifyForm = addNotificationSection(general);
    QFormLayout *appearanceForm = addAppearanceSection(general);
    alignLabelColumns({qobject_cast<QFormLayout *>(m_modelFields->layout()),
                       agentForm,
                       notifyForm,
                       appearanceForm});
    general->addStretch();
    addButtons(top);
    makeTimers();

    loadSettings(settings);
    resize(std::max(540, sizeHint().width()), sizeHint().height());
}

// The tabs: General (returns its layout, the sections go in it) and MCP servers.
QVBoxLayout *SettingsDialog::addPages(QVBoxLayout *top,
                                      const AppSettings &settings,
                                      KeyStore *keyStore)
{
    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("settingsTabs"));
    // The General page scrolls: with a compatible server's notes it is taller than a laptop's
    // screen (1280x820), and squeezed its notes would overlap. fitHeight() makes the dialog as
    // tall as the page where the screen has room, so it only scrolls where it must.
    m_generalScroll = new QScrollArea(m_tabs);
    m_generalScroll->setObjectName(QStringLiteral("generalScroll"));
    m_generalScroll->setFrameShape(QFrame::NoFrame);
    m_generalScroll->setWidgetResizable(true);
    m_generalScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto general = new QWidget(m_generalScroll);
    general->setObjectName(QStringLiteral("generalPage"));
    auto layout = new QVBoxLayout(general);
    layout->setSpacing(6);
    m_generalScroll->setWidget(general);
    m_tabs->addTab(m_generalScroll, tr("&General"));
    m_mcpPage = new McpServersPage(settings.mcpServers, keyStore, m_tabs);
    m_tabs->addTab(m_mcpPage, tr("&MCP servers"));
    m_languageServersPage = new LanguageServersPage(m_tabs);
    m_tabs->addTab(m_languageServersPage, tr("&Language servers"));
    // What the session's settings files hook on the agent's events; edited in those files.
    auto hooksPage = new QWidget(m_tabs);
    auto hooksLayout = new QVBoxLayout(hooksPage);
    auto hooksIntro = new QLabel(
        tr("Commands run on the agent's events, from the settings files (yours, the "
           "repository's .agentdesk/ and .claude/). A repository's hooks run once you trusted "
           "them. Edit the files to change them; a new session reads them again."),
        hooksPage);
    hooksIntro->setWordWrap(true);
    hooksLayout->addWidget(hooksIntro);
    m_hooks = new QTreeWidget(hooksPage);
    m_hooks->setObjectName(QStringLiteral("hooks"));
    m_hooks->setRootIsDecorated(false);
    m_hooks->setHeaderLabels({tr("Event"), tr("Matcher"), tr("Command"), tr("From")});
    // The command takes the room the others leave.
    m_hooks->header()->setStretchLastSection(false);
    m_hooks->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_hooks->header()->setSectionResizeMode(2, QHeaderView::Stretch);
    hooksLayout->addWidget(m_hooks);
    m_tabs->addTab(hooksPage, tr("&Hooks"));
    top->addWidget(m_tabs);
    return layout;
}

void SettingsDialog::addModelSection(QVBoxLayout *page)
{
    buildModelSection(this);
    addSectionHeading(page, tr("Model"), this);
    m_inUseNote = new QLabel(this);
    m_inUseNote->setObjectName(QStringLiteral("modelInUseNote"));
    m_inUseNote->setWordWrap(true);
    m_inUseNote->setTextFormat(Qt::PlainText);
    m_inUseNote->setFrameShape(QFrame::StyledPanel);
    m_inUseNote->setMargin(6);
    m_inUseNote->setVisible(false);
    page->addWidget(m_inUseNote);
    page->addWidget(m_demo);
    page->addWidget(m_modelFields);
}

// Turns, compaction, the sandbox and the review of shell writes.
QFormLayout *SettingsDialog::addAgentSection(QVBoxLayout *page)
{
    buildTurnFields();
    buildSandboxFields();
    buildReadablePaths();
    buildReviewShellWrites();
    auto form = new QFormLayout;
    form->addRow(tr("Max &turns:"), m_maxTurns);
    form->addRow(QString(), m_autoCompact);
    form->addRow(tr("&Sandbox:"), m_sandbox);
    form->addRow(QString(), m_sandboxNetwork);
    form->addRow(tr("Commands allowed the net&work:"), m_networkRules);
    form->addRow(QString(), m_networkRulesProblem);
    form->addRow(tr("Also readable in the sand&box:"), m_readablePaths);
    form->addRow(QString(), m_reviewShellWrites);
    // Said where the option is: on here it changes nothing until bubblewrap is new enough.
    // Whether it can is a trial run of bwrap (once per program, then remembered): on a worker,
    // the note shows when the answer comes.
    auto note = new QLabel(this);
    note->setObjectName(QStringLiteral("reviewShellWritesNote"));
    note->setWordWrap(true);
    note->setForegroundRole(QPalette::PlaceholderText);
    note->hide();
    form->addRow(QString(), note);
    runInBackground(
        note,
        [] { return AgentCore::ShellOverlay::unsupportedReason(); }, // off the UI thread
        [note](const QString &why) {
            if (why.isEmpty())
                return;
            note->setText(tr("Not available on this system: %1. Commands write to the "
                             "repository directly.")
                              .arg(why));
            note->show();
        });
    page->addSpacing(8);
    addSectionHeading(page, tr("Agent"), this);
    page->addLayout(form);
    return form;
}

void SettingsDialog::buildTurnFields()
{
    m_maxTurns = new QSpinBox(this);
    m_maxTurns->setObjectName(QStringLiteral("maxTurnsSpin"));
    m_maxTurns->setAccessibleName(tr("Maximum turns"));
    m_maxTurns->setRange(0, 10000);
    m_maxTurns->setSpecialValueText(tr("Unlimited"));
    m_maxTurns->setToolTip(tr("The agent stops after this many model turns in one task."));
    m_autoCompact = new QCheckBox(tr("Compact the conversation &automatically"), this);
    m_autoCompact->setObjectName(QStringLiteral("autoCompactCheck"));
    m_autoCompact->setToolTip(
        tr("When the conversation nears the model's context window, or the provider refuses a "
           "request as too long, the model summarises its older part and the agent goes on. "
           "Off: only Agent > Compact Conversation does, and a conversation that no longer fits "
           "stops the task."));
}

// The sandbox's mode, its network and the commands allowed the network without it: the
// network fields are enabled only where they apply.
void SettingsDialog::buildSandboxFields()
{
    m_sandbox = new QComboBox(this);
    m_sandbox->setObjectName(QStringLiteral("sandboxCombo"));
    m_sandbox->setAccessibleName(tr("Sandbox for Bash commands"));
    m_sandbox->addItem(tr("On, where bubblewrap works"), int(AgentCore::SandboxMode::On));
    m_sandbox->addItem(tr("Required: refuse commands without it"),
                       int(AgentCore::SandboxMode::Required));
    m_sandbox->addItem(tr("Off"), int(AgentCore::SandboxMode::Off));
    m_sandbox->setToolTip(
        tr("Bash commands run in a sandbox (bubblewrap): the filesystem is read-only outside the "
           "repository, /tmp is private, and your keys (~/.ssh, ~/.gnupg, the keyring, cloud "
           "credentials, AgentDesk's settings and key file) are hidden. Where bubblewrap cannot "
           "run, commands run as they are and AgentDesk says so once; \"Required\" refuses them "
           "instead."));
    m_sandboxNetwork = new QCheckBox(tr("Allow &network in the sandbox"), this);
    m_sandboxNetwork->setObjectName(QStringLiteral("sandboxNetworkCheck"));
    m_sandboxNetwork->setToolTip(
        tr("Off: sandboxed commands cannot reach the network, not even servers on this "
           "computer (npm install, git fetch and curl fail)."));
    buildNetworkRules();
    const auto updateNetwork = [this] {
        const bool sandboxed = m_sandbox->currentData().toInt() != int(AgentCore::SandboxMode::Off);
        m_sandboxNetwork->setEnabled(sandboxed);
        m_networkRules->setEnabled(sandboxed && !m_sandboxNetwork->isChecked());
        m_readablePaths->setEnabled(sandboxed);
    };
    connect(m_sandbox, &QComboBox::currentIndexChanged, this, updateNetwork);
    connect(m_sandboxNetwork, &QCheckBox::toggled, this, updateNetwork);
}

// The rules' field, and below it the lines that are no Bash rule.
void SettingsDialog::buildNetworkRules()
{
    m_networkRules = new QPlainTextEdit(this);
    m_networkRules->setObjectName(QStringLiteral("sandboxNetworkRules"));
    m_networkRules->setAccessibleName(tr("Commands allowed the network"));
    m_networkRules->setPlaceholderText(tr("Bash(npm install:*)\nBash(pip install:*)"));
    m_networkRules->setTabChangesFocus(true);
    m_networkRules->setFixedHeight(m_networkRules->fontMetrics().lineSpacing() * 4
                                   + 2 * m_networkRules->frameWidth() + 8);
    m_networkRules->setToolTip(
        tr("With the network off, these commands get it anyway: one rule a line, as in the "
           "permission rules (Bash(npm install:*) is npm install with any arguments). A command "
           "gets the network only when each of its parts that is not read-only matches a "
           "rule. Rules may also be in the \"network\" list of settings.json's "
           "\"permissions\". Only you add them; the agent cannot."));
    m_networkRulesProblem = new QLabel(this);
    m_networkRulesProblem->setObjectName(QStringLiteral("sandboxNetworkRulesProblem"));
    m_networkRulesProblem->setWordWrap(true);
    m_networkRulesProblem->hide();
    connect(m_networkRules, &QPlainTextEdit::textChanged, this, [this] {
        QStringList invalid;
        AppSettings::parseNetworkRules(m_networkRules->toPlainText().split(QLatin1Char('\n')),
                                       &invalid);
        m_networkRulesProblem->setText(
            invalid.isEmpty()
                ? QString()
                : tr("Not a Bash rule, ignored: %1").arg(invalid.join(QStringLiteral(", "))));
        m_networkRulesProblem->setVisible(!invalid.isEmpty());
    });
}

void SettingsDialog::buildReadablePaths()
{
    m_readablePaths = new QPlainTextEdit(this);
    m_readablePaths->setObjectName(QStringLiteral("sandboxReadablePaths"));
    m_readablePaths->setAccessibleName(tr("Also readable in the sandbox"));
    m_readablePaths->setPlaceholderText(tr("~/.config/mytool\n~/shared/data"));
    m_readablePaths->setTabChangesFocus(true);
    m_readablePaths->setFixedHeight(m_readablePaths->fontMetrics().lineSpacing() * 3
                                    + 2 * m_readablePaths->frameWidth() + 8);
    m_readablePaths->setToolTip(
        tr("In the sandbox your home folder is hidden except git's configuration, the "
           "toolchains and their caches (~/.cargo, ~/.npm, ~/.pyenv, ~/go, ...), the "
           "repository and its additional directories. Paths listed here, one a line, are "
           "shown too, read-only; your keys stay hidden inside them. Also \"sandboxReadable\" "
           "in settings.json's \"permissions\"."));
}

void SettingsDialog::buildReviewShellWrites()
{
    m_reviewShellWrites = new QCheckBox(tr("&Review what shell commands write"), this);
    m_reviewShellWrites->setObjectName(QStringLiteral("reviewShellWritesCheck"));
    m_reviewShellWrites->setToolTip(
        tr("In the default permission mode a command that is not read-only runs on a copy of "
           "the repository; its changes open as a review like an edit's and only what you "
           "accept is written. Needs bubblewrap 0.9 or newer."));
}

QFormLayout *SettingsDialog::addNotificationSection(QVBoxLayout *page)
{
    m_notifyApprovals = new QCheckBox(tr("When a session waits for an appr&oval"), this);
    m_notifyApprovals->setObjectName(QStringLiteral("notifyApprovalsCheck"));
    m_notifyFinished = new QCheckBox(tr("When a task &finishes or fails"), this);
    m_notifyFinished->setObjectName(QStringLiteral("notifyFinishedCheck"));
    for (QCheckBox *check : {m_notifyApprovals, m_notifyFinished}) {
        check->setToolTip(tr("A desktop notification, and the window's taskbar entry asks for "
                             "attention, only while the AgentDesk window is not active. Click "
                             "the notification to go to the session."));
    }
    auto form = new QFormLayout;
    form->addRow(tr("Notify:"), m_notifyApprovals);
    form->addRow(QString(), m_notifyFinished);
    page->addSpacing(8);
    addSectionHeading(page, tr("Notifications"), this);
    page->addLayout(form);
    return form;
}

// The theme, and the language (which applies at the next start: a note says so).
QFormLayout *SettingsDialog::addAppearanceSection(QVBoxLayout *page)
{
    m_theme = new QComboBox(this);
    m_theme->setObjectName(QStringLiteral("themeCombo"));
    m_theme->setAccessibleName(tr("Theme"));
    m_theme->addItem(tr("System"), int(Theme::System));
    m_theme->addItem(tr("Light"), int(Theme::Light));
    m_theme->addItem(tr("Dark"), int(Theme::Dark));
    m_language = new QComboBox(this);
    m_language->setObjectName(QStringLiteral("languageCombo"));
    m_language->setAccessibleName(tr("Language"));
    m_language->addItem(tr("System default"), QString());
    for (const Translations::Language &language : Translations::available())
        m_language->addItem(language.nativeName, language.code);
    m_language->setToolTip(Translations::restartNote());
    m_languageNote = new QLabel(Translations::restartNote(), this);
    m_languageNote->setObjectName(QStringLiteral("languageNote"));
    m_languageNote->setWordWrap(true);
    m_languageNote->setForegroundRole(QPalette::PlaceholderText);
    m_languageNote->setVisible(false);
    connect(m_language, &QComboBox::currentIndexChanged, this, [this] {
        m_languageNote->setVisible(m_language->currentData().toString() != m_initial.language);
        m_fitHeight->start();
    });
    auto form = new QFormLayout;
    form->addRow(tr("Th&eme:"), m_theme);
    form->addRow(tr("&Language:"), m_language);
    form->addRow(QString(), m_languageNote);
    page->addSpacing(8);
    addSectionHeading(page, tr("Appearance"), this);
    page->addLayout(form);
    return form;
}

void SettingsDialog::addButtons(QVBoxLayout *top)
{
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &SettingsDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &SettingsDialog::reject);
    top->addSpacing(4);
    top->addWidget(m_buttons);
}

// The height fitted after a change, the served models asked for and the stored key read once
// the user stops typing.
void SettingsDialog::makeTimers()
{
    m_fitHeight = new QTimer(this);
    m_fitHeight->setSingleShot(true);
    m_fitHeight->setInterval(0);
    connect(m_fitHeight, &QTimer::timeout, this, &SettingsDialog::fitHeight);

    m_servedModels = new AgentCore::ServedModels(this);
    connect(m_servedModels,
            &AgentCore::ServedModels::finished,
            this,
            &SettingsDialog::servedModelsArrived);
    m_modelFetchDelay = new QTimer(this);
    m_modelFetchDelay->setSingleShot(true);
    m_modelFetchDelay->setInterval(modelFetchDelayMs);
    connect(m_modelFetchDelay, &QTimer::timeout, this, &SettingsDialog::fetchServedModels);

    m_keyReadDelay = new QTimer(this);
    m_keyReadDelay->setSingleShot(true);
    m_keyReadDelay->setInterval(keyReadDelayMs);
    connect(m_keyReadDelay, &QTimer::timeout, this, &SettingsDialog::readStoredKey);
    if (m_keyStore)
        connect(m_keyStore, &KeyStore::locationChanged, this, &SettingsDialog::updateKeyNote);
}

SettingsDialog::~SettingsDialog() = default;

void SettingsDialog::setMcpServers(McpServers *servers)
{
    m_mcpPage->setServers(servers);
}

void SettingsDialog::showMcpServers()
{
    m_tabs->setCurrentWidget(m_mcpPage);
}

void SettingsDialog::buildModelSection(QWidget *page)
{
    m_demo = new QCheckBox(tr("Use the offline &demo (no model; nothing leaves this computer)"),
                           page);
    m_demo->setObjectName(QStringLiteral("demoCheck"));

    m_modelFields = new QWidget(page);
    // Extra height goes below the sections, not between the rows.
    m_modelFields->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    auto form = new QFormLayout(m_modelFields);
    form->setContentsMargins(0, 0, 0, 0);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);

    m_provider = new QComboBox(m_modelFields);
    m_provider->setObjectName(QStringLiteral("providerCombo"));
    m_provider->setAccessibleName(tr("Provider"));
    for (const ProviderKind kind : providerKinds)
        m_provider->addItem(providerKindName(kind), int(kind));
    form->addRow(tr("&Provider:"), m_provider);

    form->addRow(tr("Base &URL:"), buildBaseUrlRow());

    m_serverProfile = new QComboBox(m_modelFields);
    m_serverProfile->setObjectName(QStringLiteral("serverProfileCombo"));
    m_serverProfile->setAccessibleName(tr("Server profile"));
    m_serverProfile->addItem(tr("Automatic"), -1);
    for (const AgentCore::ServerProfile::Id id : AgentCore::ServerProfile::all())
        m_serverProfile->addItem(AgentCore::ServerProfile::displayName(id), int(id));
    m_serverProfile->setToolTip(
        tr("Which server this is: the request fields it takes and how the model's reasoning "
           "goes back to it. Automatic: from the base URL or the server's model list; an "
           "unknown server gets the conservative profile, which sends no optional field."));
    m_serverProfileNote = messageLabel(QStringLiteral("serverProfileNote"), m_modelFields);
    m_serverProfileNote->setForegroundRole(QPalette::PlaceholderText);
    makeSmall(m_serverProfileNote);
    m_serverProfileBox = withMessage(m_serverProfile, m_serverProfileNote);
    form->addRow(tr("Server p&rofile:"), m_serverProfileBox);
    m_modelForm = form;
    connect(m_serverProfile,
            &QComboBox::currentIndexChanged,
            this,
            &SettingsDialog::updateServerProfile);

    m_model = new QComboBox(m_modelFields);
    m_model->setObjectName(QStringLiteral("modelCombo"));
    m_model->setAccessibleName(tr("Model"));
    m_model->setEditable(true);
    m_model->setInsertPolicy(QComboBox::NoInsert);
    m_modelMessage = messageLabel(QStringLiteral("modelMessage"), m_modelFields);
    m_modelNote = messageLabel(QStringLiteral("modelNote"), m_modelFields);
    m_modelNote->setForegroundRole(QPalette::PlaceholderText);
    makeSmall(m_modelNote);
    QWidget *modelBox = withMessage(m_model, m_modelMessage);
    modelBox->layout()->addWidget(m_modelNote);
    form->addRow(tr("&Model:"), modelBox);

    m_contextWindow = new QLineEdit(m_modelFields);
    m_contextWindow->setObjectName(QStringLiteral("contextWindowEdit"));
    m_contextWindow->setAccessibleName(tr("Context window"));
    m_contextWindow->setToolTip(tr("How many tokens the model takes in one request, input and "
                                   "output together: the window the server was started with "
                                   "(Ollama's num_ctx, llama.cpp's --ctx-size)."));
    m_contextWindowMessage = messageLabel(QStringLiteral("contextWindowMessage"), m_modelFields);
    m_contextWindowNote = messageLabel(QStringLiteral("contextWindowNote"), m_modelFields);
    m_contextWindowNote->setForegroundRole(QPalette::PlaceholderText);
    makeSmall(m_contextWindowNote);
    QWidget *windowBox = withMessage(m_contextWindow, m_contextWindowMessage);
    windowBox->layout()->addWidget(m_contextWindowNote);
    form->addRow(tr("Context &window:"), windowBox);
    connect(m_contextWindow, &QLineEdit::textEdited, this, &SettingsDialog::contextWindowEdited);

    form->addRow(tr("API &key:"), buildKeyRow());

    m_thinking = new QComboBox(m_modelFields);
    m_thinking->setObjectName(QStringLiteral("thinkingCombo"));
    m_thinking->setAccessibleName(tr("Thinking"));
    for (const ThinkingLevel level :
         {ThinkingLevel::Off, ThinkingLevel::Low, ThinkingLevel::Medium, ThinkingLevel::High}) {
        m_thinking->addItem(thinkingLevelName(level), int(level));
    }
    m_thinking->setToolTip(tr("How long the model may reason before it answers. More thinking "
                              "is slower and costs more tokens."));
    form->addRow(tr("T&hinking:"), m_thinking);

    connect(m_demo, &QCheckBox::toggled, this, [this](bool demo) {
        m_modelFields->setEnabled(!demo);
        validate();
    });
    connect(m_provider, &QComboBox::currentIndexChanged, this, &SettingsDialog::providerChanged);
    connect(m_model, &QComboBox::currentTextChanged, this, [this] {
        updateContextWindow();
        validate();
    });
}

QWidget *SettingsDialog::buildBaseUrlRow()
{
    m_baseUrl = new QLineEdit(m_modelFields);
    m_baseUrl->setObjectName(QStringLiteral("baseUrlEdit"));
    m_baseUrl->setAccessibleName(tr("Base URL"));
    m_baseUrl->setClearButtonEnabled(true);
    m_presets = new QPushButton(m_modelFields);
    m_presets->setObjectName(QStringLiteral("baseUrlPresets"));
    m_presets->setText(tr("Servers"));
    m_presets->setToolTip(tr("Fill in the address of a well-known server"));
    auto presetMenu = new QMenu(m_presets);
    const QList<ServerPreset> presets = serverPresets();
    for (const ServerPreset &preset : presets) {
        QAction *action = presetMenu->addAction(tr("%1 \u2014 %2").arg(preset.name, preset.baseUrl));
        connect(action, &QAction::triggered, this, [this, preset] {
            m_baseUrl->setText(preset.baseUrl);
            updateModelSuggestions();
            if (!preset.models.isEmpty())
                m_model->setCurrentText(preset.models.first());
            updateServerProfile();
            accountMayHaveChanged();
            scheduleModelFetch();
        });
    }
    m_presets->setMenu(presetMenu);
    auto row = new QWidget(m_modelFields);
    auto layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_baseUrl, 1);
    layout->addWidget(m_presets);
    row->setFocusProxy(m_baseUrl);
    m_baseUrlMessage = messageLabel(QStringLiteral("baseUrlMessage"), m_modelFields);

    connect(m_baseUrl, &QLineEdit::textEdited, this, [this] {
        updateModelSuggestions();
        updateContextWindow();
        validate();
        updateKeyNote();
        updateServerProfile();
        m_keyReadDelay->start();
        scheduleModelFetch();
    });
    return withMessage(row, m_baseUrlMessage);
}

QWidget *SettingsDialog::buildKeyRow()
{
    m_key = new QLineEdit(m_modelFields);
    m_key->setObjectName(QStringLiteral("apiKeyEdit"));
    m_key->setAccessibleName(tr("API key"));
    m_key->setEchoMode(QLineEdit::Password);
    m_key->setInputMethodHints(Qt::ImhHiddenText | Qt::ImhSensitiveData | Qt::ImhNoPredictiveText);
    m_showKey = new QToolButton(m_modelFields);
    m_showKey->setObjectName(QStringLiteral("showKeyButton"));
    m_showKey->setText(tr("Show"));
    m_showKey->setCheckable(true);
    m_showKey->setToolTip(tr("Show the key"));
    connect(m_showKey, &QToolButton::toggled, this, [this](bool shown) {
        m_key->setEchoMode(shown ? QLineEdit::Normal : QLineEdit::Password);
        m_showKey->setText(shown ? tr("Hide") : tr("Show"));
    });
    auto row = new QWidget(m_modelFields);
    auto layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_key, 1);
    layout->addWidget(m_showKey);
    row->setFocusProxy(m_key);

    m_keyNote = messageLabel(QStringLiteral("keyNote"), m_modelFields);
    m_keyNote->setForegroundRole(QPalette::PlaceholderText);
    makeSmall(m_keyNote);
    m_keyMessage = messageLabel(QStringLiteral("keyMessage"), m_modelFields);
    QWidget *box = withMessage(row, m_keyMessage);
    box->layout()->addWidget(m_keyNote);

    connect(m_key, &QLineEdit::textEdited, this, [this] {
        m_keyEdited = true;
        validate();
        updateKeyNote();
        scheduleModelFetch();
    });
    return box;
}

QWidget *SettingsDialog::withMessage(QWidget *field, QLabel *message)
{
    auto box = new QWidget(field->parentWidget());
    auto layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(field);
    layout->addWidget(message);
    box->setFocusProxy(field);
    return box;
}

void SettingsDialog::loadSettings(const AppSettings &settings)
{
    m_languageServersPage->load(settings);
    const ModelSelection selection = settings.model.value_or(
        settings.recentModels.value(0,
                                    ModelSelection{ProviderKind::Anthropic,
                                                   {},
                                                   suggestedModels(ProviderKind::Anthropic).value(0),
                                                   ThinkingLevel::Off}));
    m_demo->setChecked(!settings.model);
    m_modelFields->setEnabled(settings.model.has_value());
    {
        const QSignalBlocker blocker(m_provider);
        m_provider->setCurrentIndex(m_provider->findData(int(selection.provider)));
    }
    m_shownProvider = selection.provider;
    m_baseUrl->setText(selection.baseUrl);
    m_servedOwnedBy = selection.servedOwnedBy;
    m_ownedByUrl = selection.baseUrl.trimmed();
    m_serverProfile->setCurrentIndex(
        std::max(0,
                 m_serverProfile->findData(selection.serverProfile ? int(*selection.serverProfile)
                                                                   : -1)));
    updateModelSuggestions();
    m_model->setCurrentText(selection.model);
    m_thinking->setCurrentIndex(m_thinking->findData(int(selection.thinking)));
    m_maxTurns->setValue(settings.maxTurns);
    m_autoCompact->setChecked(settings.autoCompact);
    m_sandbox->setCurrentIndex(m_sandbox->findData(int(settings.sandboxMode)));
    m_sandboxNetwork->setChecked(settings.sandboxNetwork);
    m_sandboxNetwork->setEnabled(settings.sandboxMode != AgentCore::SandboxMode::Off);
    m_networkRules->setPlainText(settings.sandboxNetworkRules.join(QLatin1Char('\n')));
    m_networkRules->setEnabled(settings.sandboxMode != AgentCore::SandboxMode::Off
                               && !settings.sandboxNetwork);
    m_readablePaths->setPlainText(settings.sandboxReadablePaths.join(QLatin1Char('\n')));
    m_readablePaths->setEnabled(settings.sandboxMode != AgentCore::SandboxMode::Off);
    m_reviewShellWrites->setChecked(settings.reviewShellWrites);
    m_notifyApprovals->setChecked(settings.notifyApprovals);
    m_notifyFinished->setChecked(settings.notifyFinished);
    m_theme->setCurrentIndex(m_theme->findData(int(settings.theme)));
    m_language->setCurrentIndex(std::max(0, m_language->findData(settings.language)));
    m_contextWindows = settings.contextWindows;
    providerChanged();
    updateContextWindow();
    m_loadedModel = settings.model ? std::optional(currentSelection()) : std::nullopt;
}

void SettingsDialog::setModelInUse(const std::optional<ModelSelection> &inUse, const QString &reason)
{
    AppSettings shown = m_initial;
    shown.model = inUse;
    loadSettings(shown);
    setMessage(m_inUseNote, reason);
}

bool SettingsDialog::modelChanged() const
{
    if (m_demo->isChecked())
        return m_loadedModel.has_value();
    if (!m_loadedModel)
        return true;
    // What the server's list said of it since is no change of the user's.
    ModelSelection loaded = *m_loadedModel;
    loaded.servedOwnedBy = currentSelection().servedOwnedBy;
    return currentSelection() != loaded;
}

ModelSelection SettingsDialog::currentSelection() const
{
    ModelSelection selection;
    selection.provider = ProviderKind(m_provider->currentData().toInt());
    selection.baseUrl = m_baseUrl->text().trimmed();
    selection.model = m_model->currentText().trimmed();
    selection.thinking = ThinkingLevel(m_thinking->currentData().toInt());
    if (selection.provider == ProviderKind::OpenAiCompatible) {
        const int profile = m_serverProfile->currentData().toInt();
        if (profile >= 0)
            selection.serverProfile = AgentCore::ServerProfile::Id(profile);
        if (m_ownedByUrl == selection.baseUrl)
            selection.servedOwnedBy = m_servedOwnedBy;
    }
    return selection;
}

AppSettings SettingsDialog::settings() const
{
    AppSettings result = m_initial;
    result.mcpServers = m_mcpPage->userServers();
    m_languageServersPage->store(result);
    if (!modelChanged()) {
        // The fields still show the model in use: the saved default stays what it was (a
        // model given on the command line is not made the default by a visit here).
    } else if (m_demo->isChecked()) {
        result.model.reset();
    } else {
        result.model = currentSelection();
        result.rememberModel(*result.model);
    }
    result.contextWindows = m_contextWindows;
    result.maxTurns = m_maxTurns->value();
    result.autoCompact = m_autoCompact->isChecked();
    result.sandboxMode = AgentCore::SandboxMode(m_sandbox->currentData().toInt());
    result.sandboxNetwork = m_sandboxNetwork->isChecked();
    result.sandboxNetworkRules.clear();
    for (const QString &line : m_networkRules->toPlainText().split(QLatin1Char('\n'))) {
        if (!line.trimmed().isEmpty())
            result.sandboxNetworkRules.append(line.trimmed());
    }
    result.sandboxReadablePaths.clear();
    for (const QString &line : m_readablePaths->toPlainText().split(QLatin1Char('\n'))) {
        if (!line.trimmed().isEmpty())
            result.sandboxReadablePaths.append(line.trimmed());
    }
    result.reviewShellWrites = m_reviewShellWrites->isChecked();
    result.notifyApprovals = m_notifyApprovals->isChecked();
    result.notifyFinished = m_notifyFinished->isChecked();
    result.theme = Theme(m_theme->currentData().toInt());
    result.language = m_language->currentData().toString();
    return result;
}

void SettingsDialog::providerChanged()
{
    const ProviderKind previous = m_shownProvider;
    const ProviderKind provider = ProviderKind(m_provider->currentData().toInt());
    m_shownProvider = provider;
    const bool compatible = provider == ProviderKind::OpenAiCompatible;
    m_presets->setVisible(compatible);
    if (compatible) {
        m_baseUrl->setPlaceholderText(tr("e.g. http://localhost:11434/v1 (Ollama)"));
        m_baseUrl->setToolTip(tr("The server's API root, ending in /v1 for most servers."));
    } else {
        m_baseUrl->setPlaceholderText(tr("%1 (default)").arg(defaultBaseUrl(provider)));
        m_baseUrl->setToolTip(tr("Optional: a proxy or gateway instead of the provider's own "
                                 "address."));
    }
    // A model name of the previous provider means nothing to this one.
    const QString model = m_model->currentText().trimmed();
    const bool keepModel = previous == provider
                           || (!model.isEmpty()
                               && !suggestedModels(previous, m_baseUrl->text()).contains(model));
    updateModelSuggestions();
    if (!keepModel)
        m_model->setCurrentText(compatible ? QString() : suggestedModels(provider).value(0));
    validate();
    updateKeyNote();
    updateServerProfile();
    accountMayHaveChanged();
    scheduleModelFetch();
}

void SettingsDialog::updateModelSuggestions()
{
    const QString text = m_model->currentText();
    const QSignalBlocker blocker(m_model);
    const ProviderKind provider = ProviderKind(m_provider->currentData().toInt());
    const bool served = provider == ProviderKind::OpenAiCompatible
                        && m_servedUrl == m_baseUrl->text().trimmed();
    m_model->clear();
    m_model->addItems(served ? m_served : suggestedModels(provider, m_baseUrl->text()));
    // The entry of the text current, so that Up and Down move from it in the list.
    m_model->setCurrentIndex(m_model->findText(text));
    m_model->setEditText(text);
    if (m_model->lineEdit()) {
        m_model->lineEdit()->setPlaceholderText(
            m_provider->currentData().toInt() == int(ProviderKind::OpenAiCompatible)
                ? tr("the name the server knows, e.g. qwen3-coder")
                : QString());
    }
}

void SettingsDialog::scheduleModelFetch()
{
    const QString url = m_baseUrl->text().trimmed();
    if (ProviderKind(m_provider->currentData().toInt()) != ProviderKind::OpenAiCompatible
        || !isHttpUrl(url)) {
        m_modelFetchDelay->stop();
        m_servedModels->cancel();
        m_servedFor.clear();
        setMessage(m_modelNote, {});
        return;
    }
    m_modelFetchDelay->start();
}

void SettingsDialog::fetchServedModels()
{
    const QString url = m_baseUrl->text().trimmed();
    const QString key = m_key->text().trimmed();
    // Asked again only for another server or another key (a 401 may have been about the key).
    const QString request = url + u'\n' + key;
    if (ProviderKind(m_provider->currentData().toInt()) != ProviderKind::OpenAiCompatible
        || !isHttpUrl(url) || request == m_servedFor) {
        return;
    }
    m_servedFor = request;
    setMessage(m_modelNote, tr("Asking the server for its models\u2026"));
    m_servedModels->fetch(QUrl(url), key);
}

void SettingsDialog::servedModelsArrived(const AgentCore::ServedModelsResult &result)
{
    const QString url = result.baseUrl.toString();
    if (url != m_baseUrl->text().trimmed())
        return; // the user has moved on to another server
    if (!result.succeeded()) {
        setMessage(m_modelNote,
                   tr("The server's models could not be listed: %1 Type the model's name as "
                      "the server knows it.")
                       .arg(result.error));
        return;
    }
    m_served = result.models;
    m_servedUrl = url;
    m_servedOwnedBy = result.ownedBy;
    m_ownedByUrl = url;
    updateServerProfile();
    updateModelSuggestions();
    if (m_model->currentText().trimmed().isEmpty() && !m_served.isEmpty())
        m_model->setCurrentText(m_served.first());
    setMessage(m_modelNote,
               m_served.isEmpty() ? tr("The server lists no models: type the model's name.")
                                  : QString());
}

void SettingsDialog::updateServerProfile()
{
    const ModelSelection selection = currentSelection();
    const bool compatible = selection.provider == ProviderKind::OpenAiCompatible;
    m_modelForm->setRowVisible(m_serverProfileBox, compatible);
    if (!compatible)
        return;
    const AgentCore::ServerProfileChoice choice = selection.serverProfileChoice();
    setMessage(m_serverProfileNote,
               tr("In use: %1, %2.")
                   .arg(AgentCore::ServerProfile::displayName(choice.id), choice.reason()));
}

void SettingsDialog::updateKeyNote()
{
    const ModelSelection selection = currentSelection();
    const QString variable = selection.keyVariable();
    QString note;
    if (!selection.needsKey()) {
        note = tr("Not needed for a server on this computer or network.");
    } else if (m_key->text().isEmpty() && !variable.isEmpty()
               && !qEnvironmentVariableIsEmpty(variable.toLatin1().constData())) {
        note = tr("%1 is set in the environment: it will be used.").arg(variable);
    } else if (m_keyStore) {
        note = m_keyStore->locationText();
    }
    setMessage(m_keyNote, note);
}

void SettingsDialog::updateContextWindow()
{
    const ModelSelection selection = currentSelection();
    const AgentCore::ProviderConfig config = selection.providerConfig({});
    const std::optional<qint64> known = selection.model.isEmpty()
                                            ? std::nullopt
                                            : AgentCore::contextWindowTokens(config.provider,
                                                                             config.model);
    const QLocale locale;
    if (known) {
        // The catalog's figure is the model's: nothing to give.
        m_contextWindow->setEnabled(false);
        m_contextWindow->clear();
        m_contextWindow->setPlaceholderText(tr("%1 tokens").arg(locale.toString(*known)));
        setMessage(m_contextWindowNote, tr("Known for this model."));
    } else {
        m_contextWindow->setEnabled(true);
        const auto it = m_contextWindows.constFind(AppSettings::contextWindowKey(selection));
        m_contextWindow->setText(it == m_contextWindows.cend() ? QString() : locale.toString(*it));
        m_contextWindow->setPlaceholderText(tr("unknown, e.g. 32768 or 32k"));
        setMessage(m_contextWindowNote,
                   tr("Not known for this model: give the window the server was started with, "
                      "so the status bar can tell how full the context is."));
    }
}

void SettingsDialog::contextWindowEdited()
{
    const QString key = AppSettings::contextWindowKey(currentSelection());
    QString error;
    const std::optional<qint64> tokens = typedContextWindow(&error);
    // What the field holds, nothing else: emptied, the window is unknown again; while it
    // holds no valid window, OK refuses (validate()).
    if (tokens)
        m_contextWindows.insert(key, *tokens);
    else
        m_contextWindows.remove(key);
    validate();
}

std::optional<qint64> SettingsDialog::typedContextWindow(QString *error) const
{
    error->clear();
    if (!m_contextWindow->isEnabled())
        return std::nullopt;
    QString text = m_contextWindow->text().trimmed();
    if (text.isEmpty())
        return std::nullopt;
    // "32768", "32,768", "32 768", "32k", "1M", "1.5M": as people write a window.
    double factor = 1;
    if (text.endsWith(u'k', Qt::CaseInsensitive))
        factor = 1e3;
    else if (text.endsWith(u'm', Qt::CaseInsensitive))
        factor = 1e6;
    if (factor != 1)
        text.chop(1);
    const QLocale locale;
    text.remove(locale.groupSeparator());
    text.remove(u' ');
    text.remove(u'\u00a0');
    text.remove(u'_');
    bool ok = false;
    double value = locale.toDouble(text, &ok);
    if (!ok)
        value = QLocale::c().toDouble(text, &ok);
    const QString range = tr("from %1 to %2 tokens")
                              .arg(locale.toString(AppSettings::minContextWindow),
                                   locale.toString(AppSettings::maxContextWindow));
    if (!ok || !std::isfinite(value)) {
        *error = tr("Enter the window as a number of tokens, such as 32768 or 32k (%1).").arg(range);
        return std::nullopt;
    }
    const double tokens = value * factor;
    if (tokens <= 0) {
        *error = tr("A window must hold some tokens: enter one %1.").arg(range);
        return std::nullopt;
    }
    if (tokens < AppSettings::minContextWindow) {
        *error = tr("%1 tokens leave no room for the system prompt and the tools: enter a "
                    "window %2.")
                     .arg(locale.toString(qint64(tokens)), range);
        return std::nullopt;
    }
    if (tokens > AppSettings::maxContextWindow) {
        *error = tr("No model takes %1 tokens: enter a window %2.")
                     .arg(locale.toString(tokens, 'g', 3), range);
        return std::nullopt;
    }
    return qint64(std::llround(tokens));
}

void SettingsDialog::accountMayHaveChanged()
{
    m_keyReadDelay->stop();
    readStoredKey();
}

void SettingsDialog::readStoredKey()
{
    const QString account = currentSelection().keyAccount();
    if (!m_keyStore || account == m_loadedAccount)
        return;
    const int serial = ++m_keyRead;
    // Until the answer comes, show no key rather than the previous account's.
    if (!m_keyEdited)
        m_key->clear();
    m_keyStore->readKey(account, this, [this, serial, account](const KeyResult &result) {
        if (serial != m_keyRead)
            return;
        m_loadedAccount = account;
        m_keyReadError = result.error;
        if (result.succeeded() && !m_keyEdited)
            m_key->setText(result.key);
        validate();
        updateKeyNote();
        scheduleModelFetch(); // the server may list its models only to its key
    });
}

QWidget *SettingsDialog::validate()
{
    QWidget *firstWrong = nullptr;
    const auto check = [&](QLabel *message, QWidget *field, const QString &error) {
        if (!error.isEmpty() && !firstWrong)
            firstWrong = field;
        if (m_showErrors || error.isEmpty())
            setMessage(message, error);
    };
    if (m_demo->isChecked()) {
        for (QLabel *message :
             {m_baseUrlMessage, m_modelMessage, m_contextWindowMessage, m_keyMessage})
            setMessage(message, {});
        return nullptr;
    }
    const ModelSelection selection = currentSelection();
    const bool compatible = selection.provider == ProviderKind::OpenAiCompatible;

    QString urlError;
    if (compatible && selection.baseUrl.isEmpty()) {
        urlError = tr("Enter the server's address, or pick one under Servers.");
    } else if (!selection.baseUrl.isEmpty() && !isHttpUrl(selection.baseUrl)) {
        urlError = tr("Enter an http or https URL, such as http://localhost:8080/v1.");
    }
    check(m_baseUrlMessage, m_baseUrl, urlError);

    check(m_modelMessage,
          m_model,
          selection.model.isEmpty() ? tr("Enter the model's name as the provider knows it.")
                                    : QString());

    QString windowError;
    typedContextWindow(&windowError);
    check(m_contextWindowMessage, m_contextWindow, windowError);

    QString keyError;
    const QString variable = selection.keyVariable();
    const bool fromEnvironment = !variable.isEmpty()
                                 && !qEnvironmentVariableIsEmpty(variable.toLatin1().constData());
    if (urlError.isEmpty() && selection.needsKey() && m_key->text().trimmed().isEmpty()
        && !fromEnvironment) {
        keyError = variable.isEmpty()
                       ? tr("Enter the API key of this server.")
                       : tr("Enter your API key, or set %1 in the environment.").arg(variable);
    }
    if (!keyError.isEmpty() && !firstWrong)
        firstWrong = m_key;
    // The stored key could not be read (a key file others can read): say so until the user
    // types a key to replace it.
    if (keyError.isEmpty() || !m_showErrors)
        keyError = m_keyEdited ? QString() : m_keyReadError;
    setMessage(m_keyMessage, keyError);
    return firstWrong;
}

void SettingsDialog::setMessage(QLabel *label, const QString &text)
{
    if (label->text() == text)
        return;
    label->setText(text);
    label->setVisible(!text.isEmpty());
    if (label != m_keyNote && label != m_modelNote && label != m_inUseNote
        && label != m_contextWindowNote) {
        // Red that reads on the window colour of either theme.
        QPalette palette = label->palette();
        palette.setColor(QPalette::WindowText, ThemeColors::of(palette).error);
        label->setPalette(palette);
    }
    if (isVisible())
        m_fitHeight->start();
}

void SettingsDialog::showEvent(QShowEvent *event)
{
    QDialog::showEvent(event);
    // A top-level size hint ignores height for width: wrapped notes set before showing (the
    // key's location) get their room once the dialog has its width.
    m_fitHeight->start();
}

void SettingsDialog::fitHeight()
{
    // Messages come and go: grow for wrapped ones (a top-level layout does not ask for height
    // for width) and shrink back when they are gone, once the layouts have caught up.
    QLayout *top = layout();
    // Nested layouts cache their height for width; a new note must be measured again.
    const QList<QLayout *> layouts = findChildren<QLayout *>();
    for (QLayout *nested : layouts)
        nested->invalidate();
    top->invalidate();
    top->activate();
    int needed = top->hasHeightForWidth() ? top->totalHeightForWidth(width())
                                          : top->totalSizeHint().height();
    // The scrolling General page counts with its whole height, as far as the screen has room.
    const QWidget *page = m_generalScroll->widget();
    const int pageWidth = m_generalScroll->viewport()->width();
    const int pageHeight = page->hasHeightForWidth() ? page->heightForWidth(pageWidth)
                                                     : page->sizeHint().height();
    needed = std::max(needed, height() - m_generalScroll->viewport()->height() + pageHeight);
    if (const QScreen *where = screen()) {
        const int frame = std::max(0, frameGeometry().height() - geometry().height());
        needed = std::min(needed, where->availableGeometry().height() - frame);
    }
    if (needed > 0 && needed != height())
        resize(width(), needed);
}

void SettingsDialog::accept()
{
    if (m_saving)
        return;
    m_showErrors = true;
    if (QWidget *wrong = validate()) {
        m_tabs->setCurrentIndex(0);
        wrong->setFocus();
        return;
    }
    if (!m_mcpPage->userServersError().isEmpty()) {
        showMcpServers(); // the error is shown below the text
        return;
    }
    if (m_demo->isChecked() || !m_keyEdited) {
        QDialog::accept();
        return;
    }
    writeKeyAndAccept(currentSelection());
}

void SettingsDialog::writeKeyAndAccept(const ModelSelection &selection)
{
    if (!m_keyStore) {
        setMessage(m_keyMessage, tr("No key store is available: the key cannot be saved."));
        return;
    }
    setBusy(true);
    const QString account = selection.keyAccount();
    m_keyStore->writeKey(account,
                         m_key->text().trimmed(),
                         this,
                         [this, account](const KeyResult &result) {
                             setBusy(false);
                             if (!result.succeeded()) {
                                 setMessage(m_keyMessage,
                                            tr("The key was not saved: %1").arg(result.error));
                                 m_key->setFocus();
                                 return;
                             }
                             m_loadedAccount = account;
                             m_keyEdited = false;
                             QDialog::accept();
                         });
}

void SettingsDialog::setBusy(bool busy)
{
    m_saving = busy;
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(!busy);
    m_modelFields->setEnabled(!busy && !m_demo->isChecked());
    m_demo->setEnabled(!busy);
    if (busy)
        setMessage(m_keyNote, tr("Saving the key\u2026"));
    else
        updateKeyNote();
}

void SettingsDialog::setHooks(const QList<AgentCore::HookEntry> &hooks, const QStringList &untrusted)
{
    m_hooks->clear();
    for (const AgentCore::HookEntry &hook : hooks) {
        // The file by its folder and name (".agentdesk/settings.json"), the whole path in the
        // tooltip: the command needs the row's room.
        const QFileInfo file(hook.file);
        QString from = QStringLiteral("%1: %2").arg(hook.sourceLabel,
                                                    QDir::toNativeSeparators(file.dir().dirName()
                                                                             + QLatin1Char('/')
                                                                             + file.fileName()));
        QString fromPath = QDir::toNativeSeparators(hook.file);
        const bool trusted = !untrusted.contains(hook.grant());
        if (!trusted) {
            //: A repository's hook the user has not trusted, after the file it is in
            from += tr(" (not trusted)");
            //: The tooltip of a repository's hook the user has not trusted
            fromPath += tr(": not trusted, so it does not run");
        }
        auto item = new QTreeWidgetItem(m_hooks,
                                        {AgentCore::hookEventNameText(hook.event),
                                         hook.matcher,
                                         hook.command,
                                         from});
        item->setToolTip(2, hook.command);
        item->setToolTip(3, fromPath);
        if (!trusted) // shown as off, as it is
            item->setFlags(item->flags() & ~Qt::ItemIsEnabled);
    }
    if (hooks.isEmpty())
        new QTreeWidgetItem(m_hooks, {tr("No hooks in this session's settings files.")});
}

} // namespace Ui

#include "moc_settingsdialog.cpp"
