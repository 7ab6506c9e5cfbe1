// The child process of tst_checkpointrestore's kill -9 test: restores the checkpoint it is
// given and, before renaming the second file into place, says so and waits to be killed.
#include <checkpoint/checkpointstore.h>
#include <checkpoint/filesetwriter.h>

#include <QCoreApplication>

#include <cstdio>
#include <unistd.h>

namespace {

int written = 0;

void stallOnSecond(const QString &)
{
    if (++written < 2)
        return;
    std::fputs("stalled\n", stdout);
    std::fflush(stdout);
    for (;;)
        ::pause();
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() != 4)
        return 2;
    AgentCore::CheckpointStore store(args.at(1), args.at(2));
    const std::optional<AgentCore::Checkpoint> checkpoint = store.find(args.at(3));
    if (!checkpoint)
        return 3;
    AgentCore::FileSetWriter::setTestHook(&stallOnSecond);
    store.restore(*checkpoint);
    return 0;
}
