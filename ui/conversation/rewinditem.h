#pragma once

#include "conversationitem.h"

#include <context/rewind.h>

namespace Ui {

/// A rewind of the conversation (AgentCore::Rewind): "Conversation and files rewound", what was
/// restored and kept, the toggle that shows the rewound messages again (in place, greyed: the
/// model no longer sees them; they hide behind this item, ConversationItem::rewoundBy) and
/// "Undo rewind", which the view turns into ConversationView::undoRewindRequested.
class RewindItem final : public ConversationItem
{
public:
    explicit RewindItem(const AgentCore::Rewind &rewind);

    Kind kind() const override { return Kind::Rewind; }
    QString plainText() const override;

    const AgentCore::Rewind &rewind() const { return m_rewind; }
    /// The header: "Conversation and files rewound".
    QString title() const;
    /// What it did: "2 files restored, 1 kept as it was · 6 messages rewound".
    QString byline() const;
    /// "Show the 6 rewound messages" / "Hide the 6 rewound messages"; empty
    /// when it rewound none.
    QString originalsToggleText() const;
    /// "Undo rewind"; shown while undoable().
    static QString undoText();

    /// How many items it hides (the view counts them).
    int rewoundCount() const { return m_rewoundCount; }
    void setRewoundCount(int count);
    bool originalsShown() const { return m_originalsShown; }
    void setOriginalsShown(bool shown);
    /// Whether "Undo rewind" is offered: not once a later rewind rewound this one.
    bool undoable() const { return m_undoable; }
    void setUndoable(bool undoable);

    QRect originalsToggleRect() const { return m_geometry.originalsToggle; }
    QRect undoRect() const { return m_geometry.undo; }

    void paint(QPainter *painter,
               const QRect &clip,
               const ConversationStyle &style,
               qint64 nowMs) const override;
    bool click(QPoint pos) override;
    bool isClickable(QPoint pos) const override;

protected:
    int estimateHeight(int width, const ConversationStyle &style) const override;
    int doLayout(int width, const ConversationStyle &style) override;

private:
    struct Geometry
    {
        QRect card;
        QRect title;
        QRect byline;
        QRect originalsToggle;
        QRect undo;
    };
    Geometry computeGeometry(int width, const ConversationStyle &style) const;

    AgentCore::Rewind m_rewind;
    int m_rewoundCount = 0;
    bool m_originalsShown = false;
    bool m_undoable = true;
    Geometry m_geometry;
};

} // namespace Ui
