#include "sessionpictures.h"
#include "translation.h"

#include <ai/types.h>
#include <files/privatefiles.h>

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QRegularExpression>
#include <QSaveFile>

#include <functional>

namespace AgentCore {

namespace {

const QLatin1String sessionSuffix(".jsonl");

QString suffixOf(const QString &mimeType)
{
    if (mimeType == QLatin1String("image/jpeg"))
        return QStringLiteral("jpg");
    return mimeType.mid(6); // png, gif, webp
}

// Only names this class writes: a session file is data anyone may have written, and its
// "file" must never reach out of the folder.
bool isPictureName(const QString &name)
{
    static const QRegularExpression pattern(QStringLiteral("^[0-9a-f]{64}\\.(png|jpg|gif|webp)$"));
    return pattern.match(name).hasMatch();
}

bool isImage(const QJsonObject &block)
{
    return block.value(QLatin1String("type")).toString() == QLatin1String("image");
}

// Calls \a change on every element of every "content" array in \a value, depth first.
QJsonValue mapContent(const QJsonValue &value,
                      const std::function<QJsonValue(const QJsonObject &)> &change,
                      bool inContent = false)
{
    if (value.isArray()) {
        QJsonArray array = value.toArray();
        for (qsizetype i = 0; i < array.size(); ++i) {
            const QJsonValue element = array.at(i);
            if (inContent && element.isObject() && isImage(element.toObject()))
                array.replace(i, change(element.toObject()));
            else
                array.replace(i, mapContent(element, change));
        }
        return array;
    }
    if (value.isObject()) {
        QJsonObject object = value.toObject();
        for (auto it = object.begin(); it != object.end(); ++it) {
            if (it.value().isArray() || it.value().isObject())
                it.value() = mapContent(it.value(), change, it.key() == QLatin1String("content"));
        }
        return object;
    }
    return value;
}

// Whether an image block of a "content" array in \a value has \a key: looked at without
// copying, since most records carry no picture.
bool hasPictures(const QJsonValue &value, QLatin1String key, bool inContent = false)
{
    if (value.isArray()) {
        const QJsonArray array = value.toArray();
        for (const QJsonValue &element : array) {
            if (inContent && element.isObject() && isImage(element.toObject())) {
                if (element.toObject().contains(key))
                    return true;
            } else if (hasPictures(element, key)) {
                return true;
            }
        }
        return false;
    }
    if (value.isObject()) {
        const QJsonObject object = value.toObject();
        for (auto it = object.begin(); it != object.end(); ++it) {
            if ((it.value().isArray() || it.value().isObject())
                && hasPictures(it.value(), key, it.key() == QLatin1String("content")))
                return true;
        }
    }
    return false;
}

QJsonObject placeholder(const QString &text)
{
    return {{QStringLiteral("type"), QStringLiteral("text")}, {QStringLiteral("text"), text}};
}

} // namespace

QString SessionPictures::directoryOf(const QString &sessionPath)
{
    const QString base = sessionPath.endsWith(sessionSuffix)
                             ? sessionPath.chopped(sessionSuffix.size())
                             : sessionPath;
    return base + QLatin1String(".images");
}

QJsonObject SessionPictures::stored(const QJsonObject &record,
                                    const QString &sessionPath,
                                    QString *error)
{
    if (!hasPictures(record, QLatin1String("data")))
        return record;
    const QString directory = directoryOf(sessionPath);
    return mapContent(
               record,
               [&](const QJsonObject &block) -> QJsonValue {
                   const QString data = block.value(QLatin1String("data")).toString();
                   const QString mimeType = block.value(QLatin1String("mimeType")).toString();
                   if (data.isEmpty() || !ContentBlock::isImageType(mimeType))
                       return block;
                   const QByteArray bytes = QByteArray::fromBase64(data.toLatin1());
                   const QString name
                       = QString::fromLatin1(
                             QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex())
                         + u'.' + suffixOf(mimeType);
                   const QString path = directory + u'/' + name;
                   if (!QFileInfo::exists(path)) {
                       QSaveFile file(path);
                       if (!PrivateFiles::makePath(directory) || !PrivateFiles::prepareFile(path)
                           || !file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size()
                           || !file.commit()) {
                           if (error) {
                               *error = SessionTr::tr("A picture could not be kept beside the "
                                                      "session (%1); it stays in the session file.")
                                            .arg(QDir::toNativeSeparators(path));
                           }
                           return block;
                       }
                   }
                   QJsonObject reference = block;
                   reference.remove(QLatin1String("data"));
                   reference.insert(QLatin1String("file"), name);
                   return reference;
               })
        .toObject();
}

QJsonObject SessionPictures::restored(const QJsonObject &record,
                                      const QString &sessionPath,
                                      bool readFiles)
{
    if (!hasPictures(record, QLatin1String("file")))
        return record;
    const QString directory = directoryOf(sessionPath);
    return mapContent(
               record,
               [&](const QJsonObject &block) -> QJsonValue {
                   if (!block.contains(QLatin1String("file"))
                       || block.contains(QLatin1String("data")))
                       return block;
                   const QString name = block.value(QLatin1String("file")).toString();
                   //: In a resumed conversation, where a picture was: "[picture 3f2a….png is
                   //: missing: it was kept in /home/u/.local/share/AgentDesk/sessions/…/x.images]"
                   const QString missing = SessionTr::tr(
                                               "[picture %1 is missing: it was kept in %2]")
                                               .arg(name, QDir::toNativeSeparators(directory));
                   if (!readFiles)
                       return placeholder({}); // a listing wants the text alone
                   if (!isPictureName(name))
                       return placeholder(missing);
                   QFile file(directory + u'/' + name);
                   if (file.size() > ContentBlock::maxImageBase64 / 4 * 3
                       || !file.open(QIODevice::ReadOnly))
                       return placeholder(missing);
                   const QByteArray bytes = file.readAll();
                   if (bytes.isEmpty())
                       return placeholder(missing);
                   QJsonObject picture = block;
                   picture.remove(QLatin1String("file"));
                   picture.insert(QLatin1String("data"), QString::fromLatin1(bytes.toBase64()));
                   return picture;
               })
        .toObject();
}

void SessionPictures::remove(const QString &sessionPath)
{
    QDir(directoryOf(sessionPath)).removeRecursively();
}

} // namespace AgentCore
