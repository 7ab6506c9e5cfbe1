// MCP (issue #20): the time from start to tools available for 5 stdio servers started in
// parallel on one McpHost, against the same 5 started one after another; the first paint of the
// app's window with 5 servers configured against none; and the overhead of one MCP tool call
// (server-everything's echo through McpTool::execute) against a built-in tool (Read of a small
// file) through the same AgentTool interface, over stdio and Streamable HTTP.
//
// The servers are the real reference ones the tests install (tests/mcp/install-servers.sh):
// SERVERS_DIR holds their node_modules. The five: server-everything three times and
// server-filesystem twice, each a node process of its own.
//
// usage: bench_mcp start SERVERS_DIR [ROUNDS]
//        bench_mcp calls SERVERS_DIR [CALLS]
//        bench_mcp paint AGENTDESK_BINARY SERVERS_DIR [STARTS]
//        one JSON line per measurement, times in ms: median and min over the rounds.
#include <mcp/mcphost.h>
#include <mcp/mcptool.h>
#include <tools/readtool.h>
#include <tools/toolworkspace.h>

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMutex>
#include <QProcess>
#include <QSettings>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QThread>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <optional>
#include <vector>

using namespace AgentCore;

namespace {

constexpr int serverCount = 5;
constexpr int startTimeoutMs = 120'000;

void printJson(const QJsonObject &object)
{
    std::printf("%s\n", QJsonDocument(object).toJson(QJsonDocument::Compact).constData());
    std::fflush(stdout);
}

double msSince(const QElapsedTimer &timer)
{
    return double(timer.nsecsElapsed()) / 1e6;
}

double median(std::vector<double> samples)
{
    if (samples.empty())
        return -1;
    std::sort(samples.begin(), samples.end());
    const size_t n = samples.size();
    return n % 2 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2;
}

double minimum(const std::vector<double> &samples)
{
    return samples.empty() ? -1 : *std::min_element(samples.begin(), samples.end());
}

bool fail(const QString &what)
{
    std::fprintf(stderr, "bench_mcp: %s\n", qPrintable(what));
    return false;
}

QString everythingScript(const QString &serversDir)
{
    return serversDir
           + QStringLiteral("/node_modules/@modelcontextprotocol/server-everything/dist/index.js");
}

QString filesystemScript(const QString &serversDir)
{
    return serversDir
           + QStringLiteral("/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");
}

/// The five servers: everything0..2 and filesystem0..1 (serving \a folder).
QList<McpServerConfig> fiveServers(const QString &serversDir, const QString &folder)
{
    QList<McpServerConfig> servers;
    for (int i = 0; i < serverCount; ++i) {
        McpServerConfig config;
        config.type = QStringLiteral("stdio");
        config.command = QStringLiteral("node");
        if (i < 3) {
            config.name = QStringLiteral("everything%1").arg(i);
            config.args = {everythingScript(serversDir), QStringLiteral("stdio")};
        } else {
            config.name = QStringLiteral("filesystem%1").arg(i - 3);
            config.args = {filesystemScript(serversDir), folder};
        }
        servers.append(config);
    }
    return servers;
}

McpClientOptions clientOptions()
{
    McpClientOptions options;
    options.environment = QProcessEnvironment::systemEnvironment();
    options.initializeTimeoutMs = startTimeoutMs;
    return options;
}

// ---- start: 5 servers in parallel and one after another ------------------------------------

/// One start of the five: the time of each to Ready (from the common start), and of all.
struct StartRound
{
    std::vector<double> serverMs;
    double allMs = 0;
};

/// Starts the five on one McpHost, all at once (\a parallel, as the window does) or each only
/// once the one before is Ready. Every server must end Ready with its tools listed.
std::optional<StartRound> startRound(const QList<McpServerConfig> &servers, bool parallel)
{
    McpHost host;
    QMutex mutex;
    StartRound round;
    round.serverMs.assign(size_t(servers.size()), -1);
    QElapsedTimer timer;
    QList<std::shared_ptr<McpClient>> clients;
    for (int i = 0; i < servers.size(); ++i) {
        auto client = host.addServer(servers.at(i), clientOptions());
        // Timed on the clients' thread the moment the state changes, not when we look.
        QObject::connect(client.get(),
                         &McpClient::stateChanged,
                         client.get(),
                         [&, i](McpClient::State state) {
                             if (state != McpClient::State::Ready)
                                 return;
                             QMutexLocker locker(&mutex);
                             if (round.serverMs[size_t(i)] < 0)
                                 round.serverMs[size_t(i)] = msSince(timer);
                         });
        clients.append(client);
    }
    timer.start();
    if (parallel) {
        host.startAll();
        host.waitUntilSettled(startTimeoutMs);
    } else {
        for (const auto &client : std::as_const(clients)) {
            client->start();
            client->waitUntilSettled(startTimeoutMs);
        }
    }
    round.allMs = msSince(timer);
    // A waiter wakes when the state is set, the signal is emitted just after: the last
    // server's time may still be on its way.
    QElapsedTimer late;
    late.start();
    const auto allTimed = [&] {
        QMutexLocker locker(&mutex);
        return std::none_of(round.serverMs.begin(), round.serverMs.end(), [](double ms) {
            return ms < 0;
        });
    };
    while (!allTimed() && late.elapsed() < 1000)
        QThread::msleep(1);
    for (const auto &client : std::as_const(clients)) // before the host stops them
        QObject::disconnect(client.get(), &McpClient::stateChanged, nullptr, nullptr);
    for (const auto &client : std::as_const(clients)) {
        if (client->state() != McpClient::State::Ready || client->tools().isEmpty()) {
            fail(QStringLiteral("%1 did not start: %2\n%3")
                     .arg(client->config().name, client->error(), client->log()));
            return std::nullopt;
        }
    }
    QMutexLocker locker(&mutex);
    return round;
}

bool benchStart(const QString &serversDir, int rounds)
{
    QTemporaryDir folder;
    const QList<McpServerConfig> servers = fiveServers(serversDir, folder.path());
    // One start of each kind first, not counted: node's modules into the page cache.
    if (!startRound(servers, true))
        return false;
    std::vector<double> parallelAll;
    std::vector<double> sequentialAll;
    std::vector<std::vector<double>> parallelEach(servers.size());
    std::vector<std::vector<double>> alone(servers.size()); ///< one after another: each by itself
    for (int r = 0; r < rounds; ++r) {
        // Alternating, so a drift of the machine's load touches both alike.
        const auto parallel = startRound(servers, true);
        const auto sequential = startRound(servers, false);
        if (!parallel || !sequential)
            return false;
        parallelAll.push_back(parallel->allMs);
        sequentialAll.push_back(sequential->allMs);
        for (size_t i = 0; i < size_t(servers.size()); ++i) {
            parallelEach[i].push_back(parallel->serverMs[i]);
            const double before = i == 0 ? 0 : sequential->serverMs[i - 1];
            alone[i].push_back(sequential->serverMs[i] - before);
        }
    }
    QJsonArray each;
    double slowestAlone = 0;
    for (size_t i = 0; i < size_t(servers.size()); ++i) {
        slowestAlone = std::max(slowestAlone, median(alone[i]));
        each.append(QJsonObject{{QStringLiteral("name"), servers.at(int(i)).name},
                                {QStringLiteral("parallelMsMedian"), median(parallelEach[i])},
                                {QStringLiteral("parallelMsMin"), minimum(parallelEach[i])},
                                {QStringLiteral("aloneMsMedian"), median(alone[i])},
                                {QStringLiteral("aloneMsMin"), minimum(alone[i])}});
    }
    printJson({{QStringLiteral("bench"), QStringLiteral("start")},
               {QStringLiteral("side"), QStringLiteral("AgentDesk")},
               {QStringLiteral("servers"), int(servers.size())},
               {QStringLiteral("rounds"), rounds},
               {QStringLiteral("parallelMsMedian"), median(parallelAll)},
               {QStringLiteral("parallelMsMin"), minimum(parallelAll)},
               {QStringLiteral("sequentialMsMedian"), median(sequentialAll)},
               {QStringLiteral("sequentialMsMin"), minimum(sequentialAll)},
               {QStringLiteral("slowestAloneMsMedian"), slowestAlone},
               {QStringLiteral("each"), each}});
    return true;
}

// ---- calls: an MCP tool against a built-in one ---------------------------------------------

/// \a calls runs of \a run after 10 not counted (the first call of a kind warms the paths).
std::optional<std::vector<double>> timeCalls(int calls, const std::function<bool()> &run)
{
    for (int i = 0; i < 10; ++i) {
        if (!run())
            return std::nullopt;
    }
    std::vector<double> ms;
    ms.reserve(size_t(calls));
    for (int i = 0; i < calls; ++i) {
        QElapsedTimer timer;
        timer.start();
        if (!run())
            return std::nullopt;
        ms.push_back(msSince(timer));
    }
    return ms;
}

void reportCalls(const QString &variant, const std::vector<double> &ms)
{
    printJson({{QStringLiteral("bench"), QStringLiteral("calls")},
               {QStringLiteral("side"), QStringLiteral("AgentDesk")},
               {QStringLiteral("variant"), variant},
               {QStringLiteral("calls"), int(ms.size())},
               {QStringLiteral("msMedian"), median(ms)},
               {QStringLiteral("msMin"), minimum(ms)}});
}

/// The echo tool of \a client (Ready) as the loop gets it.
AgentToolPtr echoTool(const McpHost &host)
{
    QStringList problems;
    for (const AgentToolPtr &tool : host.tools({}, &problems)) {
        if (tool->definition().name.endsWith(QLatin1String("__echo")))
            return tool;
    }
    return nullptr;
}

bool timeEcho(const McpServerConfig &config, const QString &variant, int calls)
{
    McpHost host;
    auto client = host.addServer(config, clientOptions());
    host.startAll();
    host.waitUntilSettled(startTimeoutMs);
    const AgentToolPtr echo = echoTool(host);
    if (client->state() != McpClient::State::Ready || !echo)
        return fail(QStringLiteral("%1 did not start: %2").arg(variant, client->log()));
    int n = 0;
    // The calling thread blocks in McpClient::call, as a tool thread of the loop does; the
    // client's I/O runs on the host's thread.
    const auto times = timeCalls(calls, [&] {
        ToolCallContext context;
        context.toolCallId = QStringLiteral("e%1").arg(++n);
        context.toolName = echo->definition().name;
        context.arguments = {{QStringLiteral("message"), QStringLiteral("hello %1").arg(n)}};
        const ToolResult result = echo->execute(context);
        return !result.isError && result.text() == QStringLiteral("Echo: hello %1").arg(n);
    });
    if (!times)
        return fail(variant + QStringLiteral(": a call failed: ") + client->log().right(2000));
    reportCalls(variant, *times);
    return true;
}

quint16 freePort()
{
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost, 0);
    return probe.serverPort();
}

bool benchCalls(const QString &serversDir, int calls)
{
    // The built-in: Read of a small file through the same interface (its own call ids, so no
    // "unchanged since" shortcut).
    QTemporaryDir root;
    QFile small(root.filePath(QStringLiteral("small.txt")));
    if (!small.open(QIODevice::WriteOnly) || small.write("one line\ntwo lines\n") < 0)
        return fail(QStringLiteral("cannot write a file"));
    small.close();
    ReadTool read(std::make_shared<ToolWorkspace>(root.path()));
    int n = 0;
    const auto readTimes = timeCalls(calls, [&] {
        ToolCallContext context;
        context.toolCallId = QStringLiteral("r%1").arg(++n);
        context.toolName = QStringLiteral("Read");
        context.arguments = {{QStringLiteral("file_path"), QStringLiteral("small.txt")}};
        const ToolResult result = read.execute(context);
        return !result.isError && result.text().contains(QLatin1String("two lines"));
    });
    if (!readTimes)
        return fail(QStringLiteral("Read failed"));
    reportCalls(QStringLiteral("Read (built-in)"), *readTimes);

    McpServerConfig stdio;
    stdio.name = QStringLiteral("everything");
    stdio.type = QStringLiteral("stdio");
    stdio.command = QStringLiteral("node");
    stdio.args = {everythingScript(serversDir), QStringLiteral("stdio")};
    if (!timeEcho(stdio, QStringLiteral("echo, stdio"), calls))
        return false;

    // Streamable HTTP: the same server in its streamableHttp mode on a port of its own.
    QProcess server;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    const quint16 port = freePort();
    environment.insert(QStringLiteral("PORT"), QString::number(port));
    server.setProcessEnvironment(environment);
    server.setProcessChannelMode(QProcess::MergedChannels);
    server.start(QStringLiteral("node"),
                 {everythingScript(serversDir), QStringLiteral("streamableHttp")});
    QByteArray output;
    QElapsedTimer waited;
    waited.start();
    while (!output.contains("listening on port") && waited.elapsed() < 60'000
           && server.state() != QProcess::NotRunning) {
        server.waitForReadyRead(1000);
        output += server.readAll();
    }
    if (!output.contains("listening on port"))
        return fail(QStringLiteral("server-everything (streamableHttp) did not start:\n")
                    + QString::fromUtf8(output));
    McpServerConfig http;
    http.name = QStringLiteral("everything");
    http.type = QStringLiteral("http");
    http.url = QStringLiteral("http://127.0.0.1:%1/mcp").arg(port);
    const bool ok = timeEcho(http, QStringLiteral("echo, Streamable HTTP"), calls);
    server.terminate();
    if (!server.waitForFinished(5000))
        server.kill();
    server.waitForFinished(5000);
    return ok;
}

// ---- paint: the window's first paint with 5 servers and with none --------------------------

bool run(const QString &program, const QStringList &args, const QString &dir)
{
    QProcess process;
    process.setWorkingDirectory(dir);
    process.start(program, args);
    return process.waitForFinished(30'000) && process.exitCode() == 0;
}

/// One start of \a binary on \a repository with the settings of \a home: from spawning it to
/// its report of the first paint (AGENTDESK_REPORT_FIRST_PAINT; it quits then), and what it
/// measured from main() itself. -1 when it did not report.
std::pair<double, double> firstPaint(const QString &binary,
                                     const QString &repository,
                                     const QString &home)
{
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    environment.insert(QStringLiteral("AGENTDESK_REPORT_FIRST_PAINT"), QStringLiteral("1"));
    environment.insert(QStringLiteral("XDG_CONFIG_HOME"), home + QStringLiteral("/config"));
    for (const char *name : {"XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"})
        environment.insert(QString::fromLatin1(name), home + QLatin1Char('/') + QLatin1String(name));
    process.setProcessEnvironment(environment);
    process.setProcessChannelMode(QProcess::ForwardedOutputChannel);
    process.setReadChannel(QProcess::StandardError);
    QByteArray output;
    QElapsedTimer timer;
    timer.start();
    process.start(binary, {repository});
    double spawnMs = -1;
    double mainMs = -1;
    while (spawnMs < 0 && process.waitForReadyRead(30'000)) {
        output += process.readAllStandardError();
        const qsizetype at = output.indexOf("first-paint ");
        const qsizetype end = output.indexOf('\n', at);
        if (at >= 0 && end > at) {
            spawnMs = msSince(timer);
            mainMs = output.mid(at + 12, end - at - 12).trimmed().toDouble();
        }
    }
    // The app quits after the first paint; its servers are stopped on the way out.
    if (!process.waitForFinished(30'000) || process.exitCode() != 0) {
        process.kill();
        process.waitForFinished();
        output.append(process.readAllStandardError());
        fail(QStringLiteral("%1 did not report its first paint:\n%2")
                 .arg(binary, QString::fromUtf8(output)));
        return {-1, -1};
    }
    return {spawnMs, mainMs};
}

bool benchPaint(const QString &binary, const QString &serversDir, int starts)
{
    QTemporaryDir repository;
    QTemporaryDir withServers;
    QTemporaryDir without;
    if (!repository.isValid() || !withServers.isValid() || !without.isValid())
        return fail(QStringLiteral("cannot make temporary folders"));
    QFile readme(repository.filePath(QStringLiteral("README.md")));
    if (!readme.open(QIODevice::WriteOnly) || readme.write("# bench\n") < 0)
        return fail(QStringLiteral("cannot write README.md"));
    readme.close();
    if (!run(QStringLiteral("git"),
             {QStringLiteral("init"), QStringLiteral("-q")},
             repository.path()))
        return fail(QStringLiteral("git init failed"));

    // The five as the user's servers (the settings' Mcp/servers, no trust to ask), each started
    // through sh so that it leaves a mark: the figure counts only if the app launched all five
    // before it quit at its first paint. A control: five "servers" that only sleep (spawned
    // alike, no CPU work), which separates what the launch costs the window from what five
    // node processes starting beside it on few cores cost.
    const QString marks = withServers.filePath(QStringLiteral("launched"));
    const auto writeSettings = [&](const QString &home, bool sleeping) {
        QJsonObject servers;
        for (const McpServerConfig &config : fiveServers(serversDir, repository.path())) {
            QJsonArray args{QStringLiteral("-c"),
                            sleeping ? QStringLiteral("echo x >>\"$0\"; exec sleep 60")
                                     : QStringLiteral("echo x >>\"$0\"; exec node \"$@\""),
                            marks};
            for (const QString &arg : config.args)
                args.append(arg);
            servers.insert(config.name,
                           QJsonObject{{QStringLiteral("command"), QStringLiteral("sh")},
                                       {QStringLiteral("args"), args}});
        }
        // QSettings' native format on Linux: $XDG_CONFIG_HOME/ORGANIZATION/APPLICATION.conf.
        QSettings settings(home + QStringLiteral("/config/AgentDesk/agentdesk.conf"),
                           QSettings::IniFormat);
        settings.setValue(QStringLiteral("Mcp/servers"),
                          QString::fromUtf8(
                              QJsonDocument(QJsonObject{{QStringLiteral("mcpServers"), servers}})
                                  .toJson()));
        settings.sync();
    };
    QTemporaryDir sleepingServers;
    writeSettings(withServers.path(), false);
    writeSettings(sleepingServers.path(), true);
    const auto launched = [&marks] {
        QFile file(marks);
        return file.open(QIODevice::ReadOnly) ? int(file.readAll().count('\n')) : 0;
    };

    std::vector<double> spawnWith, spawnWithout, spawnSleeping, mainWith, mainWithout, mainSleeping;
    int launchedEvery = serverCount;
    firstPaint(binary, repository.path(), without.path()); // warm: not counted
    for (int i = 0; i < starts; ++i) {
        const auto none = firstPaint(binary, repository.path(), without.path());
        QFile::remove(marks);
        const auto five = firstPaint(binary, repository.path(), withServers.path());
        launchedEvery = std::min(launchedEvery, launched());
        QFile::remove(marks);
        const auto sleeping = firstPaint(binary, repository.path(), sleepingServers.path());
        launchedEvery = std::min(launchedEvery, launched());
        if (none.first < 0 || five.first < 0 || sleeping.first < 0)
            return false;
        spawnWithout.push_back(none.first);
        mainWithout.push_back(none.second);
        spawnWith.push_back(five.first);
        mainWith.push_back(five.second);
        spawnSleeping.push_back(sleeping.first);
        mainSleeping.push_back(sleeping.second);
    }
    printJson({{QStringLiteral("bench"), QStringLiteral("paint")},
               {QStringLiteral("starts"), starts},
               {QStringLiteral("servers"), serverCount},
               {QStringLiteral("launchedBeforeExit"), launchedEvery},
               {QStringLiteral("noneSpawnMsMedian"), median(spawnWithout)},
               {QStringLiteral("noneSpawnMsMin"), minimum(spawnWithout)},
               {QStringLiteral("noneMainMsMedian"), median(mainWithout)},
               {QStringLiteral("fiveSpawnMsMedian"), median(spawnWith)},
               {QStringLiteral("fiveSpawnMsMin"), minimum(spawnWith)},
               {QStringLiteral("fiveMainMsMedian"), median(mainWith)},
               {QStringLiteral("sleepingSpawnMsMedian"), median(spawnSleeping)},
               {QStringLiteral("sleepingSpawnMsMin"), minimum(spawnSleeping)},
               {QStringLiteral("sleepingMainMsMedian"), median(mainSleeping)}});
    return true;
}

int usage()
{
    std::fprintf(stderr,
                 "usage: bench_mcp start SERVERS_DIR [ROUNDS]\n"
                 "       bench_mcp calls SERVERS_DIR [CALLS]\n"
                 "       bench_mcp paint AGENTDESK_BINARY SERVERS_DIR [STARTS]\n");
    return 2;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments().mid(1);
    const QString mode = args.value(0);
    const auto number = [&args](int index, int fallback) {
        return args.size() > index ? args.at(index).toInt() : fallback;
    };
    if (mode == QLatin1String("paint")) {
        const int starts = number(3, 10);
        if (args.size() < 3 || starts <= 0)
            return usage();
        return benchPaint(args.at(1), args.at(2), starts) ? 0 : 1;
    }
    const QString serversDir = args.value(1);
    if (serversDir.isEmpty() || !QFileInfo::exists(everythingScript(serversDir))) {
        std::fprintf(stderr,
                     "bench_mcp: no server-everything under %s (tests/mcp/install-servers.sh)\n",
                     qPrintable(serversDir));
        return usage();
    }
    if (mode == QLatin1String("start")) {
        const int rounds = number(2, 5);
        if (rounds <= 0)
            return usage();
        return benchStart(serversDir, rounds) ? 0 : 1;
    }
    if (mode == QLatin1String("calls")) {
        const int calls = number(2, 200);
        if (calls <= 0)
            return usage();
        return benchCalls(serversDir, calls) ? 0 : 1;
    }
    return usage();
}
