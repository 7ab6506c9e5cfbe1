#include "recentrepositories.h"

#include <QSettings>

namespace Ui {

namespace {
const QString settingsKey = QStringLiteral("recentRepositories");
}

QStringList RecentRepositories::paths() const
{
    return QSettings().value(settingsKey).toStringList();
}

void RecentRepositories::add(const QString &path)
{
    QStringList list = paths();
    list.removeAll(path);
    list.prepend(path);
    store(list.mid(0, maxCount));
}

void RecentRepositories::remove(const QString &path)
{
    QStringList list = paths();
    if (list.removeAll(path) > 0)
        store(list);
}

void RecentRepositories::clear()
{
    store({});
}

void RecentRepositories::store(const QStringList &paths)
{
    QSettings().setValue(settingsKey, paths);
}

} // namespace Ui
