#include "tabchain.h"

#include <QWidget>

namespace Ui {

QList<QWidget *> tabReachable(QWidget *container)
{
    QList<QWidget *> widgets;
    QWidget *window = container->window();
    for (QWidget *widget = window->nextInFocusChain(); widget && widget != window;
         widget = widget->nextInFocusChain()) {
        if ((widget == container || container->isAncestorOf(widget))
            && (widget->focusPolicy() & Qt::TabFocus) && !widget->focusProxy())
            widgets.append(widget);
    }
    return widgets;
}

void chainTabOrder(const QList<QWidget *> &widgets)
{
    for (qsizetype i = 1; i < widgets.size(); ++i)
        QWidget::setTabOrder(widgets.at(i - 1), widgets.at(i));
}

} // namespace Ui
