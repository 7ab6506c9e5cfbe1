#pragma once

#include "conversationitem.h"

namespace Ui {

/// A quiet line between messages: a retry, an error, a run that stopped.
class NoteItem final : public ConversationItem
{
public:
    enum class Tone { Info, Error };

    explicit NoteItem(const QString &text, Tone tone = Tone::Info);

    Kind kind() const override { return Kind::Note; }
    QString plainText() const override { return m_text; }
    Tone tone() const { return m_tone; }

    void paint(QPainter *painter,
               const QRect &clip,
               const ConversationStyle &style,
               qint64 nowMs) const override;

protected:
    int estimateHeight(int width, const ConversationStyle &style) const override;
    int doLayout(int width, const ConversationStyle &style) override;

private:
    QString m_text;
    Tone m_tone;
    int m_width = 0;
};

} // namespace Ui
