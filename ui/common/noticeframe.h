#pragma once

#include <QFrame>

namespace Ui {

/// A frame in one of the theme's signal colours (ThemeColors): the amber of a notice (something
/// waits for the user) or the red of a danger (the agent has more rights than usual). Painted
/// from the palette, so it follows Light, Dark and System; its labels take the matching text
/// colour. The bars over the window and the bypass warning in the status bar are these.
class NoticeFrame : public QFrame
{
    Q_OBJECT

public:
    enum class Tone { Notice, Danger };
    enum class Shape {
        Bar, ///< the window's width, a line under it
        Pill ///< rounded, among other widgets
    };

    NoticeFrame(Tone tone, Shape shape, QWidget *parent = nullptr);

    Tone tone() const { return m_tone; }
    /// The background as painted now (the theme's, for tests and screenshots).
    QColor background() const;

protected:
    void paintEvent(QPaintEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void takeTextColour();

    Tone m_tone;
    Shape m_shape;
};

} // namespace Ui
