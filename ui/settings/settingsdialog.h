#pragma once

#include "appsettings.h"

#include <QDialog>
#include <QPointer>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTimer;
class QToolButton;
QT_END_NAMESPACE

namespace Ui {

class KeyStore;

/// Preferences: the model (provider, base URL, model, API key, thinking), the agent's turn
/// limit and the theme. The stored key is read into the key field asynchronously; OK writes a
/// changed key through the KeyStore and closes only once the write succeeded (its error is
/// shown otherwise). Never blocks the GUI thread; never puts the key anywhere but the
/// KeyStore. The KeyStore must outlive the dialog.
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

    void accept() override;

protected:
    void showEvent(QShowEvent *event) override;

private:
    void buildModelSection(QWidget *page);
    QWidget *buildBaseUrlRow();
    QWidget *buildKeyRow();
    QWidget *withMessage(QWidget *field, QLabel *message);
    void loadSettings(const AppSettings &settings);
    ModelSelection currentSelection() const;

    void providerChanged();
    void updateModelSuggestions();
    void updateKeyNote();
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
    QLineEdit *m_key = nullptr;
    QToolButton *m_showKey = nullptr;
    QLabel *m_keyNote = nullptr;
    QLabel *m_keyMessage = nullptr;
    QComboBox *m_thinking = nullptr;
    QSpinBox *m_maxTurns = nullptr;
    QComboBox *m_language = nullptr;
    QLabel *m_languageNote = nullptr; // a new language applies at the next start
    QComboBox *m_theme = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
    QTimer *m_keyReadDelay = nullptr;
    QTimer *m_fitHeight = nullptr;

    ProviderKind m_shownProvider = ProviderKind::Anthropic;
    QString m_loadedAccount;  ///< the account the key field was last filled from
    QString m_keyReadError;   ///< why the stored key could not be read
    bool m_keyEdited = false; ///< typed by the user since then: never overwritten
    int m_keyRead = 0;        ///< serial of the latest read, to drop stale answers
    bool m_showErrors = false;
    bool m_saving = false;
};

} // namespace Ui
