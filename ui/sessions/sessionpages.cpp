#include "sessionpages.h"

#include "agentsession/agentsession.h"
#include "composer/composer.h"
#include "mcp/mcpcompletions.h"
#include "opensessions.h"
#include "page/conversationpage.h"

namespace Ui {

SessionPages::SessionPages(OpenSessions *sessions, QWidget *parent)
    : QStackedWidget(parent)
    , m_sessions(sessions)
    , m_spare(new ConversationPage(this))
{
    setObjectName(QStringLiteral("sessionPages"));
    addWidget(m_spare);
    connect(sessions, &OpenSessions::added, this, &SessionPages::add);
    connect(sessions, &OpenSessions::removed, this, &SessionPages::remove);
    connect(sessions, &OpenSessions::currentChanged, this, &SessionPages::show);
}

SessionPages::~SessionPages()
{
    detachAll();
}

ConversationPage *SessionPages::currentPage() const
{
    return static_cast<ConversationPage *>(currentWidget());
}

ConversationPage *SessionPages::page(const AgentSession *session) const
{
    return m_pages.value(session);
}

void SessionPages::setRepository(const AgentCore::Repository &repository)
{
    m_repository = repository;
    for (int i = 0; i < count(); ++i)
        static_cast<ConversationPage *>(widget(i))->setRepository(repository);
    for (auto it = m_pages.cbegin(); it != m_pages.cend(); ++it)
        it.value()->setRepository(repositoryOf(it.key()));
}

AgentCore::Repository SessionPages::repositoryOf(const AgentSession *session) const
{
    AgentCore::Repository repository = m_repository;
    // A session in a worktree of its own works on its branch, in its folder: the welcome names
    // those, not the main checkout's (an unusable one runs nowhere: the main checkout's stay).
    if (session->worktree() && session->worktreeProblem().isEmpty()) {
        repository.root = session->worktree()->path;
        repository.branch = session->worktree()->branch;
        repository.detachedAt.clear();
    }
    return repository;
}

void SessionPages::setMcpCompletions(McpCompletions *completions)
{
    m_mcp = completions;
    for (int i = 0; i < count(); ++i)
        static_cast<ConversationPage *>(widget(i))->composer()->setMcpCompletions(completions);
}

void SessionPages::setModelOffers(const QList<ModelOffer> &offers)
{
    m_offers = offers;
    for (int i = 0; i < count(); ++i)
        static_cast<ConversationPage *>(widget(i))->setModelOffers(offers);
}

void SessionPages::detachAll()
{
    for (int i = 0; i < count(); ++i)
        static_cast<ConversationPage *>(widget(i))->setSession(nullptr);
}

void SessionPages::add(AgentSession *session)
{
    ConversationPage *page = m_spare;
    m_spare = nullptr;
    if (!page) {
        page = new ConversationPage(this);
        page->setRepository(m_repository);
        page->composer()->setMcpCompletions(m_mcp);
        page->setModelOffers(m_offers);
        addWidget(page);
        emit pageAdded(page);
    }
    m_pages.insert(session, page);
    // From here on the page follows the session, shown or not.
    page->setSession(session);
    page->setRepository(repositoryOf(session));
}

void SessionPages::remove(AgentSession *session)
{
    ConversationPage *page = m_pages.take(session);
    if (!page)
        return;
    page->setSession(nullptr);
    // One page always stays, for the window's first (or next) session.
    if (!m_spare && m_pages.isEmpty()) {
        m_spare = page;
        page->setRepository(m_repository);
        return;
    }
    removeWidget(page);
    page->deleteLater();
}

void SessionPages::show(AgentSession *session)
{
    ConversationPage *page = m_pages.value(session, m_spare);
    if (!page || page == currentWidget())
        return;
    setCurrentWidget(page);
    emit currentPageChanged(page);
}

} // namespace Ui

#include "moc_sessionpages.cpp"
