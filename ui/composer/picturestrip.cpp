#include "picturestrip.h"

#include "composerpictures.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QPainter>
#include <QStyle>
#include <QStyleOptionFocusRect>
#include <QToolButton>

namespace Ui {

namespace {

constexpr int thumbnailHeight = 56;

/// One picture: its thumbnail, focusable; Delete or Backspace asks to remove it.
class PictureThumbnail final : public QWidget
{
public:
    PictureThumbnail(const ComposerPicture &picture, std::function<void()> remove, QWidget *parent)
        : QWidget(parent)
        , m_image(picture.thumbnail)
        , m_remove(std::move(remove))
    {
        setObjectName(QStringLiteral("pictureThumbnail"));
        setFocusPolicy(Qt::StrongFocus);
        const QSize shown = m_image.isNull()
                                ? QSize(thumbnailHeight, thumbnailHeight)
                                : m_image.size().scaled(QSize(thumbnailHeight * 2, thumbnailHeight),
                                                        Qt::KeepAspectRatio);
        setFixedSize(shown + QSize(4, 4));
        //: A picture in the message box: its name and what is sent, "shot.png, PNG, 800 × 600, 41 KB"
        const QString description = PictureStrip::tr("%1, %2").arg(picture.name,
                                                                   picture.picture.summary());
        setToolTip(description);
        setAccessibleName(PictureStrip::tr("Picture %1").arg(picture.name));
        setAccessibleDescription(description
                                 + PictureStrip::tr(". Delete removes it from the message."));
    }

protected:
    void paintEvent(QPaintEvent *) override
    {
        QPainter painter(this);
        const QRect inner = rect().adjusted(2, 2, -2, -2);
        if (!m_image.isNull())
            painter.drawImage(inner, m_image);
        painter.setPen(palette().color(QPalette::Mid));
        painter.drawRect(inner.adjusted(0, 0, -1, -1));
        if (hasFocus()) {
            QStyleOptionFocusRect option;
            option.initFrom(this);
            option.rect = rect();
            style()->drawPrimitive(QStyle::PE_FrameFocusRect, &option, &painter, this);
        }
    }
    void keyPressEvent(QKeyEvent *event) override
    {
        if (event->key() == Qt::Key_Delete || event->key() == Qt::Key_Backspace) {
            event->accept();
            m_remove();
            return;
        }
        QWidget::keyPressEvent(event);
    }

private:
    QImage m_image;
    std::function<void()> m_remove;
};

} // namespace

PictureStrip::PictureStrip(ComposerPictures *pictures, QWidget *parent)
    : QWidget(parent)
    , m_pictures(pictures)
    , m_row(new QHBoxLayout(this))
    , m_preparing(new QLabel(this))
{
    setObjectName(QStringLiteral("pictureStrip"));
    m_row->setContentsMargins(0, 0, 0, 0);
    m_row->setSpacing(4);
    m_preparing->setObjectName(QStringLiteral("picturePreparing"));
    m_preparing->setForegroundRole(QPalette::PlaceholderText);
    m_preparing->hide();
    connect(m_pictures, &ComposerPictures::changed, this, &PictureStrip::rebuild);
    connect(m_pictures, &ComposerPictures::preparingChanged, this, [this](bool preparing) {
        // The text only while it shows: the language can change meanwhile.
        //: Beside the message box's thumbnails while a pasted or dropped picture is scaled
        m_preparing->setText(preparing ? tr("Preparing the picture…") : QString());
        m_preparing->setVisible(preparing);
        setVisible(preparing || !m_pictures->isEmpty());
    });
    rebuild();
}

QList<QWidget *> PictureStrip::focusables() const
{
    QList<QWidget *> widgets;
    for (qsizetype i = 0; i < m_thumbnails.size(); ++i)
        widgets << m_thumbnails.at(i) << m_buttons.at(i);
    return widgets;
}

void PictureStrip::rebuild()
{
    for (QWidget *widget : m_thumbnails + m_buttons) {
        widget->hide();
        widget->deleteLater();
    }
    m_thumbnails.clear();
    m_buttons.clear();
    while (m_row->count() > 0)
        delete m_row->takeAt(0);
    const QList<ComposerPicture> &pictures = m_pictures->pictures();
    for (qsizetype i = 0; i < pictures.size(); ++i) {
        // By position when it is used: the list shifts when an earlier one goes.
        const auto remove = [this, i] { m_pictures->remove(int(i)); };
        auto thumbnail = new PictureThumbnail(
            pictures.at(i),
            [this, i] {
                m_pictures->remove(int(i));
                emit removedByKey();
            },
            this);
        auto button = new QToolButton(this);
        button->setObjectName(QStringLiteral("removePicture"));
        button->setAutoRaise(true);
        button->setText(QStringLiteral("×"));
        button->setFocusPolicy(Qt::TabFocus);
        //: The button beside a thumbnail in the message box
        button->setToolTip(tr("Remove %1 from the message").arg(pictures.at(i).name));
        button->setAccessibleName(tr("Remove picture %1").arg(pictures.at(i).name));
        connect(button, &QToolButton::clicked, this, remove);
        m_row->addWidget(thumbnail);
        m_row->addWidget(button, 0, Qt::AlignTop);
        m_thumbnails.append(thumbnail);
        m_buttons.append(button);
    }
    m_row->addWidget(m_preparing);
    m_row->addStretch(1);
    setVisible(m_pictures->isPreparing() || !pictures.isEmpty());
    emit rebuilt();
}

} // namespace Ui

#include "moc_picturestrip.cpp"
