#include <agentsession/freedmemory.h>
#include <testmain.h>

#include <QFile>
#include <QTest>

#include <cstdlib>
#include <cstring>
#include <vector>

namespace tst_freedmemory {

namespace {

[[maybe_unused]] double residentMiB()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').value(0).toDouble() / 1024;
    }
    return -1;
}

[[maybe_unused]] void *touched(size_t size)
{
    void *memory = std::malloc(size);
    if (memory)
        std::memset(memory, 1, size);
    return memory;
}

} // namespace

class tst_FreedMemory : public QObject
{
    Q_OBJECT

private slots:
    // What a live session does turn after turn: an output of 100 KB read and dropped, a little
    // kept beside it (its stub, its messages). The outputs' memory goes back as they go.
    void largeBlocksGoBackWhenFreed()
    {
#if !defined(__GLIBC__) || !defined(Q_OS_LINUX)
        QSKIP("glibc on Linux only: elsewhere returnLargeBlocksWhenFreed() does nothing");
#elif defined(__SANITIZE_ADDRESS__)
        QSKIP("AddressSanitizer has its own allocator");
#else
        Ui::returnLargeBlocksWhenFreed();
        // A big block freed raises glibc's own bound past the outputs' size, when it slides.
        std::free(touched(8 << 20));
        std::vector<void *> outputs;
        std::vector<void *> kept;
        for (int i = 0; i < 400; ++i) {
            outputs.push_back(touched(200 * 1024));
            kept.push_back(touched(4 * 1024));
        }
        const double before = residentMiB();
        for (void *output : outputs)
            std::free(output);
        const double after = residentMiB();
        for (void *memory : kept)
            std::free(memory);
        // 78 MiB of outputs were freed: gone from the resident size at once.
        QVERIFY2(before - after > 60,
                 qPrintable(QStringLiteral("%1 MiB -> %2 MiB").arg(before).arg(after)));
#endif
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_FreedMemory)

} // namespace tst_freedmemory

#include "tst_freedmemory.moc"
