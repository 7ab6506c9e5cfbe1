#include "conversationpage.h"

#include "common/tabchain.h"
#include "composer/composer.h"
#include "composer/composerpictures.h"
#include "composer/picturestrip.h"
#include "conversation/conversationview.h"
#include "leftoversteeringview.h"
#include "review/reviewqueue.h"
#include "review/ruleofferbar.h"
#include "rewind/branchcontroller.h"
#include "rewind/rewindcontroller.h"
#include "welcomeview.h"

#include <ai/modelcatalog.h>
#include <loop/agent.h>

#include <QApplication>
#include <QCheckBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QSplitter>
#include <QStackedWidget>
#include <QStyle>
#include <QTextCursor>
#include <QToolButton>
#include <QVBoxLayout>

namespace Ui {

ConversationPage::ConversationPage(QWidget *parent)
    : QWidget(parent)
    , m_splitter(new QSplitter(Qt::Vertical, this))
    , m_top(new QStackedWidget(m_splitter))
    , m_welcome(new WelcomeView(m_top))
    , m_conversation(new ConversationView(m_top))
    , m_reviews(new ReviewQueue(m_splitter))
    , m_pendingSteering(new QLabel(this))
    , m_leftover(new LeftoverSteeringView(this))
    , m_ruleOffer(new RuleOfferBar(this))
    , m_readOnlyNotice(new QWidget(this))
    , m_readOnlyText(new QLabel(m_readOnlyNotice))
    , m_composer(new Composer(this))
    , m_sendStop(new QToolButton(this))
    , m_rewind(new RewindController(this, this))
    , m_rewindNotice(new QLabel(this))
    , m_branches(new BranchController(this, m_rewind, this))
    , m_editNotice(new QWidget(this))
    , m_editText(new QLabel(m_editNotice))
    , m_editFiles(new QCheckBox(m_editNotice))
    , m_mcpNotice(new QLabel(this))
{
    setObjectName(QStringLiteral("conversationPage"));
    connect(m_conversation, &ConversationView::rewindRequested, m_rewind, [this](qsizetype index) {
        m_rewind->requestRewind(index);
    });
    connect(m_conversation,
            &ConversationView::undoRewindRequested,
            m_rewind,
            [this](qsizetype index) { m_rewind->undoRewind(index); });
    m_rewindNotice->setObjectName(QStringLiteral("rewindNotice"));
    m_rewindNotice->setWordWrap(true);
    m_rewindNotice->setTextFormat(Qt::PlainText);
    m_rewindNotice->setAccessibleName(tr("Why the rewind was refused"));
    m_rewindNotice->hide();
    connect(m_rewind, &RewindController::refused, this, [this](const QString &reason) {
        //: Above the message box when a rewind could not be done
        m_rewindNotice->setText(tr("Rewind refused: %1").arg(reason));
        m_rewindNotice->show();
    });
    connect(m_rewind, &RewindController::restoringFiles, this, [this] {
        //: Above the message box while a confirmed rewind writes the files back
        m_rewindNotice->setText(tr("Rewinding: restoring the files. What you send meanwhile "
                                   "waits for it."));
        m_rewindNotice->show();
    });
    connect(m_rewind,
            &RewindController::rewound,
            this,
            [this](const AgentCore::Rewind &, const QString &userText) {
                m_rewindNotice->hide();
                // The message rewound away is offered again, unless something else was typed.
                if (!userText.isEmpty() && m_composer->toPlainText().trimmed().isEmpty())
                    m_composer->setPlainText(userText);
                m_composer->setFocus(Qt::OtherFocusReason);
            });
    connect(m_conversation, &ConversationView::editRequested, this, &ConversationPage::editMessage);
    connect(m_conversation,
            &ConversationView::forkHereRequested,
            m_branches,
            [this](qsizetype index, bool withFiles) {
                if (!m_branches->fork(index, withFiles) || m_session->codingSession()->isRewinding())
                    return; // refused, or the files are being restored: the notice says so
                //: Above the message box after "Fork from here"
                m_rewindNotice->setText(tr("A new branch ends at that message: what you send "
                                           "next continues from it. The other branch stays "
                                           "(Show Branches…, Ctrl+Shift+G)."));
                m_rewindNotice->show();
                m_composer->setFocus(Qt::OtherFocusReason);
            });
    connect(m_conversation,
            &ConversationView::branchStepRequested,
            m_branches,
            [this](qsizetype index, int step) { m_branches->step(index, step); });
    connect(m_conversation, &ConversationView::branchTreeRequested, m_branches, [this] {
        m_branches->showTree();
    });
    connect(m_branches, &BranchController::refused, this, [this](const QString &reason) {
        //: Above the message box when a branch could not be made or switched to
        m_rewindNotice->setText(tr("Not branched: %1").arg(reason));
        m_rewindNotice->show();
    });
    m_editNotice->setObjectName(QStringLiteral("editNotice"));
    m_editText->setObjectName(QStringLiteral("editNoticeText"));
    m_editText->setWordWrap(true);
    m_editText->setTextFormat(Qt::PlainText);
    m_editFiles->setObjectName(QStringLiteral("editRestoresFiles"));
    m_cancelEdit = new QToolButton(m_editNotice);
    m_cancelEdit->setObjectName(QStringLiteral("cancelEditButton"));
    connect(m_cancelEdit, &QToolButton::clicked, this, &ConversationPage::cancelEdit);
    auto editRow = new QHBoxLayout(m_editNotice);
    editRow->setContentsMargins(0, 0, 0, 0);
    editRow->addWidget(m_editText, 1);
    editRow->addWidget(m_editFiles, 0, Qt::AlignVCenter);
    editRow->addWidget(m_cancelEdit, 0, Qt::AlignVCenter);
    m_editNotice->hide();
    connect(m_welcome, &WelcomeView::modelChosen, this, &ConversationPage::modelChosen);
    // Esc in an open subagent's card stops that subagent alone.
    connect(m_conversation,
            &ConversationView::stopSubagentRequested,
            this,
            [this](const QStringList &path) {
                if (m_session)
                    m_session->codingSession()->stopSubagent(path);
            });
    m_top->addWidget(m_welcome);
    m_top->addWidget(m_conversation);
    m_splitter->addWidget(m_top);
    m_splitter->addWidget(m_reviews);
    m_splitter->setChildrenCollapsible(false);
    m_splitter->setStretchFactor(0, 1);
    m_splitter->setStretchFactor(1, 1);
    m_reviews->hide();
    connect(m_reviews, &ReviewQueue::countChanged, this, &ConversationPage::onReviewCountChanged);
    connect(m_reviews, &ReviewQueue::requestAnswered, this, &ConversationPage::onReviewAnswered);
    connect(m_reviews, &ReviewQueue::editingChanged, this, &ConversationPage::onReviewEditing);
    connect(m_ruleOffer, &RuleOfferBar::addRequested, this, &ConversationPage::addOfferedRule);
    connect(m_ruleOffer, &RuleOfferBar::declined, this, [this] {
        if (m_ruleOffer->isAncestorOf(QApplication::focusWidget()))
            m_composer->setFocus(Qt::OtherFocusReason);
    });

    m_composer->installEventFilter(this);
    m_composer->setObjectName(QStringLiteral("composer"));
    using Pictures = QList<AgentCore::ContentBlock>;
    connect(m_composer,
            &Composer::submitted,
            this,
            [this](const QString &text, const Pictures &pictures) {
                if (!m_session)
                    return;
                if (!m_session->codingSession()->isRewinding())
                    m_rewindNotice->hide(); // what it said (a fork, a refusal) is behind the user now
                if (m_editIndex >= 0) {
                    // "Edit and resend": a new branch from right before the message edited.
                    const qsizetype index = std::exchange(m_editIndex, -1);
                    m_editNotice->hide();
                    if (!m_branches->resend(index, text, pictures, m_editFiles->isChecked())) {
                        keepInComposer(text, pictures); // refused: kept, not lost
                        return;
                    }
                    m_conversation->scrollToBottom();
                    return;
                }
                showConversation();
                m_conversation->scrollToBottom(); // what the user just sent is in view
                m_session->send(text, pictures);
            });
    connect(m_composer,
            &Composer::steered,
            this,
            [this](const QString &text, const Pictures &pictures) {
                if (m_session && m_editIndex >= 0) {
                    // An edited message makes a branch, which waits until the agent has
                    // finished: it is not steering for the run going on.
                    keepInComposer(text, pictures);
                    m_rewindNotice->setText(tr("Not branched: %1").arg(m_session->branchRefusal()));
                    m_rewindNotice->show();
                    return;
                }
                if (m_session) {
                    m_conversation->scrollToBottom();
                    m_session->steer(text, pictures);
                }
            });
    connect(m_composer,
            &Composer::followUpQueued,
            this,
            [this](const QString &text, const Pictures &pictures) {
                if (m_session)
                    m_session->followUp(text, pictures);
            });
    m_pictureStrip = new PictureStrip(m_composer->pictures(), this);
    connect(m_pictureStrip, &PictureStrip::rebuilt, this, &ConversationPage::updateTabChain);
    connect(m_pictureStrip, &PictureStrip::removedByKey, this, [this] {
        // The next picture, else the message box: the keyboard stays where the user was.
        const QList<QWidget *> thumbnails = m_pictureStrip->thumbnails();
        QWidget *next = nullptr;
        for (QWidget *thumbnail : thumbnails) {
            if (thumbnail->isVisible() && !thumbnail->hasFocus()) {
                next = thumbnail;
                break;
            }
        }
        (next ? next : static_cast<QWidget *>(m_composer))->setFocus(Qt::OtherFocusReason);
    });
    connect(m_composer, &QPlainTextEdit::textChanged, this, [this] {
        if (m_session)
            m_session->setDraft(m_composer->toPlainText());
    });
    connect(m_composer, &Composer::stopRequested, this, [this] {
        if (m_session)
            m_session->stop();
    });

    m_mcpNotice->setObjectName(QStringLiteral("mcpNotice"));
    m_mcpNotice->setWordWrap(true);
    m_mcpNotice->setTextFormat(Qt::PlainText);
    m_mcpNotice->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_mcpNotice->hide();
    connect(m_composer, &Composer::fetchingChanged, this, [this](bool fetching) {
        m_mcpNotice->setForegroundRole(QPalette::PlaceholderText);
        //: Above the message box while the MCP prompt or resources it names are fetched
        m_mcpNotice->setText(tr("Fetching the MCP prompt and resources this message names… "
                                "Esc cancels"));
        m_mcpNotice->setVisible(fetching);
        updateSendStop(m_session ? m_session->state() : AgentSession::State::Idle);
    });
    connect(m_composer, &Composer::sendFailed, this, [this](const QString &error) {
        m_mcpNotice->setForegroundRole(QPalette::WindowText);
        //: Above the message box: its MCP prompt or resource could not be had
        m_mcpNotice->setText(tr("Not sent: %1").arg(error));
        m_mcpNotice->show();
    });
    for (auto sent : {&Composer::submitted, &Composer::steered, &Composer::followUpQueued})
        connect(m_composer, sent, m_mcpNotice, &QWidget::hide);
    connect(m_composer->pictures(), &ComposerPictures::failed, this, [this](const QString &error) {
        m_mcpNotice->setForegroundRole(QPalette::WindowText);
        m_mcpNotice->setText(error);
        m_mcpNotice->show();
    });

    m_sendStop->setObjectName(QStringLiteral("sendStopButton"));
    m_sendStop->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_sendStop->setFocusPolicy(Qt::NoFocus); // clicking it leaves the focus in the composer
    m_sendStop->setMinimumWidth(84);
    connect(m_sendStop, &QToolButton::clicked, this, &ConversationPage::sendOrStop);
    onStateChanged(AgentSession::State::Idle);

    auto composerRow = new QHBoxLayout;
    composerRow->setSpacing(6);
    composerRow->addWidget(m_composer, 1);
    composerRow->addWidget(m_sendStop, 0, Qt::AlignBottom);

    m_pendingSteering->setObjectName(QStringLiteral("pendingSteering"));
    m_pendingSteering->setForegroundRole(QPalette::PlaceholderText);
    m_pendingSteering->setWordWrap(true);
    m_pendingSteering->hide();
    connect(m_leftover, &LeftoverSteeringView::sent, this, [this] {
        showConversation();
        m_conversation->scrollToBottom();
    });
    connect(m_leftover, &LeftoverSteeringView::finished, this, [this] {
        m_composer->setFocus(Qt::OtherFocusReason);
    });
    // New buttons joined the end of the tab chain: Tab reaches them right before the
    // composer, as they are laid out.
    connect(m_leftover, &LeftoverSteeringView::rowsChanged, this, &ConversationPage::updateTabChain);

    m_readOnlyNotice->setObjectName(QStringLiteral("readOnlyNotice"));
    m_readOnlyText->setObjectName(QStringLiteral("readOnlyText"));
    m_readOnlyText->setWordWrap(true);
    m_readOnlyText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto fork = new QToolButton(m_readOnlyNotice);
    fork->setObjectName(QStringLiteral("forkButton"));
    fork->setText(tr("Continue in a Copy"));
    fork->setToolTip(tr("Copy this conversation into a new session of its own and go on there"));
    connect(fork, &QToolButton::clicked, this, &ConversationPage::forkRequested);
    auto noticeRow = new QHBoxLayout(m_readOnlyNotice);
    noticeRow->setContentsMargins(0, 0, 0, 0);
    noticeRow->addWidget(m_readOnlyText, 1);
    noticeRow->addWidget(fork, 0, Qt::AlignVCenter);
    m_readOnlyNotice->hide();

    auto layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 6);
    layout->setSpacing(6);
    layout->addWidget(m_splitter, 1);
    layout->addWidget(m_ruleOffer);
    layout->addWidget(m_pendingSteering);
    layout->addWidget(m_leftover);
    layout->addWidget(m_readOnlyNotice);
    layout->addWidget(m_rewindNotice);
    layout->addWidget(m_editNotice);
    layout->addWidget(m_mcpNotice);
    layout->addWidget(m_pictureStrip);
    layout->addLayout(composerRow);
    // No focus proxy to the composer: Qt would put the page where it sits in the window's tab
    // chain, the first widget made, and Tab would wrap around from the status bar to the
    // composer. The window focuses the composer itself.
}

ConversationPage::~ConversationPage() = default;

void ConversationPage::setSession(AgentSession *session)
{
    for (const QMetaObject::Connection &connection : std::as_const(m_connections))
        disconnect(connection);
    m_connections.clear();
    disconnect(m_queueConnection);
    m_session = session;
    m_rewind->setSession(session);
    m_branches->setSession(session);
    cancelEdit(); // the message edited was the other conversation's
    m_conversation->setBranchingOffered(false);
    m_conversation->setBranchPoints({});
    m_ruleOffer->clear(); // the offer was the other session's
    m_rewindNotice->hide();
    // A message being expanded was meant for the other session: it stays in the box, unsent.
    m_composer->cancelFetching();
    m_mcpNotice->hide();
    updatePendingSteering();
    m_leftover->setAgent(nullptr);
    const bool readOnly = session && session->isReadOnly();
    //: Above the message box of a session another window has open
    m_readOnlyText->setText(
        !readOnly ? QString()
        // Its worktree cannot be used: no other window to close, nothing to copy.
        : !session->worktreeProblem().isEmpty()
            //: Above the message box of a session whose git worktree is broken
            ? tr("Read-only: %1").arg(session->worktreeProblem())
            : tr("Read-only: %1 Close it there and resume it here again, or continue in a copy.")
                  .arg(session->readOnlyReason()));
    m_readOnlyNotice->setVisible(readOnly);
    m_composer->setEnabled(!readOnly);
    // The session's own draft; text typed for a conversation without one stays in the box.
    // Read-only, the draft is the other window's.
    if (session && !readOnly && !session->draft().isEmpty())
        m_composer->setPlainText(session->draft());
    m_conversation->clear();
    // A resumed conversation's long tool outputs are stubs: their cards read them from here.
    m_conversation->setPages(session ? session->codingSession()->pages() : nullptr);
    m_top->setCurrentWidget(m_welcome);
    m_reviews->setBroker(session ? session->broker() : nullptr);
    m_composer->setCustomCommands({});
    updatePictureModel();
    if (!session) {
        onStateChanged(AgentSession::State::Idle);
        return;
    }
    if (const QList<AgentCore::Message> history = session->history(); !history.isEmpty()) {
        // A resumed session: its conversation as it was, scrolled to the end.
        m_conversation->setMessages(history);
        m_conversation->setSubagentTranscripts(session->subagentHistory());
        showConversation();
        m_conversation->scrollToBottom();
    }
    m_conversation->setBranchingOffered(!session->isReadOnly() && !session->sessionPath().isEmpty());
    updateBranchPoints();
    m_connections << connect(session, &AgentSession::branchSwitched, this, [this] {
        m_rewindNotice->hide();
        m_conversation->setMessages(m_session->conversation());
        updateBranchPoints();
        showConversation();
        m_conversation->scrollToBottom();
    });
    m_welcome->setDemo(session->model().isDemo);
    m_connections << connect(session,
                             &AgentSession::modelChanged,
                             this,
                             [this](const ModelChoice &model) {
                                 m_welcome->setDemo(model.isDemo);
                                 updatePictureModel();
                             });
    m_connections << connect(session,
                             &AgentSession::hookRan,
                             this,
                             [this](const AgentCore::HookRun &run) {
                                 if (run.toolCallId.isEmpty())
                                     return;
                                 //: A hook on a tool card: event, command, outcome, time taken
                                 const QString summary = tr("%1 %2: %3, %4 ms")
                                                             .arg(AgentCore::hookEventNameText(
                                                                      run.hook.event),
                                                                  run.hook.command,
                                                                  run.outcomeText())
                                                             .arg(run.elapsedMs);
                                 m_conversation->addHookRun(run.toolCallId,
                                                            summary,
                                                            QString::fromUtf8(run.err + run.out));
                             });
    m_connections << connect(session,
                             &AgentSession::subagentEvent,
                             m_conversation,
                             qOverload<const AgentCore::SubagentEvent &>(
                                 &ConversationView::applySubagent));
    m_connections << connect(session, &AgentSession::eventEmitted, this, &ConversationPage::onEvent)
                  << connect(session,
                             &AgentSession::stateChanged,
                             this,
                             &ConversationPage::onStateChanged);
    m_connections << connect(session,
                             &AgentSession::commandFailed,
                             this,
                             [this](const QString &message) {
                                 m_mcpNotice->setForegroundRole(QPalette::WindowText);
                                 m_mcpNotice->setText(message);
                                 m_mcpNotice->show();
                             });
    // The `/` list offers the session's custom commands once it has read them.
    m_composer->setCustomCommands(session->codingSession()->customCommands());
    m_connections << connect(session, &AgentSession::ready, this, [this] {
        if (m_session) {
            m_composer->setCustomCommands(m_session->codingSession()->customCommands());
            m_conversation->setPages(m_session->codingSession()->pages());
        }
        updateBranchPoints(); // the branches are known once the session is resumed
        disconnect(m_queueConnection);
        if (m_session && m_session->agent()) {
            m_queueConnection = connect(m_session->agent(),
                                        &AgentCore::Agent::queuesChanged,
                                        this,
                                        &ConversationPage::updatePendingSteering);
        }
        updatePendingSteering();
        // A resumed session's steering that never went in; read-only, it is the other window's.
        if (m_session && !m_session->isReadOnly())
            m_leftover->setAgent(m_session->agent());
    });
    if (session->agent() && !readOnly)
        m_leftover->setAgent(session->agent());
    m_composer->setRepositoryRoot(session->repositoryRoot());
    onStateChanged(session->state());
}

void ConversationPage::updatePendingSteering()
{
    const QList<AgentCore::Message> pending = m_session && m_session->agent()
                                                  ? m_session->agent()->steeringQueue()
                                                  : QList<AgentCore::Message>();
    QStringList texts;
    for (const AgentCore::Message &message : pending)
        texts.append(message.text().simplified());
    m_pendingSteering->setVisible(!texts.isEmpty());
    if (texts.isEmpty())
        return;
    const QString joined = texts.join(QStringLiteral(" · "));
    //: Above the message box: steering messages the loop has not taken yet
    m_pendingSteering->setText(
        tr("Steering, goes in before the next model call: %1")
            .arg(fontMetrics().elidedText(joined, Qt::ElideRight, qMax(200, width() - 260))));
    m_pendingSteering->setToolTip(texts.join(u'\n'));
}

void ConversationPage::setRepository(const AgentCore::Repository &repository)
{
    m_welcome->setRepository(repository);
}

void ConversationPage::setModelOffers(const QList<ModelOffer> &offers)
{
    m_welcome->setOffers(offers);
}

bool ConversationPage::eventFilter(QObject *watched, QEvent *event)
{
    // The composer takes Enter with any modifier and Esc itself: a waiting review gets its
    // keys first, unless the composer's `@` list is open (its Esc closes the list).
    if (watched == m_composer && event->type() == QEvent::KeyPress
        && !m_composer->isCompletionVisible() && answerReviewKey(static_cast<QKeyEvent *>(event))) {
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

void ConversationPage::keyPressEvent(QKeyEvent *event)
{
    // Keys the conversation, the reviews' text views and the button row did not use.
    const bool plainEscape = event->key() == Qt::Key_Escape
                             && (event->modifiers() & ~Qt::KeypadModifier) == Qt::NoModifier;
    if (answerReviewKey(event) || (plainEscape && escape())) {
        event->accept();
        return;
    }
    QWidget::keyPressEvent(event);
}

bool ConversationPage::answerReviewKey(const QKeyEvent *event)
{
    return m_reviews->count() > 0 && m_reviews->handleShortcutKey(event);
}

bool ConversationPage::escape()
{
    if (m_composer->isFetching()) {
        m_composer->cancelFetching();
        return true;
    }
    if (m_reviews->count() > 0) {
        QKeyEvent escape(QEvent::KeyPress, Qt::Key_Escape, Qt::NoModifier);
        return m_reviews->handleShortcutKey(&escape);
    }
    if (m_session && m_session->state() == AgentSession::State::Running) {
        m_session->stop();
        return true;
    }
    return false;
}

void ConversationPage::onEvent(const AgentCore::AgentEvent &event)
{
    showConversation();
    m_conversation->apply(event);
    // A message of a new branch (Edit and resend) parts from the first attempt: its switcher.
    if (event.type == AgentCore::AgentEvent::Type::AgentEnd
        || (event.type == AgentCore::AgentEvent::Type::MessageEnd && event.message.isUser()))
        updateBranchPoints();
}

void ConversationPage::updateBranchPoints()
{
    QList<ConversationView::BranchPoint> points;
    if (m_session) {
        const QList<BranchController::Part> parts = m_branches->parts();
        for (const BranchController::Part &part : parts)
            points.append({part.messageIndex, part.position, part.count});
    }
    m_conversation->setBranchPoints(points);
}

bool ConversationPage::editMessage(qsizetype messageIndex)
{
    if (!m_branches->mayEdit(messageIndex))
        return false;
    m_editIndex = messageIndex;
    const QString text = m_session->conversation().at(messageIndex).text();
    QString shown = text.simplified();
    if (shown.size() > 60)
        shown = shown.left(59) + QChar(0x2026);
    //: Above the message box while an earlier message is edited
    m_editText->setText(tr("Editing your message “%1”: sending makes a new branch from right "
                           "before it; this branch stays.")
                            .arg(shown));
    // The notice's words are set when it is shown (it is hidden until then).
    //: Above the message box while an earlier message is edited: the files go back too
    m_editFiles->setText(tr("and restore files"));
    m_editFiles->setToolTip(tr("Bring the files back to how they were before that message too "
                               "(from the session's checkpoints; files you changed yourself "
                               "are kept)"));
    m_editFiles->setChecked(false);
    m_cancelEdit->setText(tr("Cancel"));
    m_editNotice->show();
    m_rewindNotice->hide();
    m_composer->setPlainText(text);
    QTextCursor end = m_composer->textCursor();
    end.movePosition(QTextCursor::End);
    m_composer->setTextCursor(end);
    m_composer->setFocus(Qt::OtherFocusReason);
    return true;
}

void ConversationPage::cancelEdit()
{
    if (m_editIndex < 0)
        return;
    m_editIndex = -1;
    m_editNotice->hide();
    m_composer->clear();
}

void ConversationPage::onStateChanged(AgentSession::State state)
{
    const bool running = state == AgentSession::State::Running
                         || state == AgentSession::State::Stopping;
    m_composer->setRunning(running);
    m_conversation->setRewindRefusal(m_session ? m_session->rewindRefusal() : QString());
    updateSendStop(state);
}

void ConversationPage::updateSendStop(AgentSession::State state)
{
    const bool running = state == AgentSession::State::Running
                         || state == AgentSession::State::Stopping;
    if (m_composer->isFetching()) {
        m_sendStop->setText(tr("Stop"));
        m_sendStop->setIcon(style()->standardIcon(QStyle::SP_MediaStop));
        m_sendStop->setToolTip(tr("Stop fetching the MCP prompt and resources; nothing is sent "
                                  "(Esc)"));
        m_sendStop->setEnabled(true);
    } else if (running) {
        m_sendStop->setText(tr("Stop"));
        m_sendStop->setIcon(style()->standardIcon(QStyle::SP_MediaStop));
        m_sendStop->setToolTip(tr("Stop the agent (Esc)"));
        m_sendStop->setEnabled(state == AgentSession::State::Running);
    } else {
        m_sendStop->setText(tr("Send"));
        m_sendStop->setIcon(style()->standardIcon(QStyle::SP_ArrowForward));
        m_sendStop->setToolTip(tr("Send the task (Enter)"));
        m_sendStop->setEnabled(m_session && !m_session->isReadOnly());
    }
}

void ConversationPage::onReviewCountChanged(int count)
{
    const bool arrived = count > m_reviewCount;
    m_reviewCount = count;
    m_composer->setReviewWaiting(count > 0);
    if (count == 0 && m_reviews->isAncestorOf(QApplication::focusWidget()))
        m_composer->setFocus(Qt::OtherFocusReason); // the user answered from the keyboard
    m_reviews->setVisible(count > 0);
    if (count > 0 && !m_reviewSized) {
        // The first review gets a little more than half of the room: a diff needs it.
        const int total = m_splitter->height();
        m_splitter->setSizes({total * 2 / 5, total - total * 2 / 5});
        m_reviewSized = true;
    }
    if (arrived) {
        m_conversation->scrollToBottom(); // the call waiting for the answer is in view
        // A new review's widgets joined the end of the tab chain: Tab reaches them between
        // the conversation and the composer, as they are laid out.
        updateTabChain();
    }
}

void ConversationPage::onReviewEditing(bool editing)
{
    if (editing) {
        // Writing code wants the room: the conversation keeps a few lines of context above.
        m_sizesBeforeEditing = m_splitter->sizes();
        const int total = m_splitter->height();
        const int conversation = std::min(total / 2, std::max(120, total / 5));
        // The welcome page in the same stack would hold the top at its own minimum height.
        m_top->setMinimumHeight(conversation);
        m_splitter->setSizes({conversation, total - conversation});
    } else if (!m_sizesBeforeEditing.isEmpty()) {
        m_top->setMinimumHeight(0); // the pages' own minimum again
        m_splitter->setSizes(std::exchange(m_sizesBeforeEditing, {}));
    }
}

void ConversationPage::onReviewAnswered(const AgentCore::PermissionRequest &request,
                                        const AgentCore::PermissionAnswer &answer)
{
    if (!m_session)
        return;
    if (const auto offer = m_session->approvalHabits().record(request, answer)) {
        // Shown, never focused: the user may be typing; Tab reaches its buttons.
        m_ruleOffer->showOffer(*offer);
        updateTabChain();
    }
}

void ConversationPage::addOfferedRule(const AgentCore::PermissionRule &rule)
{
    if (!m_session)
        return;
    QString error;
    if (!m_session->alwaysAllow(rule, &error)) {
        m_ruleOffer->showError(error);
        return;
    }
    if (m_ruleOffer->isAncestorOf(QApplication::focusWidget()))
        m_composer->setFocus(Qt::OtherFocusReason);
    m_ruleOffer->clear();
}

void ConversationPage::updateTabChain()
{
    QList<QWidget *> order = tabReachable(m_conversation);
    order += tabReachable(m_reviews);
    order += m_ruleOffer->buttons();
    order += m_leftover->buttons();
    order += m_pictureStrip->focusables();
    order.append(m_composer);
    chainTabOrder(order);
}

void ConversationPage::sendOrStop()
{
    if (m_composer->isFetching()) {
        m_composer->cancelFetching();
        return;
    }
    if (!m_session || m_session->isReadOnly())
        return;
    if (m_session->state() == AgentSession::State::Running) {
        m_session->stop();
        return;
    }
    if (m_composer->toPlainText().trimmed().isEmpty() && m_composer->pictures()->isEmpty()
        && !m_composer->pictures()->isPreparing()) {
        m_composer->setFocus();
        return;
    }
    m_composer->submit(); // submitted: shown and sent as Enter does, MCP references expanded
}

void ConversationPage::updatePictureModel()
{
    m_composer->setPictureRefusal(m_session ? m_session->pictureRefusal() : QString());
    if (m_session)
        m_composer->pictures()->setLimits(AgentCore::pictureLimits(m_session->currentProvider()));
}

void ConversationPage::keepInComposer(const QString &text,
                                      const QList<AgentCore::ContentBlock> &pictures)
{
    m_composer->setPlainText(text);
    for (const AgentCore::ContentBlock &picture : pictures)
        m_composer->pictures()->addData(QByteArray::fromBase64(picture.data), tr("Picture"));
}

void ConversationPage::showConversation()
{
    m_top->setCurrentWidget(m_conversation);
}

} // namespace Ui

#include "moc_conversationpage.cpp"
