#include "unifieddiff.h"

#include <QHash>
#include <QStringView>

#include <algorithm>
#include <climits>
#include <vector>

namespace AgentCore {

namespace {

const QString noNewlineMarker = QStringLiteral("\\ No newline at end of file");

struct SplitText
{
    QStringList lines;
    bool missingFinalNewline = false;
};

SplitText splitLines(const QString &text)
{
    SplitText split;
    if (text.isEmpty())
        return split;
    split.lines = text.split(QLatin1Char('\n'));
    if (split.lines.last().isEmpty())
        split.lines.removeLast();
    else
        split.missingFinalNewline = true;
    return split;
}

// Myers' algorithm as GNU diff implements it (compareseq/diag), without its heuristics:
// marks which lines of each side are not part of a longest common subsequence.
class Myers
{
public:
    Myers(const std::vector<int> &x, const std::vector<int> &y)
        : m_x(x)
        , m_y(y)
        , m_offset(int(y.size()) + 1)
        , m_forward(x.size() + y.size() + 3)
        , m_backward(x.size() + y.size() + 3)
        , xChanged(x.size(), false)
        , yChanged(y.size(), false)
    {
        compare(0, int(x.size()), 0, int(y.size()));
    }

private:
    const std::vector<int> &m_x;
    const std::vector<int> &m_y;
    int m_offset;
    std::vector<int> m_forward;
    std::vector<int> m_backward;

public:
    std::vector<bool> xChanged;
    std::vector<bool> yChanged;

private:
    int &fd(int diagonal) { return m_forward[size_t(diagonal + m_offset)]; }
    int &bd(int diagonal) { return m_backward[size_t(diagonal + m_offset)]; }

    void compare(int xOff, int xLim, int yOff, int yLim)
    {
        while (xOff < xLim && yOff < yLim && m_x[size_t(xOff)] == m_y[size_t(yOff)]) {
            ++xOff;
            ++yOff;
        }
        while (xLim > xOff && yLim > yOff && m_x[size_t(xLim - 1)] == m_y[size_t(yLim - 1)]) {
            --xLim;
            --yLim;
        }
        if (xOff == xLim) {
            while (yOff < yLim)
                yChanged[size_t(yOff++)] = true;
        } else if (yOff == yLim) {
            while (xOff < xLim)
                xChanged[size_t(xOff++)] = true;
        } else {
            int xMid = 0;
            int yMid = 0;
            middle(xOff, xLim, yOff, yLim, xMid, yMid);
            compare(xOff, xMid, yOff, yMid);
            compare(xMid, xLim, yMid, yLim);
        }
    }

    // Finds a point where an optimal forward path and an optimal backward path meet.
    void middle(int xOff, int xLim, int yOff, int yLim, int &xMid, int &yMid)
    {
        const int dMin = xOff - yLim;
        const int dMax = xLim - yOff;
        const int fMid = xOff - yOff;
        const int bMid = xLim - yLim;
        int fMin = fMid;
        int fMax = fMid;
        int bMin = bMid;
        int bMax = bMid;
        const bool odd = (fMid - bMid) & 1;
        fd(fMid) = xOff;
        bd(bMid) = xLim;
        for (;;) {
            if (fMin > dMin)
                fd(--fMin - 1) = -1;
            else
                ++fMin;
            if (fMax < dMax)
                fd(++fMax + 1) = -1;
            else
                --fMax;
            for (int d = fMax; d >= fMin; d -= 2) {
                const int low = fd(d - 1);
                const int high = fd(d + 1);
                int x = low >= high ? low + 1 : high;
                int y = x - d;
                while (x < xLim && y < yLim && m_x[size_t(x)] == m_y[size_t(y)]) {
                    ++x;
                    ++y;
                }
                fd(d) = x;
                if (odd && bMin <= d && d <= bMax && bd(d) <= x) {
                    xMid = x;
                    yMid = y;
                    return;
                }
            }
            if (bMin > dMin)
                bd(--bMin - 1) = INT_MAX;
            else
                ++bMin;
            if (bMax < dMax)
                bd(++bMax + 1) = INT_MAX;
            else
                --bMax;
            for (int d = bMax; d >= bMin; d -= 2) {
                const int low = bd(d - 1);
                const int high = bd(d + 1);
                int x = low < high ? low : high - 1;
                int y = x - d;
                while (x > xOff && y > yOff && m_x[size_t(x - 1)] == m_y[size_t(y - 1)]) {
                    --x;
                    --y;
                }
                bd(d) = x;
                if (!odd && fMin <= d && d <= fMax && x <= fd(d)) {
                    xMid = x;
                    yMid = y;
                    return;
                }
            }
        }
    }
};

// Each line with its '\n' (the last one may have none), as views into \a text.
QList<QStringView> linesWithBreaks(const QString &text)
{
    QList<QStringView> lines;
    qsizetype from = 0;
    while (from < text.size()) {
        const qsizetype newline = text.indexOf(QLatin1Char('\n'), from);
        const qsizetype end = newline < 0 ? text.size() : newline + 1;
        lines.append(QStringView(text).sliced(from, end - from));
        from = end;
    }
    return lines;
}

// The index of a hunk's first line on one side; an empty side counts from the line before.
int firstLine(int start, int count)
{
    return count > 0 ? start - 1 : start;
}

enum class Op { Equal, Delete, Insert };

struct Step
{
    Op op;
    int oldIndex; ///< old lines before this step
    int newIndex;
};

} // namespace

UnifiedDiff UnifiedDiff::compute(const QString &oldText, const QString &newText, int context)
{
    const SplitText a = splitLines(oldText);
    const SplitText b = splitLines(newText);

    // Lines become numbers; a last line without its newline differs from the same text with one.
    QHash<QString, int> ids;
    const auto idsOf =
        [&ids](const SplitText &text, int side, std::vector<int> &out, std::vector<int> &sides) {
            out.reserve(size_t(text.lines.size()));
            for (qsizetype i = 0; i < text.lines.size(); ++i) {
                const bool bare = text.missingFinalNewline && i == text.lines.size() - 1;
                const QString key = bare ? text.lines[i] + QChar(0) : text.lines[i];
                auto it = ids.find(key);
                if (it == ids.end()) {
                    it = ids.insert(key, int(ids.size()));
                    sides.push_back(0);
                }
                sides[size_t(*it)] |= side;
                out.push_back(*it);
            }
        };
    std::vector<int> oldIds;
    std::vector<int> newIds;
    std::vector<int> sides;
    idsOf(a, 1, oldIds, sides);
    idsOf(b, 2, newIds, sides);

    // A line found on one side only can never be common: leaving it out keeps the result
    // minimal and makes totally rewritten files cheap.
    std::vector<int> x;
    std::vector<int> y;
    std::vector<int> xMap;
    std::vector<int> yMap;
    std::vector<bool> oldChanged(oldIds.size(), true);
    std::vector<bool> newChanged(newIds.size(), true);
    for (size_t i = 0; i < oldIds.size(); ++i) {
        if (sides[size_t(oldIds[i])] == 3) {
            x.push_back(oldIds[i]);
            xMap.push_back(int(i));
        }
    }
    for (size_t j = 0; j < newIds.size(); ++j) {
        if (sides[size_t(newIds[j])] == 3) {
            y.push_back(newIds[j]);
            yMap.push_back(int(j));
        }
    }
    const Myers myers(x, y);
    for (size_t i = 0; i < x.size(); ++i)
        oldChanged[size_t(xMap[i])] = myers.xChanged[i];
    for (size_t j = 0; j < y.size(); ++j)
        newChanged[size_t(yMap[j])] = myers.yChanged[j];

    std::vector<Step> steps;
    steps.reserve(oldIds.size() + newIds.size());
    int i = 0;
    int j = 0;
    const int n = int(oldIds.size());
    const int m = int(newIds.size());
    while (i < n || j < m) {
        if (i < n && oldChanged[size_t(i)]) {
            steps.push_back({Op::Delete, i, j});
            ++i;
        } else if (j < m && newChanged[size_t(j)]) {
            steps.push_back({Op::Insert, i, j});
            ++j;
        } else {
            steps.push_back({Op::Equal, i, j});
            ++i;
            ++j;
        }
    }

    UnifiedDiff diff;
    const int count = int(steps.size());
    int s = 0;
    while (s < count) {
        while (s < count && steps[size_t(s)].op == Op::Equal)
            ++s;
        if (s == count)
            break;
        // Extend the hunk while the next change is within 2 * context unchanged lines.
        const int first = std::max(0, s - context);
        int last = s;
        int k = s;
        while (k < count) {
            if (steps[size_t(k)].op != Op::Equal) {
                last = k;
                ++k;
                continue;
            }
            int run = k;
            while (run < count && steps[size_t(run)].op == Op::Equal)
                ++run;
            if (run == count || run - k > 2 * context)
                break;
            k = run;
        }
        const int end = std::min(count, last + context + 1);

        Hunk hunk;
        for (int t = first; t < end; ++t) {
            const Step &step = steps[size_t(t)];
            switch (step.op) {
            case Op::Equal:
                hunk.lines.append(QLatin1Char(' ') + a.lines[step.oldIndex]);
                ++hunk.oldCount;
                ++hunk.newCount;
                if (a.missingFinalNewline && step.oldIndex == n - 1)
                    hunk.lines.append(noNewlineMarker);
                break;
            case Op::Delete:
                hunk.lines.append(QLatin1Char('-') + a.lines[step.oldIndex]);
                ++hunk.oldCount;
                ++diff.m_deletions;
                if (a.missingFinalNewline && step.oldIndex == n - 1)
                    hunk.lines.append(noNewlineMarker);
                break;
            case Op::Insert:
                hunk.lines.append(QLatin1Char('+') + b.lines[step.newIndex]);
                ++hunk.newCount;
                ++diff.m_additions;
                if (b.missingFinalNewline && step.newIndex == m - 1)
                    hunk.lines.append(noNewlineMarker);
                break;
            }
        }
        const Step &start = steps[size_t(first)];
        hunk.oldStart = hunk.oldCount > 0 ? start.oldIndex + 1 : start.oldIndex;
        hunk.newStart = hunk.newCount > 0 ? start.newIndex + 1 : start.newIndex;
        diff.m_hunks.append(hunk);
        s = end;
    }
    return diff;
}

QString UnifiedDiff::apply(const QString &oldText,
                           const QString &newText,
                           const QList<int> &rejected) const
{
    const QList<QStringView> oldLines = linesWithBreaks(oldText);
    const QList<QStringView> newLines = linesWithBreaks(newText);
    QString out;
    out.reserve(std::max(oldText.size(), newText.size()));
    // Bounds-checked: texts that do not fit the hunks give a wrong result, never a crash.
    const auto copy = [&out](const QList<QStringView> &lines, qsizetype from, qsizetype to) {
        for (qsizetype line = std::max<qsizetype>(from, 0);
             line < std::min<qsizetype>(to, lines.size());
             ++line)
            out += lines.at(line);
    };
    qsizetype next = 0; // the first old line not copied or replaced yet
    for (qsizetype index = 0; index < m_hunks.size(); ++index) {
        const Hunk &hunk = m_hunks.at(index);
        const int oldFirst = firstLine(hunk.oldStart, hunk.oldCount);
        const int newFirst = firstLine(hunk.newStart, hunk.newCount);
        copy(oldLines, next, oldFirst);
        if (rejected.contains(int(index)))
            copy(oldLines, oldFirst, oldFirst + hunk.oldCount);
        else
            copy(newLines, newFirst, newFirst + hunk.newCount);
        next = oldFirst + hunk.oldCount;
    }
    copy(oldLines, next, oldLines.size());
    return out;
}

QString UnifiedDiff::applyHunks(const QString &oldText,
                                const QString &newText,
                                const QList<int> &rejected,
                                int context)
{
    return compute(oldText, newText, context).apply(oldText, newText, rejected);
}

QString UnifiedDiff::hunkToString(int index) const
{
    if (index < 0 || index >= m_hunks.size())
        return {};
    const auto range = [](int start, int count) {
        return count == 1 ? QString::number(start)
                          : QString::number(start) + QLatin1Char(',') + QString::number(count);
    };
    const Hunk &hunk = m_hunks.at(index);
    QString out = QStringLiteral("@@ -") + range(hunk.oldStart, hunk.oldCount)
                  + QStringLiteral(" +") + range(hunk.newStart, hunk.newCount)
                  + QStringLiteral(" @@\n");
    for (const QString &line : hunk.lines) {
        out += line;
        out += QLatin1Char('\n');
    }
    return out;
}

QString UnifiedDiff::toString(const QString &oldLabel, const QString &newLabel) const
{
    if (m_hunks.isEmpty())
        return {};
    QString out = QStringLiteral("--- ") + oldLabel + QStringLiteral("\n+++ ") + newLabel
                  + QLatin1Char('\n');
    for (int index = 0; index < m_hunks.size(); ++index)
        out += hunkToString(index);
    return out;
}

ToolDetails UnifiedDiff::toDetails(const QString &oldLabel, const QString &newLabel) const
{
    ToolDetails details;
    details.diff = toString(oldLabel, newLabel);
    details.additions = m_additions;
    details.deletions = m_deletions;
    return details;
}

} // namespace AgentCore
