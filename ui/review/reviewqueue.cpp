#include "reviewqueue.h"

#include "diffreviewview.h"
#include "reviewanswerbar.h"
#include "reviewviews.h"

#include <loop/toolkind.h>
#include <permissions/permissionbroker.h>

#include <QHBoxLayout>
#include <QLabel>
#include <QStackedWidget>
#include <QToolButton>
#include <QVBoxLayout>

namespace Ui {

namespace {

// Page 0 of the stack is the empty page; requests follow in arrival order.
constexpr int firstRequestPage = 1;

} // namespace

ReviewQueue::ReviewQueue(QWidget *parent)
    : QWidget(parent)
    , m_position(new QLabel(this))
    , m_previous(new QToolButton(this))
    , m_next(new QToolButton(this))
    , m_stack(new QStackedWidget(this))
{
    setAccessibleName(tr("Reviews"));
    m_position->setObjectName(QStringLiteral("queuePosition"));
    m_position->setForegroundRole(QPalette::PlaceholderText);
    m_previous->setObjectName(QStringLiteral("previousRequest"));
    m_next->setObjectName(QStringLiteral("nextRequest"));
    m_previous->setArrowType(Qt::LeftArrow);
    m_next->setArrowType(Qt::RightArrow);
    m_previous->setToolTip(tr("Previous request"));
    m_next->setToolTip(tr("Next request"));
    for (QToolButton *button : {m_previous, m_next}) {
        button->setAutoRaise(true);
        button->setFocusPolicy(Qt::NoFocus);
    }

    auto empty = new QLabel(tr("No tool call is waiting for your review."), m_stack);
    empty->setAlignment(Qt::AlignCenter);
    empty->setForegroundRole(QPalette::PlaceholderText);
    m_stack->addWidget(empty);

    auto header = new QHBoxLayout;
    header->setContentsMargins(8, 4, 8, 0);
    header->addWidget(m_position);
    header->addStretch();
    header->addWidget(m_previous);
    header->addWidget(m_next);

    auto layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(header);
    layout->addWidget(m_stack, 1);

    connect(m_previous, &QToolButton::clicked, this, [this] {
        m_stack->setCurrentIndex(std::max(firstRequestPage, m_stack->currentIndex() - 1));
        updatePosition();
    });
    connect(m_next, &QToolButton::clicked, this, [this] {
        m_stack->setCurrentIndex(std::min(m_stack->count() - 1, m_stack->currentIndex() + 1));
        updatePosition();
    });
    updatePosition();
}

ReviewQueue::~ReviewQueue() = default;

void ReviewQueue::setBroker(AgentCore::PermissionBroker *broker)
{
    for (const QMetaObject::Connection &connection : std::as_const(m_brokerConnections))
        disconnect(connection);
    m_brokerConnections.clear();
    // The old broker's reviews are its session's: they are not this one's to answer, and
    // left here they kept "A review waits…" in the message box of the next session.
    if (!broker || broker != m_broker) { // m_broker is null too once its broker is gone
        const QList<quint64> old = m_ids;
        for (const quint64 id : old)
            removeRequest(id);
    }
    m_broker = broker;
    if (!broker)
        return;
    m_brokerConnections << connect(broker,
                                   &AgentCore::PermissionBroker::requested,
                                   this,
                                   &ReviewQueue::addRequest)
                        << connect(broker,
                                   &AgentCore::PermissionBroker::withdrawn,
                                   this,
                                   &ReviewQueue::removeRequest)
                        << connect(broker,
                                   &AgentCore::PermissionBroker::answered,
                                   this,
                                   &ReviewQueue::finish);
    for (const AgentCore::PermissionRequest &request : broker->pending())
        addRequest(request);
}

void ReviewQueue::addRequest(const AgentCore::PermissionRequest &request)
{
    if (indexOf(request.id) >= 0)
        return; // pending() and a queued requested() can both announce it
    QWidget *view = createReviewView(request,
                                     m_stack,
                                     [this](quint64 id,
                                            const AgentCore::PermissionAnswer &answer,
                                            const QList<int> &rejectedHunks) {
                                         onAnswered(id, answer, rejectedHunks);
                                     });
    // Hidden widgets cannot take the focus; the stack shows only its current page, and the
    // current page changes below only when the queue was empty, which moves no focus (the
    // empty page holds none). So the composer keeps it.
    if (auto diff = qobject_cast<DiffReviewView *>(view))
        connect(diff, &DiffReviewView::editingChanged, this, &ReviewQueue::updateEditing);
    m_stack->addWidget(view);
    m_ids.append(request.id);
    m_requests.insert(request.id, request);
    if (m_stack->currentIndex() < firstRequestPage)
        m_stack->setCurrentIndex(firstRequestPage);
    updatePosition();
    emit countChanged(count());
}

void ReviewQueue::removeRequest(quint64 requestId)
{
    const int index = indexOf(requestId);
    if (index < 0)
        return;
    QWidget *view = m_stack->widget(firstRequestPage + index);
    // Moving to a neighbour first lets QStackedWidget carry the focus there when the answered
    // review had it (the user is working through the queue with the keyboard).
    if (m_stack->currentWidget() == view) {
        const int next = firstRequestPage + index + 1 < m_stack->count()
                             ? firstRequestPage + index + 1
                             : firstRequestPage + index - 1;
        m_stack->setCurrentIndex(next);
    }
    m_stack->removeWidget(view);
    m_ids.removeAt(index);
    m_requests.remove(requestId);
    view->deleteLater();
    updatePosition();
    emit countChanged(count());
}

int ReviewQueue::count() const
{
    return int(m_ids.size());
}

QList<quint64> ReviewQueue::requestIds() const
{
    return m_ids;
}

quint64 ReviewQueue::currentRequestId() const
{
    const int index = m_stack->currentIndex() - firstRequestPage;
    return index >= 0 && index < m_ids.size() ? m_ids.at(index) : 0;
}

QWidget *ReviewQueue::currentView() const
{
    return m_stack->currentIndex() >= firstRequestPage ? m_stack->currentWidget() : nullptr;
}

bool ReviewQueue::handleShortcutKey(const QKeyEvent *event)
{
    ReviewAnswerBar *answers = reviewAnswerBar(currentView());
    return answers && answers->handleShortcutKey(event);
}

void ReviewQueue::onAnswered(quint64 requestId,
                             const AgentCore::PermissionAnswer &answer,
                             const QList<int> &rejectedHunks)
{
    // The broker's asker (the permission middleware) applies only the kept hunks.
    AgentCore::PermissionAnswer withHunks = answer;
    withHunks.rejectedHunks = rejectedHunks;
    // The broker's answered() closes the review: the same way as an answer given elsewhere
    // (the window's approvals inbox), so both behave alike.
    if (m_broker && m_broker->answer(requestId, withHunks))
        return;
    finish(requestId, withHunks);
}

void ReviewQueue::finish(quint64 requestId, const AgentCore::PermissionAnswer &answer)
{
    const auto it = m_requests.constFind(requestId);
    if (it == m_requests.constEnd())
        return;
    const AgentCore::PermissionRequest request = *it;
    removeRequest(requestId);
    emit answered(requestId, answer, answer.rejectedHunks);
    emit requestAnswered(request, answer);
}

void ReviewQueue::updatePosition()
{
    const int index = m_stack->currentIndex() - firstRequestPage;
    const int total = count();
    m_position->setText(total == 0 ? tr("No pending requests")
                                   : tr("Request %1 of %2").arg(index + 1).arg(total));
    m_previous->setEnabled(index > 0);
    m_next->setEnabled(index + 1 < total);
    m_previous->setVisible(total > 1);
    m_next->setVisible(total > 1);
    updateEditing();
}

void ReviewQueue::updateEditing()
{
    const auto diff = qobject_cast<const DiffReviewView *>(currentView());
    const bool editing = diff && diff->isEditing();
    if (editing != m_editing) {
        m_editing = editing;
        emit editingChanged(editing);
    }
}

int ReviewQueue::indexOf(quint64 requestId) const
{
    return int(m_ids.indexOf(requestId));
}

} // namespace Ui

#include "moc_reviewqueue.cpp"
