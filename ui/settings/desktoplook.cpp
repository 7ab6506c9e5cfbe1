#include "desktoplook.h"

#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QIcon>
#include <QStyle>
#include <QStyleFactory>

namespace Ui {

namespace {

bool isKde(const QString &desktop)
{
    return desktop.split(QLatin1Char(':')).contains(QLatin1String("KDE"), Qt::CaseInsensitive);
}

// Desktops whose icons are Adwaita's, or built on them.
bool isGnomeLike(const QString &desktop)
{
    for (const QString &name : desktop.split(QLatin1Char(':'))) {
        for (const char *gnome : {"GNOME", "Unity", "Budgie", "Pantheon", "X-Cinnamon", "MATE"}) {
            if (name.compare(QLatin1String(gnome), Qt::CaseInsensitive) == 0)
                return true;
        }
    }
    return false;
}

const QStringList &iconFallbacks()
{
    static const QStringList names{QStringLiteral("breeze"),
                                   QStringLiteral("Adwaita"),
                                   QStringLiteral("oxygen"),
                                   QStringLiteral("Tango")};
    return names;
}

} // namespace

bool DesktopLook::honoursPalettes(const QString &styleName)
{
    for (const char *name : {"breeze", "fusion", "oxygen"}) {
        if (styleName.compare(QLatin1String(name), Qt::CaseInsensitive) == 0)
            return true;
    }
    return false;
}

QString DesktopLook::styleFor(Theme theme, const QString &startupStyle)
{
    if (theme == Theme::System || honoursPalettes(startupStyle))
        return startupStyle;
    return QStringLiteral("Fusion");
}

QString DesktopLook::startupStyle(const QString &current,
                                  const QString &desktop,
                                  const QString &styleOverride,
                                  const QStringList &installedStyles)
{
    // Fusion is Qt's own fallback: a desktop integration would have chosen the desktop's style.
    if (!styleOverride.isEmpty()
        || current.compare(QLatin1String("fusion"), Qt::CaseInsensitive) != 0)
        return current;
    if (isKde(desktop) && installedStyles.contains(QLatin1String("Breeze"), Qt::CaseInsensitive))
        return QStringLiteral("Breeze");
    return current;
}

QString DesktopLook::iconTheme(const QString &current,
                               const QString &desktop,
                               const QStringList &installedThemes)
{
    const auto installed = [&installedThemes](const QString &name) {
        return installedThemes.contains(name, Qt::CaseSensitive);
    };
    if (!current.isEmpty() && current != QLatin1String("hicolor") && installed(current))
        return current;
    if (isKde(desktop) && installed(QStringLiteral("breeze")))
        return QStringLiteral("breeze");
    if (isGnomeLike(desktop) && installed(QStringLiteral("Adwaita")))
        return QStringLiteral("Adwaita");
    for (const QString &name : iconFallbacks()) {
        if (installed(name))
            return name;
    }
    return {};
}

QString DesktopLook::fallbackIconTheme(const QString &theme, const QStringList &installedThemes)
{
    for (const QString &name : iconFallbacks()) {
        if (name != theme && installedThemes.contains(name))
            return name;
    }
    return QStringLiteral("hicolor");
}

QStringList DesktopLook::installedIconThemes()
{
    QStringList names;
    for (const QString &path : QIcon::themeSearchPaths()) {
        const QDir dir(path);
        for (const QString &name : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
            if (!names.contains(name)
                && QFileInfo::exists(dir.filePath(name + QStringLiteral("/index.theme"))))
                names.append(name);
        }
    }
    return names;
}

void DesktopLook::applyToApplication()
{
    const QString desktop = qEnvironmentVariable("XDG_CURRENT_DESKTOP");
    const QString current = QApplication::style()->name();
    const QString style = startupStyle(current,
                                       desktop,
                                       qEnvironmentVariable("QT_STYLE_OVERRIDE"),
                                       QStyleFactory::keys());
    if (style.compare(current, Qt::CaseInsensitive) != 0) {
        if (QStyle *desktopStyle = QStyleFactory::create(style))
            QApplication::setStyle(desktopStyle); // takes ownership
    }
    const QStringList installed = installedIconThemes();
    const QString icons = iconTheme(QIcon::themeName(), desktop, installed);
    if (!icons.isEmpty() && icons != QIcon::themeName())
        QIcon::setThemeName(icons);
    QIcon::setFallbackThemeName(fallbackIconTheme(QIcon::themeName(), installed));
}

} // namespace Ui
