#pragma once

#include "agentsession/agentsession.h"

#include <QPointer>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QKeyEvent;
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
class LeftoverSteeringView;
class PictureStrip;
class ReviewQueue;
class RuleOfferBar;
class BranchController;
class RewindController;
class WelcomeView;
struct ModelOffer;

/// The centre of the window: the conversation (a welcome page until the first task), the
/// reviews waiting for an answer below it, and the composer with its Send / Stop button.
/// Bound to one AgentSession at a time; the composer's Enter, Alt+Enter and Esc and the
/// button go to it. A review arriving never takes the focus from the composer.
///
/// Keys, in this order of precedence:
/// 1. What the focused widget uses itself: the `@` list of the composer, a combo box's or
///    menu's popup, a dialog, the sessions list's rename editor take their Esc first.
/// 2. In the conversation, Esc on an open subagent's card that runs (the one last clicked, or
///    picked with Alt+Up / Alt+Down) stops that subagent alone (CodingSession::stopSubagent).
/// 3. While a review waits, Ctrl+Enter (allow once), Ctrl+Shift+Enter (allow for the session)
///    and Esc (to the Deny feedback field) answer it from the composer, the conversation and
///    the review itself; after the last answer the focus goes back to the composer if the
///    review had it. Esc does not stop a run that waits for a review: Ctrl+. still does.
/// 4. Otherwise Esc stops a running task (and every subagent) (escape(), which the window calls for Esc pressed
///    anywhere else in it).
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
    /// The models found on this computer, offered on the welcome page while the demo answers.
    void setModelOffers(const QList<ModelOffer> &offers);

    ConversationView *conversation() const { return m_conversation; }
    Composer *composer() const { return m_composer; }
    /// The thumbnails of the pictures given to the composer.
    PictureStrip *pictureStrip() const { return m_pictureStrip; }
    ReviewQueue *reviews() const { return m_reviews; }
    /// The steering a stopped task did not take, with Send Now and Discard.
    LeftoverSteeringView *leftoverSteering() const { return m_leftover; }
    /// The offer of an allow rule after the same call was approved several times.
    RuleOfferBar *ruleOffer() const { return m_ruleOffer; }
    QToolButton *sendStopButton() const { return m_sendStop; }
    /// Shown while the session is read-only (open in another window), with its fork button.
    QWidget *readOnlyNotice() const { return m_readOnlyNotice; }
    /// "Rewind to here" and "Undo rewind" of the conversation's items.
    RewindController *rewindController() const { return m_rewind; }
    /// Where a refused rewind says why (a task runs); hidden until one is refused.
    QLabel *rewindNotice() const { return m_rewindNotice; }
    /// "Edit and resend", "Fork from here", the branch switchers and the tree view.
    BranchController *branchController() const { return m_branches; }
    /// Above the message box while an earlier message is being edited ("Edit and resend"):
    /// what sending does, "and restore files", Cancel.
    QWidget *editNotice() const { return m_editNotice; }
    QCheckBox *editRestoresFiles() const { return m_editFiles; }
    /// The raw index of the message being edited; -1 when none is.
    qsizetype editedMessage() const { return m_editIndex; }
    /// "Edit and resend" on the user message \a messageIndex: its text in the message box;
    /// sending makes a new branch from right before it. false (the notice says why) when the
    /// conversation cannot branch now.
    bool editMessage(qsizetype messageIndex);
    void cancelEdit();
    /// Above the message box while its MCP prompt or resources are fetched, and when they
    /// could not be (the message was not sent); hidden otherwise.
    QLabel *mcpNotice() const { return m_mcpNotice; }

    /// Esc that no widget used: moves to a waiting review's feedback field, else stops a
    /// running task. False if it did neither.
    bool escape();

signals:
    /// The user wants to go on with a read-only session in a copy of its own.
    void forkRequested();
    /// The user chose a model the welcome page offered.
    void modelChosen(const Ui::ModelSelection &selection);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;

private:
    /// The composer's pictures follow the session's model: its limits, and whether it takes
    /// any (a message with pictures to one that does not is held with a note).
    void updatePictureModel();
    void onEvent(const AgentCore::AgentEvent &event);
    void onStateChanged(AgentSession::State state);
    void onReviewCountChanged(int count);
    void onReviewEditing(bool editing);
    /// Counts \a answer for the session's approval habits; shows the offer when one is due.
    void onReviewAnswered(const AgentCore::PermissionRequest &request,
                          const AgentCore::PermissionAnswer &answer);
    void addOfferedRule(const AgentCore::PermissionRule &rule);
    /// Tab goes from the conversation through the reviews and the bars to the composer.
    void updateTabChain();
    void sendOrStop();
    void updateSendStop(AgentSession::State state);
    /// Ctrl+Enter, Ctrl+Shift+Enter or Esc while a review waits; true if it was one of them.
    bool answerReviewKey(const QKeyEvent *event);
    void showConversation();
    /// Puts a message that was not sent back in the message box, its pictures too.
    void keepInComposer(const QString &text, const QList<AgentCore::ContentBlock> &pictures);
    void updatePendingSteering();
    /// The switchers of the conversation shown, from the session's branches.
    void updateBranchPoints();

    QPointer<AgentSession> m_session;
    QList<QMetaObject::Connection> m_connections;
    QMetaObject::Connection m_queueConnection;
    QSplitter *m_splitter;
    QStackedWidget *m_top;
    WelcomeView *m_welcome;
    ConversationView *m_conversation;
    ReviewQueue *m_reviews;
    QLabel *m_pendingSteering; // sent while the agent works, not yet taken by the loop
    LeftoverSteeringView *m_leftover;
    RuleOfferBar *m_ruleOffer;
    QWidget *m_readOnlyNotice;
    QLabel *m_readOnlyText;
    Composer *m_composer;
    PictureStrip *m_pictureStrip = nullptr;
    QToolButton *m_sendStop;
    RewindController *m_rewind;
    QLabel *m_rewindNotice;
    BranchController *m_branches;
    QWidget *m_editNotice;
    QLabel *m_editText;
    QCheckBox *m_editFiles;
    QToolButton *m_cancelEdit;
    qsizetype m_editIndex = -1;
    QLabel *m_mcpNotice;
    bool m_reviewSized = false;      // the splitter gave the reviews their first height
    QList<int> m_sizesBeforeEditing; // the split to go back to when the user stops editing
    int m_reviewCount = 0;
};

} // namespace Ui
