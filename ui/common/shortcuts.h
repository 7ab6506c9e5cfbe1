#pragma once

#include <QKeySequence>
#include <QList>
#include <QString>

QT_BEGIN_NAMESPACE
class QAction;
QT_END_NAMESPACE

namespace Ui {

/// Every key AgentDesk answers, in one table: the window's actions and the widgets' shortcuts
/// take their keys from it (Shortcuts::keys), and Help > Keyboard Shortcuts and the user guide
/// list it. A key a widget reads in its keyPressEvent (Enter in the message box) is listed here
/// too, so that the list is whole; that widget's code says where.
enum class Shortcut {
    // The window's menus
    OpenRepository,
    Quit,
    NewConversation,
    NextSession,
    PreviousSession,
    SessionByNumber, // Ctrl+1 ... Ctrl+9: the Nth open session
    ApprovalInbox,
    Stop,
    CompactConversation,
    Settings,
    SidePanel,
    ContextWindow,
    UserGuide,
    // The message box (Composer::keyPressEvent)
    Send,
    NewLine,
    QueueFollowUp,
    StopFromAnywhere, // Esc (MainWindow::keyPressEvent, ConversationPage)
    CompletePath,
    // A review waiting for an answer (ReviewAnswerBar)
    AllowOnce,
    AllowForSession,
    DenyWithFeedback,
    EditProposal, // DiffReviewView
    // The approvals inbox (ApprovalInboxDialog)
    InboxAllowOnce,
    InboxDeny,
    InboxApproveSimilar,
    // The conversation (ConversationView::keyPressEvent)
    JumpToLatest,
    JumpToStart,
    OpenSubagent,
    StopSubagent,
    PreviousBranch, // the branch switcher of the message Alt+Up / Alt+Down picked
    NextBranch,
    BranchTree,
    // The sessions list (SessionsPanel)
    ResumeSession,
    RenameSession,
    DeleteSession,
    // The follow-up queue (FollowUpPanel)
    EditFollowUp,
    DeleteFollowUp,
    // The side panel's background commands (BackgroundShellsPanel)
    StopBackgroundCommand,
    // The context window dialog (ContextDialog)
    DropFromContext,
    PinInContext,
};

class Shortcuts
{
public:
    /// One row of the table. \a where and \a what are untranslated (QT_TRANSLATE_NOOP in
    /// "Ui::Shortcuts"); whereText() and whatText() translate them.
    struct Entry
    {
        Shortcut id;
        const char *where;
        const char *what;
        /// The keys, all of which work; a standard key's are the platform's.
        QList<QKeySequence> keys;
        /// The objectName of the window's QAction that carries the keys; empty: a widget's
        /// own shortcut or key handling.
        QString actionName = {};
        /// The keys are one range ("Ctrl+1 … Ctrl+9"), listed by their first and last.
        bool range = false;

        QString whereText() const;
        QString whatText() const;
        /// The keys as the app shows them: "Ctrl+Return, Ctrl+Enter", "Ctrl+1 … Ctrl+9".
        QString keysText() const;
    };

    /// The whole table, in the order Help > Keyboard Shortcuts lists it.
    static const QList<Entry> &table();
    static const Entry &entry(Shortcut id);
    static QList<QKeySequence> keys(Shortcut id) { return entry(id).keys; }
    /// Gives \a action the keys and objectName of \a id's entry.
    static void apply(QAction *action, Shortcut id);
};

} // namespace Ui
