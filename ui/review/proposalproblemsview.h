#pragma once

#include <permissions/proposalcheck.h>

#include <QFutureWatcher>
#include <QLabel>

namespace Ui {

/// Above a review's diff: what a language server finds the proposal would introduce, checked
/// while the review is shown (AgentCore::PermissionRequest::proposalCheck). "Checking…" until
/// the answer comes, then each new problem with its line (a link to it in the diff), or that
/// there is none, or why the server could not tell. Hidden when nothing checks the file.
/// Never waits for the check: the answer arrives through a QFutureWatcher. UI thread.
class ProposalProblemsView final : public QLabel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ProposalProblemsView)
public:
    static constexpr int maxShown = 8;

    explicit ProposalProblemsView(QWidget *parent = nullptr);

    /// Shows \a check's answer once it is there; an invalid future hides the view.
    void watch(const QFuture<AgentCore::ProposalCheck> &check);
    /// The answer shown; nullopt while checking or when there is none.
    std::optional<AgentCore::ProposalCheck> result() const { return m_result; }

signals:
    /// The check came back with these new problems (empty: none, or it could not tell).
    void problemsFound(const QList<AgentCore::ProposalProblem> &problems);
    /// The user followed a problem's line link.
    void lineActivated(int line);

protected:
    void changeEvent(QEvent *event) override;

private:
    void present(const AgentCore::ProposalCheck &check);
    QString muted(const QString &text) const;

    QFutureWatcher<AgentCore::ProposalCheck> m_watcher;
    std::optional<AgentCore::ProposalCheck> m_result;
};

} // namespace Ui
