// Language servers (issue #40): the time an Edit waits for the diagnostics of its change, which
// is what the diagnostics middleware adds to each Edit or Write of a file a server is for. A real
// file of this repository is opened in the real server (the cold figure: the server's start and
// its first check), then changed EDITS times below its includes, as an edit of a function body
// is (each change a new text, sent with didChange; the file on disk is never written), a second
// apart (the model's turn between two edits), each timed from the change sent to its
// diagnostics published. clangd is given the build folder's
// compile_commands.json, so it parses the file with its real flags and Qt's headers.
//
// usage: bench_lsp CHECKOUT COMPILE_COMMANDS_DIR [EDITS]
//        one JSON line per server: cold ms, the edits' median, 90th percentile and max in ms.
#include <lsp/lsphost.h>
#include <tools/textfile.h>

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcessEnvironment>
#include <QThread>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace AgentCore;

namespace {

constexpr int waitMs = 120'000;
constexpr int modelTurnMs = 1000;

double msSince(const QElapsedTimer &timer)
{
    return double(timer.nsecsElapsed()) / 1e6;
}

double percentile(std::vector<double> samples, double p)
{
    std::sort(samples.begin(), samples.end());
    const auto index = size_t(p * double(samples.size() - 1) + 0.5);
    return samples.at(std::min(index, samples.size() - 1));
}

// One server on one file: false when it could not be measured (said on stderr).
bool measure(const LspServerConfig &server,
             const QString &checkout,
             const QString &file,
             const QString &addition,
             int edits)
{
    const QString path = QDir(checkout).filePath(file);
    TextFile text;
    QString error;
    if (!text.load(path, 4 * 1024 * 1024, &error)) {
        std::fprintf(stderr, "bench_lsp: %s: %s\n", qPrintable(path), qPrintable(error));
        return false;
    }
    const QList<LspServerConfig> found
        = LspServerConfig::available({server}, QProcessEnvironment::systemEnvironment());
    if (found.isEmpty()) {
        std::fprintf(stderr, "bench_lsp: %s is not installed\n", qPrintable(server.command));
        return false;
    }
    LspClientOptions options;
    options.rootPath = checkout;
    options.environment = QProcessEnvironment::systemEnvironment();
    options.initializeTimeoutMs = waitMs;
    LspHost host(found, options);
    const std::shared_ptr<LspClient> client = host.clientFor(path);

    QElapsedTimer timer;
    timer.start();
    const LspFileDiagnostics first = client->diagnose(path, text.text(), waitMs);
    const double coldMs = msSince(timer);
    if (!first.ok) {
        std::fprintf(stderr,
                     "bench_lsp: %s: %s\n",
                     qPrintable(server.name),
                     qPrintable(first.error));
        return false;
    }
    std::vector<double> times;
    for (int i = 0; i < edits; ++i) {
        // Between two edits the model takes its turn (a second at the least): what the server
        // does after a check (clangd checks the open files again on a save) is done by then.
        QThread::msleep(modelTurnMs);
        const QString changed = text.text() + addition.arg(i);
        timer.restart();
        const LspFileDiagnostics answer = client->diagnose(path, changed, waitMs);
        times.push_back(msSince(timer));
        if (!answer.ok) {
            std::fprintf(stderr,
                         "bench_lsp: %s, edit %d: %s\n",
                         qPrintable(server.name),
                         i,
                         qPrintable(answer.error));
            return false;
        }
    }
    const QJsonObject row{{QStringLiteral("bench"), QStringLiteral("lsp")},
                          {QStringLiteral("server"), server.name},
                          {QStringLiteral("file"), file},
                          {QStringLiteral("lines"), int(text.text().count(u'\n'))},
                          {QStringLiteral("problems"), int(first.diagnostics.size())},
                          {QStringLiteral("edits"), edits},
                          {QStringLiteral("coldMs"), coldMs},
                          {QStringLiteral("editMsMedian"), percentile(times, 0.5)},
                          {QStringLiteral("editMsP90"), percentile(times, 0.9)},
                          {QStringLiteral("editMsMax"),
                           *std::max_element(times.begin(), times.end())}};
    std::printf("%s\n", QJsonDocument(row).toJson(QJsonDocument::Compact).constData());
    std::fflush(stdout);
    return true;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() < 3) {
        std::fprintf(stderr, "usage: bench_lsp CHECKOUT COMPILE_COMMANDS_DIR [EDITS]\n");
        return 2;
    }
    const QString checkout = QDir(args.at(1)).absolutePath();
    const QString commands = QDir(args.at(2)).absolutePath();
    const int edits = args.size() > 3 ? args.at(3).toInt() : 20;

    LspServerConfig clangd;
    clangd.name = QStringLiteral("clangd");
    clangd.command = QStringLiteral("clangd");
    clangd.args = {QStringLiteral("--log=error"),
                   QStringLiteral("--background-index=false"),
                   QStringLiteral("--compile-commands-dir=") + commands};
    clangd.suffixes = {QStringLiteral("cpp")};
    LspServerConfig pylsp;
    pylsp.name = QStringLiteral("pylsp");
    pylsp.command = QStringLiteral("pylsp");
    pylsp.suffixes = {QStringLiteral("py")};

    // A function body's edit: a new line at the end, below every include (the preamble stays).
    bool ok = measure(clangd,
                      checkout,
                      QStringLiteral("agentcore/lsp/lspclient.cpp"),
                      QStringLiteral("\nstatic int benchEdit%1 = %1;\n"),
                      edits);
    ok = measure(pylsp,
                 checkout,
                 QStringLiteral("tests/bench/report.py"),
                 QStringLiteral("\nbench_edit_%1 = %1\n"),
                 edits)
         && ok;
    return ok ? 0 : 1;
}
