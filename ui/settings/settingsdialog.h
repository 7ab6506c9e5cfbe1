#pragma once

#include "appsettings.h"

#include <hooks/hookconfig.h>

#include <QDialog>
#include <QPointer>
#include <QStringList>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QScrollArea;
class QSpinBox;
class QTabWidget;
class QTimer;
class QToolButton;
class QVBoxLayout;
QT_END_NAMESPACE

namespace AgentCore {
class ServedModels;
struct ServedModelsResult;
} // namespace AgentCore

class QTreeWidget;

namespace Ui {

class KeyStore;
class McpServers;
class LanguageServersPage;
class McpServersPage;

/// Preferences in two tabs. General: the model (provider, base URL, model, API key, thinking,
/// and the context window of a model the catalog does not know), the agent (turn limit,
/// automatic compaction, the Bash sandbox, its network and readable paths, the review of what
/// shell commands write), notifications, and appearance (theme, language). MCP servers:
/// McpServersPage. The stored key is read into the key field asynchronously; OK writes a
/// changed key through the KeyStore and closes only once the write succeeded (its error is
/// shown otherwise). For an OpenAI-compatible endpoint the Model field offers the models the
/// server lists (asked in the background, with the key when one is set; free text otherwise),
/// and the server profile shows which server it is and why (base URL, the "owned_by" of that
/// list, or the user's choice in its combo).
/// Never blocks the GUI thread; never puts the key anywhere but the KeyStore. The KeyStore
/// must outlive the dialog.
class SettingsDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SettingsDialog)
public:
    SettingsDialog(const AppSettings &settings, KeyStore *keyStore, QWidget *parent = nullptr);
    ~SettingsDialog() override;

    /// The settings as edited; after accepted(), what to save and apply. The model goes first
    /// in recentModels.
    AppSettings settings() const;

    /// The window uses \a inUse (nullopt: the offline demo) rather than the saved default,
    /// because \a reason (e.g. the command line chose it; empty: no note). The model fields
    /// show it, and settings() changes the saved default only when the user changed them.
    void setModelInUse(const std::optional<ModelSelection> &inUse, const QString &reason);
    /// The user changed the model fields (provider, URL, model, thinking, demo).
    bool modelChanged() const;

    /// The page "Hooks" lists \a hooks (the session's, as read when it started: every
    /// settings file's, with where each came from); those whose grant is in \a untrusted are
    /// marked as not run. Without a call the page says no repository is open.
    void setHooks(const QList<AgentCore::HookEntry> &hooks, const QStringList &untrusted);
    /// The page "MCP servers" shows these servers live (null: none, no repository is open).
    void setMcpServers(McpServers *servers);
    void showMcpServers(); ///< makes that page current
    McpServersPage *mcpServersPage() const { return m_mcpPage; }
    LanguageServersPage *languageServersPage() const { return m_languageServersPage; }

    void accept() override;

protected:
    void showEvent(QShowEvent *event) override;

private:
    // The constructor's steps, one a page or section.
    QVBoxLayout *addPages(QVBoxLayout *top, const AppSettings &settings, KeyStore *keyStore);
    void addModelSection(QVBoxLayout *page);
    QFormLayout *addAgentSection(QVBoxLayout *page);
    QFormLayout *addNotificationSection(QVBoxLayout *page);
    QFormLayout *addAppearanceSection(QVBoxLayout *page);
    void addButtons(QVBoxLayout *top);
    void makeTimers();

    void buildModelSection(QWidget *page);
    QWidget *buildBaseUrlRow();
    QWidget *buildKeyRow();
    QWidget *withMessage(QWidget *field, QLabel *message);
    void buildTurnFields();
    void buildSandboxFields();
    void buildNetworkRules();
    void buildReadablePaths();
    void buildReviewShellWrites();
    void loadSettings(const AppSettings &settings);
    ModelSelection currentSelection() const;

    void providerChanged();
    void updateModelSuggestions();
    void scheduleModelFetch();
    void fetchServedModels();
    void servedModelsArrived(const AgentCore::ServedModelsResult &result);
    void updateKeyNote();
    /// Shows which server profile the fields choose and why; the row only for compatible servers.
    void updateServerProfile();
    /// Shows the context window of the model in the fields: the catalog's (read-only) or the
    /// user's.
    void updateContextWindow();
    void contextWindowEdited();
    /// The field's tokens; nullopt with \a error set when it holds no valid window (empty:
    /// nullopt, no error).
    std::optional<qint64> typedContextWindow(QString *error) const;
    void accountMayHaveChanged();
    void readStoredKey();
    void writeKeyAndAccept(const ModelSelection &selection);
    void setBusy(bool busy);

    /// Sets the messages beside the fields; returns the first field that is wrong.
    QWidget *validate();
    void setMessage(QLabel *label, const QString &text);
    void fitHeight();

    AppSettings m_initial;
    QPointer<KeyStore> m_keyStore;

    QCheckBox *m_demo = nullptr;
    QWidget *m_modelFields = nullptr;
    QComboBox *m_provider = nullptr;
    QLineEdit *m_baseUrl = nullptr;
    QPushButton *m_presets = nullptr;
    QLabel *m_baseUrlMessage = nullptr;
    QComboBox *m_model = nullptr;
    QLabel *m_modelMessage = nullptr;
    QLabel *m_modelNote = nullptr; ///< the server's model list: being asked, or why not
    QLabel *m_inUseNote = nullptr; ///< why the fields show a model other than the default
    QFormLayout *m_modelForm = nullptr;
    /// Compatible servers: "Automatic" (the found profile) or one the user chose.
    QComboBox *m_serverProfile = nullptr;
    QWidget *m_serverProfileBox = nullptr;
    QLabel *m_serverProfileNote = nullptr; ///< the profile in use and why
    QString m_servedOwnedBy;               ///< what /v1/models of m_ownedByUrl said of its owner
    QString m_ownedByUrl;
    QLineEdit *m_key = nullptr;
    QToolButton *m_showKey = nullptr;
    QLabel *m_keyNote = nullptr;
    QLabel *m_keyMessage = nullptr;
    QLineEdit *m_contextWindow = nullptr;
    QLabel *m_contextWindowMessage = nullptr;
    QLabel *m_contextWindowNote = nullptr; ///< the catalog knows the window, or what to give
    /// AppSettings::contextWindows as edited: the field shows the current model's entry.
    QMap<QString, qint64> m_contextWindows;
    QComboBox *m_thinking = nullptr;
    QSpinBox *m_maxTurns = nullptr;
    QCheckBox *m_autoCompact = nullptr;
    QComboBox *m_sandbox = nullptr;
    QCheckBox *m_sandboxNetwork = nullptr;
    QPlainTextEdit *m_networkRules = nullptr;
    QLabel *m_networkRulesProblem = nullptr;
    QPlainTextEdit *m_readablePaths = nullptr;
    QCheckBox *m_reviewShellWrites = nullptr;
    QCheckBox *m_notifyApprovals = nullptr;
    QCheckBox *m_notifyFinished = nullptr;
    QComboBox *m_language = nullptr;
    QLabel *m_languageNote = nullptr; // a new language applies at the next start
    QComboBox *m_theme = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
    QTabWidget *m_tabs = nullptr;
    QScrollArea *m_generalScroll = nullptr; ///< holds the General page
    McpServersPage *m_mcpPage = nullptr;
    LanguageServersPage *m_languageServersPage = nullptr;
    QTreeWidget *m_hooks = nullptr;
    QTimer *m_keyReadDelay = nullptr;
    QTimer *m_fitHeight = nullptr;
    QTimer *m_modelFetchDelay = nullptr;
    AgentCore::ServedModels *m_servedModels = nullptr;
    QString m_servedFor;  ///< the base URL (and key) whose models were asked for last
    QString m_servedUrl;  ///< the base URL m_served came from
    QStringList m_served; ///< the models that server listed
    /// The model shown when the dialog opened: settings() changes the default only when the
    /// fields no longer show it.
    std::optional<ModelSelection> m_loadedModel;

    ProviderKind m_shownProvider = ProviderKind::Anthropic;
    QString m_loadedAccount;  ///< the account the key field was last filled from
    QString m_keyReadError;   ///< why the stored key could not be read
    bool m_keyEdited = false; ///< typed by the user since then: never overwritten
    int m_keyRead = 0;        ///< serial of the latest read, to drop stale answers
    bool m_showErrors = false;
    bool m_saving = false;
};

} // namespace Ui
