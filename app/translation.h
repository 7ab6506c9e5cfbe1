#pragma once

#include <QCoreApplication>

namespace App {

/// The translation context of the program's strings outside a QObject class (a QObject's tr()
/// has its class's): one per layer, so translations/*.ts lists the layer's strings together.
struct AppTr
{
    Q_DECLARE_TR_FUNCTIONS(App)
};

} // namespace App
