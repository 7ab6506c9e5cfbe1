#include "pathsuggestions.h"
#include "translation.h"

#include "filewalker.h"
#include "toolworkspace.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

#include <algorithm>
#include <vector>

namespace AgentCore {

namespace {

constexpr int maxWalkedEntries = 200000;

int threshold(QStringView name)
{
    return std::max(2, int(name.size()) / 3);
}

struct Candidate
{
    QString path; ///< absolute
    int score = 0;
};

} // namespace

int PathSuggestions::distance(QStringView a, QStringView b)
{
    std::vector<int> row(size_t(b.size()) + 1);
    for (size_t j = 0; j < row.size(); ++j)
        row[j] = int(j);
    for (qsizetype i = 1; i <= a.size(); ++i) {
        int diagonal = row[0];
        row[0] = int(i);
        const QChar ca = a[i - 1].toCaseFolded();
        for (qsizetype j = 1; j <= b.size(); ++j) {
            const int up = row[size_t(j)];
            const int cost = ca == b[j - 1].toCaseFolded() ? 0 : 1;
            row[size_t(j)] = std::min({up + 1, row[size_t(j - 1)] + 1, diagonal + cost});
            diagonal = up;
        }
    }
    return row.back();
}

QStringList PathSuggestions::find(const QString &root, const ResolvedPath &missing, int count)
{
    const QString requested = missing.path;
    const QString name = QFileInfo(requested).fileName();
    if (name.isEmpty())
        return {};
    std::vector<Candidate> candidates;

    // The nearest directory that exists, and the first component under it that does not.
    QString directory = QFileInfo(requested).path();
    QString firstMissing = name;
    QString remainder;
    while (!QFileInfo(directory).isDir()) {
        const QFileInfo info(directory);
        remainder = remainder.isEmpty() ? firstMissing
                                        : firstMissing + QLatin1Char('/') + remainder;
        firstMissing = info.fileName();
        if (info.path() == directory)
            return {};
        directory = info.path();
    }
    const QStringList entries = QDir(directory).entryList(QDir::AllEntries | QDir::Hidden
                                                          | QDir::NoDotAndDotDot);
    for (const QString &entry : entries) {
        const int d = distance(entry, firstMissing);
        const bool related = entry.startsWith(QFileInfo(firstMissing).completeBaseName(),
                                              Qt::CaseInsensitive);
        if (d > threshold(firstMissing) && !related)
            continue;
        const QString base = directory + QLatin1Char('/') + entry;
        const QString path = remainder.isEmpty() ? base : base + QLatin1Char('/') + remainder;
        if (!QFileInfo::exists(path))
            continue;
        candidates.push_back({path, d * 100});
    }

    // Files of the same or a similar name elsewhere in the repository.
    if (missing.insideRoot) {
        FileWalker walker(root);
        int visited = 0;
        const int limit = threshold(name);
        walker.walk([&](QByteArrayView relative, bool isDirectory) {
            if (++visited > maxWalkedEntries)
                return FileWalker::Visit::Stop;
            if (isDirectory)
                return FileWalker::Visit::Continue;
            const qsizetype slash = relative.lastIndexOf('/');
            const QString fileName = QString::fromUtf8(relative.sliced(slash + 1));
            if (std::abs(fileName.size() - name.size()) > limit)
                return FileWalker::Visit::Continue;
            const int d = distance(fileName, name);
            if (d > limit)
                return FileWalker::Visit::Continue;
            const QString path = QString::fromUtf8(relative);
            const int closeness = std::min(99, distance(path, missing.relative));
            candidates.push_back({root + QLatin1Char('/') + path, d * 100 + closeness});
            return FileWalker::Visit::Continue;
        });
    }

    std::stable_sort(candidates.begin(),
                     candidates.end(),
                     [](const Candidate &a, const Candidate &b) { return a.score < b.score; });
    QStringList result;
    const QString prefix = root + QLatin1Char('/');
    for (const Candidate &candidate : candidates) {
        const QString shown = candidate.path.startsWith(prefix) ? candidate.path.mid(prefix.size())
                                                                : candidate.path;
        if (!result.contains(shown) && candidate.path != requested)
            result.append(shown);
        if (result.size() >= count)
            break;
    }
    return result;
}

QString PathSuggestions::notFoundMessage(const QString &root,
                                         const ResolvedPath &missing,
                                         const QString &headline)
{
    const QStringList similar = find(root, missing);
    if (similar.isEmpty())
        return headline;
    return headline + QLatin1Char('\n')
           + ToolsTr::tr("Similar paths: %1").arg(similar.join(QStringLiteral(", ")));
}

} // namespace AgentCore
