#pragma once

namespace Ui {

/// The colours of the window.
enum class Theme {
    System, ///< the platform's style and palette, as the application started with them
    Light,  ///< Fusion with a light palette
    Dark,   ///< Fusion with a dark palette
};

/// Applies \a theme to the QApplication (style and palette). GUI thread only; the first call
/// remembers the style and palette the application started with, for Theme::System.
void applyTheme(Theme theme);

} // namespace Ui
