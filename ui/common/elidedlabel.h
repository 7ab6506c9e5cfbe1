#pragma once

#include <QLabel>

namespace Ui {

/// A one-line label for text of any length (a command, a path): it asks for little width,
/// draws as much of its text as fits with "…" where it is cut, and has the whole text in its
/// tooltip while cut. text() stays the whole text. A long text never widens the window it is
/// in. Plain text, one line, not selectable. UI thread.
class ElidedLabel final : public QLabel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ElidedLabel)
public:
    explicit ElidedLabel(QWidget *parent = nullptr);

    void setElideMode(Qt::TextElideMode mode);
    /// The text as drawn at the current width.
    QString shownText() const;

    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;
    bool event(QEvent *event) override;

private:
    Qt::TextElideMode m_mode = Qt::ElideRight;
};

} // namespace Ui
