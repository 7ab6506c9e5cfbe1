#pragma once

#include <permissions/permissionrequest.h>

#include <QHash>
#include <QPointer>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QKeyEvent;
class QLabel;
class QStackedWidget;
class QToolButton;
QT_END_NAMESPACE

namespace AgentCore {
class PermissionBroker;
}

namespace Ui {

/// The pending permission requests, one review at a time in the order they arrived
/// ("1 of 3", with previous/next to look ahead). Edit and Write get a DiffReviewView, Bash
/// a BashReviewView, what a command wrote (PermissionRequest::shellWrites) a
/// ShellWritesReviewView, anything else a plain answer bar. Answering calls
/// PermissionBroker::answer() and shows the next request; a request withdrawn, or answered
/// elsewhere (the approvals inbox answers the broker directly), disappears.
/// A new request NEVER takes the keyboard focus from where the user is typing; the focus
/// only moves from an answered review to the next one. UI thread.
class ReviewQueue final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ReviewQueue)
public:
    explicit ReviewQueue(QWidget *parent = nullptr);
    ~ReviewQueue() override;

    /// Shows the broker's pending requests and follows its signals. Not owned; may be null.
    void setBroker(AgentCore::PermissionBroker *broker);

    /// Without a broker (or for tests): queue a request; answers are only signalled.
    void addRequest(const AgentCore::PermissionRequest &request);
    void removeRequest(quint64 requestId);

    int count() const;
    QList<quint64> requestIds() const; ///< in arrival order
    quint64 currentRequestId() const;  ///< 0 when empty
    QWidget *currentView() const;
    /// A review key (Ctrl+Enter, Ctrl+Shift+Enter, Esc; see ReviewAnswerBar::addShortcuts)
    /// pressed outside the queue, forwarded by the window: the current review acts on it.
    /// False if the queue is empty or the key is none of those.
    bool handleShortcutKey(const QKeyEvent *event);

signals:
    /// After the broker (if any) was given the answer. \a rejectedHunks: Edit/Write only.
    void answered(quint64 requestId,
                  const AgentCore::PermissionAnswer &answer,
                  const QList<int> &rejectedHunks);
    void countChanged(int count);
    /// The review shown is (or no longer is) a proposal the user edits: the page gives the
    /// queue most of its height meanwhile (an editor of five lines is no place to write code).
    void editingChanged(bool editing);
    /// The same answer with the request it answered (AgentCore::ApprovalHabits counts them).
    void requestAnswered(const AgentCore::PermissionRequest &request,
                         const AgentCore::PermissionAnswer &answer);

private:
    void onAnswered(quint64 requestId,
                    const AgentCore::PermissionAnswer &answer,
                    const QList<int> &rejectedHunks);
    /// \a requestId was answered (here, or elsewhere through the broker): closes its review.
    void finish(quint64 requestId, const AgentCore::PermissionAnswer &answer);
    void updatePosition();
    /// Emits editingChanged when the current review's editing state differs from the last.
    void updateEditing();
    int indexOf(quint64 requestId) const;

    QPointer<AgentCore::PermissionBroker> m_broker;
    QList<QMetaObject::Connection> m_brokerConnections;
    bool m_editing = false; ///< as last told by editingChanged
    QList<quint64> m_ids;   ///< parallel to the stack's pages after the empty page
    QHash<quint64, AgentCore::PermissionRequest> m_requests; ///< the pending ones, by id
    QLabel *m_position;
    QToolButton *m_previous;
    QToolButton *m_next;
    QStackedWidget *m_stack;
};

} // namespace Ui
