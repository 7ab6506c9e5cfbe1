#pragma once

#include <QList>
#include <QString>

namespace Ui {

/// The words that differ between two versions of one line, for marking inside a changed
/// line of a diff. Words are runs of letters, digits and '_', runs of white space, and single
/// other characters; the longest common subsequence of the two word lists stays unmarked.
/// A plain value; pure functions.
class WordDiff final
{
public:
    struct Range
    {
        int start = 0; ///< in characters, into the line
        int length = 0;
        friend bool operator==(const Range &a, const Range &b)
        {
            return a.start == b.start && a.length == b.length;
        }
    };

    /// Lines longer than this many words are marked as a whole: quadratic work otherwise.
    static constexpr int maximumWords = 400;

    static WordDiff compute(const QString &oldLine, const QString &newLine);

    /// Changed ranges, ascending and not touching (adjacent words are merged).
    const QList<Range> &oldRanges() const { return m_old; }
    const QList<Range> &newRanges() const { return m_new; }
    /// Whether the two lines share anything worth marking against: false when nearly every
    /// word changed, where marks would only add noise.
    bool isUseful() const { return m_useful; }

    static QList<Range> split(const QString &line); ///< the words, covering the whole line

private:
    QList<Range> m_old;
    QList<Range> m_new;
    bool m_useful = false;
};

} // namespace Ui
