#pragma once

#include "settings/modeldiscovery.h"

#include <coding/repository.h>

#include <QHash>
#include <QPointer>
#include <QStackedWidget>

namespace Ui {

class AgentSession;
class ConversationPage;
class McpCompletions;
class OpenSessions;

/// One ConversationPage per open session, stacked: the current session's is shown. A page
/// follows its session's events while hidden, so switching shows a conversation that is up
/// to date without rebuilding it. A page left without a session (the last one closed) is
/// kept for the next session, so there is always a current page. UI thread.
class SessionPages final : public QStackedWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SessionPages)
public:
    explicit SessionPages(OpenSessions *sessions, QWidget *parent = nullptr);
    ~SessionPages() override;

    /// Never null.
    ConversationPage *currentPage() const;
    /// Null when \a session is not open.
    ConversationPage *page(const AgentSession *session) const;
    /// For @-completion and the welcome page of every page, present and future (a worktree
    /// session's page names its worktree instead).
    void setRepository(const AgentCore::Repository &repository);
    /// The models found on this computer, for the welcome of every page, present and future.
    void setModelOffers(const QList<ModelOffer> &offers);
    /// The repository's MCP resources and prompts, for the composer of every page, present
    /// and future. Not owned; null: none.
    void setMcpCompletions(McpCompletions *completions);
    /// Detaches every page from its session (before the sessions go).
    void detachAll();

signals:
    /// A page was made for a newly opened session (the window connects its signals).
    void pageAdded(Ui::ConversationPage *page);
    /// Another page is shown.
    void currentPageChanged(Ui::ConversationPage *page);

private:
    void add(AgentSession *session);
    void remove(AgentSession *session);
    void show(AgentSession *session);
    /// What the welcome of \a session's page names: the repository, or the session's own
    /// worktree (its folder and branch).
    AgentCore::Repository repositoryOf(const AgentSession *session) const;

    OpenSessions *m_sessions;
    AgentCore::Repository m_repository;
    QPointer<McpCompletions> m_mcp;
    QList<ModelOffer> m_offers;
    QHash<const AgentSession *, ConversationPage *> m_pages;
    ConversationPage *m_spare = nullptr; ///< no session: the next one gets it
};

} // namespace Ui
