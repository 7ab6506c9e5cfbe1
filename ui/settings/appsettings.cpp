#include "appsettings.h"

#include <algorithm>

#include <QJsonArray>
#include <QJsonDocument>
#include <QSettings>

namespace Ui {

namespace {

QString key(const char *text)
{
    return QLatin1String(text);
}

const char currentModelKey[] = "Model/current";
const char recentModelsKey[] = "Model/recent";
const char maxTurnsKey[] = "Agent/maxTurns";
const char themeKey[] = "Appearance/theme";
const char languageKey[] = "Appearance/language";

constexpr const char *themeIds[] = {"system", "light", "dark"};

std::optional<ModelSelection> selectionFromSetting(const QVariant &value)
{
    const QJsonDocument document = QJsonDocument::fromJson(value.toString().toUtf8());
    if (!document.isObject())
        return std::nullopt;
    return ModelSelection::fromJson(document.object());
}

} // namespace

void AppSettings::rememberModel(const ModelSelection &selection)
{
    // One entry per model and endpoint: the latest thinking level and spelling of the URL.
    recentModels.removeIf([&](const ModelSelection &other) { return other.sameModelAs(selection); });
    recentModels.prepend(selection);
    while (recentModels.size() > maxRecentModels)
        recentModels.removeLast();
}

AppSettings AppSettings::load(const QSettings &settings)
{
    AppSettings result;
    result.model = selectionFromSetting(settings.value(key(currentModelKey)));

    const QJsonDocument recent = QJsonDocument::fromJson(
        settings.value(key(recentModelsKey)).toString().toUtf8());
    const QJsonArray recentArray = recent.array();
    for (const QJsonValue &value : recentArray) {
        const std::optional<ModelSelection> selection = ModelSelection::fromJson(value.toObject());
        const auto same = [&](const ModelSelection &other) { return other.sameModelAs(*selection); };
        if (selection
            && std::none_of(result.recentModels.cbegin(), result.recentModels.cend(), same)
            && result.recentModels.size() < maxRecentModels) {
            result.recentModels.append(*selection);
        }
    }

    bool ok = false;
    const int maxTurns = settings.value(key(maxTurnsKey)).toInt(&ok);
    result.maxTurns = ok && maxTurns > 0 ? maxTurns : 0;

    const QString theme = settings.value(key(themeKey)).toString();
    for (int index = 0; index < int(std::size(themeIds)); ++index) {
        if (theme == key(themeIds[index]))
            result.theme = Theme(index);
    }
    result.language = settings.value(key(languageKey)).toString();
    return result;
}

void AppSettings::save(QSettings &settings) const
{
    // JSON text rather than nested QSettings groups: the same schema as session files.
    if (model) {
        settings.setValue(key(currentModelKey),
                          QString::fromUtf8(
                              QJsonDocument(model->toJson()).toJson(QJsonDocument::Compact)));
    } else {
        settings.remove(key(currentModelKey));
    }
    QJsonArray recent;
    for (const ModelSelection &selection : recentModels)
        recent.append(selection.toJson());
    settings.setValue(key(recentModelsKey),
                      QString::fromUtf8(QJsonDocument(recent).toJson(QJsonDocument::Compact)));
    settings.setValue(key(maxTurnsKey), maxTurns);
    settings.setValue(key(themeKey), key(themeIds[int(theme)]));
    if (language.isEmpty())
        settings.remove(key(languageKey));
    else
        settings.setValue(key(languageKey), language);
}

} // namespace Ui
