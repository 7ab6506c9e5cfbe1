#pragma once

#include "modelselection.h"
#include "theme.h"

#include <QList>

#include <optional>

QT_BEGIN_NAMESPACE
class QSettings;
QT_END_NAMESPACE

namespace Ui {

/// What the settings dialog edits and QSettings keeps. A plain value; never holds an API key
/// (keys live in the KeyStore).
struct AppSettings
{
    static constexpr int maxRecentModels = 6;

    /// nullopt: nothing configured, the window runs the offline demo.
    std::optional<ModelSelection> model;
    /// The models used lately, the latest first, at most maxRecentModels, no duplicates: the
    /// status bar's model menu.
    QList<ModelSelection> recentModels;
    int maxTurns = 0; ///< 0: unlimited
    Theme theme = Theme::System;
    /// "": the system's language; else a code of Translations::available() ("zh_CN").
    QString language;

    /// Puts \a selection first in recentModels (moving it if already there) and trims the list.
    void rememberModel(const ModelSelection &selection);

    /// Defaults for keys that are missing or that this version cannot read.
    static AppSettings load(const QSettings &settings);
    void save(QSettings &settings) const;

    friend bool operator==(const AppSettings &, const AppSettings &) = default;
};

} // namespace Ui
