#pragma once

#include <ai/tooldetails.h>

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace AgentCore {

/// A line diff of two texts in the unified format of `diff -u` and `git diff`: hunk headers
/// `@@ -start,count +start,count @@` (",1" omitted; an empty side counts from the line
/// before), `\ No newline at end of file` markers. Minimal edit script (Myers' O(ND)
/// algorithm after dropping lines that exist on one side only). A plain value.
class UnifiedDiff final
{
public:
    struct Hunk
    {
        int oldStart = 0; ///< as printed in the header
        int oldCount = 0;
        int newStart = 0;
        int newCount = 0;
        QStringList lines; ///< ' ', '-' or '+' then the line; or the "\ No newline" marker
    };

    /// \a context: unchanged lines shown around each change.
    static UnifiedDiff compute(const QString &oldText, const QString &newText, int context = 3);

    bool isEmpty() const { return m_hunks.isEmpty(); }
    const QList<Hunk> &hunks() const { return m_hunks; }
    int additions() const { return m_additions; }
    int deletions() const { return m_deletions; }

    /// The text with every hunk applied except the \a rejected ones (indexes into hunks();
    /// others are ignored): unchanged lines and rejected hunks from \a oldText, kept hunks
    /// from \a newText. Both must have the lines, split at '\n', of the texts compute() was
    /// given, but may differ inside them (CRLF, raw bytes as Latin-1): lines are copied
    /// verbatim with their line break, or without one at the end of a text. Nothing
    /// rejected gives \a newText, everything rejected gives \a oldText.
    QString apply(const QString &oldText, const QString &newText, const QList<int> &rejected) const;
    /// compute(oldText, newText, context).apply(oldText, newText, rejected).
    static QString applyHunks(const QString &oldText,
                              const QString &newText,
                              const QList<int> &rejected,
                              int context = 3);

    /// Hunk \a index as toString() prints it: the "@@" header, then its lines, each ending
    /// in '\n'. Empty for an index out of range.
    QString hunkToString(int index) const;
    /// "--- OLD\n+++ NEW\n@@ ... @@\n...", every line ending in '\n'; empty when equal.
    /// Labels as git writes them: "a/path", "b/path", "/dev/null" for a created file.
    QString toString(const QString &oldLabel, const QString &newLabel) const;
    /// The details a file-changing tool attaches: diff (toString(...)), additions, deletions.
    ToolDetails toDetails(const QString &oldLabel, const QString &newLabel) const;

private:
    QList<Hunk> m_hunks;
    int m_additions = 0;
    int m_deletions = 0;
};

} // namespace AgentCore
