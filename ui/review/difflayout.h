#pragma once

#include "common/syntaxcolorizer.h"
#include "worddiff.h"

#include <QList>
#include <QString>

#include <utility>

namespace AgentCore {
class UnifiedDiff;
}

namespace Ui {

/// One line of a diff as a DiffTextView shows it: a gutter (line numbers and marker), then
/// the code with its syntax colours and changed words.
struct DiffLine
{
    enum class Kind { Context, Removed, Added, HunkHeader, Filler, Note };
    Kind kind = Kind::Context;
    int hunk = -1;     ///< index into UnifiedDiff::hunks()
    int codeStart = 0; ///< characters of gutter before the code
    QList<SyntaxColorizer::Span> syntax;
    QList<WordDiff::Range> changed; ///< relative to codeStart
    int newLine = 0; ///< its 1-based line in the new text (a pane's new side); 0: none
};

/// The text of one diff pane and what each of its lines is.
struct DiffPane
{
    QString text; ///< lines joined by '\n'
    QList<DiffLine> lines;
    QList<int> hunkLines; ///< the header line of each hunk
};

/// Lays a UnifiedDiff out as text panes: unified (one pane, both line numbers) or side by
/// side (two panes whose lines correspond row by row, blank fillers where one side has
/// nothing). Pure; the colorizer only adds syntax formats.
class DiffLayout final
{
public:
    static DiffPane unified(const AgentCore::UnifiedDiff &diff, SyntaxColorizer &colorizer);
    static std::pair<DiffPane, DiffPane> sideBySide(const AgentCore::UnifiedDiff &diff,
                                                    SyntaxColorizer &colorizer);
};

} // namespace Ui
