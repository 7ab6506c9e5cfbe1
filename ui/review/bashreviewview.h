#pragma once

#include <permissions/permissionrequest.h>

#include <QWidget>

QT_BEGIN_NAMESPACE
class QLabel;
class QPlainTextEdit;
class QTreeWidget;
QT_END_NAMESPACE

namespace Ui {

class ReviewAnswerBar;

/// Review of a Bash request: what the model says the command is for, the command (syntax coloured where the build can), each simple
/// command with the risks found in it, what the analysis could not follow, the working
/// directory and timeout, and the answer buttons. Never takes the focus by itself. UI thread.
class BashReviewView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BashReviewView)
public:
    explicit BashReviewView(QWidget *parent = nullptr);

    void setRequest(const AgentCore::PermissionRequest &request);
    quint64 requestId() const { return m_request.id; }

signals:
    void answered(quint64 requestId, const AgentCore::PermissionAnswer &answer);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void fitCommandHeight();
    void fillCommands();

    AgentCore::PermissionRequest m_request;
    QLabel *m_description; ///< what the model says the command is for
    QLabel *m_reason;
    QPlainTextEdit *m_command;
    QLabel *m_notUnderstood;
    QTreeWidget *m_commands;
    QLabel *m_context;
    QLabel *m_sandbox; ///< runs sandboxed (with or without network), or not, and why
    ReviewAnswerBar *m_answers;
};

} // namespace Ui
