#include "lsphost.h"

#include <QCoreApplication>
#include <QtConcurrent/QtConcurrentRun>

namespace AgentCore {

LspHost::LspHost(const QList<LspServerConfig> &servers, const LspClientOptions &options)
    : m_servers(servers)
    , m_options(options)
    , m_thread(new QThread)
{
    m_thread->setObjectName(QStringLiteral("LspHost"));
}

LspHost::~LspHost()
{
    QThread *thread = m_thread;
    if (!thread->isRunning()) {
        delete thread; // no server was ever asked for
        return;
    }
    // Ending a server waits for it (shutdown answered, exit, then its process group: up to
    // 1.5 s for one that hangs), and whoever lets the host go last may be the window's UI
    // thread: the servers end on a pool thread (which the application waits for as it quits).
    // Each client then lives on the application's thread, where its last holder deletes it.
    QThread *home = QCoreApplication::instance() ? QCoreApplication::instance()->thread()
                                                 : QThread::currentThread();
    (void) QtConcurrent::run([made = clients(), thread, home]() mutable {
        for (const std::shared_ptr<LspClient> &client : std::as_const(made))
            client->close(home);
        made.clear();
        thread->quit();
        thread->wait();
        delete thread;
    });
}

bool LspHost::handles(const QString &path) const
{
    return std::any_of(m_servers.cbegin(), m_servers.cend(), [&path](const LspServerConfig &c) {
        return c.handles(path);
    });
}

std::shared_ptr<LspClient> LspHost::clientFor(const QString &path)
{
    const auto config = std::find_if(m_servers.cbegin(),
                                     m_servers.cend(),
                                     [&path](const LspServerConfig &c) { return c.handles(path); });
    if (config == m_servers.cend())
        return nullptr;
    QMutexLocker locker(&m_mutex);
    if (std::shared_ptr<LspClient> client = m_clients.value(config->name))
        return client;
    if (!m_thread->isRunning())
        m_thread->start();
    // Deleted on its own thread: the host's, or once the host closed it, the thread that
    // closed it (LspClient::close).
    auto client = std::shared_ptr<LspClient>(new LspClient(*config, m_options), [](LspClient *c) {
        if (c->thread() == QThread::currentThread())
            delete c;
        else
            c->deleteLater();
    });
    client->moveToThread(m_thread);
    m_clients.insert(config->name, client);
    return client;
}

QList<std::shared_ptr<LspClient>> LspHost::clients() const
{
    QMutexLocker locker(&m_mutex);
    return m_clients.values();
}

} // namespace AgentCore
