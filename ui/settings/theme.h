#pragma once

namespace Ui {

/// The colours of the window.
enum class Theme {
    System, ///< the desktop's style and palette, as the application started with them
    Light,  ///< a light palette, in the desktop's style if it honours palettes, else Fusion
    Dark,   ///< a dark palette, in the desktop's style if it honours palettes, else Fusion
};

/// Applies \a theme to the QApplication (style and palette). GUI thread only; the first call
/// applies the desktop's style and icon theme (DesktopLook) and remembers them with the palette
/// the application started with, for Theme::System.
void applyTheme(Theme theme);

} // namespace Ui
