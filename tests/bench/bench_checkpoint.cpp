// bench_checkpoint [FILES] [FOLDER]: the snapshot time of CheckpointStore on a generated tree of
// FILES files (default 100000; in FOLDER, default a temporary folder): the first snapshot,
// snapshots of the unchanged tree, of the tree with 10 files changed, and the store's growth
// per snapshot. Times are the median of 5 runs. Reported in docs/benchmarks.md.
#include <checkpoint/checkpointstore.h>

#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>

using namespace AgentCore;

namespace {

qint64 folderBytes(const QString &path)
{
    qint64 total = 0;
    QDirIterator it(path, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        total += it.fileInfo().size();
    }
    return total;
}

void writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    if (file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        file.write(bytes);
}

double snapshotMs(CheckpointStore &store, int index)
{
    Checkpoint request;
    request.sessionId = QStringLiteral("bench");
    request.messageIndex = index;
    QElapsedTimer timer;
    timer.start();
    const CheckpointOutcome outcome = store.create(request);
    const double ms = double(timer.nsecsElapsed()) / 1e6;
    if (!outcome.ok())
        std::fprintf(stderr, "snapshot failed: %s\n", qPrintable(outcome.error));
    return ms;
}

double median(QList<double> values)
{
    std::sort(values.begin(), values.end());
    return values.at(values.size() / 2);
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    const int files = args.size() > 1 ? args.at(1).toInt() : 100000;
    QTemporaryDir temp;
    const QString base = args.size() > 2 ? args.at(2) : temp.path();
    const QString root = base + QStringLiteral("/tree");
    const QString storeRoot = base + QStringLiteral("/store");
    QDir().mkpath(root);
    // 100 files per folder, 100 folders per level: a source tree's shape.
    for (int i = 0; i < files; ++i) {
        const QString folder
            = QStringLiteral("%1/d%2/e%3").arg(root).arg(i / 10000).arg(i / 100 % 100);
        if (i % 100 == 0)
            QDir().mkpath(folder);
        writeFile(QStringLiteral("%1/f%2.txt").arg(folder).arg(i),
                  QByteArray("line of file ") + QByteArray::number(i) + '\n');
    }
    CheckpointStore store(root, storeRoot);
    const double first = snapshotMs(store, 0);
    const qint64 afterFirst = folderBytes(storeRoot);
    QList<double> unchanged;
    for (int run = 0; run < 5; ++run)
        unchanged.append(snapshotMs(store, run + 1));
    const qint64 afterUnchanged = folderBytes(storeRoot);
    QList<double> changed;
    for (int run = 0; run < 5; ++run) {
        for (int f = 0; f < 10; ++f) {
            const int i = (run * 7919 + f * 104729) % files;
            const QString folder
                = QStringLiteral("%1/d%2/e%3").arg(root).arg(i / 10000).arg(i / 100 % 100);
            writeFile(QStringLiteral("%1/f%2.txt").arg(folder).arg(i),
                      QByteArray("changed in run ") + QByteArray::number(run) + '\n');
        }
        changed.append(snapshotMs(store, run + 10));
    }
    const qint64 afterChanged = folderBytes(storeRoot);
    std::printf("files %d\n", files);
    std::printf("first snapshot        %8.1f ms  store %lld KiB\n", first, afterFirst / 1024);
    std::printf("unchanged (median/5)  %8.1f ms  store growth %lld B per snapshot\n",
                median(unchanged),
                (afterUnchanged - afterFirst) / 5);
    std::printf("10 files changed      %8.1f ms  store growth %lld B per snapshot\n",
                median(changed),
                (afterChanged - afterUnchanged) / 5);
    return 0;
}
