#pragma once

#include <QPoint>
#include <QRect>
#include <QString>

QT_BEGIN_NAMESPACE
class QPainter;
QT_END_NAMESPACE

namespace Ui {

class CompactionItem;
class RewindItem;
struct ConversationStyle;

/// One entry of the conversation (a bubble, a tool card, a note). Not a widget: the view lays
/// items out lazily and paints the visible ones. An item's height is an estimate until it is
/// first laid out at the view's width; the layout may later be dropped to save memory, the
/// height is kept. Items live on the UI thread and never touch the view.
class ConversationItem
{
public:
    enum class Kind { User, Assistant, ToolCard, Note, Compaction, Rewind };

    ConversationItem() = default;
    ConversationItem(const ConversationItem &) = delete;
    ConversationItem &operator=(const ConversationItem &) = delete;
    virtual ~ConversationItem() = default;

    virtual Kind kind() const = 0;
    /// What the item shows, as plain text (for copying and for tests).
    virtual QString plainText() const = 0;

    /// The height at width: exact if laid out at that width, else estimated (cheap).
    int measure(int width, const ConversationStyle &style);
    /// Lays the item out at width (a no-op if it already is) and returns the exact height.
    int layout(int width, const ConversationStyle &style);
    bool isLaidOut(int width) const { return m_layoutWidth == width; }
    /// Whether the item holds cached layout objects (documents, line indexes).
    bool hasLayout() const { return m_cached; }
    /// Frees the cached layout; the last height stays as the estimate.
    void dropLayout();
    /// The content changed: the next measure() or layout() computes afresh.
    void invalidate();

    /// Paints the item at (0, 0) in its own coordinates; it was laid out at width before.
    /// clip is the part that is visible, in item coordinates.
    virtual void paint(QPainter *painter,
                       const QRect &clip,
                       const ConversationStyle &style,
                       qint64 nowMs) const = 0;
    /// Handles a click at pos (item coordinates). Returns true if the item changed its layout.
    virtual bool click(QPoint pos)
    {
        Q_UNUSED(pos)
        return false;
    }
    /// Whether a click at pos does something (the view shows a pointing hand).
    virtual bool isClickable(QPoint pos) const
    {
        Q_UNUSED(pos)
        return false;
    }
    /// Whether the item animates by itself (a running tool's spinner and clock).
    virtual bool isAnimating() const { return false; }

    /// Where the view placed the item (content coordinates); the view's bookkeeping.
    int top() const { return m_top; }
    void setTop(int top) { m_top = top; }
    /// The height last measured or laid out (the view's current idea of it).
    int currentHeight() const { return m_height; }

    /// The raw index, in the conversation, of the message the item shows (a tool card: its
    /// call's); what a compaction's coveredCount is compared with.
    qsizetype sourceIndex() const { return m_sourceIndex; }
    void setSourceIndex(qsizetype index) { m_sourceIndex = index; }
    /// The latest compaction that covers the item's message, or nullptr.
    CompactionItem *coveredBy() const { return m_coveredBy; }
    void setCoveredBy(CompactionItem *compaction) { m_coveredBy = compaction; }
    /// The rewind that rewound the item's message (AgentCore::Rewind), or nullptr.
    RewindItem *rewoundBy() const { return m_rewoundBy; }
    void setRewoundBy(RewindItem *rewind) { m_rewoundBy = rewind; }
    /// Covered by a compaction or rewound by a rewind whose originals are not shown, or by one
    /// that is itself collapsed: the view skips the item.
    bool isCollapsed() const;
    /// Greyed: the model no longer sees the item's message as it is.
    bool isSuperseded() const { return m_coveredBy || m_rewoundBy; }

    /// 1 normally; shrinks to 0 while the item is being removed.
    qreal presence() const { return m_presence; }
    void setPresence(qreal presence) { m_presence = presence; }

protected:
    virtual int estimateHeight(int width, const ConversationStyle &style) const = 0;
    virtual int doLayout(int width, const ConversationStyle &style) = 0;
    virtual void releaseLayout() {}

private:
    int m_top = 0;
    int m_height = 0;
    int m_heightWidth = -1; ///< width m_height was computed at (exactly or estimated)
    int m_layoutWidth = -1; ///< width of the cached exact layout, -1 without one
    qreal m_presence = 1.0;
    qsizetype m_sourceIndex = -1;
    CompactionItem *m_coveredBy = nullptr;
    RewindItem *m_rewoundBy = nullptr;
    bool m_cached = false;
};

} // namespace Ui
