#pragma once

#include "conversationitem.h"

#include <context/compaction.h>

#include <QTextLayout>

#include <memory>

namespace Ui {

/// A compaction of the conversation (AgentCore::Compaction): "Summary of N earlier messages",
/// the model that wrote it and what it cost, the user's instructions, and the summary (its
/// first lines until expanded). The items of the messages it covers hide behind it
/// (ConversationItem::coveredBy) until "Show the N original messages" shows them again, in
/// place, greyed: the model no longer sees them.
class CompactionItem final : public ConversationItem
{
public:
    /// Lines of the summary shown while it is collapsed.
    static constexpr int CollapsedLines = 4;

    explicit CompactionItem(const AgentCore::Compaction &compaction);

    Kind kind() const override { return Kind::Compaction; }
    QString plainText() const override;

    const AgentCore::Compaction &compaction() const { return m_compaction; }
    /// The header: "Summary of 42 earlier messages".
    QString title() const;
    /// "Written by claude-sonnet-4 · 12.3k tokens · $0.04".
    QString byline() const;
    /// The toggle's text: "Show the 42 original messages" or "Hide the 42 original messages".
    QString originalsToggleText() const;

    bool originalsShown() const { return m_originalsShown; }
    void setOriginalsShown(bool shown);
    bool summaryExpanded() const { return m_summaryExpanded; }
    void setSummaryExpanded(bool expanded);
    /// Whether the summary is longer than its collapsed lines (at the last layout's width).
    bool summaryIsLong() const { return m_summaryLong; }
    /// Where the toggles are (item coordinates, as last laid out; empty without one).
    QRect originalsToggleRect() const { return m_geometry.originalsToggle; }
    QRect summaryToggleRect() const { return m_geometry.summaryToggle; }

    void paint(QPainter *painter,
               const QRect &clip,
               const ConversationStyle &style,
               qint64 nowMs) const override;
    bool click(QPoint pos) override;
    bool isClickable(QPoint pos) const override;

protected:
    int estimateHeight(int width, const ConversationStyle &style) const override;
    int doLayout(int width, const ConversationStyle &style) override;
    void releaseLayout() override;

private:
    struct Geometry
    {
        QRect card;
        QRect title;
        QRect byline;
        QRect instructions;
        QRect summary;
        QRect summaryToggle;
        QRect originalsToggle;
    };
    /// Where everything goes, with the summary \a summaryHeight tall (a toggle when \a isLong).
    Geometry computeGeometry(int width,
                             const ConversationStyle &style,
                             int summaryHeight,
                             bool isLong) const;
    /// Lays out the summary's shown lines into m_summaryLayout at \a width; their height, and
    /// in \a isLong whether the summary is longer than its collapsed lines.
    int layoutSummary(int width, const ConversationStyle &style, bool *isLong);
    QString instructionsText() const;
    QString summaryToggleText() const;

    AgentCore::Compaction m_compaction;
    bool m_originalsShown = false;
    bool m_summaryExpanded = false;
    bool m_summaryLong = false;
    Geometry m_geometry;
    /// The summary's lines as shown, laid out once per width and drawn from here. Collapsed,
    /// only its first CollapsedLines are laid out (a long summary costs what is shown, not a
    /// shaping of all of it for the height and again at every paint: the swap of a compaction
    /// arriving stays within a frame). Dropped with the item's layout.
    std::unique_ptr<QTextLayout> m_summaryLayout;
};

} // namespace Ui
