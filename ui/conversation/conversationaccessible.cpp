#include "conversationaccessible.h"

#include "compactionitem.h"
#include "conversationitem.h"
#include "conversationview.h"
#include "messageitem.h"
#include "noteitem.h"
#include "rewinditem.h"
#include "taskcarditem.h"
#include "toolcarditem.h"

#include <QDateTime>
#include <QToolButton>
#include <QWidget>

namespace Ui {

namespace {

// A name is what a screen reader says first; the whole text is in the description.
constexpr int maxNameLength = 300;

QAccessibleInterface *factory(const QString &className, QObject *object)
{
    Q_UNUSED(className)
    if (auto view = qobject_cast<ConversationView *>(object))
        return new ConversationAccessible(view);
    return nullptr;
}

QString toolState(ToolCardItem::State state)
{
    switch (state) {
    case ToolCardItem::State::Pending:
        return ConversationView::tr("waiting");
    case ToolCardItem::State::Running:
        return ConversationView::tr("running");
    case ToolCardItem::State::Succeeded:
        return ConversationView::tr("done");
    case ToolCardItem::State::Failed:
        return ConversationView::tr("failed");
    case ToolCardItem::State::NotRun:
        return ConversationView::tr("not run");
    case ToolCardItem::State::Stopped:
        return ConversationView::tr("stopped");
    }
    return {};
}

QString shortened(const QString &text)
{
    const QString simple = text.simplified();
    return simple.size() <= maxNameLength ? simple : simple.left(maxNameLength - 1) + u'…';
}

} // namespace

ConversationAccessible::ConversationAccessible(ConversationView *view)
    : QAccessibleWidget(view, QAccessible::List)
{
    m_removals = QObject::connect(view,
                                  &ConversationView::aboutToRemoveItem,
                                  view,
                                  [this](const ConversationItem *item) { release(item); });
}

ConversationAccessible::~ConversationAccessible()
{
    QObject::disconnect(m_removals);
    for (const QAccessible::Id id : std::as_const(m_items))
        QAccessible::deleteAccessibleInterface(id);
}

void ConversationAccessible::install()
{
    static bool installed = false;
    if (!installed) {
        QAccessible::installFactory(factory);
        installed = true;
    }
}

ConversationView *ConversationAccessible::view() const
{
    return static_cast<ConversationView *>(widget());
}

int ConversationAccessible::childCount() const
{
    return view()->itemCount() + (view()->jumpToLatestButton()->isVisible() ? 1 : 0);
}

QAccessibleInterface *ConversationAccessible::child(int index) const
{
    if (index < 0)
        return nullptr;
    if (index < view()->itemCount())
        return itemInterface(index);
    if (index == view()->itemCount() && view()->jumpToLatestButton()->isVisible())
        return QAccessible::queryAccessibleInterface(view()->jumpToLatestButton());
    return nullptr;
}

int ConversationAccessible::indexOfChild(const QAccessibleInterface *child) const
{
    if (!child)
        return -1;
    if (child->object() && child->object() == view()->jumpToLatestButton())
        return view()->jumpToLatestButton()->isVisible() ? view()->itemCount() : -1;
    for (auto it = m_items.cbegin(); it != m_items.cend(); ++it) {
        if (QAccessible::accessibleInterface(it.value()) == child)
            return view()->indexOf(it.key());
    }
    return -1;
}

QAccessibleInterface *ConversationAccessible::childAt(int x, int y) const
{
    const QPoint local = view()->viewport()->mapFromGlobal(QPoint(x, y));
    if (view()->jumpToLatestButton()->isVisible()
        && view()->jumpToLatestButton()->geometry().contains(view()->mapFromGlobal(QPoint(x, y))))
        return QAccessible::queryAccessibleInterface(view()->jumpToLatestButton());
    for (int i = 0; i < view()->itemCount(); ++i) {
        if (view()->itemRect(i).contains(local))
            return itemInterface(i);
    }
    return nullptr;
}

QAccessibleInterface *ConversationAccessible::itemInterface(int index) const
{
    const ConversationItem *item = view()->itemAt(index);
    if (!item)
        return nullptr;
    if (const auto it = m_items.constFind(item); it != m_items.cend()) {
        if (QAccessibleInterface *existing = QAccessible::accessibleInterface(it.value()))
            return existing;
    }
    auto iface = new ConversationItemAccessible(view(), item);
    m_items.insert(item, QAccessible::registerAccessibleInterface(iface));
    return iface;
}

void ConversationAccessible::release(const ConversationItem *item)
{
    if (item) {
        if (const auto it = m_items.constFind(item); it != m_items.cend()) {
            QAccessible::deleteAccessibleInterface(it.value());
            m_items.erase(it);
        }
        return;
    }
    for (const QAccessible::Id id : std::as_const(m_items))
        QAccessible::deleteAccessibleInterface(id);
    m_items.clear();
}

ConversationItemAccessible::ConversationItemAccessible(ConversationView *view,
                                                       const ConversationItem *item)
    : m_view(view)
    , m_item(item)
{}

int ConversationItemAccessible::index() const
{
    return m_view ? m_view->indexOf(m_item) : -1;
}

bool ConversationItemAccessible::isValid() const
{
    return index() >= 0;
}

QWindow *ConversationItemAccessible::window() const
{
    return m_view ? m_view->window()->windowHandle() : nullptr;
}

QAccessibleInterface *ConversationItemAccessible::parent() const
{
    return m_view ? QAccessible::queryAccessibleInterface(m_view.data()) : nullptr;
}

QString ConversationItemAccessible::text(QAccessible::Text type) const
{
    if (!isValid())
        return {};
    switch (type) {
    case QAccessible::Name:
        switch (m_item->kind()) {
        case ConversationItem::Kind::User: {
            const auto message = static_cast<const MessageItem *>(m_item);
            //: Screen reader: a message the user sent ("You: fix the crash")
            return message->caption().isEmpty()
                       ? ConversationView::tr("You: %1").arg(shortened(message->plainText()))
                       : ConversationView::tr("You (%1): %2")
                             .arg(message->caption(), shortened(message->plainText()));
        }
        case ConversationItem::Kind::Assistant: {
            const auto message = static_cast<const MessageItem *>(m_item);
            //: Screen reader: an answer of the agent
            return ConversationView::tr("Agent: %1").arg(shortened(message->plainText()));
        }
        case ConversationItem::Kind::ToolCard: {
            if (const auto task = dynamic_cast<const TaskCardItem *>(m_item)) {
                //: Screen reader: a subagent's card, "Subagent explore: Find the parser, done,
                //: folded"
                return ConversationView::tr("Subagent %1: %2, %3, %4")
                    .arg(task->agentType(),
                         shortened(task->description()),
                         task->progressText(QDateTime::currentMSecsSinceEpoch()),
                         task->isOpen() ? ConversationView::tr("open")
                                        : ConversationView::tr("folded"));
            }
            const auto card = static_cast<const ToolCardItem *>(m_item);
            //: Screen reader: a tool call, "Tool Bash: make test, done"
            return ConversationView::tr("Tool %1: %2, %3")
                .arg(card->toolName(), shortened(card->keyArgument()), toolState(card->state()));
        }
        case ConversationItem::Kind::Note:
            //: Screen reader: a note of the app in the conversation ("Stopped.")
            return ConversationView::tr("Note: %1").arg(shortened(m_item->plainText()));
        case ConversationItem::Kind::Compaction: {
            const auto compaction = static_cast<const CompactionItem *>(m_item);
            //: Screen reader: a compaction's summary, "Summary of 42 earlier messages: ..."
            return ConversationView::tr("%1: %2, %3")
                .arg(compaction->title(),
                     shortened(compaction->compaction().summary),
                     compaction->originalsToggleText());
        }
        case ConversationItem::Kind::Rewind: {
            const auto rewind = static_cast<const RewindItem *>(m_item);
            //: Screen reader: a rewind, "Conversation rewound: 6 messages no longer sent ..."
            return ConversationView::tr("%1: %2").arg(rewind->title(), rewind->byline());
        }
        }
        return {};
    case QAccessible::Description:
        return m_item->plainText();
    default:
        return {};
    }
}

QRect ConversationItemAccessible::rect() const
{
    const int i = index();
    if (i < 0)
        return {};
    const QRect local = m_view->itemRect(i);
    return QRect(m_view->viewport()->mapToGlobal(local.topLeft()), local.size());
}

QAccessible::Role ConversationItemAccessible::role() const
{
    return QAccessible::ListItem;
}

QAccessible::State ConversationItemAccessible::state() const
{
    QAccessible::State state;
    state.readOnly = true;
    const int i = index();
    if (i < 0) {
        state.invalid = true;
        return state;
    }
    if (!m_view->viewport()->rect().intersects(m_view->itemRect(i)))
        state.offscreen = true;
    if (m_item->isCollapsed()) // behind a compaction's summary until its originals are shown
        state.invisible = true;
    if (const auto message = dynamic_cast<const MessageItem *>(m_item))
        state.busy = message->isStreaming();
    if (const auto card = dynamic_cast<const ToolCardItem *>(m_item))
        state.busy = card->state() == ToolCardItem::State::Running;
    return state;
}

} // namespace Ui
