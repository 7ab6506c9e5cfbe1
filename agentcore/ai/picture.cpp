#include "picture.h"
#include "translation.h"

#include <QCoreApplication>
#include <QFileInfo>

namespace AgentCore {

namespace {

quint32 bigEndian(const QByteArray &bytes, qsizetype at, int size)
{
    quint32 value = 0;
    for (int i = 0; i < size; ++i)
        value = (value << 8) | quint8(bytes.at(at + i));
    return value;
}

quint32 littleEndian(const QByteArray &bytes, qsizetype at, int size)
{
    quint32 value = 0;
    for (int i = size - 1; i >= 0; --i)
        value = (value << 8) | quint8(bytes.at(at + i));
    return value;
}

PictureInfo sized(const char *mimeType, quint32 width, quint32 height)
{
    PictureInfo info;
    info.mimeType = QLatin1String(mimeType);
    // Beyond any real picture (and int): the header lies.
    if (width == 0 || height == 0 || width > 1'000'000 || height > 1'000'000)
        return info;
    info.width = int(width);
    info.height = int(height);
    return info;
}

PictureInfo probeJpeg(const QByteArray &bytes)
{
    // The markers up to the frame header (SOFn) that holds the size.
    qsizetype at = 2;
    while (at + 9 < bytes.size()) {
        if (quint8(bytes.at(at)) != 0xFF)
            return sized("image/jpeg", 0, 0);
        const quint8 marker = quint8(bytes.at(at + 1));
        if (marker == 0xFF) { // fill byte
            ++at;
            continue;
        }
        const bool frame = marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8
                           && marker != 0xCC;
        if (frame)
            return sized("image/jpeg", bigEndian(bytes, at + 7, 2), bigEndian(bytes, at + 5, 2));
        if (marker == 0xD8 || (marker >= 0xD0 && marker <= 0xD7) || marker == 0x01) {
            at += 2; // no length
            continue;
        }
        at += 2 + bigEndian(bytes, at + 2, 2);
    }
    return sized("image/jpeg", 0, 0);
}

PictureInfo probeWebp(const QByteArray &bytes)
{
    const QByteArray chunk = bytes.mid(12, 4);
    if (chunk == "VP8 " && bytes.size() >= 30)
        return sized("image/webp",
                     littleEndian(bytes, 26, 2) & 0x3FFF,
                     littleEndian(bytes, 28, 2) & 0x3FFF);
    if (chunk == "VP8L" && bytes.size() >= 25) {
        const quint32 bits = littleEndian(bytes, 21, 4);
        return sized("image/webp", (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1);
    }
    if (chunk == "VP8X" && bytes.size() >= 30)
        return sized("image/webp", littleEndian(bytes, 24, 3) + 1, littleEndian(bytes, 27, 3) + 1);
    return sized("image/webp", 0, 0);
}

QString kindName(const QString &mimeType)
{
    return mimeType.mid(6).toUpper(); // "image/png" -> "PNG"
}

QString sizeText(qsizetype bytes)
{
    if (bytes < 1024 * 1024)
        return AiTr::tr("%1 KB").arg((bytes + 1023) / 1024);
    return AiTr::tr("%1 MB").arg(double(bytes) / (1024 * 1024), 0, 'f', 1);
}

} // namespace

PictureInfo PictureInfo::probe(const QByteArray &bytes)
{
    // A known signature with a header cut short is a broken picture of that kind.
    if (bytes.startsWith("\x89PNG\r\n\x1a\n")) {
        return bytes.size() < 24
                   ? sized("image/png", 0, 0)
                   : sized("image/png", bigEndian(bytes, 16, 4), bigEndian(bytes, 20, 4));
    }
    if (bytes.startsWith("GIF87a") || bytes.startsWith("GIF89a")) {
        return bytes.size() < 10
                   ? sized("image/gif", 0, 0)
                   : sized("image/gif", littleEndian(bytes, 6, 2), littleEndian(bytes, 8, 2));
    }
    if (bytes.startsWith("\xFF\xD8\xFF"))
        return probeJpeg(bytes);
    if (bytes.startsWith("RIFF") && bytes.mid(8, 4) == "WEBP")
        return probeWebp(bytes);
    return {};
}

QString PreparedPicture::summary() const
{
    const PictureInfo &from = original;
    const QString kind = kindName(block.mimeType.isEmpty() ? from.mimeType : block.mimeType);
    if (!ok() || !wasScaled())
        return AiTr::tr("%1, %2 × %3, %4").arg(kind).arg(width).arg(height).arg(sizeText(bytes));
    //: A picture sent scaled: "PNG, 2560 × 1440 scaled to 1568 × 882, 412 KB"
    return AiTr::tr("%1, %2 × %3 scaled to %4 × %5, %6")
        .arg(kind)
        .arg(from.width)
        .arg(from.height)
        .arg(width)
        .arg(height)
        .arg(sizeText(bytes));
}

PreparedPicture PreparedPicture::asIs(const QByteArray &bytes, const PictureLimits &limits)
{
    PreparedPicture picture;
    picture.original = PictureInfo::probe(bytes);
    picture.bytes = bytes.size();
    const PictureInfo &info = picture.original;
    if (!info.isValid()) {
        picture.error = info.mimeType.isEmpty()
                            ? AiTr::tr("it is not a PNG, JPEG, GIF or WebP picture")
                            : AiTr::tr("it is a broken %1 picture").arg(kindName(info.mimeType));
        return picture;
    }
    picture.width = info.width;
    picture.height = info.height;
    const int longEdge = std::max(info.width, info.height);
    const int shortEdge = std::min(info.width, info.height);
    const qsizetype base64 = (bytes.size() + 2) / 3 * 4;
    if (longEdge > limits.maxLongEdge
        || (limits.maxShortEdge > 0 && shortEdge > limits.maxShortEdge)
        || base64 > limits.maxBase64) {
        picture.error = AiTr::tr("it is %1 × %2 (%3) and cannot be scaled down here; at most "
                                 "%4 pixels on its long side and %5 are sent")
                            .arg(info.width)
                            .arg(info.height)
                            .arg(sizeText(bytes.size()))
                            .arg(limits.maxLongEdge)
                            .arg(sizeText(limits.maxBase64 / 4 * 3));
        return picture;
    }
    picture.block = ContentBlock::makeImage(info.mimeType, bytes.toBase64());
    return picture;
}

QString pictureTypeOfFileName(const QString &fileName)
{
    const QString suffix = QFileInfo(fileName).suffix().toLower();
    if (suffix == QLatin1String("png"))
        return QStringLiteral("image/png");
    if (suffix == QLatin1String("jpg") || suffix == QLatin1String("jpeg"))
        return QStringLiteral("image/jpeg");
    if (suffix == QLatin1String("gif"))
        return QStringLiteral("image/gif");
    if (suffix == QLatin1String("webp"))
        return QStringLiteral("image/webp");
    return {};
}

} // namespace AgentCore
