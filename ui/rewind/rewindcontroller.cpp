#include "rewindcontroller.h"

#include "checkpointrewindfiles.h"
#include "rewinddialog.h"

#include "agentsession/agentsession.h"
#include "common/background.h"

#include <QWidget>

namespace Ui {

namespace {
QString firstLine(const QString &text)
{
    const QString line = text.trimmed().section(QLatin1Char('\n'), 0, 0);
    return line.size() > 80 ? line.left(79) + QChar(0x2026) : line;
}
} // namespace

RewindController::RewindController(QWidget *dialogParent, QObject *parent)
    : QObject(parent)
    , m_dialogParent(dialogParent)
{}

RewindController::~RewindController()
{
    delete m_dialog;
}

void RewindController::setSession(AgentSession *session)
{
    m_session = session;
    if (m_dialog)
        m_dialog->reject(); // its point belongs to the other conversation
}

void RewindController::setFiles(std::shared_ptr<RewindFiles> files)
{
    m_files = std::move(files);
}

std::shared_ptr<RewindFiles> RewindController::filesSide() const
{
    if (m_files)
        return m_files;
    if (m_session && m_session->checkpoints()) {
        QList<qint64> branchTimes;
        for (const AgentCore::Message &message : m_session->conversation())
            branchTimes.append(message.timestamp);
        return std::make_shared<CheckpointRewindFiles>(m_session->checkpoints(), branchTimes);
    }
    return {};
}

QString RewindController::describe(qsizetype messageIndex) const
{
    const AgentCore::Message &message = m_session->conversation().at(messageIndex);
    if (message.role == AgentCore::Message::Role::User)
        //: What a rewind goes back to: "your message “fix the parser”"
        return tr("your message “%1”").arg(firstLine(message.text()));
    if (message.isAssistant() && !message.text().trimmed().isEmpty())
        return tr("the agent's turn “%1”").arg(firstLine(message.text()));
    if (message.isAssistant() && !message.toolCalls().isEmpty())
        return tr("the agent's turn that called %1").arg(message.toolCalls().first().name);
    return tr("message %1 of the conversation").arg(messageIndex + 1);
}

bool RewindController::requestRewind(qsizetype messageIndex)
{
    QString reason = m_session ? m_session->rewindRefusal() : tr("No conversation is open.");
    if (reason.isEmpty() && (messageIndex < 0 || messageIndex >= m_session->conversation().size()))
        reason = tr("That point is no longer in the conversation.");
    if (!reason.isEmpty()) {
        emit refused(reason);
        return false;
    }
    delete m_dialog;
    m_dialog = new RewindDialog(m_dialogParent);
    m_dialog->setAttribute(Qt::WA_DeleteOnClose);
    m_dialog->setTarget(describe(messageIndex));
    if (const std::shared_ptr<RewindFiles> files = filesSide()) {
        m_dialog->setComputing();
        startPreview(files, messageIndex);
    } else {
        RewindFilesPreview preview;
        preview.unavailable = tr("No checkpoints are kept for this session: only the "
                                 "conversation can be rewound.");
        m_dialog->setFiles(preview);
    }
    connect(m_dialog, &QDialog::accepted, this, [this, messageIndex] { confirm(messageIndex); });
    m_dialog->open();
    return true;
}

void RewindController::startPreview(const std::shared_ptr<RewindFiles> &files,
                                    qsizetype messageIndex)
{
    // A diff of thousands of files, or of a huge one, takes seconds: worked out on a worker,
    // the dialog says so meanwhile. The worker holds the files side, so closing the dialog (the
    // context of the hand-back) only drops the result.
    m_preview = runInBackground(
        m_dialog.data(),
        [files, messageIndex] { return files->preview(messageIndex); },
        [dialog = m_dialog.data()](const RewindFilesPreview &preview) {
            dialog->setFiles(preview);
        });
}

void RewindController::confirm(qsizetype messageIndex)
{
    if (!m_dialog || !m_session)
        return;
    AgentCore::Rewind rewind;
    rewind.toIndex = messageIndex;
    rewind.scope = m_dialog->scope();
    const QString userText = m_session->conversation().value(messageIndex).role
                                     == AgentCore::Message::Role::User
                                 ? m_session->conversation().at(messageIndex).text()
                                 : QString();
    apply(rewind,
          m_dialog->files().checkpoint,
          m_dialog->keptFiles(),
          rewind.rewindsConversation() ? userText : QString());
}

bool RewindController::apply(AgentCore::Rewind rewind,
                             const QString &checkpoint,
                             const QSet<QString> &keep,
                             const QString &userText)
{
    // A run may have started while the dialog was open.
    if (const QString reason = m_session->rewindRefusal(); !reason.isEmpty()) {
        emit refused(reason);
        return false;
    }
    if (!rewind.restoresFiles()) {
        QString error;
        if (!m_session->rewind(rewind, &error)) {
            emit refused(error);
            return false;
        }
        emit rewound(rewind, userText);
        return true;
    }
    const std::shared_ptr<RewindFiles> files = filesSide();
    if (!files || checkpoint.isEmpty()) {
        emit refused(tr("The files cannot be rewound: no checkpoint was recorded there."));
        return false;
    }
    // Git over thousands of files takes its time: on a worker, off the UI thread (the worker
    // holds the files side; the session waits for it before it goes).
    const auto restore = [files, checkpoint, keep](AgentCore::Rewind &restored) {
        const RewindFilesOutcome outcome = files->restore(checkpoint, keep);
        AgentCore::CodingSession::RewindFilesResult result;
        // No undo checkpoint: nothing was restored, the safety net could not be recorded.
        result.restored = !outcome.undoCheckpoint.isEmpty();
        result.problem = outcome.error;
        if (!result.restored && result.problem.isEmpty())
            result.problem = tr("The files could not be restored.");
        restored.checkpoint = checkpoint;
        restored.undoCheckpoint = outcome.undoCheckpoint;
        restored.restoredFiles = outcome.restored;
        restored.keptFiles = outcome.kept;
        return result;
    };
    startRewindWithFiles(rewind, restore, userText);
    return true;
}

void RewindController::startRewindWithFiles(const AgentCore::Rewind &rewind,
                                            AgentCore::CodingSession::RestoreFiles restore,
                                            const QString &userText)
{
    const QPointer<RewindController> guard(this);
    m_session->rewindWithFiles(rewind,
                               std::move(restore),
                               [guard, userText](bool recorded,
                                                 const AgentCore::Rewind &done,
                                                 const QString &problem) {
                                   if (!guard)
                                       return;
                                   // Part restored: the rewind is still recorded, and said.
                                   if (!problem.isEmpty())
                                       emit guard->refused(problem);
                                   if (recorded)
                                       emit guard->rewound(done, userText);
                               });
    if (m_session->codingSession()->isRewinding())
        emit restoringFiles();
}

bool RewindController::revertFile(const QString &path, qsizetype messageIndex)
{
    QString reason = m_session ? m_session->rewindRefusal() : tr("No conversation is open.");
    const std::shared_ptr<RewindFiles> files = reason.isEmpty() ? filesSide() : nullptr;
    if (reason.isEmpty() && !files)
        reason = tr("No checkpoints are kept for this session: the file cannot be reverted.");
    if (!reason.isEmpty()) {
        emit refused(reason);
        return false;
    }
    AgentCore::Rewind rewind;
    rewind.toIndex = qBound<qsizetype>(0, messageIndex, m_session->conversation().size());
    rewind.scope = AgentCore::Rewind::Scope::Files;
    const qsizetype point = rewind.toIndex;
    // The checkpoint, and which files would change with it, are known only after git ran: on
    // the worker, the restore keeps every one of them but this file.
    const auto restore = [files, path, point](AgentCore::Rewind &restored) {
        AgentCore::CodingSession::RewindFilesResult result;
        const RewindFilesPreview preview = files->preview(point);
        if (!preview.unavailable.isEmpty()) {
            result.problem = preview.unavailable;
            return result;
        }
        QSet<QString> keep;
        bool found = false;
        for (const RewindFile &file : preview.files) {
            if (file.path == path)
                found = true;
            else
                keep.insert(file.path);
        }
        if (!found) {
            result.problem = tr("%1 is already as it was before the agent changed it.").arg(path);
            return result;
        }
        const RewindFilesOutcome outcome = files->restore(preview.checkpoint, keep);
        result.restored = !outcome.undoCheckpoint.isEmpty();
        result.problem = outcome.error;
        if (!result.restored && result.problem.isEmpty())
            result.problem = tr("%1 could not be reverted.").arg(path);
        restored.checkpoint = preview.checkpoint;
        restored.undoCheckpoint = outcome.undoCheckpoint;
        restored.restoredFiles = outcome.restored;
        restored.keptFiles = {}; // every other file: not the user's choice of this file
        return result;
    };
    startRewindWithFiles(rewind, restore, {});
    return true;
}

bool RewindController::restoreFilesForBranch(qsizetype messageIndex)
{
    QString reason = m_session ? m_session->rewindRefusal() : tr("No conversation is open.");
    const std::shared_ptr<RewindFiles> files = reason.isEmpty() ? filesSide() : nullptr;
    if (reason.isEmpty() && !files)
        reason = tr("No checkpoints are kept for this session: the files were left as they are.");
    if (!reason.isEmpty()) {
        emit refused(reason);
        return false;
    }
    AgentCore::Rewind rewind;
    rewind.toIndex = qBound<qsizetype>(0, messageIndex, m_session->conversation().size());
    rewind.scope = AgentCore::Rewind::Scope::Files;
    const qsizetype point = rewind.toIndex;
    const auto restore = [files, point](AgentCore::Rewind &restored) {
        AgentCore::CodingSession::RewindFilesResult result;
        const RewindFilesPreview preview = files->preview(point);
        if (!preview.unavailable.isEmpty()) {
            result.problem = preview.unavailable;
            return result;
        }
        if (preview.files.isEmpty())
            return result; // already as they were: nothing to record
        QSet<QString> keep;
        for (const RewindFile &file : preview.files) {
            if (file.yours)
                keep.insert(file.path);
        }
        const RewindFilesOutcome outcome = files->restore(preview.checkpoint, keep);
        result.restored = !outcome.undoCheckpoint.isEmpty();
        result.problem = outcome.error;
        if (!result.restored && result.problem.isEmpty())
            result.problem = tr("The files could not be restored.");
        restored.checkpoint = preview.checkpoint;
        restored.undoCheckpoint = outcome.undoCheckpoint;
        restored.restoredFiles = outcome.restored;
        restored.keptFiles = outcome.kept;
        return result;
    };
    startRewindWithFiles(rewind, restore, {});
    return true;
}

bool RewindController::undoRewind(qsizetype rewindIndex)
{
    QString reason = m_session ? m_session->rewindRefusal() : tr("No conversation is open.");
    const std::optional<AgentCore::Rewind> undone = m_session ? AgentCore::Rewind::of(
                                                        m_session->conversation().value(rewindIndex))
                                                              : std::nullopt;
    if (reason.isEmpty() && !undone)
        reason = tr("That rewind is no longer in the conversation.");
    if (!reason.isEmpty()) {
        emit refused(reason);
        return false;
    }
    // The conversation as it was right before the rewind (a rewind of the rewind), and the
    // files as they were right before it (the checkpoint the store recorded then).
    AgentCore::Rewind undo;
    undo.toIndex = rewindIndex;
    undo.scope = undone->restoresFiles() && !undone->undoCheckpoint.isEmpty()
                     ? (undone->rewindsConversation() ? AgentCore::Rewind::Scope::Both
                                                      : AgentCore::Rewind::Scope::Files)
                     : AgentCore::Rewind::Scope::Conversation;
    return apply(undo, undone->undoCheckpoint, {}, {});
}

} // namespace Ui

#include "moc_rewindcontroller.cpp"
