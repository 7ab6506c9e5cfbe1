#pragma once

#include <QWidget>

QT_BEGIN_NAMESPACE
class QHBoxLayout;
class QLabel;
QT_END_NAMESPACE

namespace Ui {

class ComposerPictures;

/// The pictures given to the message box, as a row of thumbnails above it: each with a
/// remove button, and Delete or Backspace removes the focused one. Hidden while there are
/// none. Tab reaches each thumbnail and its button (focusables(), for the page's tab chain).
class PictureStrip final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PictureStrip)
public:
    explicit PictureStrip(ComposerPictures *pictures, QWidget *parent = nullptr);

    /// The thumbnails and their remove buttons, in order.
    QList<QWidget *> focusables() const;
    /// The thumbnails, in order (for tests).
    QList<QWidget *> thumbnails() const { return m_thumbnails; }

signals:
    /// The thumbnails changed: the tab chain needs them again.
    void rebuilt();
    /// A thumbnail was removed from the keyboard: the focus goes on elsewhere.
    void removedByKey();

private:
    void rebuild();

    ComposerPictures *m_pictures;
    QHBoxLayout *m_row;
    QLabel *m_preparing;
    QList<QWidget *> m_thumbnails;
    QList<QWidget *> m_buttons;
};

} // namespace Ui
