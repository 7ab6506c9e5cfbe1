#pragma once

#include "commandline.h"

#include <window/mainwindow.h>

#include <QProcessEnvironment>

namespace App {

/// The window's agent as the command line and the environment describe it: the provider,
/// model and key when the command line names a model (a missing key becomes the model's
/// problem, said when a task is sent), else the settings' model (or the offline demo); the
/// permission mode, allow rules and turn limit, the user's settings and an audit log.
/// The command line's model as the settings name it: what the status bar offers thinking
/// levels and other models of, and what a session file remembers (the window's and a headless
/// run's alike, so a window resuming a headless run's session goes on with its model).
Ui::ModelSelection modelSelectionOf(const PrintOptions &options);

Ui::AgentSetup windowAgentSetup(const PrintOptions &options, const QProcessEnvironment &environment);

} // namespace App
