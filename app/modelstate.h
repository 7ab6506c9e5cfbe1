#pragma once

#include "commandline.h"

#include <QJsonValue>

namespace App {

/// The command line's model as a session file remembers it (the settings' ModelSelection, as
/// JSON): the window's and a headless run's alike, so a window resuming a headless run's
/// session goes on with its model. Declared apart from windowsetup.h so that the headless run
/// includes nothing of the window.
QJsonValue modelStateOf(const PrintOptions &options);

} // namespace App
