#include "branchcontroller.h"

#include "branchtreedialog.h"
#include "rewindcontroller.h"

#include "agentsession/agentsession.h"

#include <QWidget>

namespace Ui {

BranchController::BranchController(QWidget *dialogParent, RewindController *rewind, QObject *parent)
    : QObject(parent)
    , m_dialogParent(dialogParent)
    , m_rewind(rewind)
{}

BranchController::~BranchController()
{
    delete m_tree;
}

void BranchController::setSession(AgentSession *session)
{
    m_session = session;
    if (m_tree)
        m_tree->reject(); // its branches belong to the other conversation
}

QList<BranchController::Part> BranchController::parts() const
{
    QList<Part> parts;
    if (!m_session)
        return parts;
    const AgentCore::SessionTree tree = m_session->branches();
    const QStringList path = m_session->activeBranch();
    for (qsizetype i = 0; i < path.size(); ++i) {
        const QStringList siblings = tree.children(i == 0 ? QString() : path.at(i - 1));
        if (siblings.size() > 1)
            parts.append({i, int(siblings.indexOf(path.at(i))) + 1, int(siblings.size())});
    }
    return parts;
}

bool BranchController::refuseIfBusy()
{
    const QString reason = m_session ? m_session->branchRefusal() : tr("No conversation is open.");
    if (reason.isEmpty())
        return false;
    emit refused(reason);
    return true;
}

bool BranchController::step(qsizetype messageIndex, int step)
{
    if (refuseIfBusy())
        return false;
    const AgentCore::SessionTree tree = m_session->branches();
    const QStringList path = m_session->activeBranch();
    if (messageIndex < 0 || messageIndex >= path.size())
        return false;
    const QStringList siblings = tree.children(messageIndex == 0 ? QString()
                                                                 : path.at(messageIndex - 1));
    const qsizetype to = siblings.indexOf(path.at(messageIndex)) + step;
    if (to < 0 || to >= siblings.size())
        return false; // the first or the last already
    QString error;
    if (!m_session->switchBranch(tree.latestLeafUnder(siblings.at(to)), &error)) {
        emit refused(error);
        return false;
    }
    return true;
}

bool BranchController::fork(qsizetype messageIndex, bool withFiles)
{
    if (refuseIfBusy())
        return false;
    QString error;
    if (!m_session->forkAt(messageIndex, &error)) {
        emit refused(error);
        return false;
    }
    // The files as they were right after the message: before the next one of the new branch.
    if (withFiles)
        m_rewind->restoreFilesForBranch(messageIndex + 1);
    return true;
}

bool BranchController::mayEdit(qsizetype messageIndex)
{
    if (refuseIfBusy())
        return false;
    if (messageIndex < 0 || messageIndex >= m_session->conversation().size()
        || !m_session->conversation().at(messageIndex).isUser()) {
        emit refused(tr("Only a message you wrote can be edited and sent again."));
        return false;
    }
    return true;
}

bool BranchController::resend(qsizetype messageIndex,
                              const QString &text,
                              const QList<AgentCore::ContentBlock> &pictures,
                              bool withFiles)
{
    if (!mayEdit(messageIndex))
        return false;
    QString error;
    if (!withFiles) {
        if (!m_session->editAndResend(messageIndex, text, pictures, &error)) {
            emit refused(error);
            return false;
        }
        return true;
    }
    if (!m_session->forkAt(messageIndex - 1, &error)) {
        emit refused(error);
        return false;
    }
    // The session holds the message until the files are back (CodingSession::rewindWithFiles).
    m_rewind->restoreFilesForBranch(messageIndex);
    m_session->send(text, pictures);
    return true;
}

BranchTreeDialog *BranchController::treeDialog() const
{
    return m_tree;
}

BranchTreeDialog *BranchController::showTree()
{
    const AgentCore::SessionTree tree = m_session ? m_session->branches()
                                                  : AgentCore::SessionTree();
    if (tree.isEmpty()) {
        emit refused(m_session && !m_session->branchRefusal().isEmpty()
                         ? m_session->branchRefusal()
                         : tr("The conversation has no branches yet."));
        return nullptr;
    }
    const QStringList path = m_session->activeBranch();
    delete m_tree;
    m_tree = new BranchTreeDialog(tree,
                                  path.isEmpty() ? QString() : path.constLast(),
                                  m_dialogParent);
    m_tree->setAttribute(Qt::WA_DeleteOnClose);
    connect(m_tree, &BranchTreeDialog::branchChosen, this, [this](const QString &leaf) {
        if (refuseIfBusy())
            return;
        QString error;
        if (!m_session->switchBranch(leaf, &error))
            emit refused(error);
    });
    m_tree->open();
    return m_tree;
}

} // namespace Ui

#include "moc_branchcontroller.cpp"
