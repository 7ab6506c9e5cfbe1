#include "worddiff.h"

#include <QStringView>

#include <vector>

namespace Ui {

namespace {

enum class CharClass { Word, Space, Other };

CharClass classOf(QChar c)
{
    if (c.isLetterOrNumber() || c == QLatin1Char('_'))
        return CharClass::Word;
    return c.isSpace() ? CharClass::Space : CharClass::Other;
}

void appendMerged(QList<WordDiff::Range> &ranges, const WordDiff::Range &range)
{
    if (!ranges.isEmpty() && ranges.last().start + ranges.last().length == range.start)
        ranges.last().length += range.length;
    else
        ranges.append(range);
}

// "[old] [value]" reads better as one mark "[old value]".
QList<WordDiff::Range> mergeAcrossSpaces(const QString &line, const QList<WordDiff::Range> &ranges)
{
    QList<WordDiff::Range> merged;
    for (const WordDiff::Range &range : ranges) {
        if (!merged.isEmpty()) {
            const int gapStart = merged.last().start + merged.last().length;
            const QStringView gap = QStringView(line).mid(gapStart, range.start - gapStart);
            if (gap.trimmed().isEmpty()) {
                merged.last().length = range.start + range.length - merged.last().start;
                continue;
            }
        }
        merged.append(range);
    }
    return merged;
}

int changedLength(const QList<WordDiff::Range> &ranges)
{
    int length = 0;
    for (const WordDiff::Range &range : ranges)
        length += range.length;
    return length;
}

} // namespace

QList<WordDiff::Range> WordDiff::split(const QString &line)
{
    QList<Range> words;
    int i = 0;
    while (i < line.size()) {
        const CharClass kind = classOf(line.at(i));
        int end = i + 1;
        if (kind != CharClass::Other) {
            while (end < line.size() && classOf(line.at(end)) == kind)
                ++end;
        }
        words.append({i, end - i});
        i = end;
    }
    return words;
}

WordDiff WordDiff::compute(const QString &oldLine, const QString &newLine)
{
    WordDiff result;
    const QList<Range> a = split(oldLine);
    const QList<Range> b = split(newLine);
    const auto word = [](const QString &line, const Range &r) {
        return QStringView(line).mid(r.start, r.length);
    };
    if (a.size() > maximumWords || b.size() > maximumWords) {
        if (!oldLine.isEmpty())
            result.m_old.append({0, int(oldLine.size())});
        if (!newLine.isEmpty())
            result.m_new.append({0, int(newLine.size())});
        return result;
    }

    // Longest common subsequence table, from the ends, so the walk below goes forwards.
    const qsizetype n = a.size();
    const qsizetype m = b.size();
    std::vector<int> lcs(size_t((n + 1) * (m + 1)), 0);
    const auto at = [m, &lcs](qsizetype i, qsizetype j) -> int & {
        return lcs[size_t(i * (m + 1) + j)];
    };
    for (qsizetype i = n - 1; i >= 0; --i) {
        for (qsizetype j = m - 1; j >= 0; --j) {
            at(i, j) = word(oldLine, a[i]) == word(newLine, b[j])
                           ? at(i + 1, j + 1) + 1
                           : std::max(at(i + 1, j), at(i, j + 1));
        }
    }
    qsizetype i = 0;
    qsizetype j = 0;
    while (i < n || j < m) {
        if (i < n && j < m && word(oldLine, a[i]) == word(newLine, b[j])) {
            ++i;
            ++j;
        } else if (j < m && (i == n || at(i, j + 1) >= at(i + 1, j))) {
            appendMerged(result.m_new, b[j++]);
        } else {
            appendMerged(result.m_old, a[i++]);
        }
    }

    result.m_old = mergeAcrossSpaces(oldLine, result.m_old);
    result.m_new = mergeAcrossSpaces(newLine, result.m_new);

    // Marks help when most of the line stayed; a rewritten line reads better unmarked.
    const int unchanged = int(oldLine.size()) - changedLength(result.m_old) + int(newLine.size())
                          - changedLength(result.m_new);
    result.m_useful = unchanged * 3 >= int(oldLine.size() + newLine.size());
    return result;
}

} // namespace Ui
