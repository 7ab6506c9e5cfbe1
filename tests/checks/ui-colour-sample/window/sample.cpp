// A bar that paints itself in light colours only: the colour check must name both lines.

void paintBar(QWidget *bar, QPainter *painter)
{
    bar->setStyleSheet(QStringLiteral("#bar { background: #fdf0c4; }"));
    painter->fillRect(bar->rect(), QColor(0xb4, 0x23, 0x18)); // not even in Qt::red
    painter->setPen(palette.color(QPalette::Text));           // from the palette: fine
}
