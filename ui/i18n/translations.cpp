#include "translations.h"

#include <QLibraryInfo>
#include <QLocale>
#include <QPointer>
#include <QTranslator>

namespace Ui {

namespace {

struct Installed
{
    QPointer<QTranslator> app;
    QPointer<QTranslator> qt;
    QString language = QStringLiteral("en");
};

Installed &installed()
{
    static Installed state;
    return state;
}

void removeTranslator(QPointer<QTranslator> &translator)
{
    if (!translator)
        return;
    QCoreApplication::removeTranslator(translator);
    delete translator;
}

// Owned by the application, so they go away with it even when nobody calls install() again.
QTranslator *loadTranslator(const QString &fileName, const QString &directory)
{
    auto translator = new QTranslator(QCoreApplication::instance());
    if (translator->load(fileName, directory) && QCoreApplication::installTranslator(translator))
        return translator;
    delete translator;
    return nullptr;
}

} // namespace

QList<Translations::Language> Translations::available()
{
    return {{QStringLiteral("en"), QStringLiteral("English")},
            {QStringLiteral("zh_CN"), QStringLiteral("简体中文")}};
}

QString Translations::resolve(const QString &language)
{
    return resolve(language, QLocale::system().uiLanguages());
}

QString Translations::resolve(const QString &language, const QStringList &uiLanguages)
{
    if (!language.isEmpty()) {
        for (const Language &known : available()) {
            if (known.code == language)
                return language;
        }
        return QStringLiteral("en");
    }
    // uiLanguages are BCP 47 ("zh-Hans-CN", "en-US"), most preferred first. Any Chinese gets the
    // Simplified translation: for a Chinese-speaking engineer it reads better than English.
    for (const QString &ui : uiLanguages) {
        if (ui.startsWith(QLatin1String("zh")))
            return QStringLiteral("zh_CN");
        if (ui.startsWith(QLatin1String("en")) || ui == QLatin1String("C"))
            return QStringLiteral("en");
    }
    return QStringLiteral("en");
}

QString Translations::install(const QString &language)
{
    Installed &state = installed();
    removeTranslator(state.app);
    removeTranslator(state.qt);
    state.language = resolve(language);
    // Dates and numbers follow the language when it is not the system's own ("2026/11/30" in
    // a Chinese window on an English system), and the system's settings otherwise.
    const QLocale system = QLocale::system();
    QLocale::setDefault(resolve(QString(), system.uiLanguages()) == state.language
                            ? system
                            : QLocale(state.language));
    // English needs its .qm too: the source strings have no plural forms ("%n file(s)").
    state.app = loadTranslator(QStringLiteral("agentdesk_") + state.language,
                               QStringLiteral(":/i18n"));
    if (state.language != QLatin1String("en")) {
        state.qt = loadTranslator(QStringLiteral("qtbase_") + state.language,
                                  QLibraryInfo::path(QLibraryInfo::TranslationsPath));
    }
    return state.language;
}

QString Translations::current()
{
    return installed().language;
}

QString Translations::restartNote()
{
    return tr("The new language applies when AgentDesk starts again.");
}

} // namespace Ui
