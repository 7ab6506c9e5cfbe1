#include "composerpictures.h"

#include "common/background.h"
#include "common/picturecodec.h"

#include <QFile>
#include <QFileInfo>

namespace Ui {

namespace {

ComposerPicture withThumbnail(QString name, AgentCore::PreparedPicture picture)
{
    ComposerPicture out;
    out.name = std::move(name);
    out.picture = std::move(picture);
    if (out.picture.ok())
        out.thumbnail = PictureCodec::decode(out.picture.block, ComposerPictures::thumbnailSize);
    return out;
}

} // namespace

ComposerPictures::ComposerPictures(QObject *parent)
    : QObject(parent)
{}

template<typename Work>
void ComposerPictures::prepare(Work work)
{
    if (m_preparing++ == 0)
        emit preparingChanged(true);
    runInBackground(this,
                    std::move(work),
                    [this, generation = m_generation](const ComposerPicture &picture) {
                        finished(generation, picture);
                    });
}

void ComposerPictures::addFile(const QString &path)
{
    prepare([path, limits = m_limits] {
        const QString name = QFileInfo(path).fileName();
        QFile file(path); // off the UI thread: runInBackground's work
        if (QFileInfo(path).size() > AgentCore::maxPictureFileBytes) {
            AgentCore::PreparedPicture tooLarge;
            tooLarge.error = ComposerPictures::tr("it is larger than %1 MB")
                                 .arg(AgentCore::maxPictureFileBytes / (1024 * 1024));
            return withThumbnail(name, tooLarge);
        }
        if (!file.open(QIODevice::ReadOnly)) {
            AgentCore::PreparedPicture unreadable;
            unreadable.error = file.errorString();
            return withThumbnail(name, unreadable);
        }
        return withThumbnail(name, PictureCodec::prepare(file.readAll(), limits));
    });
}

void ComposerPictures::addData(const QByteArray &bytes, const QString &name)
{
    prepare([bytes, name, limits = m_limits] {
        return withThumbnail(name, PictureCodec::prepare(bytes, limits));
    });
}

void ComposerPictures::addImage(const QImage &image, const QString &name)
{
    prepare([image, name, limits = m_limits] {
        return withThumbnail(name, PictureCodec::prepare(image, limits));
    });
}

void ComposerPictures::finished(int generation, const ComposerPicture &picture)
{
    if (generation == m_generation) {
        if (!picture.picture.ok()) {
            //: Above the message box: "shot.png was not added: it is a broken PNG picture"
            emit failed(tr("%1 was not added: %2").arg(picture.name, picture.picture.error));
        } else if (m_pictures.size() >= maxPictures) {
            emit failed(tr("%1 was not added: one message takes at most %2 pictures")
                            .arg(picture.name)
                            .arg(maxPictures));
        } else {
            m_pictures.append(picture);
            emit changed();
        }
    }
    if (--m_preparing == 0)
        emit preparingChanged(false);
}

void ComposerPictures::remove(int index)
{
    if (index < 0 || index >= m_pictures.size())
        return;
    m_pictures.removeAt(index);
    emit changed();
}

void ComposerPictures::clear()
{
    ++m_generation;
    if (m_pictures.isEmpty())
        return;
    m_pictures.clear();
    emit changed();
}

QList<AgentCore::ContentBlock> ComposerPictures::blocks() const
{
    QList<AgentCore::ContentBlock> blocks;
    for (const ComposerPicture &picture : m_pictures)
        blocks.append(picture.picture.block);
    return blocks;
}

} // namespace Ui

#include "moc_composerpictures.cpp"
