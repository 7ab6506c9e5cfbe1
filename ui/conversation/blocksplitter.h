#pragma once

#include <QList>
#include <QStringView>

namespace Ui {

/// Finds where a growing text can be cut into pieces that render on their own exactly as they
/// do inside the whole: for markdown, at blank lines outside code fences where no list, list
/// item or indented block continues; for plain text, at every line break. Scans only complete
/// lines, each once, so feeding it a streamed text costs time proportional to the new part.
/// A plain value on the UI thread; it never keeps a reference to the text.
class BlockSplitter
{
public:
    enum class Mode { Markdown, Lines };

    explicit BlockSplitter(Mode mode = Mode::Markdown);

    /// Forgets everything before position, which must start a line that starts a piece
    /// (0, or a position scan() returned); the next scan() starts there.
    void restart(qsizetype position);
    /// Scans the complete lines of text not scanned yet and returns the positions (ascending)
    /// where a new piece may start. text must extend the text of the previous calls.
    QList<qsizetype> scan(QStringView text);
    /// Whether the line after the scanned ones is inside a fenced code block.
    bool inFence() const { return !m_fence.isNull(); }

private:
    /// Whether a new piece may start at line, the first non-blank line after a blank one.
    bool isBoundary(QStringView line) const;
    void track(QStringView line);

    Mode m_mode;
    qsizetype m_position = 0;  ///< start of the first line not scanned yet
    bool m_hasContent = false; ///< a non-blank line was scanned since restart()
    bool m_afterBlank = false; ///< the last scanned line was blank
    bool m_inList = false;     ///< the current top-level block is a list
    QChar m_fence;             ///< '`' or '~' inside a fenced code block, else null
    qsizetype m_fenceLength = 0;
};

} // namespace Ui
