// The child process of tst_checkpointlock's kill -9 tests: takes checkpoints of the tree it is
// given, one after another (each a full snapshot), changing a file before each, until it is
// killed. Says "taking"
// before the first.
#include <checkpoint/checkpointstore.h>

#include <QCoreApplication>
#include <QFile>

#include <cstdio>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() != 3)
        return 2;
    std::fputs("taking\n", stdout);
    std::fflush(stdout);
    for (int round = 0;; ++round) {
        QFile file(args.at(1) + QStringLiteral("/changing.txt"));
        if (file.open(QIODevice::WriteOnly | QIODevice::Truncate))
            file.write(QByteArray::number(round));
        file.close();
        AgentCore::Checkpoint request;
        request.sessionId = QStringLiteral("killed");
        request.reason = AgentCore::Checkpoint::Reason::BeforeTool;
        request.toolName = QStringLiteral("Bash");
        // A store of its own each time, as a new start has: a full snapshot, which writes the
        // index (a store's later ones may not need it).
        AgentCore::CheckpointStore(args.at(1), args.at(2)).create(request);
    }
}
