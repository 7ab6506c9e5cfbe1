// The precompiled header of the tests: QtTest and the widgets. Nothing of ours: a third of the
// test files never include agentcore/ai/types.h, and with it here an edit to it rebuilt every
// test file (and this header first). A test's own includes say what it uses.
#pragma once

#include "gui.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
