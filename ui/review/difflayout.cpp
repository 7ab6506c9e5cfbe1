#include "difflayout.h"

#include <tools/unifieddiff.h>

#include <QStringList>

#include <algorithm>

namespace Ui {

namespace {

using Kind = DiffLine::Kind;

struct Row
{
    Kind kind = Kind::Context;
    QString code;
    int oldNumber = 0; ///< 0: none on that side
    int newNumber = 0;
};

// One hunk's lines with their numbers; word marks are added when pairs are known.
QList<Row> rowsOf(const AgentCore::UnifiedDiff::Hunk &hunk)
{
    QList<Row> rows;
    int oldNumber = hunk.oldCount == 0 ? hunk.oldStart + 1 : hunk.oldStart;
    int newNumber = hunk.newCount == 0 ? hunk.newStart + 1 : hunk.newStart;
    for (const QString &line : hunk.lines) {
        const QChar marker = line.isEmpty() ? QLatin1Char(' ') : line.at(0);
        const QString code = line.mid(1);
        if (marker == QLatin1Char('-'))
            rows.append({Kind::Removed, code, oldNumber++, 0});
        else if (marker == QLatin1Char('+'))
            rows.append({Kind::Added, code, 0, newNumber++});
        else if (marker == QLatin1Char('\\'))
            rows.append({Kind::Note, line, 0, 0});
        else
            rows.append({Kind::Context, code, oldNumber++, newNumber++});
    }
    return rows;
}

QString header(const AgentCore::UnifiedDiff::Hunk &hunk)
{
    return QStringLiteral("@@ -%1,%2 +%3,%4 @@")
        .arg(hunk.oldStart)
        .arg(hunk.oldCount)
        .arg(hunk.newStart)
        .arg(hunk.newCount);
}

int numberWidth(const AgentCore::UnifiedDiff &diff)
{
    int largest = 1;
    for (const AgentCore::UnifiedDiff::Hunk &hunk : diff.hunks())
        largest = std::max({largest, hunk.oldStart + hunk.oldCount, hunk.newStart + hunk.newCount});
    return int(QString::number(largest).size());
}

QString number(int value, int width)
{
    return value > 0 ? QStringLiteral("%1").arg(value, width) : QString(width, QLatin1Char(' '));
}

QChar markerOf(Kind kind)
{
    switch (kind) {
    case Kind::Removed:
        return QLatin1Char('-');
    case Kind::Added:
        return QLatin1Char('+');
    default:
        return QLatin1Char(' ');
    }
}

// Syntax colours follow each side's own line sequence, so a comment opened in a removed line
// does not colour the added lines.
class Colorer
{
public:
    explicit Colorer(SyntaxColorizer &colorizer)
        : m_colorizer(colorizer)
    {}

    QList<SyntaxColorizer::Span> spans(const Row &row)
    {
        QList<SyntaxColorizer::Span> spans;
        if (!m_colorizer.isActive() || row.kind == Kind::Note)
            return spans;
        if (row.kind == Kind::Removed) {
            m_old = m_colorizer.colorize(row.code, m_old, spans);
        } else if (row.kind == Kind::Added) {
            m_new = m_colorizer.colorize(row.code, m_new, spans);
        } else {
            m_new = m_colorizer.colorize(row.code, m_new, spans);
            m_old = m_new;
        }
        return spans;
    }

private:
    SyntaxColorizer &m_colorizer;
    SyntaxColorizer::State m_old = SyntaxColorizer::initialState;
    SyntaxColorizer::State m_new = SyntaxColorizer::initialState;
};

// Pairs the i-th removed with the i-th added line of each change block for word marks.
void markWords(QList<Row> &rows, QList<QList<WordDiff::Range>> &marks)
{
    marks = QList<QList<WordDiff::Range>>(rows.size());
    qsizetype i = 0;
    while (i < rows.size()) {
        if (rows[i].kind != Kind::Removed) {
            ++i;
            continue;
        }
        const qsizetype removedStart = i;
        while (i < rows.size() && rows[i].kind == Kind::Removed)
            ++i;
        const qsizetype addedStart = i;
        while (i < rows.size() && rows[i].kind == Kind::Added)
            ++i;
        const qsizetype pairs = std::min(addedStart - removedStart, i - addedStart);
        for (qsizetype k = 0; k < pairs; ++k) {
            const WordDiff words = WordDiff::compute(rows[removedStart + k].code,
                                                     rows[addedStart + k].code);
            if (!words.isUseful())
                continue;
            marks[removedStart + k] = words.oldRanges();
            marks[addedStart + k] = words.newRanges();
        }
    }
}

class PaneWriter
{
public:
    explicit PaneWriter(DiffPane &pane)
        : m_pane(pane)
    {}
    void finish() { m_pane.text = m_lines.join(QLatin1Char('\n')); }

    void add(DiffLine line, const QString &gutter, const QString &code)
    {
        line.codeStart = int(gutter.size());
        m_lines.append(gutter + code);
        if (line.kind == Kind::HunkHeader)
            m_pane.hunkLines.append(int(m_pane.lines.size()));
        m_pane.lines.append(std::move(line));
    }

private:
    DiffPane &m_pane;
    QStringList m_lines;
};

} // namespace

DiffPane DiffLayout::unified(const AgentCore::UnifiedDiff &diff, SyntaxColorizer &colorizer)
{
    DiffPane pane;
    PaneWriter writer(pane);
    Colorer colorer(colorizer);
    const int width = numberWidth(diff);
    const QString blankGutter(2 * width + 4, QLatin1Char(' '));
    for (int h = 0; h < int(diff.hunks().size()); ++h) {
        const AgentCore::UnifiedDiff::Hunk &hunk = diff.hunks().at(h);
        writer.add({Kind::HunkHeader, h, 0, {}, {}}, blankGutter, header(hunk));
        QList<Row> rows = rowsOf(hunk);
        QList<QList<WordDiff::Range>> marks;
        markWords(rows, marks);
        for (qsizetype r = 0; r < rows.size(); ++r) {
            const Row &row = rows[r];
            const QString gutter = row.kind == Kind::Note
                                       ? blankGutter
                                       : QString(number(row.oldNumber, width) + QLatin1Char(' ')
                                                 + number(row.newNumber, width) + QLatin1Char(' ')
                                                 + markerOf(row.kind) + QLatin1Char(' '));
            writer.add({row.kind, h, 0, colorer.spans(row), marks[r], row.newNumber},
                       gutter,
                       row.code);
        }
    }
    writer.finish();
    return pane;
}

std::pair<DiffPane, DiffPane> DiffLayout::sideBySide(const AgentCore::UnifiedDiff &diff,
                                                     SyntaxColorizer &colorizer)
{
    std::pair<DiffPane, DiffPane> panes;
    {
        PaneWriter left(panes.first);
        PaneWriter right(panes.second);
        Colorer colorer(colorizer);
        const int width = numberWidth(diff);
        const QString blankGutter(width + 3, QLatin1Char(' '));
        const auto gutter = [width](int lineNumber, Kind kind) -> QString {
            return number(lineNumber, width) + QLatin1Char(' ') + markerOf(kind) + QLatin1Char(' ');
        };
        for (int h = 0; h < int(diff.hunks().size()); ++h) {
            const AgentCore::UnifiedDiff::Hunk &hunk = diff.hunks().at(h);
            left.add({Kind::HunkHeader, h, 0, {}, {}}, blankGutter, header(hunk));
            right.add({Kind::HunkHeader, h, 0, {}, {}}, blankGutter, header(hunk));
            QList<Row> rows = rowsOf(hunk);
            QList<QList<WordDiff::Range>> marks;
            markWords(rows, marks);
            // Removed lines fill the left pane and added lines the right one; when a change
            // block ends, the shorter side gets fillers so the rows line up again.
            int leftPending = 0;
            int rightPending = 0;
            const auto align = [&] {
                for (; leftPending < rightPending; ++leftPending)
                    left.add({Kind::Filler, h, 0, {}, {}}, QString(), QString());
                for (; rightPending < leftPending; ++rightPending)
                    right.add({Kind::Filler, h, 0, {}, {}}, QString(), QString());
                leftPending = rightPending = 0;
            };
            for (qsizetype r = 0; r < rows.size(); ++r) {
                const Row &row = rows[r];
                const DiffLine line{row.kind, h, 0, colorer.spans(row), marks[r]};
                DiffLine newLine = line; // the right pane's lines know where they are
                newLine.newLine = row.newNumber;
                if (row.kind == Kind::Removed) {
                    if (rightPending > 0)
                        align();
                    left.add(line, gutter(row.oldNumber, row.kind), row.code);
                    ++leftPending;
                } else if (row.kind == Kind::Added) {
                    right.add(newLine, gutter(row.newNumber, row.kind), row.code);
                    ++rightPending;
                } else {
                    align();
                    if (row.kind == Kind::Note) {
                        left.add(line, blankGutter, row.code);
                        right.add(line, blankGutter, row.code);
                    } else {
                        left.add(line, gutter(row.oldNumber, row.kind), row.code);
                        right.add(newLine, gutter(row.newNumber, row.kind), row.code);
                    }
                }
            }
            align();
        }
        left.finish();
        right.finish();
    }
    return panes;
}

} // namespace Ui
