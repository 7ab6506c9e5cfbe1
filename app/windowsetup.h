#pragma once

#include "commandline.h"

#include <mainwindow.h>

#include <QProcessEnvironment>

namespace App {

/// The window's agent as the command line and the environment describe it: the provider,
/// model and key when the command line names a model (a missing key becomes the model's
/// problem, said when a task is sent), else the settings' model (or the offline demo); the
/// permission mode, allow rules and turn limit, the user's settings and an audit log.
Ui::AgentSetup windowAgentSetup(const PrintOptions &options, const QProcessEnvironment &environment);

} // namespace App
