#include "picturecodec.h"
#include "translation.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QImageReader>
#include <QImageWriter>

#include <algorithm>
#include <cmath>

namespace Ui {

namespace {

// \a size scaled down (never up) to fit \a limits, keeping its aspect ratio.
QSize fitted(const QSize &size, const AgentCore::PictureLimits &limits)
{
    const int longEdge = std::max(size.width(), size.height());
    const int shortEdge = std::min(size.width(), size.height());
    double factor = std::min(1.0, double(limits.maxLongEdge) / longEdge);
    if (limits.maxShortEdge > 0)
        factor = std::min(factor, double(limits.maxShortEdge) / shortEdge);
    if (factor >= 1.0)
        return size;
    return QSize(std::max(1, int(std::lround(size.width() * factor))),
                 std::max(1, int(std::lround(size.height() * factor))));
}

QByteArray encoded(const QImage &image, const char *format, int quality)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QImageWriter writer(&buffer, format);
    writer.setQuality(quality);
    if (!writer.write(image))
        return {};
    return bytes;
}

qsizetype base64Size(const QByteArray &bytes)
{
    return (bytes.size() + 2) / 3 * 4;
}

AgentCore::PreparedPicture encodedPicture(QImage image,
                                          const AgentCore::PictureInfo &original,
                                          const AgentCore::PictureLimits &limits)
{
    AgentCore::PreparedPicture picture;
    picture.original = original;
    const QSize target = fitted(image.size(), limits);
    if (target != image.size())
        image = image.scaled(target, Qt::KeepAspectRatio, Qt::SmoothTransformation);
    // PNG keeps a screenshot's text sharp; a photo that would pass the limit as PNG goes as
    // JPEG, then smaller, until it fits.
    QByteArray bytes = encoded(image, "png", -1);
    QString mimeType = QStringLiteral("image/png");
    for (int attempt = 0; base64Size(bytes) > limits.maxBase64 && attempt < 8; ++attempt) {
        if (attempt > 0)
            image = image.scaled(image.size() * 3 / 4,
                                 Qt::KeepAspectRatio,
                                 Qt::SmoothTransformation);
        QImage opaque = image.convertToFormat(QImage::Format_RGB32);
        bytes = encoded(opaque, "jpeg", 85);
        mimeType = QStringLiteral("image/jpeg");
    }
    if (bytes.isEmpty() || base64Size(bytes) > limits.maxBase64) {
        picture.error = UiTr::tr("it could not be made small enough to send");
        return picture;
    }
    picture.width = image.width();
    picture.height = image.height();
    picture.bytes = bytes.size();
    picture.block = AgentCore::ContentBlock::makeImage(mimeType, bytes.toBase64());
    return picture;
}

} // namespace

AgentCore::PreparedPicture PictureCodec::prepare(const QByteArray &bytes,
                                                 const AgentCore::PictureLimits &limits)
{
    AgentCore::PreparedPicture asIs = AgentCore::PreparedPicture::asIs(bytes, limits);
    if (asIs.ok() || !asIs.original.isValid())
        return asIs; // fits as it is, or is no picture of the four kinds
    QByteArray copy = bytes;
    QBuffer buffer(&copy);
    buffer.open(QIODevice::ReadOnly);
    QImageReader reader(&buffer);
    const QSize size = reader.size();
    if (!reader.canRead() || !size.isValid()) {
        asIs.error = asIs.original.mimeType == QLatin1String("image/webp")
                         ? UiTr::tr("it is a WebP picture too large to send as it is, and "
                                    "WebP pictures cannot be scaled here (Qt's WebP image "
                                    "plugin is not installed)")
                         : UiTr::tr("it is a broken %1 picture")
                               .arg(asIs.original.mimeType.mid(6).toUpper());
        return asIs;
    }
    // Decoded at the size it is sent at (a 50-megapixel photo is never held whole).
    const QSize target = fitted(size, limits);
    if (target != size)
        reader.setScaledSize(target);
    const QImage image = reader.read();
    if (image.isNull()) {
        asIs.error = UiTr::tr("it cannot be decoded: %1").arg(reader.errorString());
        return asIs;
    }
    return encodedPicture(image, asIs.original, limits);
}

AgentCore::PreparedPicture PictureCodec::prepare(const QImage &image,
                                                 const AgentCore::PictureLimits &limits)
{
    AgentCore::PictureInfo original;
    original.mimeType = QStringLiteral("image/png");
    original.width = image.width();
    original.height = image.height();
    if (image.isNull()) {
        AgentCore::PreparedPicture picture;
        picture.original = original;
        picture.error = UiTr::tr("the pasted picture is empty");
        return picture;
    }
    return encodedPicture(image, original, limits);
}

AgentCore::PictureScaler PictureCodec::scaler()
{
    return [](const QByteArray &bytes, const AgentCore::PictureLimits &limits) {
        return prepare(bytes, limits);
    };
}

QImage PictureCodec::decode(const AgentCore::ContentBlock &block, const QSize &maxSize)
{
    QByteArray bytes = QByteArray::fromBase64(block.data);
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::ReadOnly);
    QImageReader reader(&buffer);
    const QSize size = reader.size();
    if (!size.isValid())
        return {};
    if (size.width() > maxSize.width() || size.height() > maxSize.height())
        reader.setScaledSize(size.scaled(maxSize, Qt::KeepAspectRatio));
    return reader.read(); // null past QImageReader's allocation limit, too
}

} // namespace Ui
