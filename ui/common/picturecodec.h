#pragma once

#include <ai/picture.h>

#include <QImage>

namespace Ui {

/// Decodes, scales down and re-encodes pictures for a model (AgentCore::PictureScaler): the
/// core names the limits, this does the pixels with QtGui. A picture that already fits goes
/// as its own bytes (a GIF keeps its frames); a larger one is scaled to fit and encoded as PNG
/// (as JPEG, smaller, when the PNG would pass the size limit). Pure functions; thread-safe;
/// meant for worker threads (a large picture takes a few hundred milliseconds).
struct PictureCodec
{
    static AgentCore::PreparedPicture prepare(const QByteArray &bytes,
                                              const AgentCore::PictureLimits &limits);
    /// A picture that is only pixels (pasted image data): encoded as prepare() encodes.
    static AgentCore::PreparedPicture prepare(const QImage &image,
                                              const AgentCore::PictureLimits &limits);
    /// What the core's tools and sessions call: prepare() as an AgentCore::PictureScaler.
    static AgentCore::PictureScaler scaler();
    /// The picture of \a block decoded at most \a maxSize (a thumbnail, the conversation's
    /// view); null when it cannot be read.
    static QImage decode(const AgentCore::ContentBlock &block, const QSize &maxSize);
};

} // namespace Ui
