// The precompiled header of the tests: QtTest, the widgets, and the agentcore headers most tests
// include (ai/types.h and what the loop's and the session's tests share). A test's own includes
// still say what it uses.
#pragma once

#include "gui.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <ai/types.h>
#include <loop/agent.h>
#include <loop/agentloop.h>
#include <session/sessionlog.h>
