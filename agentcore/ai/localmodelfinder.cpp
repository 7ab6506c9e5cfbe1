#include "localmodelfinder.h"

#include "servedmodels.h"

#include <QTimer>

namespace AgentCore {

QList<quint16> LocalModelFinder::defaultPorts()
{
    return {11434, 8080, 1234};
}

LocalModelFinder::LocalModelFinder(QObject *parent)
    : QObject(parent)
    , m_ports(defaultPorts())
    , m_deadline(new QTimer(this))
{
    qRegisterMetaType<AgentCore::LocalModelServer>();
    m_deadline->setSingleShot(true);
    connect(m_deadline, &QTimer::timeout, this, &LocalModelFinder::finish);
}

LocalModelFinder::~LocalModelFinder()
{
    stop();
}

void LocalModelFinder::stop()
{
    m_deadline->stop();
    m_running = false;
    m_outstanding = 0;
    for (ServedModels *probe : std::as_const(m_probes)) {
        probe->disconnect(this);
        probe->cancel();
        probe->deleteLater();
    }
    m_probes.clear();
}

void LocalModelFinder::find()
{
    stop();
    m_running = true;
    m_answers = QList<std::optional<LocalModelServer>>(m_ports.size());
    if (m_ports.isEmpty()) {
        // Later, as promised: a caller connects after find() returns. Not this search's end
        // if another one started meanwhile.
        const quint64 search = ++m_search;
        QMetaObject::invokeMethod(
            this,
            [this, search] {
                if (search == m_search)
                    finish();
            },
            Qt::QueuedConnection);
        return;
    }
    ++m_search;
    for (qsizetype index = 0; index < m_ports.size(); ++index) {
        auto probe = new ServedModels(this);
        probe->setTimeout(m_timeoutMs);
        connect(probe,
                &ServedModels::finished,
                this,
                [this, index](const ServedModelsResult &result) { answered(index, result); });
        m_probes.append(probe);
        ++m_outstanding;
        // 127.0.0.1, never "localhost": only this computer, whatever the resolver says. No
        // key: a server that wants one is not the free local model this looks for.
        QUrl url;
        url.setScheme(QStringLiteral("http"));
        url.setHost(QStringLiteral("127.0.0.1"));
        url.setPort(m_ports.at(index));
        url.setPath(QStringLiteral("/v1"));
        probe->fetch(url);
    }
    m_deadline->start(m_timeoutMs);
}

void LocalModelFinder::answered(qsizetype index, const ServedModelsResult &result)
{
    if (!m_running || index >= m_answers.size())
        return;
    if (result.succeeded() && !result.models.isEmpty())
        m_answers[index] = LocalModelServer{m_ports.at(index),
                                            result.baseUrl,
                                            result.models,
                                            result.ownedBy};
    if (--m_outstanding == 0)
        finish();
}

void LocalModelFinder::finish()
{
    if (!m_running)
        return; // stopped meanwhile
    QList<LocalModelServer> servers;
    for (const std::optional<LocalModelServer> &answer : std::as_const(m_answers)) {
        if (answer)
            servers.append(*answer);
    }
    stop(); // the ports that did not answer in time are dropped
    m_answers.clear();
    emit finished(servers);
}

} // namespace AgentCore

#include "moc_localmodelfinder.cpp"
