// The settings dialog must not reach up into the window that opens it.

#include <window/mainwindow.h>
#include "mcp/sample.h"
