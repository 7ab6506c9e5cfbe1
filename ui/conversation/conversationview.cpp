#include "conversationview.h"

#include "compactionitem.h"
#include "conversationaccessible.h"
#include "conversationitem.h"
#include "conversationmodel.h"
#include "conversationstyle.h"
#include "messageitem.h"
#include "rewinditem.h"
#include "taskcarditem.h"
#include "toolcarditem.h"

#include "common/background.h"

#include <session/sessionpages.h>

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QDateTime>
#include <QKeyEvent>
#include <QMenu>
#include <QPainter>
#include <QScrollBar>
#include <QStyleOptionToolButton>
#include <QStylePainter>
#include <QToolButton>
#include <QVariantAnimation>

namespace Ui {

// 60 repaints a second at most, however fast deltas arrive.
static constexpr int FrameMs = 16;
static constexpr int TickMs = 50;
static constexpr int RemovalMs = 180;

static qint64 nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

namespace {
/// A paged output read back (SessionPages::load), or why it could not be.
struct PagedLoad
{
    ToolCardItem::LoadedOutput output;
    QString error;
};

// Reads the file and decodes the pictures: off the UI thread (runInBackground).
PagedLoad loadPagedOutput(const std::shared_ptr<const AgentCore::SessionPages> &pages,
                          const QString &toolCallId)
{
    PagedLoad load;
    if (!pages) {
        load.error = ConversationView::tr("The whole output is in the session file, which is "
                                          "not open here.");
        return load;
    }
    QString error;
    // A seek and a read of the session file: off the UI thread (runInBackground).
    const std::optional<AgentCore::Message> whole = pages->load(toolCallId, &error);
    if (!whole) {
        load.error = error.isEmpty() ? ConversationView::tr("The whole output cannot be read.")
                                     : error;
        return load;
    }
    load.output.text = whole->text();
    load.output.isError = whole->isError;
    ToolCardItem::readPictures(whole->content, &load.output.pictures, &load.output.pictureNames);
    return load;
}

// The card of \a toolCallId in \a model or in a Task card's conversation inside it.
ToolCardItem *findCard(const ConversationModel &model, const QString &toolCallId)
{
    if (ToolCardItem *card = model.card(toolCallId))
        return card;
    for (int i = 0; i < model.count(); ++i) {
        const auto task = dynamic_cast<const TaskCardItem *>(model.at(i));
        if (ToolCardItem *card = task && task->child() ? findCard(*task->child(), toolCallId)
                                                       : nullptr)
            return card;
    }
    return nullptr;
}

// The cards in \a item (itself, or inside a Task card) that ask for their whole output.
void takeLoadRequests(ConversationItem *item, QList<std::pair<QString, quint64>> *requests)
{
    auto card = dynamic_cast<ToolCardItem *>(item);
    if (!card)
        return;
    if (const quint64 ticket = card->takeLoadRequest())
        requests->append({card->toolCallId(), ticket});
    if (const auto task = dynamic_cast<TaskCardItem *>(card); task && task->child()) {
        for (int i = 0; i < task->child()->count(); ++i)
            takeLoadRequests(task->child()->at(i), requests);
    }
}

/// The "Jump to latest" pill floats over the viewport, so every paint of the conversation
/// paints it too, and through its style sheet that costs more than a screen of text
/// (bench_ui resume: 6% of a scroll step). It is drawn once into a pixmap and copied from there
/// while it looks the same.
class JumpButton final : public QToolButton
{
public:
    using QToolButton::QToolButton;

protected:
    void paintEvent(QPaintEvent *) override
    {
        QStyleOptionToolButton option;
        initStyleOption(&option);
        const qreal ratio = devicePixelRatio();
        const Look look{size(), ratio, option.state, palette().cacheKey(), text(), font(), style()};
        if (m_pixmap.isNull() || !(look == m_look)) {
            m_pixmap = QPixmap(size() * ratio);
            m_pixmap.setDevicePixelRatio(ratio);
            m_pixmap.fill(Qt::transparent);
            QStylePainter painter(&m_pixmap, this);
            painter.drawComplexControl(QStyle::CC_ToolButton, option);
            m_look = look;
        }
        QPainter(this).drawPixmap(0, 0, m_pixmap);
    }

private:
    struct Look
    {
        QSize size;
        qreal ratio = 0;
        QStyle::State state;
        qint64 palette = 0;
        QString text;
        QFont font;
        const QStyle *style = nullptr;
        bool operator==(const Look &) const = default;
    };
    Look m_look;
    QPixmap m_pixmap;
};

} // namespace

ConversationView::ConversationView(QWidget *parent)
    : QAbstractScrollArea(parent)
    , m_model(std::make_unique<ConversationModel>())
    , m_jumpToLatest(new JumpButton(this))
{
    ConversationAccessible::install();
    setObjectName(QStringLiteral("conversation"));
    setAccessibleName(tr("Conversation"));
    setFrameShape(QFrame::NoFrame);
    setFocusPolicy(Qt::StrongFocus);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    viewport()->setMouseTracking(true);
    viewport()->setBackgroundRole(QPalette::Base);
    rebuildStyle();

    m_flushTimer.setSingleShot(true);
    m_flushTimer.setInterval(FrameMs);
    connect(&m_flushTimer, &QTimer::timeout, this, &ConversationView::flush);
    m_tickTimer.setSingleShot(true);
    m_tickTimer.setInterval(TickMs);
    connect(&m_tickTimer, &QTimer::timeout, viewport(), qOverload<>(&QWidget::update));

    m_model->setRemovalHandler([this](ConversationItem *item) { animateRemoval(item); });

    m_jumpToLatest->setObjectName(QStringLiteral("jumpToLatest"));
    //: Over the bottom of the conversation after the user scrolled up
    m_jumpToLatest->setText(tr("Jump to latest"));
    m_jumpToLatest->setToolTip(tr("Show the newest activity and follow it again (End)"));
    m_jumpToLatest->setArrowType(Qt::DownArrow);
    m_jumpToLatest->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_jumpToLatest->setCursor(Qt::PointingHandCursor);
    // A pill in the highlight colour, over the text: it must not pass for part of a message.
    m_jumpToLatest->setStyleSheet(QStringLiteral(
        "QToolButton { background: palette(highlight); color: palette(highlighted-text);"
        " border: 1px solid palette(dark); border-radius: 13px; padding: 4px 12px; }"
        "QToolButton:focus { border: 2px solid palette(text); }"));
    m_jumpToLatest->setFocusPolicy(Qt::TabFocus); // clicking it leaves the focus where it is
    m_jumpToLatest->hide();
    connect(m_jumpToLatest, &QToolButton::clicked, this, [this] {
        if (m_jumpToLatest->hasFocus())
            setFocus(Qt::OtherFocusReason); // the button hides: the focus stays nearby
        scrollToBottom();
    });
}

ConversationView::~ConversationView()
{
    stopRemovals();
}

void ConversationView::apply(const AgentCore::AgentEvent &event)
{
    m_model->apply(event, nowMs());
    scheduleFlush();
}

void ConversationView::addHookRun(const QString &toolCallId,
                                  const QString &summary,
                                  const QString &output)
{
    if (ToolCardItem *card = m_model->card(toolCallId)) {
        card->addHookRun(summary, output);
        scheduleFlush();
        return;
    }
    // A subagent's call: its card is inside a Task card.
    for (int i = m_model->count(); i-- > 0;) {
        auto task = dynamic_cast<TaskCardItem *>(m_model->at(i));
        if (task && task->addChildHookRun(toolCallId, summary, output)) {
            scheduleFlush();
            return;
        }
    }
}

void ConversationView::applySubagent(const QStringList &path,
                                     const QString &agentType,
                                     const QString &description,
                                     const AgentCore::AgentEvent &event)
{
    if (path.isEmpty())
        return;
    if (auto card = dynamic_cast<TaskCardItem *>(m_model->card(path.first()))) {
        card->applySubagent(path.mid(1), agentType, description, event, nowMs());
        scheduleFlush();
    }
}

void ConversationView::setSubagentTranscripts(
    const QHash<QString, QList<AgentCore::Message>> &transcripts)
{
    if (transcripts.isEmpty())
        return;
    for (int i = 0; i < m_model->count(); ++i) {
        if (auto card = dynamic_cast<TaskCardItem *>(m_model->at(i)))
            card->setTranscripts(transcripts, card->toolCallId());
    }
    scheduleFlush();
}

TaskCardItem *ConversationView::task(const QStringList &path) const
{
    if (path.isEmpty())
        return nullptr;
    auto card = dynamic_cast<TaskCardItem *>(m_model->card(path.first()));
    return card ? card->task(path.mid(1)) : nullptr;
}

void ConversationView::setFocusedTask(const QStringList &path)
{
    m_focusedTask = path;
    viewport()->update();
}

QRect ConversationView::focusedTaskRect() const
{
    if (m_focusedTask.isEmpty())
        return {};
    auto card = dynamic_cast<TaskCardItem *>(m_model->card(m_focusedTask.first()));
    if (!card || card->isCollapsed() || !card->isLaidOut(itemWidth()))
        return {};
    const QRect inner = card->taskRect(m_focusedTask.mid(1));
    if (inner.isEmpty())
        return {};
    return inner.translated(m_style->margin, card->top() - verticalScrollBar()->value());
}

bool ConversationView::taskKey(int key)
{
    TaskCardItem *card = task(m_focusedTask);
    if (!card)
        return false;
    if (key == Qt::Key_Escape) {
        // Only an open card's subagent: Esc elsewhere stops the whole task (the page's).
        if (!card->isOpen() || card->progress() != TaskCardItem::Progress::Running)
            return false;
        card->markStopRequested();
        emit stopSubagentRequested(m_focusedTask);
        scheduleFlush();
        return true;
    }
    auto outer = dynamic_cast<TaskCardItem *>(m_model->card(m_focusedTask.first()));
    card->setOpen(!card->isOpen());
    if (card != outer)
        outer->invalidate(); // it lays out the nested card again
    itemChangedByUser(outer);
    ensureVisible(outer);
    return true;
}

void ConversationView::setMessages(const QList<AgentCore::Message> &messages)
{
    m_focusedTask.clear();
    stopRemovals();
    m_live.clear();
    m_anchor = nullptr;
    m_keyItem = nullptr;
    emit aboutToRemoveItem(nullptr);
    m_model->setMessages(messages);
    applyBranchPoints();
    m_stickToBottom = true;
    scheduleFlush();
}

void ConversationView::setBranchPoints(const QList<BranchPoint> &points)
{
    m_branchPoints = points;
    applyBranchPoints();
    scheduleFlush();
}

void ConversationView::setBranchingOffered(bool offered)
{
    m_branchingOffered = offered;
}

// The bubble that shows the switcher of the branches parting at \a messageIndex: its own, or,
// for a message without one (a tool result), the first bubble after it.
MessageItem *ConversationView::branchItemFor(qsizetype messageIndex) const
{
    for (int i = 0; i < m_model->count(); ++i) {
        ConversationItem *item = m_model->at(i);
        if (item->sourceIndex() >= messageIndex
            && (item->kind() == ConversationItem::Kind::User
                || item->kind() == ConversationItem::Kind::Assistant))
            return static_cast<MessageItem *>(item);
    }
    return nullptr;
}

void ConversationView::applyBranchPoints()
{
    for (int i = 0; i < m_model->count(); ++i) {
        ConversationItem *item = m_model->at(i);
        if (item->kind() == ConversationItem::Kind::User
            || item->kind() == ConversationItem::Kind::Assistant)
            static_cast<MessageItem *>(item)->setBranch(-1, 0, 0);
    }
    for (const BranchPoint &point : std::as_const(m_branchPoints)) {
        if (MessageItem *item = branchItemFor(point.messageIndex))
            item->setBranch(point.messageIndex, point.position, point.count);
    }
}

void ConversationView::clear()
{
    setMessages({});
}

int ConversationView::itemCount() const
{
    return m_model->count();
}

int ConversationView::indexOf(const ConversationItem *item) const
{
    return m_model->indexOf(item);
}

QRect ConversationView::itemRect(int index) const
{
    const ConversationItem *item = itemAt(index);
    if (!item)
        return {};
    return QRect(m_style->margin,
                 item->top() - verticalScrollBar()->value(),
                 itemWidth(),
                 effectiveHeight(item));
}

const ConversationItem *ConversationView::itemAt(int index) const
{
    return index >= 0 && index < m_model->count() ? m_model->at(index) : nullptr;
}

void ConversationView::scrollToBottom()
{
    m_stickToBottom = true;
    flush();
}

void ConversationView::updateJumpButton()
{
    const QScrollBar *bar = verticalScrollBar();
    const bool show = !m_stickToBottom && bar->value() < bar->maximum() - 2;
    if (show) {
        const QSize size = m_jumpToLatest->sizeHint();
        const QRect area = viewport()->geometry();
        m_jumpToLatest->setGeometry(area.center().x() - size.width() / 2,
                                    area.bottom() - size.height() - m_style->margin,
                                    size.width(),
                                    size.height());
        m_jumpToLatest->raise();
    }
    if (show != m_jumpToLatest->isVisible()) {
        if (!show && m_jumpToLatest->hasFocus())
            setFocus(Qt::OtherFocusReason);
        m_jumpToLatest->setVisible(show);
    }
}

void ConversationView::scheduleFlush()
{
    m_placementValid = false;
    if (!m_flushTimer.isActive())
        m_flushTimer.start();
}

void ConversationView::flush()
{
    m_flushTimer.stop();
    m_placementValid = false;
    relayout();
    viewport()->update();
}

int ConversationView::itemWidth() const
{
    return qMax(1, viewport()->width() - 2 * m_style->margin);
}

int ConversationView::effectiveHeight(const ConversationItem *item) const
{
    if (item->isCollapsed())
        return 0;
    return qRound(item->currentHeight() * item->presence());
}

void ConversationView::placeItems(int width, int from)
{
    // The items before \a from are where they were: the walk starts at the first one that
    // moved or changed its height.
    int y = from > 0 ? m_model->at(from)->top() : m_style->margin;
    for (int i = from; i < m_model->count(); ++i) {
        ConversationItem *item = m_model->at(i);
        item->setTop(y);
        if (item->isCollapsed())
            continue; // behind a summary: no need to measure what is not shown
        const qreal presence = item->presence();
        if (const int height = qRound(item->measure(width, *m_style) * presence); height > 0)
            y += height + qRound(m_style->margin * presence);
    }
    m_contentHeight = y;
    m_placedWidth = width;
    m_placementValid = true;
}

// Items are in order and their tops never decrease: binary search.
int ConversationView::firstItemBelow(int y) const
{
    int low = 0;
    int high = m_model->count();
    while (low < high) {
        const int middle = (low + high) / 2;
        const ConversationItem *item = m_model->at(middle);
        if (item->top() + effectiveHeight(item) <= y)
            low = middle + 1;
        else
            high = middle;
    }
    return low;
}

int ConversationView::layoutVisible(int top, int width)
{
    // Half a screen beyond each edge, so that scrolling rarely meets an unlaid item.
    const int margin = viewport()->height() / 2;
    const int bottom = top + viewport()->height() + margin;
    int changed = m_model->count();
    for (int i = firstItemBelow(top - margin); i < m_model->count(); ++i) {
        ConversationItem *item = m_model->at(i);
        if (item->top() >= bottom)
            break;
        if (item->isLaidOut(width) || item->isCollapsed())
            continue;
        const int before = item->currentHeight();
        if (!item->hasLayout())
            m_live.push_back(item);
        if (item->layout(width, *m_style) != before)
            changed = std::min(changed, i);
    }
    return changed;
}

void ConversationView::relayout()
{
    if (m_inRelayout)
        return;
    m_inRelayout = true;
    QScrollBar *bar = verticalScrollBar();
    if (cutLargeOutputs(bar->value()))
        m_placementValid = false;
    const int width = itemWidth();
    const int viewHeight = viewport()->height();
    const int anchorOffset = m_anchor ? m_anchor->top() - bar->value() : 0;

    // Placing walks every item: a scroll step, which changes nothing but the items it lays
    // out, places again only from the first of those whose height changed.
    int placeFrom = m_placementValid && width == m_placedWidth ? m_model->count() : 0;
    int top = bar->value();
    for (int pass = 0; pass < 4; ++pass) {
        if (placeFrom < m_model->count() || !m_placementValid)
            placeItems(width, placeFrom);
        const int maximum = qMax(0, m_contentHeight - viewHeight);
        if (m_stickToBottom)
            top = maximum;
        else if (m_anchor)
            top = qBound(0, m_anchor->top() - anchorOffset, maximum);
        else
            top = qMin(top, maximum);
        placeFrom = layoutVisible(top, width);
        if (placeFrom >= m_model->count())
            break;
    }
    bar->setRange(0, qMax(0, m_contentHeight - viewHeight));
    bar->setPageStep(viewHeight);
    bar->setSingleStep(m_style->bodyMetrics.lineSpacing() * 2);
    bar->setValue(top);
    captureAnchor(top);
    dropFarLayouts(top);
    m_inRelayout = false;
    updateJumpButton();
}

void ConversationView::captureAnchor(int top)
{
    const int index = firstItemBelow(top);
    m_anchor = index < m_model->count() ? m_model->at(index) : nullptr;
}

// Keeps memory flat however long the conversation: documents and line indexes of items
// several screens away are rebuilt if the user scrolls back.
void ConversationView::dropFarLayouts(int top)
{
    const int keep = 3 * qMax(200, viewport()->height());
    for (size_t i = 0; i < m_live.size();) {
        ConversationItem *item = m_live[i];
        const bool far = item->top() + item->currentHeight() < top - keep
                         || item->top() > top + viewport()->height() + keep;
        // A collapsed item (behind a compaction's summary, or rewound) has no height: it sits
        // beside what is shown, never far, and a live session piles hundreds of them up there.
        if (far || item->isCollapsed() || !item->hasLayout()) {
            item->dropLayout();
            m_live[i] = m_live.back();
            m_live.pop_back();
        } else {
            ++i;
        }
    }
}

void ConversationView::paintEvent(QPaintEvent *event)
{
    if (m_flushTimer.isActive() && !m_inRelayout) {
        // An expose before the next frame: this paint shows the current state instead.
        m_flushTimer.stop();
        relayout();
    }
    QPainter painter(viewport());
    const QRect clip = event->rect();
    painter.fillRect(clip, m_style->canvas); // a shade off the cards, so they stand out
    const int top = verticalScrollBar()->value();
    const int width = itemWidth();
    const qint64 now = nowMs();
    bool animating = false;
    for (int i = firstItemBelow(top + clip.top()); i < m_model->count(); ++i) {
        ConversationItem *item = m_model->at(i);
        const int y = item->top() - top;
        if (y > clip.bottom())
            break;
        const int height = effectiveHeight(item);
        if (height <= 0 || !item->isLaidOut(width))
            continue;
        painter.save();
        painter.translate(m_style->margin, y);
        const QRect itemClip = clip.translated(-m_style->margin, -y) & QRect(0, 0, width, height);
        if (item->presence() < 1.0) {
            painter.setOpacity(item->presence());
            painter.setClipRect(QRect(0, 0, width, height));
        }
        if (item->isSuperseded()) {
            // An original a summary stands in for, or a rewound message: greyed, with a bar in
            // the margin, since the model no longer sees it.
            painter.fillRect(QRect(-m_style->margin / 2 - 2, 0, 3, height), m_style->muted);
            painter.setOpacity(painter.opacity() * 0.5);
        }
        item->paint(&painter, itemClip, *m_style, now);
        painter.restore();
        animating = animating || item->isAnimating();
    }
    if (animating && !m_tickTimer.isActive())
        m_tickTimer.start();
    if (m_keyItem && hasFocus() && !m_keyItem->isCollapsed()) {
        // The message the menu key acts on.
        const QRect rect(m_style->margin - 3,
                         m_keyItem->top() - top - 3,
                         width + 6,
                         effectiveHeight(m_keyItem) + 6);
        painter.setOpacity(1.0);
        painter.setRenderHint(QPainter::Antialiasing, true);
        painter.setPen(QPen(palette().color(QPalette::Highlight), 1.5, Qt::DashLine));
        painter.setBrush(Qt::NoBrush);
        painter.drawRoundedRect(QRectF(rect), m_style->radius, m_style->radius);
    }
    if (const QRect focused = focusedTaskRect(); !focused.isEmpty() && hasFocus()) {
        // The subagent's card the keys act on.
        painter.setOpacity(1.0);
        painter.setRenderHint(QPainter::Antialiasing, true);
        painter.setPen(QPen(palette().color(QPalette::Highlight), 1.5, Qt::DashLine));
        painter.setBrush(Qt::NoBrush);
        painter.drawRoundedRect(QRectF(focused.adjusted(-2, -2, 2, 2)),
                                m_style->radius,
                                m_style->radius);
    }
    if (hasFocus()) {
        // The view has no caret: a frame in the highlight colour says the keys come here.
        painter.setOpacity(1.0);
        painter.setRenderHint(QPainter::Antialiasing, false);
        QPen pen(palette().color(QPalette::Highlight), 2);
        pen.setJoinStyle(Qt::MiterJoin);
        painter.setPen(pen);
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(QRectF(viewport()->rect()).adjusted(1, 1, -1, -1));
    }
}

void ConversationView::keyPressEvent(QKeyEvent *event)
{
    QScrollBar *bar = verticalScrollBar();
    const Qt::KeyboardModifiers modifiers = event->modifiers() & ~Qt::KeypadModifier;
    const bool plain = modifiers == Qt::NoModifier || modifiers == Qt::ControlModifier;
    if (modifiers == Qt::AltModifier
        && (event->key() == Qt::Key_Left || event->key() == Qt::Key_Right) && m_keyItem
        && (m_keyItem->kind() == ConversationItem::Kind::User
            || m_keyItem->kind() == ConversationItem::Kind::Assistant)
        && static_cast<const MessageItem *>(m_keyItem)->hasBranches()) {
        emit branchStepRequested(static_cast<const MessageItem *>(m_keyItem)->branchMessageIndex(),
                                 event->key() == Qt::Key_Left ? -1 : 1);
        event->accept();
        return;
    }
    if (modifiers == Qt::AltModifier
        && (event->key() == Qt::Key_Up || event->key() == Qt::Key_Down)) {
        moveKeyItem(event->key() == Qt::Key_Up ? -1 : 1);
        event->accept();
        return;
    }
    if (modifiers == (Qt::ControlModifier | Qt::ShiftModifier) && event->key() == Qt::Key_G
        && m_branchingOffered) {
        emit branchTreeRequested();
        event->accept();
        return;
    }
    if (plain && event->key() == Qt::Key_End) {
        scrollToBottom();
        event->accept();
        return;
    }
    if (modifiers == Qt::NoModifier
        && (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter
            || event->key() == Qt::Key_Space || event->key() == Qt::Key_Escape)
        && taskKey(event->key())) {
        event->accept();
        return;
    }
    if (modifiers == Qt::NoModifier
        && (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter
            || event->key() == Qt::Key_Space)) {
        if (CompactionItem *compaction = compactionForKeys()) {
            if (event->key() == Qt::Key_Space)
                compaction->setSummaryExpanded(!compaction->summaryExpanded());
            else
                compaction->setOriginalsShown(!compaction->originalsShown());
            itemChangedByUser(compaction);
            ensureVisible(compaction);
            event->accept();
            return;
        }
    }
    if (plain && event->key() == Qt::Key_Home) {
        bar->setValue(0); // scrollContentsBy unsticks the view
        event->accept();
        return;
    }
    QAbstractScrollArea::keyPressEvent(event);
}

// The summary the keys act on: the first one on screen, else the latest one shown.
CompactionItem *ConversationView::compactionForKeys() const
{
    const int top = verticalScrollBar()->value();
    CompactionItem *latest = nullptr;
    for (int i = firstItemBelow(top); i < m_model->count(); ++i) {
        ConversationItem *item = m_model->at(i);
        if (item->top() >= top + viewport()->height())
            break;
        if (item->kind() == ConversationItem::Kind::Compaction && !item->isCollapsed())
            return static_cast<CompactionItem *>(item);
    }
    for (int i = m_model->count(); i-- > 0;) {
        ConversationItem *item = m_model->at(i);
        if (item->kind() == ConversationItem::Kind::Compaction && !item->isCollapsed()) {
            latest = static_cast<CompactionItem *>(item);
            break;
        }
    }
    return latest;
}

void ConversationView::ensureVisible(const ConversationItem *item)
{
    QScrollBar *bar = verticalScrollBar();
    const int top = item->top() - m_style->margin;
    const int bottom = item->top() + effectiveHeight(item) + m_style->margin;
    if (top < bar->value())
        bar->setValue(top);
    else if (bottom > bar->value() + viewport()->height())
        bar->setValue(qMin(top, bottom - viewport()->height()));
}

bool ConversationView::isItemShown(int index) const
{
    const ConversationItem *item = itemAt(index);
    return item && !item->isCollapsed();
}

void ConversationView::focusInEvent(QFocusEvent *event)
{
    QAbstractScrollArea::focusInEvent(event);
    viewport()->update();
}

void ConversationView::focusOutEvent(QFocusEvent *event)
{
    QAbstractScrollArea::focusOutEvent(event);
    viewport()->update();
}

void ConversationView::resizeEvent(QResizeEvent *event)
{
    QAbstractScrollArea::resizeEvent(event);
    relayout();
}

void ConversationView::scrollContentsBy(int dx, int dy)
{
    Q_UNUSED(dx)
    Q_UNUSED(dy)
    if (m_inRelayout)
        return;
    // Only the user moves the scroll bar outside relayout(): scrolling up unsticks the view,
    // scrolling back to the end sticks it again.
    const QScrollBar *bar = verticalScrollBar();
    m_stickToBottom = bar->value() >= bar->maximum() - 2;
    relayout();
    viewport()->update();
}

ConversationItem *ConversationView::itemAtPosition(QPoint viewportPos, QPoint *local) const
{
    const int y = viewportPos.y() + verticalScrollBar()->value();
    const int index = firstItemBelow(y);
    if (index >= m_model->count())
        return nullptr;
    ConversationItem *item = m_model->at(index);
    if (item->top() > y)
        return nullptr;
    *local = QPoint(viewportPos.x() - m_style->margin, y - item->top());
    return item;
}

void ConversationView::mousePressEvent(QMouseEvent *event)
{
    QPoint local;
    ConversationItem *item = itemAtPosition(event->position().toPoint(), &local);
    if (event->button() == Qt::LeftButton && item
        && item->kind() == ConversationItem::Kind::Rewind) {
        const auto rewind = static_cast<const RewindItem *>(item);
        if (rewind->undoRect().contains(local)) {
            emit undoRewindRequested(rewind->sourceIndex());
            return;
        }
    }
    if (event->button() == Qt::LeftButton && item
        && (item->kind() == ConversationItem::Kind::User
            || item->kind() == ConversationItem::Kind::Assistant)) {
        const auto message = static_cast<const MessageItem *>(item);
        if (const int step = message->branchStepAt(local); step != 0) {
            emit branchStepRequested(message->branchMessageIndex(), step);
            return;
        }
    }
    if (event->button() == Qt::LeftButton && item) {
        // The keys act on the innermost Task card clicked (Esc stops its subagent).
        if (auto card = dynamic_cast<TaskCardItem *>(item))
            setFocusedTask(QStringList{card->toolCallId()} + card->taskPathAt(local));
        else
            setFocusedTask({});
    }
    if (event->button() == Qt::LeftButton && item && item->click(local)) {
        itemChangedByUser(item);
        loadRequested(item);
        return;
    }
    QAbstractScrollArea::mousePressEvent(event);
}

void ConversationView::itemChangedByUser(ConversationItem *item)
{
    // The clicked item stays under the pointer while it grows or shrinks; the view sticks to
    // the bottom again only if that is where it ends up.
    m_anchor = item;
    m_stickToBottom = false;
    flush();
    const QScrollBar *bar = verticalScrollBar();
    m_stickToBottom = bar->value() >= bar->maximum() - 2;
    updateJumpButton();
}

void ConversationView::mouseMoveEvent(QMouseEvent *event)
{
    QPoint local;
    const ConversationItem *item = itemAtPosition(event->position().toPoint(), &local);
    viewport()->setCursor(item && item->isClickable(local) ? Qt::PointingHandCursor
                                                           : Qt::ArrowCursor);
    QAbstractScrollArea::mouseMoveEvent(event);
}

void ConversationView::contextMenuEvent(QContextMenuEvent *event)
{
    QPoint local;
    ConversationItem *item = nullptr;
    QPoint at = event->globalPos();
    if (event->reason() == QContextMenuEvent::Keyboard) {
        // The message Alt+Up / Alt+Down picked, else the latest one that can be rewound to.
        item = m_keyItem && !m_keyItem->isCollapsed() ? m_keyItem : nullptr;
        for (int i = m_model->count(); !item && i-- > 0;) {
            if (isRewindTarget(m_model->at(i)) && !m_model->at(i)->isCollapsed())
                item = m_model->at(i);
        }
        if (item) {
            setKeyItem(item);
            ensureVisible(item);
            flush();
            const QRect rect = itemRect(indexOf(item));
            at = viewport()->mapToGlobal(QPoint(rect.left() + m_style->margin,
                                                qBound(0, rect.top(), viewport()->height() - 1)));
        }
    } else {
        item = itemAtPosition(viewport()->mapFrom(this, event->pos()), &local);
    }
    if (!item)
        return;
    QMenu menu(this);
    addItemActions(&menu, item);
    menu.exec(at);
}

QMenu *ConversationView::createItemMenu(int index)
{
    auto menu = new QMenu(this);
    if (ConversationItem *item = index >= 0 && index < m_model->count() ? m_model->at(index)
                                                                        : nullptr)
        addItemActions(menu, item);
    return menu;
}

void ConversationView::addItemActions(QMenu *menu, ConversationItem *item)
{
    const QString text = item->plainText();
    menu->addAction(tr("Copy"), this, [text] { QApplication::clipboard()->setText(text); });
    if (const auto card = dynamic_cast<const ToolCardItem *>(item);
        card && (card->isPaged() || card->hasOutput())) {
        const QString toolCallId = card->toolCallId();
        //: In a tool card's context menu: its whole output, read from the session file if need be
        QAction *copy = menu->addAction(tr("Copy Output"), this, [this, toolCallId] {
            copyOutput(toolCallId);
        });
        copy->setObjectName(QStringLiteral("copyOutputAction"));
    }
    menu->setToolTipsVisible(true);
    if (isRewindTarget(item)) {
        const qsizetype index = item->sourceIndex();
        //: In a message's context menu: go back to the point right before this message
        QAction *rewind = menu->addAction(tr("Rewind to Here…"), this, [this, index] {
            emit rewindRequested(index);
        });
        rewind->setObjectName(QStringLiteral("rewindToHereAction"));
        rewind->setToolTip(m_rewindRefusal.isEmpty()
                               ? tr("Choose whether to bring back the files, the conversation "
                                    "or both as they were before this message")
                               : m_rewindRefusal);
        rewind->setEnabled(m_rewindRefusal.isEmpty());
    }
    addBranchActions(menu, item);
    if (item->kind() == ConversationItem::Kind::Rewind
        && static_cast<const RewindItem *>(item)->undoable()) {
        const qsizetype index = item->sourceIndex();
        QAction *undo = menu->addAction(RewindItem::undoText(), this, [this, index] {
            emit undoRewindRequested(index);
        });
        undo->setObjectName(QStringLiteral("undoRewindAction"));
        undo->setToolTip(m_rewindRefusal);
        undo->setEnabled(m_rewindRefusal.isEmpty());
    }
}

void ConversationView::addBranchActions(QMenu *menu, ConversationItem *item)
{
    if (!m_branchingOffered)
        return;
    const qsizetype index = item->sourceIndex();
    const auto offer = [this, menu](const QString &text, const char *name, const QString &tip) {
        QAction *action = menu->addAction(text);
        action->setObjectName(QLatin1String(name));
        action->setToolTip(m_rewindRefusal.isEmpty() ? tip : m_rewindRefusal);
        action->setEnabled(m_rewindRefusal.isEmpty());
        return action;
    };
    if (isRewindTarget(item) && item->kind() == ConversationItem::Kind::User) {
        //: In a user message's context menu: change it and send it again on a new branch
        connect(offer(tr("Edit and Resend…"),
                      "editAndResendAction",
                      tr("Change this message and send it again: a new branch of the "
                         "conversation; this one stays")),
                &QAction::triggered,
                this,
                [this, index] { emit editRequested(index); });
    }
    if (isRewindTarget(item)) {
        //: In a message's context menu: a new branch of the conversation that ends here
        connect(offer(tr("Fork from Here"),
                      "forkFromHereAction",
                      tr("A new branch that ends at this message: your next message "
                         "continues from here; this branch stays")),
                &QAction::triggered,
                this,
                [this, index] { emit forkHereRequested(index, false); });
        connect(offer(tr("Fork from Here and Restore Files"),
                      "forkFromHereWithFilesAction",
                      tr("The same, and the files as they were at this message (from the "
                         "session's checkpoints; files you changed yourself are kept)")),
                &QAction::triggered,
                this,
                [this, index] { emit forkHereRequested(index, true); });
    }
    const bool isBubble = item->kind() == ConversationItem::Kind::User
                          || item->kind() == ConversationItem::Kind::Assistant;
    if (isBubble && static_cast<const MessageItem *>(item)->hasBranches()) {
        const qsizetype at = static_cast<const MessageItem *>(item)->branchMessageIndex();
        //: In a message's context menu: the branch switcher from the keyboard
        QAction *previous = offer(tr("Previous Branch"), "previousBranchAction", {});
        previous->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Left));
        connect(previous, &QAction::triggered, this, [this, at] {
            emit branchStepRequested(at, -1);
        });
        QAction *next = offer(tr("Next Branch"), "nextBranchAction", {});
        next->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Right));
        connect(next, &QAction::triggered, this, [this, at] { emit branchStepRequested(at, 1); });
    }
    QAction *tree = menu->addAction(tr("Show Branches…"));
    tree->setObjectName(QStringLiteral("showBranchesAction"));
    tree->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_G));
    connect(tree, &QAction::triggered, this, &ConversationView::branchTreeRequested);
}

bool ConversationView::isRewindTarget(const ConversationItem *item)
{
    if (!item || item->rewoundBy() || item->sourceIndex() < 0)
        return false;
    switch (item->kind()) {
    case ConversationItem::Kind::User:
    case ConversationItem::Kind::Assistant:
    case ConversationItem::Kind::ToolCard:
        return true;
    case ConversationItem::Kind::Note:
    case ConversationItem::Kind::Compaction:
    case ConversationItem::Kind::Rewind:
        return false;
    }
    return false;
}

void ConversationView::setPages(std::shared_ptr<const AgentCore::SessionPages> pages)
{
    m_pages = std::move(pages);
    scheduleFlush();
}

void ConversationView::loadRequested(ConversationItem *item)
{
    QList<std::pair<QString, quint64>> requests;
    takeLoadRequests(item, &requests);
    for (const auto &[toolCallId, ticket] : std::as_const(requests)) {
        runInBackground(
            this,
            [pages = m_pages, toolCallId] { return loadPagedOutput(pages, toolCallId); },
            [this, toolCallId, ticket](const PagedLoad &load) {
                // The card may be gone (another history, a branch) or folded meanwhile, a new
                // one of the same call in its place: only the card that asked takes it.
                ToolCardItem *card = findCard(*m_model, toolCallId);
                if (!card || card->loadTicket() != ticket)
                    return;
                // The item of the view it is in: itself, or the Task card it is inside.
                ConversationItem *top = m_model->card(toolCallId);
                for (int i = 0; !top && i < m_model->count(); ++i) {
                    const auto task = dynamic_cast<TaskCardItem *>(m_model->at(i));
                    if (task && task->child() && findCard(*task->child(), toolCallId))
                        top = task;
                }
                if (load.error.isEmpty())
                    card->setLoaded(ticket, load.output);
                else
                    card->setLoadFailed(ticket, load.error);
                top->invalidate();
                // On the screen, it grows below the line the user clicked, as a whole card
                // does; scrolled away meanwhile, what is on the screen stays put.
                const int shown = verticalScrollBar()->value();
                if (top->top() < shown + viewport()->height()
                    && top->top() + effectiveHeight(top) > shown)
                    itemChangedByUser(top);
                else
                    scheduleFlush();
            });
    }
}

bool ConversationView::cutLargeOutputs(int top)
{
    if (!m_pages || m_model->largeOutputs().isEmpty())
        return false;
    bool cut = false;
    // A screen above and below stays as it is shown: cutting a card the user looks at would
    // change it under their eyes.
    const int near = qMax(200, viewport()->height());
    const QList<ToolCardItem *> cards = m_model->largeOutputs();
    for (ToolCardItem *card : cards) {
        if (!card->holdsLargeOutput()) {
            m_model->forgetLargeOutput(card);
            continue;
        }
        const bool placed = card->top() > 0; // placeItems() has not seen a card just made
        const bool shown = !card->isCollapsed() && card->top() + card->currentHeight() > top - near
                           && card->top() < top + viewport()->height() + near;
        if (!placed || shown || card->isOutputExpanded() || !m_pages->contains(card->toolCallId()))
            continue;
        if (card->cutToPreview(m_pages.get())) {
            m_model->forgetLargeOutput(card);
            cut = true;
        }
    }
    return cut;
}

void ConversationView::copyOutput(const QString &toolCallId)
{
    const ToolCardItem *card = findCard(*m_model, toolCallId);
    if (!card)
        return;
    if (const std::optional<QString> whole = card->wholeOutput()) {
        QApplication::clipboard()->setText(*whole);
        return;
    }
    runInBackground(
        this,
        [pages = m_pages, toolCallId] { return loadPagedOutput(pages, toolCallId); },
        [](const PagedLoad &load) {
            if (load.error.isEmpty())
                QApplication::clipboard()->setText(load.output.text);
        });
}

void ConversationView::setRewindRefusal(const QString &reason)
{
    m_rewindRefusal = reason;
}

void ConversationView::setKeyItem(const ConversationItem *item)
{
    const int index = indexOf(item);
    m_keyItem = index >= 0 ? m_model->at(index) : nullptr;
    viewport()->update();
}

// The previous or next message shown that can be rewound to, or a rewind (its Undo).
void ConversationView::moveKeyItem(int step)
{
    const int count = m_model->count();
    int index = m_keyItem ? indexOf(m_keyItem) : (step < 0 ? count : -1);
    for (index += step; index >= 0 && index < count; index += step) {
        ConversationItem *item = m_model->at(index);
        if (!item->isCollapsed()
            && (isRewindTarget(item) || item->kind() == ConversationItem::Kind::Rewind)) {
            m_keyItem = item;
            const auto card = dynamic_cast<const TaskCardItem *>(item);
            m_focusedTask = card ? QStringList{card->toolCallId()} : QStringList();
            ensureVisible(item);
            viewport()->update();
            return;
        }
    }
}

void ConversationView::changeEvent(QEvent *event)
{
    QAbstractScrollArea::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange
        || event->type() == QEvent::StyleChange) {
        rebuildStyle();
        scheduleFlush();
    }
}

void ConversationView::rebuildStyle()
{
    m_style = std::make_unique<ConversationStyle>(palette(), font());
    m_placementValid = false;
    for (ConversationItem *item : m_live)
        item->dropLayout();
    m_live.clear();
    for (int i = 0; i < m_model->count(); ++i)
        m_model->at(i)->invalidate();
}

void ConversationView::animateRemoval(ConversationItem *item)
{
    auto animation = new QVariantAnimation(this);
    animation->setStartValue(1.0);
    animation->setEndValue(0.0);
    animation->setDuration(RemovalMs);
    animation->setEasingCurve(QEasingCurve::InOutQuad);
    connect(animation, &QVariantAnimation::valueChanged, this, [this, item](const QVariant &value) {
        item->setPresence(value.toReal());
        scheduleFlush();
    });
    connect(animation, &QVariantAnimation::finished, this, [this, item] { removeItem(item); });
    animation->start(QAbstractAnimation::DeleteWhenStopped);
}

void ConversationView::removeItem(ConversationItem *item)
{
    std::erase(m_live, item);
    if (m_anchor == item)
        m_anchor = nullptr;
    if (m_keyItem == item)
        m_keyItem = nullptr;
    emit aboutToRemoveItem(item);
    if (!m_focusedTask.isEmpty() && m_model->card(m_focusedTask.first()) == item)
        m_focusedTask.clear();
    m_model->remove(item);
    scheduleFlush();
}

void ConversationView::stopRemovals()
{
    // A removal finishing after clear() would remove an item that is already gone.
    const auto animations = findChildren<QVariantAnimation *>(Qt::FindDirectChildrenOnly);
    for (QVariantAnimation *animation : animations) {
        disconnect(animation, nullptr, this, nullptr);
        delete animation;
    }
}

} // namespace Ui

#include "moc_conversationview.cpp"
