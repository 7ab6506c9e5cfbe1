#include "servedmodels.h"
#include "translation.h"

#include "httperror.h"
#include "providerconfig.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QRegularExpression>
#include <QSet>
#include <QTimer>

namespace AgentCore {

namespace {

// An id a person can read and a request can carry: no control characters, no line breaks.
bool isPlausibleId(const QString &id)
{
    if (id.trimmed().isEmpty() || id.size() > ServedModels::maxIdLength)
        return false;
    for (const QChar c : id) {
        if (c.category() == QChar::Other_Control || c.category() == QChar::Other_Format
            || c == QChar::LineSeparator || c == QChar::ParagraphSeparator) {
            return false;
        }
    }
    return true;
}

QUrl modelsUrl(const QUrl &baseUrl)
{
    QUrl url = baseUrl;
    QString path = url.path();
    while (path.endsWith(u'/'))
        path.chop(1);
    url.setPath(path + QLatin1String("/models"));
    return url;
}

QString tooLargeMessage()
{
    return AiTr::tr("The server's list of models is larger than %1 MB: it was not read.")
        .arg(ServedModels::maxBodyBytes / (1024 * 1024));
}
} // namespace

ServedModels::ServedModels(QObject *parent)
    : QObject(parent)
    , m_network(new QNetworkAccessManager(this))
{
    qRegisterMetaType<AgentCore::ServedModelsResult>();
}

ServedModels::~ServedModels()
{
    cancel();
}

bool ServedModels::isRunning() const
{
    return !m_reply.isNull();
}

void ServedModels::cancel()
{
    if (QNetworkReply *reply = m_reply.data()) {
        m_reply.clear();
        reply->disconnect(this);
        reply->abort();
        reply->deleteLater();
    }
}

void ServedModels::fetch(const QUrl &baseUrl, const QString &apiKey)
{
    cancel();
    const QString scheme = baseUrl.scheme();
    if (!baseUrl.isValid() || baseUrl.host().isEmpty()
        || (scheme != QLatin1String("http") && scheme != QLatin1String("https"))) {
        ServedModelsResult result;
        result.baseUrl = baseUrl;
        result.error = AiTr::tr("The address is not an http or https URL.");
        QMetaObject::invokeMethod(
            this, [this, result] { emit finished(result); }, Qt::QueuedConnection);
        return;
    }
    QNetworkRequest request(modelsUrl(baseUrl));
    request.setRawHeader("Accept", "application/json");
    if (!apiKey.isEmpty())
        request.setRawHeader("Authorization", "Bearer " + apiKey.toUtf8());
    // The key was given for this address only.
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                         QNetworkRequest::ManualRedirectPolicy);
    request.setAttribute(QNetworkRequest::CacheLoadControlAttribute, QNetworkRequest::AlwaysNetwork);
    request.setAttribute(QNetworkRequest::CacheSaveControlAttribute, false);
    request.setTransferTimeout(m_timeoutMs);

    QNetworkReply *reply = m_network->get(request);
    m_reply = reply;
    const auto tooLarge = [this, reply, baseUrl] {
        if (reply != m_reply)
            return;
        const QVariant length = reply->header(QNetworkRequest::ContentLengthHeader);
        if (reply->bytesAvailable() <= maxBodyBytes
            && (!length.isValid() || length.toLongLong() <= maxBodyBytes)) {
            return;
        }
        m_reply.clear();
        reply->disconnect(this);
        reply->abort();
        reply->deleteLater();
        ServedModelsResult result;
        result.baseUrl = baseUrl;
        result.error = tooLargeMessage();
        emit finished(result);
    };
    connect(reply, &QNetworkReply::metaDataChanged, this, tooLarge);
    connect(reply, &QNetworkReply::readyRead, this, tooLarge);
    connect(reply, &QNetworkReply::finished, this, [this, reply, baseUrl, apiKey] {
        replyFinished(reply, baseUrl, apiKey);
    });
}

void ServedModels::replyFinished(QNetworkReply *reply, const QUrl &baseUrl, const QString &apiKey)
{
    reply->deleteLater();
    if (reply != m_reply)
        return;
    m_reply.clear();

    ServedModelsResult result;
    result.baseUrl = baseUrl;
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QByteArray body = reply->read(maxBodyBytes + 1);
    if (status == 0) {
        result.error = reply->error() == QNetworkReply::OperationCanceledError
                               || reply->error() == QNetworkReply::TimeoutError
                           ? AiTr::tr("The server did not answer in time (%1 s).")
                                 .arg(m_timeoutMs / 1000)
                           : AiTr::tr("Cannot reach the server: %1.").arg(reply->errorString());
    } else if (status >= 300 && status < 400) {
        result.error = AiTr::tr("The server answered with a redirect (HTTP %1), which is not "
                                "followed: check the address.")
                           .arg(status);
    } else if (status == 401 || status == 403) {
        result.error = apiKey.isEmpty()
                           ? AiTr::tr("The server wants an API key (HTTP %1).").arg(status)
                           : AiTr::tr("The server did not accept the API key (HTTP %1).").arg(status);
    } else if (status < 200 || status >= 300) {
        const QString message = readableErrorBody(body);
        result.error = message.isEmpty()
                           ? AiTr::tr("The server answered HTTP %1.").arg(status)
                           : AiTr::tr("The server answered HTTP %1: %2").arg(status).arg(message);
    } else if (body.size() > maxBodyBytes) {
        result.error = tooLargeMessage();
    } else if (const std::optional<QStringList> models = parse(body,
                                                               &result.error,
                                                               &result.ownedBy)) {
        result.models = *models;
    }
    result.error = redactSecret(result.error, apiKey);
    emit finished(result);
}

std::optional<QStringList> ServedModels::parse(const QByteArray &body,
                                               QString *error,
                                               QString *ownedBy)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(body, &parseError);
    const QJsonValue data = document.object().value(u"data");
    if (parseError.error != QJsonParseError::NoError || !document.isObject() || !data.isArray()) {
        *error = AiTr::tr("The server's answer is not a list of models (no \"data\" array).");
        return std::nullopt;
    }
    QStringList models;
    QSet<QString> seen;
    QSet<QString> owners; // what the entries say of who serves them; one value tells the server
    const QJsonArray entries = data.toArray();
    for (const QJsonValue &entry : entries) {
        const QString owner = entry.toObject().value(u"owned_by").toString();
        if (owners.size() <= 1 && !owner.isEmpty())
            owners.insert(owner.left(ServedModels::maxOwnedByLength + 1));
        const QString id = entry.toObject().value(u"id").toString();
        if (!isPlausibleId(id) || seen.contains(id))
            continue;
        seen.insert(id);
        models.append(id);
        if (models.size() == maxModels)
            break;
    }
    if (ownedBy) {
        ownedBy->clear();
        // A plain word only: it is shown in the settings and matched against known servers.
        const QString owner = owners.size() == 1 ? *owners.cbegin() : QString();
        static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9_.-]{1,64}$"));
        if (plain.match(owner).hasMatch())
            *ownedBy = owner;
    }
    if (models.isEmpty() && !entries.isEmpty()) {
        *error = AiTr::tr("The server's list of models has no usable model ids.");
        return std::nullopt;
    }
    return models;
}

} // namespace AgentCore

#include "moc_servedmodels.cpp"
