// McpClient's resources and prompts: requests and results only, on top of call() and
// sendRequest(), whatever carries the messages.

#include "mcpclient.h"
#include "translation.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QThread>

namespace AgentCore {

namespace {

const QString resourcesList = QStringLiteral("resources/list");
const QString promptsList = QStringLiteral("prompts/list");

// Adds the entries of one page's \a result (its \a key list) to \a listed; the next cursor,
// empty at the last page.
QString addPage(const QJsonObject &result, const QString &key, McpListed<QJsonObject> *listed)
{
    const QJsonValue entries = result.value(key);
    if (!entries.isArray())
        listed->problems.append(McpTr::tr("a page of the answer has no \"%1\" list").arg(key));
    for (const QJsonValue &entry : entries.toArray()) {
        if (listed->items.size() >= McpClient::maxListItems) {
            listed->problems.append(McpTr::tr("more than %1 entries; the rest are left out")
                                        .arg(McpClient::maxListItems));
            return {};
        }
        if (!entry.isObject())
            listed->problems.append(McpTr::tr("an entry that is not an object is left out"));
        else
            listed->items.append(entry.toObject());
    }
    const QJsonValue next = result.value(QLatin1String("nextCursor"));
    return next.isString() ? next.toString() : QString();
}

template<typename T>
McpListed<T> parsed(const McpListed<QJsonObject> &raw)
{
    McpListed<T> listed;
    listed.error = raw.error;
    listed.aborted = raw.aborted;
    listed.problems = raw.problems;
    for (const QJsonObject &json : raw.items) {
        QString problem;
        if (const std::optional<T> item = T::fromJson(json, &problem))
            listed.items.append(*item);
        else
            listed.problems.append(McpTr::tr("left out: %1").arg(problem));
    }
    return listed;
}

} // namespace

McpListed<QJsonObject> McpClient::listAll(const QString &method,
                                          const QString &key,
                                          const AbortToken &abort)
{
    McpListed<QJsonObject> listed;
    QString cursor;
    for (int page = 0; page < maxListPages; ++page) {
        QJsonObject params;
        if (!cursor.isEmpty())
            params.insert(QStringLiteral("cursor"), cursor);
        const McpCallResult result = call(method, params, abort);
        if (!result.ok) {
            listed.error = result.error;
            listed.aborted = result.aborted;
            return listed;
        }
        cursor = addPage(result.result, key, &listed);
        if (cursor.isEmpty())
            return listed;
    }
    listed.problems.append(
        McpTr::tr("%1 has more than %2 pages; the rest are left out").arg(method).arg(maxListPages));
    return listed;
}

McpListed<McpResourceInfo> McpClient::listResources(const AbortToken &abort)
{
    const McpListed<QJsonObject> raw = listAll(resourcesList, QStringLiteral("resources"), abort);
    if (raw.ok())
        keepListing(resourcesList, raw);
    return parsed<McpResourceInfo>(raw);
}

McpListed<McpResourceTemplateInfo> McpClient::listResourceTemplates(const AbortToken &abort)
{
    return parsed<McpResourceTemplateInfo>(listAll(QStringLiteral("resources/templates/list"),
                                                   QStringLiteral("resourceTemplates"),
                                                   abort));
}

McpListed<McpPromptInfo> McpClient::listPrompts(const AbortToken &abort)
{
    const McpListed<QJsonObject> raw = listAll(promptsList, QStringLiteral("prompts"), abort);
    if (raw.ok())
        keepListing(promptsList, raw);
    return parsed<McpPromptInfo>(raw);
}

McpReadResult McpClient::readResource(const QString &uri,
                                      const AbortToken &abort,
                                      qsizetype maxTextChars,
                                      qsizetype maxBinaryBytes)
{
    McpReadResult read;
    if (uri.isEmpty() || uri.size() > McpCatalogLimits::maxUriLength) {
        read.error = McpTr::tr("not a resource URI: \"%1\"").arg(uri.left(100));
        return read;
    }
    const McpCallResult result = call(QStringLiteral("resources/read"),
                                      {{QStringLiteral("uri"), uri}},
                                      abort);
    if (!result.ok) {
        read.error = result.error;
        read.aborted = result.aborted;
        return read;
    }
    const QJsonValue contents = result.result.value(QLatin1String("contents"));
    if (!contents.isArray()) {
        read.error = McpTr::tr("the answer to resources/read has no \"contents\" list");
        return read;
    }
    // One budget for all contents: a hundred blocks of the cap each are not what was asked.
    qsizetype textLeft = maxTextChars;
    qsizetype bytesLeft = maxBinaryBytes;
    const QJsonArray list = contents.toArray();
    for (qsizetype i = 0; i < list.size(); ++i) {
        if (i >= McpCatalogLimits::maxContents) {
            read.contents.last().note += McpTr::tr(" [%1 more contents left out]")
                                             .arg(list.size() - i);
            break;
        }
        QString problem;
        const auto one = McpResourceContents::fromJson(list.at(i).toObject(),
                                                       &problem,
                                                       std::max<qsizetype>(textLeft, 0),
                                                       std::max<qsizetype>(bytesLeft, 0));
        if (!one) {
            read.error = McpTr::tr("the answer to resources/read is malformed: %1").arg(problem);
            read.contents.clear();
            return read;
        }
        textLeft -= one->text.size();
        bytesLeft -= one->blob.size();
        read.contents.append(*one);
    }
    return read;
}

McpGetPromptResult McpClient::getPrompt(const QString &name,
                                        const QMap<QString, QString> &arguments,
                                        const AbortToken &abort)
{
    McpGetPromptResult got;
    QList<McpPromptInfo> known = prompts();
    if (known.isEmpty()) {
        const McpListed<McpPromptInfo> listed = listPrompts(abort);
        if (!listed.ok()) {
            got.error = listed.error;
            got.aborted = listed.aborted;
            return got;
        }
        known = listed.items;
    }
    const auto info = std::find_if(known.cbegin(), known.cend(), [&name](const McpPromptInfo &p) {
        return p.name == name;
    });
    if (info == known.cend()) {
        got.error = McpTr::tr("the MCP server \"%1\" has no prompt \"%2\"").arg(config().name, name);
        return got;
    }
    if (const QString problem = info->checkArguments(arguments); !problem.isEmpty()) {
        got.error = problem;
        return got;
    }
    QJsonObject values;
    for (auto it = arguments.begin(); it != arguments.end(); ++it)
        values.insert(it.key(), it.value());
    const McpCallResult result = call(QStringLiteral("prompts/get"),
                                      {{QStringLiteral("name"), name},
                                       {QStringLiteral("arguments"), values}},
                                      abort);
    if (!result.ok) {
        got.error = result.error;
        got.aborted = result.aborted;
        return got;
    }
    QString problem;
    if (const auto prompt = McpPromptResult::fromJson(result.result, &problem))
        got.prompt = *prompt;
    else
        got.error = McpTr::tr("the answer to prompts/get is malformed: %1").arg(problem);
    return got;
}

QList<McpResourceInfo> McpClient::resources() const
{
    QMutexLocker locker(&m_mutex);
    return m_resources.value_or(QList<McpResourceInfo>());
}

QList<McpPromptInfo> McpClient::prompts() const
{
    QMutexLocker locker(&m_mutex);
    return m_prompts.value_or(QList<McpPromptInfo>());
}

void McpClient::keepListing(const QString &method, const McpListed<QJsonObject> &listed)
{
    for (const QString &problem : listed.problems)
        note(QStringLiteral("%1: %2").arg(method, problem));
    if (method == resourcesList) {
        const McpListed<McpResourceInfo> resources = parsed<McpResourceInfo>(listed);
        for (const QString &problem : resources.problems.mid(listed.problems.size()))
            note(QStringLiteral("%1: %2").arg(method, problem));
        {
            QMutexLocker locker(&m_mutex);
            m_resources = resources.items;
        }
        emit resourcesChanged();
    } else {
        const McpListed<McpPromptInfo> prompts = parsed<McpPromptInfo>(listed);
        for (const QString &problem : prompts.problems.mid(listed.problems.size()))
            note(QStringLiteral("%1: %2").arg(method, problem));
        {
            QMutexLocker locker(&m_mutex);
            m_prompts = prompts.items;
        }
        emit promptsChanged();
    }
}

void McpClient::listAgain(const QString &method,
                          const QString &key,
                          const QString &cursor,
                          std::shared_ptr<McpListed<QJsonObject>> listed,
                          int page)
{
    Q_ASSERT(QThread::currentThread() == thread());
    {
        // Only a listing someone asked for is kept up to date.
        QMutexLocker locker(&m_mutex);
        if (method == resourcesList ? !m_resources : !m_prompts)
            return;
    }
    QJsonObject params;
    if (!cursor.isEmpty())
        params.insert(QStringLiteral("cursor"), cursor);
    sendRequest(method,
                params,
                m_options.callTimeoutMs,
                [this, method, key, listed, page](const McpCallResult &result) {
                    if (!result.ok) {
                        note(
                            McpTr::tr("%1 after list_changed failed: %2").arg(method, result.error));
                        return;
                    }
                    const QString next = addPage(result.result, key, listed.get());
                    if (!next.isEmpty() && page + 1 < maxListPages) {
                        listAgain(method, key, next, listed, page + 1);
                        return;
                    }
                    keepListing(method, *listed);
                });
}

void McpClient::onListChanged(const QString &method)
{
    if (method == QLatin1String("notifications/resources/list_changed"))
        listAgain(resourcesList,
                  QStringLiteral("resources"),
                  {},
                  std::make_shared<McpListed<QJsonObject>>(),
                  0);
    else if (method == QLatin1String("notifications/prompts/list_changed"))
        listAgain(promptsList,
                  QStringLiteral("prompts"),
                  {},
                  std::make_shared<McpListed<QJsonObject>>(),
                  0);
}

} // namespace AgentCore
