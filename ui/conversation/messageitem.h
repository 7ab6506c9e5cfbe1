#pragma once

#include "conversationitem.h"
#include "renderedtext.h"

#include <ai/types.h>

#include <QImage>

namespace Ui {

/// A user or assistant bubble. Assistant text is markdown; thinking sits above it, collapsed
/// to a one-line summary until clicked. While streaming, deltas are appended and only this
/// item is laid out again.
class MessageItem final : public ConversationItem
{
public:
    explicit MessageItem(Kind kind);

    Kind kind() const override { return m_kind; }
    QString plainText() const override;

    /// Replaces the whole content with the message's text and thinking blocks.
    void setMessage(const AgentCore::Message &message);
    void appendText(int contentIndex, const QString &delta);
    void appendThinking(int contentIndex, const QString &delta);
    void setStreaming(bool streaming);
    /// A small line above the bubble ("Steering", "Follow-up"); empty: none.
    void setCaption(const QString &caption);
    QString caption() const { return m_caption; }
    /// The branch switcher "‹ 2 / 3 ›" above the bubble: the conversation's branches part at
    /// raw message \a messageIndex (this message's, or one shown in it), and this is branch
    /// \a position (from 1) of \a count there. A count below 2 hides it.
    void setBranch(qsizetype messageIndex, int position, int count);
    int branchPosition() const { return m_branchPosition; }
    int branchCount() const { return m_branchCount; }
    qsizetype branchMessageIndex() const { return m_branchIndex; }
    bool hasBranches() const { return m_branchCount > 1; }
    /// The switcher's text as shown ("‹ 2 / 3 ›"); empty without branches.
    QString branchLabel() const;
    /// -1 or +1 when \a pos (item coordinates) is on the switcher's previous or next arrow.
    int branchStepAt(QPoint pos) const;
    bool isStreaming() const { return m_streaming; }

    QString text() const { return m_body.text(); }
    /// The rendered reply (or question), as laid out last.
    const RenderedText &body() const { return m_body; }
    QString thinking() const { return m_thinking.text(); }
    /// The message's pictures as shown (a user's, at most maxPictureSize); a null image for one
    /// that cannot be read.
    const QList<QImage> &pictures() const { return m_pictures; }
    static constexpr QSize maxPictureSize{240, 180};
    bool isThinkingExpanded() const { return m_thinkingExpanded; }
    void setThinkingExpanded(bool expanded);
    /// The one line shown for collapsed thinking.
    QString thinkingSummary() const;

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
    bool isEmpty() const;
    int thinkingHeaderHeight(const ConversationStyle &style) const;
    int bubbleWidth(int width) const;
    int captionHeight(const ConversationStyle &style) const;

    Kind m_kind;
    RenderedText m_body;
    RenderedText m_thinking;
    QString m_caption;
    qsizetype m_branchIndex = -1;
    int m_branchPosition = 0;
    int m_branchCount = 0;
    QRect m_switcher; // laid out: the switcher's box above the bubble
    int m_lastTextIndex = -1;
    int m_lastThinkingIndex = -1;
    bool m_streaming = false;
    bool m_thinkingExpanded = false;
    QList<QImage> m_pictures;
    QStringList m_pictureNames; ///< "image/png, 800 × 600": for plainText()

    // Layout, in item coordinates.
    QRect m_bubble;
    QRect m_thinkingHeader;
    QPoint m_thinkingOrigin;
    QPoint m_bodyOrigin;
    QList<QRect> m_pictureRects;
};

} // namespace Ui
