#include "conversationitem.h"

#include "compactionitem.h"
#include "rewinditem.h"

namespace Ui {

int ConversationItem::measure(int width, const ConversationStyle &style)
{
    if (m_heightWidth != width) {
        m_height = estimateHeight(width, style);
        m_heightWidth = width;
    }
    return m_height;
}

int ConversationItem::layout(int width, const ConversationStyle &style)
{
    if (m_layoutWidth != width) {
        m_height = doLayout(width, style);
        m_layoutWidth = width;
        m_heightWidth = width;
        m_cached = true;
    }
    return m_height;
}

void ConversationItem::dropLayout()
{
    if (!m_cached)
        return;
    releaseLayout();
    m_cached = false;
    m_layoutWidth = -1;
}

bool ConversationItem::isCollapsed() const
{
    // The covering item comes later in the conversation: the recursion ends.
    if (m_rewoundBy && (!m_rewoundBy->originalsShown() || m_rewoundBy->isCollapsed()))
        return true;
    return m_coveredBy && (!m_coveredBy->originalsShown() || m_coveredBy->isCollapsed());
}

void ConversationItem::invalidate()
{
    m_layoutWidth = -1;
    m_heightWidth = -1;
}

} // namespace Ui
