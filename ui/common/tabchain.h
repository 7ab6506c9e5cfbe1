#pragma once

#include <QList>

QT_BEGIN_NAMESPACE
class QWidget;
QT_END_NAMESPACE

namespace Ui {

/// The widgets inside \a container (itself included) that Tab can reach, in the window's
/// current focus chain order. Widgets with a focus proxy are left out (their proxy counts).
QList<QWidget *> tabReachable(QWidget *container);

/// Makes Tab go through \a widgets in this order (each right after the one before it); the
/// rest of the chain keeps its order. Widgets created later join the end of the window's
/// chain, so callers that add widgets call this again.
void chainTabOrder(const QList<QWidget *> &widgets);

} // namespace Ui
