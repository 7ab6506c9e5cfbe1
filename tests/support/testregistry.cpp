#include "testmain.h"

#include <QByteArray>
#include <QFileInfo>
#include <QMap>

#include <cstdio>
#include <vector>

namespace TestSupport {

namespace {

// Filled by the registrations' static constructors, before main() runs; read only after.
QMap<QByteArray, TestEntry> &registry()
{
    static QMap<QByteArray, TestEntry> tests;
    return tests;
}

QByteArray &runningTest()
{
    static QByteArray name;
    return name;
}

} // namespace

TestRegistration::TestRegistration(const char *sourceFile, TestEntry entry)
{
    const QByteArray name = QFileInfo(QString::fromLocal8Bit(sourceFile)).baseName().toLocal8Bit();
    if (registry().contains(name)) {
        std::fprintf(stderr, "two tests are named %s\n", name.constData());
        std::abort();
    }
    registry().insert(name, entry);
}

int runRegisteredTest(int argc, char **argv)
{
    const TestEntry entry = argc >= 2 ? registry().value(argv[1]) : nullptr;
    if (!entry) {
        std::fprintf(stderr, "usage: %s TEST [QtTest arguments]\nits tests:", argv[0]);
        for (const QByteArray &name : registry().keys())
            std::fprintf(stderr, " %s", name.constData());
        std::fprintf(stderr, "\n");
        return 2;
    }
    runningTest() = argv[1];
    // argv without the test's name; it outlives the test's application object, which keeps it.
    std::vector<char *> arguments(argv, argv + argc + 1); // and argv[argc], a null pointer
    arguments.erase(arguments.begin() + 1);
    return entry(argc - 1, arguments.data());
}

QStringList thisTestWith(const QStringList &arguments)
{
    return QStringList{QString::fromLocal8Bit(runningTest())} + arguments;
}

} // namespace TestSupport
