#pragma once

#include "types.h"

#include <QByteArray>
#include <QString>

#include <functional>

namespace AgentCore {

/// How large a picture a model is sent: the long and short edge in pixels and the base64
/// size. What each provider takes is pictureLimits() (modelcatalog.h).
struct PictureLimits
{
    int maxLongEdge = 1568; ///< pixels of the longer side
    int maxShortEdge = 0;   ///< pixels of the shorter side; 0: no limit of its own
    qsizetype maxBase64 = ContentBlock::maxImageBase64;
    friend bool operator==(const PictureLimits &, const PictureLimits &) = default;
};

/// What a picture's first bytes say it is: its kind and size in pixels, read from the header
/// of a PNG, JPEG, GIF or WebP without decoding it (the core has no QtGui). Pure; thread-safe.
struct PictureInfo
{
    QString mimeType; ///< "image/png", ...; empty: none of the four kinds
    int width = 0;
    int height = 0;

    bool isValid() const { return !mimeType.isEmpty() && width > 0 && height > 0; }
    static PictureInfo probe(const QByteArray &bytes);
};

/// A picture made ready for a model: the image block it is sent as, with what it was and what
/// it became, or why it cannot be sent.
struct PreparedPicture
{
    ContentBlock block;   ///< Image: the picture as sent (empty when error is set)
    QString error;        ///< for people and models: why the picture cannot be sent
    PictureInfo original; ///< what was given
    int width = 0;        ///< as sent
    int height = 0;
    qsizetype bytes = 0; ///< as sent, decoded

    bool ok() const { return error.isEmpty(); }
    bool wasScaled() const { return width != original.width || height != original.height; }
    /// "PNG, 2560 × 1440 scaled to 1568 × 882, 412 KB": the short line that names a picture.
    QString summary() const;

    /// \a bytes as they are, when they are a picture of the four kinds within \a limits;
    /// otherwise an error that says what does not fit. What a picture becomes where nothing
    /// can decode and scale it (the core alone, a test).
    static PreparedPicture asIs(const QByteArray &bytes, const PictureLimits &limits);
};

/// Decodes, scales down and re-encodes \a bytes to fit \a limits. Decoding needs QtGui, which
/// the core does not use: the front end gives one (Ui::PictureScaler). Called on worker and
/// tool threads, never on the UI thread; must be thread-safe.
using PictureScaler
    = std::function<PreparedPicture(const QByteArray &bytes, const PictureLimits &limits)>;

/// The largest picture file AgentDesk reads to prepare (a bigger one is refused before it is
/// read): 50 MB, far above any screenshot.
constexpr qint64 maxPictureFileBytes = 50 * 1024 * 1024;

/// "image/png" for "shot.PNG", ... for the four kinds' file names; empty for any other.
QString pictureTypeOfFileName(const QString &fileName);

} // namespace AgentCore
