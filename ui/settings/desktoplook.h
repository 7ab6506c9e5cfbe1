#pragma once

#include "theme.h"

#include <QStringList>

namespace Ui {

/// The style and icon theme AgentDesk shows in, chosen from the desktop it starts on: the
/// desktop's own where there is one (Breeze on KDE), and where Qt started without it, the nearest
/// that is installed. Plain functions of their inputs, so each choice can be tested.
class DesktopLook final
{
public:
    /// Whether \a styleName draws with the application's palette, so Light and Dark can recolour
    /// it: Breeze, Fusion and Oxygen do; Windows, GTK and the platforms' native styles do not.
    static bool honoursPalettes(const QString &styleName);

    /// The style \a theme shows in: System keeps \a startupStyle; Light and Dark keep it when it
    /// honours palettes, and use Fusion otherwise.
    static QString styleFor(Theme theme, const QString &startupStyle);

    /// The style to start in: \a current, unless Qt fell back to Fusion on a desktop whose own
    /// style is installed (\a desktop as in XDG_CURRENT_DESKTOP, "KDE" for Breeze) and the user
    /// named none (\a styleOverride, QT_STYLE_OVERRIDE).
    static QString startupStyle(const QString &current,
                                const QString &desktop,
                                const QString &styleOverride,
                                const QStringList &installedStyles);

    /// The icon theme to use: \a current when it is installed and more than the bare hicolor,
    /// else the desktop's own (Breeze on KDE, Adwaita on GNOME and the like), else the first
    /// installed of Breeze, Adwaita, Oxygen and Tango; empty when none is.
    static QString iconTheme(const QString &current,
                             const QString &desktop,
                             const QStringList &installedThemes);

    /// The fallback for icons the theme lacks: the first installed of the same list that is not
    /// \a theme, else hicolor.
    static QString fallbackIconTheme(const QString &theme, const QStringList &installedThemes);

    /// The icon themes in QIcon::themeSearchPaths(): each folder holding an index.theme.
    static QStringList installedIconThemes();

    /// Applies startupStyle() and iconTheme() to the running application. GUI thread, once, before
    /// the first window.
    static void applyToApplication();
};

} // namespace Ui
