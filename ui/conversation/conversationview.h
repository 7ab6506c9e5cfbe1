#pragma once

#include <loop/agenttypes.h>
#include <loop/subagentevent.h>

#include <QAbstractScrollArea>
#include <QTimer>

#include <memory>
#include <vector>

QT_BEGIN_NAMESPACE
class QMenu;
class QToolButton;
QT_END_NAMESPACE

namespace AgentCore {
class SessionPages;
}

namespace Ui {

class CompactionItem;
class ConversationItem;
class ConversationModel;
class MessageItem;
class TaskCardItem;
struct ConversationStyle;

/// The conversation: user and assistant bubbles, tool cards and notes, fed with agent events.
/// Not a widget per message: items are laid out lazily (estimated heights until first shown),
/// only visible items are painted, and layouts of items far off-screen are dropped. Changes
/// are coalesced to at most 60 repaints a second; a streaming message re-lays out only itself.
/// The view follows new content unless the user scrolled up; then a "Jump to latest" button
/// shows over its bottom edge (End does the same). A compaction's summary hides the messages it
/// covers until its toggle (or Enter, for the summary on screen) shows them again; hiding and
/// showing only changes a flag each item reads, no item is rebuilt. A rewind hides the messages it
/// rewound the same way. Every user message and turn offers "Rewind to here…" in its context
/// menu (and a rewind "Undo rewind"); from the keyboard, Alt+Up and Alt+Down pick a message
/// (framed) and the menu key or Shift+F10 opens its menu. It draws a frame while it has the focus,
/// and screen readers see it as a list of its items (ConversationAccessible). UI thread only;
/// never blocks.
class ConversationView final : public QAbstractScrollArea
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConversationView)
public:
    explicit ConversationView(QWidget *parent = nullptr);
    ~ConversationView() override;

    /// Applies one lifecycle event of a run (see AgentCore::AgentEvent).
    void apply(const AgentCore::AgentEvent &event);
    /// A hook ran for the call \a toolCallId: its card lists it (ToolCardItem::addHookRun),
    /// a subagent's inside its Task card.
    void addHookRun(const QString &toolCallId, const QString &summary, const QString &output);
    /// One event of a subagent (AgentCore::SubagentEvent): \a path is the Task call ids from
    /// the outermost; the event goes to the conversation inside that call's card.
    void applySubagent(const QStringList &path,
                       const QString &agentType,
                       const QString &description,
                       const AgentCore::AgentEvent &event);
    void applySubagent(const AgentCore::SubagentEvent &event)
    {
        applySubagent(event.path, event.agentType, event.description, event.event);
    }
    /// Replaces the conversation with a loaded history.
    void setMessages(const QList<AgentCore::Message> &messages);
    /// A resumed session's subagents, each transcript under its path joined with "/"
    /// (SessionLog::Contents::subagents): shown in their Task cards, as they were.
    void setSubagentTranscripts(const QHash<QString, QList<AgentCore::Message>> &transcripts);
    /// The Task card at \a path (call ids from the outermost), or nullptr.
    TaskCardItem *task(const QStringList &path) const;
    /// The Task card the keys act on (Enter and Space fold or open it; Esc, while it is open
    /// and runs, stops its subagent alone): the one last clicked, innermost, or the one
    /// Alt+Up / Alt+Down picked. Empty: none.
    QStringList focusedTask() const { return m_focusedTask; }
    void setFocusedTask(const QStringList &path);
    void clear();

    int itemCount() const;
    /// The item at index, in display order; owned by the view, valid until the next change.
    const ConversationItem *itemAt(int index) const;
    /// Whether new content scrolls into view (true until the user scrolls up).
    bool isStuckToBottom() const { return m_stickToBottom; }
    /// Shows the newest item and follows new content again.
    void scrollToBottom();
    /// Shown while the user has scrolled up and there is more below.
    QToolButton *jumpToLatestButton() const { return m_jumpToLatest; }
    /// Where the item at index is, in viewport coordinates (empty if there is none).
    QRect itemRect(int index) const;
    /// False for an item hidden behind a compaction's summary (see CompactionItem).
    bool isItemShown(int index) const;
    /// -1 if the item is not (or no longer) in the view.
    int indexOf(const ConversationItem *item) const;
    /// Lays out and repaints pending changes now instead of at the next frame.
    void flush();

    /// Where the session file's paged tool outputs are (AgentCore::CodingSession::pages()):
    /// a card built from a stub reads its whole output from there when it is expanded or its
    /// output copied, off the UI thread; a card that got a large output live drops it for its
    /// preview once the file holds it and the card is off screen and folded. Null: nothing
    /// is paged (a stub's card says its output cannot be read).
    void setPages(std::shared_ptr<const AgentCore::SessionPages> pages);
    const std::shared_ptr<const AgentCore::SessionPages> &pages() const { return m_pages; }

    /// Non-empty: "Rewind to here…" is offered disabled, with this reason (a task runs).
    void setRewindRefusal(const QString &reason);

    /// Where the conversation's branches part (AgentCore::SessionTree): at raw message
    /// messageIndex, the branch shown is number position (from 1) of count.
    struct BranchPoint
    {
        qsizetype messageIndex = -1;
        int position = 0;
        int count = 0;
    };
    /// Shows a switcher ("‹ 2 / 3 ›", MessageItem::setBranch) on the message of each point
    /// (or the first bubble after it); kept for the items made later. Click its arrows, or
    /// Alt+Left / Alt+Right on the message Alt+Up / Alt+Down picked, to step.
    void setBranchPoints(const QList<BranchPoint> &points);
    /// Whether "Edit and resend" and "Fork from here" are offered (a recorded session).
    void setBranchingOffered(bool offered);
    /// The item the keys act on (Alt+Up / Alt+Down, the menu key), or nullptr.
    const ConversationItem *keyItem() const { return m_keyItem; }
    /// Picks the item the keys act on (one that can be rewound to, or a rewind).
    void setKeyItem(const ConversationItem *item);
    /// The context menu of the item at \a index as it would open (tests; the caller deletes it).
    QMenu *createItemMenu(int index);
    /// Whether the item can be the target of "Rewind to here": a user message or a turn (an
    /// answer or its tool call) that is not itself rewound.
    static bool isRewindTarget(const ConversationItem *item);

signals:
    /// "Rewind to here…" on an item: rewind to right before raw message \a messageIndex.
    void rewindRequested(qsizetype messageIndex);
    /// "Undo rewind" on the rewind whose message has raw index \a rewindIndex.
    void undoRewindRequested(qsizetype rewindIndex);
    /// "Edit and resend…" on the user message of raw index \a messageIndex.
    void editRequested(qsizetype messageIndex);
    /// "Fork from here" on raw message \a messageIndex (\a withFiles: "and restore files").
    void forkHereRequested(qsizetype messageIndex, bool withFiles);
    /// The switcher of the branches parting at raw message \a messageIndex: go \a step
    /// (-1 or +1) branches over.
    void branchStepRequested(qsizetype messageIndex, int step);
    /// "Show branches…": the tree view of the session's branches.
    void branchTreeRequested();
    /// Right before \a item is deleted (nullptr: all items are); pointers to it go stale.
    void aboutToRemoveItem(const Ui::ConversationItem *item);
    /// Esc on an open Task card whose subagent runs: stop that subagent (and its own) only.
    void stopSubagentRequested(const QStringList &path);

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void scrollContentsBy(int dx, int dy) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;
    void changeEvent(QEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void focusInEvent(QFocusEvent *event) override;
    void focusOutEvent(QFocusEvent *event) override;

private:
    void updateJumpButton();
    void scheduleFlush();
    void relayout();
    /// Lays out the items on and near the screen at \a top: the index of the first whose
    /// height changed, itemCount() when none did.
    int layoutVisible(int top, int width);
    /// Sets the tops of the items from \a from on (those before it stay where they are).
    void placeItems(int width, int from = 0);
    void captureAnchor(int top);
    void dropFarLayouts(int top);
    int itemWidth() const;
    int effectiveHeight(const ConversationItem *item) const;
    int firstItemBelow(int y) const;
    ConversationItem *itemAtPosition(QPoint viewportPos, QPoint *local) const;
    void animateRemoval(ConversationItem *item);
    void removeItem(ConversationItem *item);
    void stopRemovals();
    void rebuildStyle();
    void itemChangedByUser(ConversationItem *item);
    CompactionItem *compactionForKeys() const;
    void moveKeyItem(int step);
    void addItemActions(QMenu *menu, ConversationItem *item);
    void addBranchActions(QMenu *menu, ConversationItem *item);
    void applyBranchPoints();
    MessageItem *branchItemFor(qsizetype messageIndex) const;
    void ensureVisible(const ConversationItem *item);
    /// Enter, Space or Esc on the focused Task card; true if it used the key.
    bool taskKey(int key);
    /// Where the focused Task card is, in viewport coordinates; empty when it is not shown.
    QRect focusedTaskRect() const;
    /// Sends the load \a item asks for (ToolCardItem::takeLoadRequest), if any.
    void loadRequested(ConversationItem *item);
    /// Cuts the large outputs the session file holds to their previews, but on the cards
    /// near the screen at \a top.
    /// Whether it cut any (their heights changed).
    bool cutLargeOutputs(int top);
    /// "Copy Output": the card's whole output to the clipboard, read from the session file
    /// first when the card shows only its beginning.
    void copyOutput(const QString &toolCallId);

    std::unique_ptr<ConversationModel> m_model;
    std::unique_ptr<ConversationStyle> m_style;
    std::vector<ConversationItem *> m_live; ///< items holding cached layouts
    QTimer m_flushTimer;
    QTimer m_tickTimer; ///< repaints running tools' spinners and clocks
    int m_contentHeight = 0;
    bool m_stickToBottom = true;
    bool m_inRelayout = false;
    /// The tops set by placeItems() still hold: nothing changed since but what the view laid
    /// out itself (scheduleFlush() and flush() say something else did).
    bool m_placementValid = false;
    int m_placedWidth = -1;
    ConversationItem *m_anchor = nullptr; ///< first visible item: stays put when others resize
    QToolButton *m_jumpToLatest = nullptr;
    ConversationItem *m_keyItem = nullptr;
    QStringList m_focusedTask;
    QString m_rewindRefusal;
    QList<BranchPoint> m_branchPoints;
    bool m_branchingOffered = false;
    std::shared_ptr<const AgentCore::SessionPages> m_pages;
};

} // namespace Ui
