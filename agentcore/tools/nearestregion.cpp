#include "nearestregion.h"

#include <algorithm>

namespace AgentCore {

namespace {

QString withoutWhitespace(QStringView line)
{
    QString out;
    out.reserve(line.size());
    for (const QChar c : line) {
        if (!c.isSpace())
            out += c;
    }
    return out;
}

double similarity(const QString &a, const QString &b)
{
    if (a == b)
        return 1;
    const qsizetype longest = std::max(a.size(), b.size());
    const qsizetype shortest = std::min(a.size(), b.size());
    qsizetype prefix = 0;
    while (prefix < shortest && a[prefix] == b[prefix])
        ++prefix;
    qsizetype suffix = 0;
    while (suffix < shortest - prefix && a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix])
        ++suffix;
    return double(prefix + suffix) / double(longest);
}

} // namespace

double NearestRegion::lineSimilarity(QStringView a, QStringView b)
{
    return similarity(withoutWhitespace(a), withoutWhitespace(b));
}

NearestRegion NearestRegion::find(const QStringList &fileLines,
                                  const QString &needle,
                                  double minimumScore)
{
    QStringList needleLines = QString(needle)
                                  .replace(QStringLiteral("\r\n"), QStringLiteral("\n"))
                                  .split(QLatin1Char('\n'));
    if (needleLines.size() > 1 && needleLines.last().isEmpty())
        needleLines.removeLast();
    NearestRegion best;
    if (fileLines.isEmpty() || needleLines.isEmpty())
        return best;

    QStringList file;
    file.reserve(fileLines.size());
    for (const QString &line : fileLines)
        file.append(withoutWhitespace(line));
    QStringList wanted;
    for (const QString &line : std::as_const(needleLines))
        wanted.append(withoutWhitespace(line));

    const qsizetype window = std::min(wanted.size(), file.size());
    double bestScore = -1;
    qsizetype bestStart = 0;
    for (qsizetype start = 0; start + window <= file.size(); ++start) {
        double total = 0;
        for (qsizetype k = 0; k < window; ++k)
            total += similarity(file[start + k], wanted[k]);
        const double score = total / double(wanted.size());
        if (score > bestScore) {
            bestScore = score;
            bestStart = start;
            if (score >= 1)
                break;
        }
    }
    if (bestScore < minimumScore)
        return best;
    best.firstLine = int(bestStart) + 1;
    best.lastLine = int(bestStart + window);
    best.score = bestScore;
    best.whitespaceOnly = bestScore >= 1 && window == wanted.size();
    best.lines = fileLines.mid(bestStart, window);
    return best;
}

} // namespace AgentCore
