// bench_checkpoint: the snapshot time of CheckpointStore (issue #18: under 300 ms incremental)
// and the store's growth per snapshot. Times are the median (and best) of 5 runs.
//
// usage: bench_checkpoint [FILES] [FOLDER]   a generated tree of FILES files (default 100000,
//                                            100 per folder) in FOLDER (default a temporary one)
//        bench_checkpoint --tree PATH [FOLDER]  an existing tree (a checkout), left as it was
//
// One JSON line: the first snapshot (every file hashed), snapshots of the unchanged tree, of
// the tree with 10 files changed (incremental: the store's TreeWatcher names what changed),
// the full `git status` pass an unsure watcher falls back to (a new store's first snapshot of
// the unchanged tree, watches set up included), and the store's size after each phase.
#include <checkpoint/checkpointstore.h>

#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>

using namespace AgentCore;

namespace {

// What the store keeps: its objects and refs, not the index (a cache of the tree's stat data
// that is rewritten, not grown).
qint64 folderBytes(const QString &path)
{
    qint64 total = 0;
    QDirIterator it(path, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        if (it.fileName() != QLatin1String("index"))
            total += it.fileInfo().size();
    }
    return total;
}

QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

void writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    if (file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        file.write(bytes);
}

int incrementalCount = 0; // of the snapshots timed

double snapshotMs(CheckpointStore &store, int index)
{
    Checkpoint request;
    request.sessionId = QStringLiteral("bench");
    request.messageIndex = index;
    QElapsedTimer timer;
    timer.start();
    const CheckpointOutcome outcome = store.create(request);
    const double ms = double(timer.nsecsElapsed()) / 1e6;
    if (!outcome.ok()) {
        std::fprintf(stderr, "bench_checkpoint: snapshot failed: %s\n", qPrintable(outcome.error));
        std::exit(1);
    }
    incrementalCount += outcome.incremental ? 1 : 0;
    return ms;
}

double median(QList<double> values)
{
    std::sort(values.begin(), values.end());
    return values.at(values.size() / 2);
}

double best(const QList<double> &values)
{
    return *std::min_element(values.begin(), values.end());
}

// FILES generated files, 100 per folder, 100 folders per level: a source tree's shape.
QStringList generate(const QString &root, int files)
{
    QStringList paths;
    QDir().mkpath(root);
    for (int i = 0; i < files; ++i) {
        const QString folder
            = QStringLiteral("%1/d%2/e%3").arg(root).arg(i / 10000).arg(i / 100 % 100);
        if (i % 100 == 0)
            QDir().mkpath(folder);
        const QString path = QStringLiteral("%1/f%2.txt").arg(folder).arg(i);
        writeFile(path, QByteArray("line of file ") + QByteArray::number(i) + '\n');
        paths.append(path);
    }
    return paths;
}

// The regular files of an existing tree, .git left out, in a stable order.
QStringList filesOf(const QString &root)
{
    QStringList paths;
    QDirIterator it(root,
                    QDir::Files | QDir::Hidden | QDir::NoSymLinks,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        if (!path.contains(QLatin1String("/.git/")))
            paths.append(path);
    }
    std::sort(paths.begin(), paths.end());
    return paths;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QStringList args = app.arguments();
    args.removeFirst();
    QString root;
    QStringList files;
    QTemporaryDir temp(QDir::tempPath() + QStringLiteral("/bench_checkpoint.XXXXXX"));
    QString base = temp.path();
    const bool existing = !args.isEmpty() && args.first() == QLatin1String("--tree");
    if (existing) {
        if (args.size() < 2) {
            std::fprintf(stderr, "usage: bench_checkpoint --tree PATH [FOLDER]\n");
            return 2;
        }
        root = QDir(args.at(1)).canonicalPath();
        if (args.size() > 2)
            base = args.at(2);
        files = filesOf(root);
    } else {
        const int count = !args.isEmpty() ? args.at(0).toInt() : 100000;
        if (args.size() > 1)
            base = args.at(1);
        root = base + QStringLiteral("/tree");
        files = generate(root, count);
    }
    if (root.isEmpty() || files.size() < 10) {
        std::fprintf(stderr, "bench_checkpoint: no tree of at least 10 files\n");
        return 2;
    }
    const QString storeRoot = base + QStringLiteral("/store");
    QDir(storeRoot).removeRecursively();
    CheckpointStore store(root, storeRoot);

    const double first = snapshotMs(store, 0);
    const qint64 afterFirst = folderBytes(storeRoot);
    QList<double> unchanged;
    for (int run = 0; run < 5; ++run)
        unchanged.append(snapshotMs(store, run + 1));
    const qint64 afterUnchanged = folderBytes(storeRoot);

    // 10 files spread over the tree, each changed by one line (an agent's turn).
    QList<double> changed;
    QHash<QString, QByteArray> original;
    for (int run = 0; run < 5; ++run) {
        for (int f = 0; f < 10; ++f) {
            const QString &path = files.at((run * 7919 + f * 104729) % files.size());
            if (!original.contains(path))
                original.insert(path, readFile(path));
            writeFile(path,
                      original.value(path) + "changed in run " + QByteArray::number(run) + '\n');
        }
        changed.append(snapshotMs(store, run + 10));
    }
    const qint64 afterChanged = folderBytes(storeRoot);
    const int incremental = incrementalCount;

    // What a snapshot costs when the watcher cannot be sure: the full pass, here as a new
    // store's (a new session's) first snapshot, which also sets up its watches.
    QList<double> full;
    for (int run = 0; run < 3; ++run) {
        CheckpointStore fresh(root, storeRoot);
        full.append(snapshotMs(fresh, run + 20));
    }
    if (existing) {
        for (auto it = original.cbegin(); it != original.cend(); ++it)
            writeFile(it.key(), it.value());
    }

    const QJsonObject line{
        {QStringLiteral("tree"), existing ? root : QStringLiteral("generated")},
        {QStringLiteral("files"), files.size()},
        {QStringLiteral("firstMs"), first},
        {QStringLiteral("unchangedMs"), median(unchanged)},
        {QStringLiteral("unchangedBestMs"), best(unchanged)},
        {QStringLiteral("changedMs"), median(changed)},
        {QStringLiteral("changedBestMs"), best(changed)},
        {QStringLiteral("incrementalSnapshots"), incremental},
        {QStringLiteral("fullPassMs"), median(full)},
        {QStringLiteral("fullPassBestMs"), best(full)},
        {QStringLiteral("storeBytes"), afterFirst},
        {QStringLiteral("unchangedGrowthBytes"), double(afterUnchanged - afterFirst) / 5},
        {QStringLiteral("changedGrowthBytes"), double(afterChanged - afterUnchanged) / 5},
    };
    std::printf("%s\n", QJsonDocument(line).toJson(QJsonDocument::Compact).constData());
    QDir(storeRoot).removeRecursively();
    return 0;
}
