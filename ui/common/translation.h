#pragma once

#include <QCoreApplication>

namespace Ui {

/// The translation context of the window's strings outside a QObject class (a QObject's tr()
/// has its class's): one per layer, so translations/*.ts lists the layer's strings together.
struct UiTr
{
    Q_DECLARE_TR_FUNCTIONS(Ui)
};

} // namespace Ui
