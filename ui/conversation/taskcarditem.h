#pragma once

#include "toolcarditem.h"

#include <ai/types.h>

#include <memory>
#include <vector>

namespace Ui {

class ConversationModel;

/// The card of a Task call: a subagent the agent delegated to, watched live. Its header names
/// the subagent (its type and the call's description), says whether it runs, is done or was
/// stopped, and what it used (tokens and cost, its own subagents' included). Folded (as it
/// starts) it shows one line of what the subagent does now and lays out nothing of the child's
/// conversation; open, the child's messages, tool cards and notes are drawn inside it by the
/// same items as the main conversation, from a ConversationModel of its own, and a Task call
/// of the child nests its own card there. A click on the header (Enter or Space on the card
/// the keys act on, in the view) folds or opens it.
class TaskCardItem final : public ToolCardItem
{
public:
    /// How a subagent's run stands, as its header says it.
    enum class Progress {
        Waiting, ///< the model is still writing the Task call
        Running,
        Done,
        Stopped, ///< stopped by the user (Esc on its card, or Stop)
        Failed,
    };

    explicit TaskCardItem(const QString &toolCallId);
    ~TaskCardItem() override;

    /// Whether calls of \a toolName get a TaskCardItem ("Task").
    static bool isTask(const QString &toolName);

    QString plainText() const override;

    /// The subagent's type ("explore", "general"): what its events said, else the call's
    /// subagent_type.
    QString agentType() const;
    /// The call's description ("Find the SSE parser").
    QString description() const;
    Progress progress() const;
    /// "running", "done", "stopped", "failed" (with the time taken).
    QString progressText(qint64 nowMs) const;
    /// The tokens and cost of the subagent and of its own subagents.
    const AgentCore::Usage &usage() const { return m_usage; }
    /// "12k tokens · $0.03" (empty before the first reply).
    QString usageText() const;
    /// What the folded card says under its header: the tool calls so far and the latest one.
    QString activityText() const;

    bool isOpen() const { return m_open; }
    void setOpen(bool open);
    /// The subagent's conversation (never null).
    ConversationModel *child() const { return m_child.get(); }

    /// One event of the subagent \a rest below this card (empty: this card's own subagent;
    /// ["call_7"]: the subagent of its Task call call_7, and so on down).
    void applySubagent(const QStringList &rest,
                       const QString &agentType,
                       const QString &description,
                       const AgentCore::AgentEvent &event,
                       qint64 nowMs);
    /// A resumed session: this card's subagent's transcript is \a transcripts[\a key], its
    /// own subagents' are under "key/their call id" (SessionLog::Contents::subagents).
    void setTranscripts(const QHash<QString, QList<AgentCore::Message>> &transcripts,
                        const QString &key);
    /// The user stopped this subagent: its call's error result shows as "stopped".
    void markStopRequested();
    /// The Task call ended (or the run did): what the child had not finished never will be,
    /// down to its own subagents (no spinner goes on in a card that ended).
    void endChild();

    /// A hook ran for tool call \a toolCallId of the child or of its own subagents: that
    /// card lists it (ToolCardItem::addHookRun). false when none of them made the call.
    bool addChildHookRun(const QString &toolCallId, const QString &summary, const QString &output);
    /// The Task card \a rest below this one (empty: this one), or nullptr.
    TaskCardItem *task(const QStringList &rest);
    /// Where that card is, in this item's coordinates (laid out); empty if it is not shown.
    QRect taskRect(const QStringList &rest) const;
    /// The path, below this card, of the innermost Task card at \a pos (this item's
    /// coordinates): empty for this card itself.
    QStringList taskPathAt(QPoint pos) const;
    /// The header's rectangle (what a click folds or opens).
    QRect headerRect() const { return m_header; }

    void paint(QPainter *painter,
               const QRect &clip,
               const ConversationStyle &style,
               qint64 nowMs) const override;
    bool click(QPoint pos) override;
    bool isClickable(QPoint pos) const override;
    bool isAnimating() const override;

protected:
    int estimateHeight(int width, const ConversationStyle &style) const override;
    int doLayout(int width, const ConversationStyle &style) override;
    void releaseLayout() override;

private:
    /// The child's item at \a pos (this item's coordinates, open only), with \a local set.
    ConversationItem *childAt(QPoint pos, QPoint *local) const;
    int headerHeight(const ConversationStyle &style) const;
    void countUsage(const AgentCore::Message &message);

    std::unique_ptr<ConversationModel> m_child;
    QString m_agentType;
    QString m_description;
    AgentCore::Usage m_usage;
    bool m_costKnown = true;
    bool m_open = false;
    bool m_stopRequested = false;
    bool m_childAborted = false; ///< the child's last reply ended aborted
    QString m_answer;            ///< the child's latest text, for the folded line

    // Layout, in item coordinates.
    int m_width = 0;
    QRect m_header;
    QRect m_activity;
    QRect m_area;                 ///< the child's conversation, open only
    std::vector<int> m_childTops; ///< per child item: its top inside the card (-1: hidden)
};

} // namespace Ui
