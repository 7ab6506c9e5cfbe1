#pragma once

#include "difflayout.h"

#include <QColor>
#include <QTextLayout>

QT_BEGIN_NAMESPACE
class QPalette;
QT_END_NAMESPACE

namespace Ui {

/// The colours of a diff, mixed from the palette so light and dark themes both read well.
struct DiffColors
{
    QColor addedLine;
    QColor addedWord;
    QColor removedLine;
    QColor removedWord;
    QColor header;
    QColor headerText;
    QColor filler;
    QColor gutterText;
    QColor rejectedLine; ///< lines of a hunk the reviewer unchecked

    static DiffColors fromPalette(const QPalette &palette);
};

/// The character formats of one diff line (gutter, syntax, changed words), for
/// QTextLayout::setFormats. Line backgrounds are painted by the view. A plain value.
class DiffHighlighter final
{
public:
    void setColors(const DiffColors &colors) { m_colors = colors; }

    /// Overlapping ranges merge in QTextLayout: word marks keep the syntax colour under them.
    QList<QTextLayout::FormatRange> formats(const DiffLine &line, int textLength) const;

private:
    DiffColors m_colors;
};

} // namespace Ui
