#pragma once

#include <ai/picture.h>

#include <QImage>
#include <QObject>

namespace Ui {

/// One picture given to the message box: as it will be sent, with its thumbnail.
struct ComposerPicture
{
    QString name;     ///< the file's name, or "Pasted picture"
    QImage thumbnail; ///< at most thumbnailSize (device pixels), null when it cannot be shown
    AgentCore::PreparedPicture picture;
};

/// The pictures pasted or dropped into the message box, until it is sent: each is read (a
/// dropped file), decoded, scaled and re-encoded to the model's limits on a worker thread
/// (PictureCodec), then listed here in the order given. What cannot be sent (a broken file,
/// one too large) is not listed: failed() says why. UI thread.
class ComposerPictures final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ComposerPictures)
public:
    /// More in one message is refused (Anthropic shrinks its size limit past twenty).
    static constexpr int maxPictures = 20;
    static constexpr QSize thumbnailSize{160, 120};

    explicit ComposerPictures(QObject *parent = nullptr);

    /// The limits pictures given from now on are made to fit (the session's model's).
    void setLimits(const AgentCore::PictureLimits &limits) { m_limits = limits; }
    AgentCore::PictureLimits limits() const { return m_limits; }

    /// A picture file (a drop from a file manager): read off the UI thread.
    void addFile(const QString &path);
    /// A picture's encoded bytes (PNG, JPEG, GIF, WebP: the clipboard's image/png).
    void addData(const QByteArray &bytes, const QString &name);
    /// A picture that is only pixels (the clipboard's image data).
    void addImage(const QImage &image, const QString &name);

    void remove(int index);
    /// Drops every picture and what is still being prepared.
    void clear();
    const QList<ComposerPicture> &pictures() const { return m_pictures; }
    /// The pictures as the message's image blocks, in order.
    QList<AgentCore::ContentBlock> blocks() const;
    qsizetype count() const { return m_pictures.size(); }
    bool isEmpty() const { return m_pictures.isEmpty(); }
    /// A picture is still being prepared: the message waits for it.
    bool isPreparing() const { return m_preparing > 0; }

signals:
    void changed();
    void preparingChanged(bool preparing);
    /// A picture could not be added; \a message says which and why, for people.
    void failed(const QString &message);

private:
    template<typename Work>
    void prepare(Work work);
    void finished(int generation, const ComposerPicture &picture);

    AgentCore::PictureLimits m_limits;
    QList<ComposerPicture> m_pictures;
    int m_preparing = 0;
    int m_generation = 0; // clear() drops what was still being prepared
};

} // namespace Ui
