#pragma once

#include <QCoreApplication>
#include <QList>
#include <QString>

namespace Ui {

/// The translators of AgentDesk's own strings (compiled in under :/i18n/) and of Qt's standard
/// texts (qtbase_<lang>.qm from Qt's translations directory, when installed: OK, Cancel, ...).
/// GUI thread only; the translators belong to the application and stay installed until the next
/// install(). The widgets do not retranslate themselves: a new language applies to what is built
/// afterwards, so the main window shows it after a restart (restartNote() says so).
class Translations final
{
    Q_DECLARE_TR_FUNCTIONS(Ui::Translations)

public:
    struct Language
    {
        QString code;       ///< "en", "zh_CN": what AppSettings stores
        QString nativeName; ///< "English", "简体中文": never translated, for the language menu
    };

    /// The languages AgentDesk has, English first.
    static QList<Language> available();

    /// The language that @p language means: "" follows the system locale
    /// (QLocale::system().uiLanguages(), first match), an unknown code gives "en". Pure.
    static QString resolve(const QString &language);
    static QString resolve(const QString &language, const QStringList &uiLanguages);

    /// Removes the translators installed before and installs those of @p language ("", "en",
    /// "zh_CN"); QLocale's default follows (the system locale when it speaks that language).
    /// Returns the language in effect. Needs a QCoreApplication; never fails: a
    /// missing Qt translation only leaves Qt's standard buttons in English.
    static QString install(const QString &language);

    /// The language of the last install(); "en" before any.
    static QString current();

    /// One translated sentence for the settings dialog, beside the language choice.
    static QString restartNote();
};

} // namespace Ui
