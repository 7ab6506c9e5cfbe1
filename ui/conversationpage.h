#pragma once

#include "agentsession.h"

#include <QPointer>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QLabel;
class QSplitter;
class QStackedWidget;
class QToolButton;
QT_END_NAMESPACE

namespace AgentCore {
struct Repository;
}

namespace Ui {

class Composer;
class ConversationView;
class ReviewQueue;
class WelcomeView;

/// The centre of the window: the conversation (a welcome page until the first task), the
/// reviews waiting for an answer below it, and the composer with its Send / Stop button.
/// Bound to one AgentSession at a time; the composer's Enter, Alt+Enter and Esc, the button
/// and Esc in the conversation go to it. Reviews never take the focus from the composer.
class ConversationPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConversationPage)
public:
    explicit ConversationPage(QWidget *parent = nullptr);
    ~ConversationPage() override;

    /// Not owned; null detaches. The conversation starts empty, or with the session's
    /// history when it was resumed.
    void setSession(AgentSession *session);
    void setRepository(const AgentCore::Repository &repository);

    ConversationView *conversation() const { return m_conversation; }
    Composer *composer() const { return m_composer; }
    ReviewQueue *reviews() const { return m_reviews; }
    QToolButton *sendStopButton() const { return m_sendStop; }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void onEvent(const AgentCore::AgentEvent &event);
    void onStateChanged(AgentSession::State state);
    void onReviewCountChanged(int count);
    void sendOrStop();
    void showConversation();
    void updatePendingSteering();

    QPointer<AgentSession> m_session;
    QList<QMetaObject::Connection> m_connections;
    QMetaObject::Connection m_queueConnection;
    QSplitter *m_splitter;
    QStackedWidget *m_top;
    WelcomeView *m_welcome;
    ConversationView *m_conversation;
    ReviewQueue *m_reviews;
    QLabel *m_pendingSteering; // sent while the agent works, not yet taken by the loop
    Composer *m_composer;
    QToolButton *m_sendStop;
    bool m_reviewSized = false; // the splitter gave the reviews their first height
};

} // namespace Ui
