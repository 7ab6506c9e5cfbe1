#pragma once

#include <QStringList>
#include <QTest>

// The tests of a folder are one executable (tests_ai, tests_loop, ...): a build makes ~20
// executables instead of ~180, each with one moc run and one link. ctest still runs each test
// file as its own entry and process: `tests_ai tst_sseparser [QtTest arguments]`. A test file
// says how its test starts with one of the macros below, in place of QTEST_MAIN and its kin;
// testmain.cpp's main() finds the test by its file's name and passes it the other arguments.
namespace TestSupport {

/// A test's main(): takes the process's arguments without the test's name.
using TestEntry = int (*)(int argc, char **argv);

/// Registers the test of `sourceFile` (its base name, "tst_sseparser", is the test's name).
struct TestRegistration
{
    TestRegistration(const char *sourceFile, TestEntry entry);
};

/// Runs the test named by argv[1] with the arguments after it; an unknown name lists the tests.
int runRegisteredTest(int argc, char **argv);

/// The arguments that start this executable again as the running test with `arguments`: for a
/// test that runs itself as a child process (QCoreApplication::applicationFilePath()).
QStringList thisTestWith(const QStringList &arguments);

} // namespace TestSupport

// A test with its own main(): `static int sessionLogMain(int argc, char **argv)`, then
// AGENTDESK_TEST_ENTRY(sessionLogMain); named for the test, as another file's main may share
// its unit in a unity build.
// The registration's name is unique per use (__COUNTER__): a unity build compiles several test
// files as one unit.
#define AGENTDESK_TEST_ENTRY(entry) AGENTDESK_TEST_REGISTRATION(__COUNTER__, entry)
#define AGENTDESK_TEST_REGISTRATION(counter, entry) \
    AGENTDESK_TEST_REGISTRATION_NAMED(counter, entry)
#define AGENTDESK_TEST_REGISTRATION_NAMED(counter, entry) \
    static const TestSupport::TestRegistration agentdeskTestRegistration##counter(__FILE__, entry);

// QTEST_MAIN_WRAPPER's body, registered instead of defining main().
#define AGENTDESK_TEST_WRAPPER(TestObject, ...) \
    AGENTDESK_TEST_ENTRY([](int argc, char **argv) -> int { \
        QT_PREPEND_NAMESPACE(QTest::Internal::callInitMain)<TestObject>(); \
        __VA_ARGS__ \
        TestObject tc; \
        QTEST_SET_MAIN_SOURCE_PATH \
        return QTest::qExec(&tc, argc, argv); \
    })

/// QTEST_MAIN: a QApplication (every test links Qt Widgets).
#define AGENTDESK_TEST_MAIN(TestObject) AGENTDESK_TEST_WRAPPER(TestObject, QTEST_MAIN_SETUP())
/// QTEST_GUILESS_MAIN: a QCoreApplication.
#define AGENTDESK_GUILESS_TEST_MAIN(TestObject) \
    AGENTDESK_TEST_WRAPPER(TestObject, QTEST_QAPP_SETUP(QCoreApplication))
/// QTEST_APPLESS_MAIN: no application object.
#define AGENTDESK_APPLESS_TEST_MAIN(TestObject) AGENTDESK_TEST_WRAPPER(TestObject)
