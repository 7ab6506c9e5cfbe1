#include "shortcuts.h"

#include <QAction>
#include <QCoreApplication>

namespace Ui {

namespace {

QList<QKeySequence> standard(QKeySequence::StandardKey key)
{
    return QKeySequence::keyBindings(key);
}

QList<QKeySequence> sessionNumbers()
{
    QList<QKeySequence> keys;
    for (int n = 1; n <= 9; ++n)
        keys.append(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_0 + n)));
    return keys;
}

QList<Shortcuts::Entry> makeTable()
{
    const char *window = QT_TRANSLATE_NOOP("Ui::Shortcuts", "Window");
    const char *messageBox = QT_TRANSLATE_NOOP("Ui::Shortcuts", "Message box");
    const char *review = QT_TRANSLATE_NOOP("Ui::Shortcuts", "A review waiting for an answer");
    const char *inbox = QT_TRANSLATE_NOOP("Ui::Shortcuts", "Approvals inbox");
    const char *conversation = QT_TRANSLATE_NOOP("Ui::Shortcuts", "Conversation");
    const char *sessions = QT_TRANSLATE_NOOP("Ui::Shortcuts", "Sessions list");
    const char *queue = QT_TRANSLATE_NOOP("Ui::Shortcuts", "Follow-up queue");
    const char *context = QT_TRANSLATE_NOOP("Ui::Shortcuts", "Context window");
    const char *background = QT_TRANSLATE_NOOP("Ui::Shortcuts", "Background commands");
    const QKeySequence ctrlReturn(Qt::CTRL | Qt::Key_Return);
    const QKeySequence ctrlEnter(Qt::CTRL | Qt::Key_Enter);
    const QKeySequence ctrlShiftReturn(Qt::CTRL | Qt::SHIFT | Qt::Key_Return);
    const QKeySequence ctrlShiftEnter(Qt::CTRL | Qt::SHIFT | Qt::Key_Enter);
    return {
        {Shortcut::OpenRepository,
         window,
         QT_TRANSLATE_NOOP("Ui::Shortcuts", "Open a repository"),
         standard(QKeySequence::Open),
         QStringLiteral("openRepositoryAction")},
        {Shortcut::Quit,
         window,
         QT_TRANSLATE_NOOP("Ui::Shortcuts", "Quit"),
         // QKeySequence::Quit is Ctrl+Q on every Linux desktop, but nothing where the platform
         // theme falls back to Windows' keys (offscreen, some minimal themes).
         {QKeySequence(Qt::CTRL | Qt::Key_Q)},
         QStringLiteral("quitAction")},
        {Shortcut::NewConversation,
         window,
         QT_TRANSLATE_NOOP("Ui::Shortcuts",
                           "Start a new conversation, the focus in the message box"),
         standard(QKeySequence::New),
         QStringLiteral("newConversationAction")},
        {Shortcut::NextSession,
         window,
         QT_TRANSLATE_NOOP("Ui::Shortcuts", "Show the next open session"),
         {QKeySequence(Qt::CTRL | Qt::Key_Tab)},
         QStringLiteral("nextSessionAction")},
        // Shift+Tab arrives as Backtab; the shortcut map tries Tab with Shift too.
        {Shortcut::PreviousSession,
         window,
         QT_TRANSLATE_NOOP("Ui::Shortcuts", "Show the previous open session"),
         {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Tab)},
         QStringLiteral("previousSessionAction")},
        {Shortcut::SessionByNumber,
         window,
         QT_TRANSLATE_NOOP("Ui::Shortcuts", "Show the first to ninth open session"),
         sessionNumbers(),
         QStringLiteral("sessionAction"), // sessionAction1 ... sessionAction9
         true},
        {Shortcut::ApprovalInbox,
         window,
         QT_TRANSLATE_NOOP("Ui::Shortcuts",
                           "Open the approvals inbox: every review waiting in any session"),
         {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A)},
         QStringLiteral("approvalInboxAction")},
        {Shortcut::Stop,
         window,
         QT_TRANSLATE_NOOP("Ui::Shortcuts", "Stop the agent, wherever the focus is"),
         {QKeySequence(Qt::CTRL | Qt::Key_Period)},
         QStringLiteral("stopAction")},
        {Shortcut::CompactConversation,
         window,
         QT_TRANSLATE_NOOP("Ui::Shortcuts", "Compact the conversation now"),
         {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_K)},
         QStringLiteral("compactAction")},
        {Shortcut::Settings,
         window,
         QT_TRANSLATE_NOOP("Ui::Shortcuts", "Open the settings"),
         {QKeySequence(Qt::CTRL | Qt::Key_Comma)},
         QStringLiteral("settingsAction")},
        {Shortcut::SidePanel,
         window,
         QT_TRANSLATE_NOOP("Ui::Shortcuts", "Show or hide the side panel"),
         {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_B)},
         QStringLiteral("sidePanelAction")},
        {Shortcut::ContextWindow,
         window,
         QT_TRANSLATE_NOOP("Ui::Shortcuts", "See what fills the context window"),
         {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_I)},
         QStringLiteral("contextViewAction")},
        {Shortcut::UserGuide,
         window,
         QT_TRANSLATE_NOOP("Ui::Shortcuts", "Open the user guide"),
         standard(QKeySequence::HelpContents),
         QStringLiteral("userGuideAction")},
        {Shortcut::Send,
         messageBox,
         QT_TRANSLATE_NOOP("Ui::Shortcuts", "Send the task; while the agent works, steer it"),
         {QKeySequence(Qt::Key_Return), QKeySequence(Qt::Key_Enter)}},
        {Shortcut::NewLine,
         messageBox,
         QT_TRANSLATE_NOOP("Ui::Shortcuts", "A new line"),
         {QKeySequence(Qt::SHIFT | Qt::Key_Return)}},
        {Shortcut::QueueFollowUp,
         messageBox,
         QT_TRANSLATE_NOOP("Ui::Shortcuts", "While the agent works, queue the text as a follow-up"),
         {QKeySequence(Qt::ALT | Qt::Key_Return)}},
        {Shortcut::StopFromAnywhere,
         messageBox,
         QT_TRANSLATE_NOOP("Ui::Shortcuts", "Stop the agent (where the focus does not use Esc)"),
         {QKeySequence(Qt::Key_Escape)}},
        {Shortcut::CompletePath,
         messageBox,
         QT_TRANSLATE_NOOP("Ui::Shortcuts",
                           "Take the highlighted @file, /prompt or @server: completion"),
         {QKeySequence(Qt::Key_Tab)}},
        {Shortcut::AllowOnce,
         review,
         QT_TRANSLATE_NOOP("Ui::Shortcuts", "Allow once (also from the message box)"),
         {ctrlReturn, ctrlEnter}},
        {Shortcut::AllowForSession,
         review,
         QT_TRANSLATE_NOOP("Ui::Shortcuts",
                           "Allow, and allow calls matching the rule in this session"),
         {ctrlShiftReturn, ctrlShiftEnter}},
        {Shortcut::DenyWithFeedback,
         review,
         QT_TRANSLATE_NOOP("Ui::Shortcuts", "Go to the Deny feedback field"),
         {QKeySequence(Qt::Key_Escape)}},
        {Shortcut::EditProposal,
         review,
         QT_TRANSLATE_NOOP("Ui::Shortcuts",
                           "Edit a proposed change before applying it (Esc leaves the editor)"),
         {QKeySequence(Qt::CTRL | Qt::Key_E)}},
        {Shortcut::InboxAllowOnce,
         inbox,
         QT_TRANSLATE_NOOP("Ui::Shortcuts",
                           "Allow the selected request once (Ctrl+Shift+Enter: for the session)"),
         {QKeySequence(Qt::Key_Return)}},
        {Shortcut::InboxDeny,
         inbox,
         QT_TRANSLATE_NOOP("Ui::Shortcuts", "Deny the selected request"),
         {QKeySequence(Qt::Key_Delete)}},
        {Shortcut::InboxApproveSimilar,
         inbox,
         QT_TRANSLATE_NOOP("Ui::Shortcuts", "Approve every waiting request like the selected one"),
         {QKeySequence(Qt::ALT | Qt::Key_Return), QKeySequence(Qt::ALT | Qt::Key_Enter)}},
        {Shortcut::JumpToLatest,
         conversation,
         QT_TRANSLATE_NOOP("Ui::Shortcuts", "Jump to the latest activity"),
         {QKeySequence(Qt::Key_End)}},
        {Shortcut::JumpToStart,
         conversation,
         QT_TRANSLATE_NOOP("Ui::Shortcuts", "Go to the start of the conversation"),
         {QKeySequence(Qt::Key_Home)}},
        {Shortcut::OpenSubagent,
         conversation,
         QT_TRANSLATE_NOOP("Ui::Shortcuts",
                           "Open or fold the subagent's card last clicked or picked (Alt+Up)"),
         {QKeySequence(Qt::Key_Return), QKeySequence(Qt::Key_Space)}},
        {Shortcut::StopSubagent,
         conversation,
         QT_TRANSLATE_NOOP("Ui::Shortcuts", "On an open subagent's card: stop that subagent alone"),
         {QKeySequence(Qt::Key_Escape)}},
        {Shortcut::PreviousBranch,
         conversation,
         QT_TRANSLATE_NOOP("Ui::Shortcuts",
                           "On a message where branches part: show the previous branch"),
         {QKeySequence(Qt::ALT | Qt::Key_Left)}},
        {Shortcut::NextBranch,
         conversation,
         QT_TRANSLATE_NOOP("Ui::Shortcuts",
                           "On a message where branches part: show the next branch"),
         {QKeySequence(Qt::ALT | Qt::Key_Right)}},
        {Shortcut::BranchTree,
         conversation,
         QT_TRANSLATE_NOOP("Ui::Shortcuts", "Show every branch of the conversation"),
         {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_G)}},
        {Shortcut::ResumeSession,
         sessions,
         QT_TRANSLATE_NOOP("Ui::Shortcuts", "Resume the selected session"),
         {QKeySequence(Qt::Key_Return)}},
        {Shortcut::RenameSession,
         sessions,
         QT_TRANSLATE_NOOP("Ui::Shortcuts", "Rename the selected session"),
         {QKeySequence(Qt::Key_F2)}},
        {Shortcut::DeleteSession,
         sessions,
         QT_TRANSLATE_NOOP("Ui::Shortcuts", "Delete the selected session, after asking"),
         standard(QKeySequence::Delete)},
        {Shortcut::EditFollowUp,
         queue,
         QT_TRANSLATE_NOOP("Ui::Shortcuts", "Edit the selected follow-up"),
         {QKeySequence(Qt::Key_F2)},
         QStringLiteral("editFollowUpAction")},
        {Shortcut::DeleteFollowUp,
         queue,
         QT_TRANSLATE_NOOP("Ui::Shortcuts", "Delete the selected follow-up"),
         standard(QKeySequence::Delete),
         QStringLiteral("deleteFollowUpAction")},
        {Shortcut::StopBackgroundCommand,
         background,
         QT_TRANSLATE_NOOP("Ui::Shortcuts", "Stop the selected background command"),
         standard(QKeySequence::Delete),
         QStringLiteral("stopBackgroundShellAction")},
        {Shortcut::DropFromContext,
         context,
         QT_TRANSLATE_NOOP("Ui::Shortcuts", "Drop the selected tool output from later requests"),
         standard(QKeySequence::Delete)},
        {Shortcut::PinInContext,
         context,
         QT_TRANSLATE_NOOP("Ui::Shortcuts", "Pin or unpin the selected message"),
         {QKeySequence(Qt::Key_Space)}},
    };
}

} // namespace

QString Shortcuts::Entry::whereText() const
{
    return QCoreApplication::translate("Ui::Shortcuts", where);
}

QString Shortcuts::Entry::whatText() const
{
    return QCoreApplication::translate("Ui::Shortcuts", what);
}

QString Shortcuts::Entry::keysText() const
{
    if (keys.isEmpty())
        return {};
    if (range && keys.size() > 1)
        return keys.first().toString(QKeySequence::NativeText) + QStringLiteral(" \u2026 ")
               + keys.last().toString(QKeySequence::NativeText);
    QStringList texts;
    for (const QKeySequence &key : keys)
        texts.append(key.toString(QKeySequence::NativeText));
    return texts.join(QStringLiteral(", "));
}

const QList<Shortcuts::Entry> &Shortcuts::table()
{
    static const QList<Entry> entries = makeTable();
    return entries;
}

const Shortcuts::Entry &Shortcuts::entry(Shortcut id)
{
    for (const Entry &entry : table()) {
        if (entry.id == id)
            return entry;
    }
    Q_ASSERT_X(false, "Shortcuts::entry", "every id has a row");
    return table().constFirst();
}

void Shortcuts::apply(QAction *action, Shortcut id)
{
    const Entry &row = entry(id);
    action->setShortcuts(row.keys);
    if (!row.range)
        action->setObjectName(row.actionName);
}

} // namespace Ui
