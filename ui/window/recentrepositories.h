#pragma once

#include <QStringList>

namespace Ui {

/// The repositories the user opened, most recent first, kept in QSettings.
/// Not thread-safe; used from the UI thread.
class RecentRepositories final
{
public:
    static constexpr int maxCount = 10;

    QStringList paths() const;
    /// Moves \a path to the front (adding it if new) and trims the list to maxCount.
    void add(const QString &path);
    void remove(const QString &path);
    void clear();

private:
    void store(const QStringList &paths);
};

} // namespace Ui
