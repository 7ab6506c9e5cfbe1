#pragma once

#include <QString>
#include <QStringList>

namespace AgentCore {

/// Where a text that was not found exactly most nearly occurs: the window of lines (as many as
/// the needle has) with the best average line similarity, comparing lines with their
/// whitespace removed. Lets Edit show the model what the file really says. A plain value.
struct NearestRegion
{
    int firstLine = 0; ///< 1-based; 0 when nothing is similar enough
    int lastLine = 0;
    double score = 0;            ///< 0..1, average line similarity
    bool whitespaceOnly = false; ///< equal once whitespace is ignored
    QStringList lines;           ///< the region's lines

    bool isValid() const { return firstLine > 0; }

    /// \a minimumScore: below it the result is invalid.
    static NearestRegion find(const QStringList &fileLines,
                              const QString &needle,
                              double minimumScore = 0.4);
    /// Similarity of two lines once their whitespace is removed: common prefix and suffix
    /// over the longer length.
    static double lineSimilarity(QStringView a, QStringView b);
};

} // namespace AgentCore
