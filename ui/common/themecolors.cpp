#include "themecolors.h"

#include <QPalette>

#include <cmath>

namespace Ui {

namespace {

// The hues AgentDesk adds to a palette, one set for a light base and one for a dark base:
// saturated enough to tell added from removed at a glance, and from the same family in both.
struct Hues
{
    QColor green;
    QColor red;
    QColor amber;
    QColor orange;
    QColor blue;
    QColor danger; ///< the background of the red bars, under white text
};

Hues huesFor(bool dark)
{
    if (dark)
        return {QColor(0x3f, 0xb9, 0x50),
                QColor(0xf8, 0x51, 0x49),
                QColor(0xd2, 0x99, 0x22),
                QColor(0xf0, 0x88, 0x3e),
                QColor(0x79, 0xc0, 0xff),
                QColor(0xa8, 0x23, 0x1a)};
    return {QColor(0x1a, 0x7f, 0x37),
            QColor(0xcf, 0x22, 0x2e),
            QColor(0xf2, 0xb6, 0x00),
            QColor(0xbc, 0x4c, 0x00),
            QColor(0x05, 0x50, 0xae),
            QColor(0xb4, 0x23, 0x18)};
}

qreal luminance(const QColor &color)
{
    const auto channel = [](float value) {
        return value <= 0.03928f ? value / 12.92 : std::pow((value + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * channel(color.redF()) + 0.7152 * channel(color.greenF())
           + 0.0722 * channel(color.blueF());
}

} // namespace

ThemeColors ThemeColors::of(const QPalette &palette)
{
    ThemeColors c;
    const QColor base = palette.color(QPalette::Base);
    const QColor window = palette.color(QPalette::Window);
    c.text = palette.color(QPalette::Text);
    c.dark = base.lightnessF() < 0.5;
    c.accent = palette.color(QPalette::Highlight);
    const Hues hue = huesFor(c.dark);

    // Three levels: the user's words in a bubble of the accent, the assistant's answer as
    // plain text on the canvas, the tools' work in cards that stand out from it (light: white
    // cards on a canvas a shade darker; dark: the canvas is the darkest, cards a step lighter).
    c.canvas = c.dark ? base : mix(base, window, 0.7);
    c.cardBackground = c.dark ? mix(base, c.text, 0.05) : base;
    c.assistantBubble = c.canvas;
    c.userBubble = mix(base, c.accent, c.dark ? 0.3 : 0.15);
    c.cardBorder = mix(c.canvas, c.text, c.dark ? 0.17 : 0.15);
    // Code stands out both on a card and on the canvas (the assistant's code blocks).
    c.codeBackground = c.dark ? mix(c.cardBackground, c.text, 0.06) : mix(c.canvas, c.text, 0.05);
    // Secondary text is read on cards and in their code boxes, the darker of the two in light.
    c.muted = readable(mix(c.text, base, 0.42), c.codeBackground);

    c.addedBackground = mix(c.cardBackground, hue.green, c.dark ? 0.22 : 0.14);
    c.removedBackground = mix(c.cardBackground, hue.red, c.dark ? 0.22 : 0.12);
    c.addedWord = mix(c.cardBackground, hue.green, c.dark ? 0.45 : 0.32);
    c.removedWord = mix(c.cardBackground, hue.red, c.dark ? 0.45 : 0.28);
    // Counts and states stand on cards, code boxes and the window (a review's title).
    const auto onPanels = [&](const QColor &color) {
        return readable(readable(color, c.codeBackground), window);
    };
    c.addedText = onPanels(hue.green);
    c.removedText = onPanels(hue.red);
    c.hunk = onPanels(hue.blue);
    c.hunkBackground = mix(base, hue.blue, c.dark ? 0.16 : 0.08);
    c.success = c.addedText;
    c.error = c.removedText;
    c.warning = onPanels(hue.orange);
    c.attention = onPanels(hue.amber);

    c.noticeBackground = mix(base, hue.amber, c.dark ? 0.22 : 0.28);
    c.noticeBorder = mix(base, hue.amber, c.dark ? 0.5 : 0.8);
    c.noticeText = readable(c.text, c.noticeBackground, 7.0);
    c.dangerBackground = hue.danger;
    c.dangerText = readable(Qt::white, c.dangerBackground);
    return c;
}

QColor ThemeColors::mix(const QColor &a, const QColor &b, qreal t)
{
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * t),
                            float(a.greenF() + (b.greenF() - a.greenF()) * t),
                            float(a.blueF() + (b.blueF() - a.blueF()) * t));
}

qreal ThemeColors::contrast(const QColor &a, const QColor &b)
{
    const qreal la = luminance(a);
    const qreal lb = luminance(b);
    return (qMax(la, lb) + 0.05) / (qMin(la, lb) + 0.05);
}

QColor ThemeColors::readable(const QColor &color, const QColor &background, qreal ratio)
{
    // Towards black on a light background, towards white on a dark one, in small steps: the
    // first step that reads keeps the most of the hue.
    const QColor target = luminance(background) > 0.18 ? QColor(Qt::black) : QColor(Qt::white);
    for (int step = 0; step <= 20; ++step) {
        const QColor candidate = mix(color, target, step / 20.0);
        if (contrast(candidate, background) >= ratio)
            return candidate;
    }
    return target;
}

} // namespace Ui
