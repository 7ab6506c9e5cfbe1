// Grep and Glob over a generated 100,000-file tree, against ripgrep run directly in the same
// run.
//
// usage: bench_search --generate DIR [FILES]   writes the tree (a git repository with
//                                              .gitignore files and some ignored files)
//        bench_search DIR [REPEATS]            first the rg it runs ({"ripgrep": VERSION,
//                                              "path": ...}), then one JSON line per query: best
//                                              of REPEATS for the tool and for `rg` on the same
//                                              question
// rg is the one on this program's PATH (in the build root, under scripts/bench), the one the Grep
// tool runs: report.py names its version from here, never from a rg of its own.
#include <tools/globtool.h>
#include <tools/greptool.h>
#include <tools/ripgrepsearcher.h>
#include <tools/toolworkspace.h>

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>

#include <cstdio>

#include <sys/resource.h>

using namespace AgentCore;

namespace {

const char *const words[] = {"alpha",  "beta",   "gamma",  "delta",  "value",  "count",  "index",
                             "buffer", "result", "state",  "parse",  "render", "update", "client",
                             "server", "token",  "stream", "record", "widget", "return"};

void writeFile(const QString &path, const QByteArray &content)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        std::fprintf(stderr, "bench_search: cannot write %s\n", qPrintable(path));
        std::exit(2);
    }
    file.write(content);
}

QByteArray sourceText(QRandomGenerator &random, int fileNumber)
{
    QByteArray text;
    const int lines = 8 + int(random.bounded(24));
    for (int i = 0; i < lines; ++i) {
        const int kind = int(random.bounded(10));
        const char *a = words[random.bounded(20)];
        const char *b = words[random.bounded(20)];
        if (kind == 0)
            text += "    return " + QByteArray(a) + "_" + b + ";\n";
        else if (kind == 1)
            text += "// TODO: " + QByteArray(a) + " " + b + "\n";
        else if (kind == 2)
            text += "int fn_" + QByteArray::number(random.bounded(1000)) + "(" + a + " " + b
                    + ")\n";
        else
            text += "    " + QByteArray(a) + "." + b + "(" + QByteArray::number(random.bounded(100))
                    + ");\n";
    }
    // A rare word, in about one file in 5000.
    if (fileNumber % 4999 == 7)
        text += "xylophoneQuartz marker\n";
    return text;
}

int generate(const QString &directory, int files)
{
    QRandomGenerator random(20240601);
    const QDir root(directory);
    root.mkpath(QStringLiteral(".git"));
    writeFile(root.filePath(QStringLiteral(".git/HEAD")), "ref: refs/heads/main\n");
    writeFile(root.filePath(QStringLiteral(".gitignore")), "*.log\nbuild/\n/tmp/\n");
    const char *const extensions[] = {".cpp", ".h", ".py", ".js", ".md"};
    const int perDirectory = 100;
    int written = 0;
    int ignored = 0;
    for (int d = 0; written < files; ++d) {
        const QString dir = QStringLiteral("d%1/s%2/t%3").arg(d / 100).arg((d / 10) % 10).arg(d % 10);
        root.mkpath(dir);
        if (d % 50 == 0)
            writeFile(root.filePath(dir + QStringLiteral("/.gitignore")), "*.tmp\n!keep.tmp\n");
        for (int f = 0; f < perDirectory && written < files; ++f, ++written) {
            const char *extension = extensions[written % 5];
            const QString name = (written % 7 == 0 ? QStringLiteral("test_")
                                                   : QStringLiteral("file"))
                                 + QString::number(f) + QLatin1String(extension);
            writeFile(root.filePath(dir + QLatin1Char('/') + name), sourceText(random, written));
        }
        // Ignored files the tools must skip: logs, build output, *.tmp below a nested .gitignore.
        if (d % 10 == 0) {
            root.mkpath(dir + QStringLiteral("/build"));
            for (int f = 0; f < 40; ++f, ++ignored)
                writeFile(root.filePath(dir + QStringLiteral("/build/out%1.cpp").arg(f)),
                          sourceText(random, f));
            writeFile(root.filePath(dir + QStringLiteral("/run.log")), "xylophoneQuartz log\n");
            ++ignored;
        }
    }
    std::printf("{\"generated\": %d, \"ignored\": %d}\n", written, ignored);
    return 0;
}

struct Query
{
    QString kind; // "grep" or "glob"
    QString name;
    QJsonObject args; // the tool's arguments
    QStringList rg;   // ripgrep asked the same question
};

QList<Query> queries()
{
    const QStringList common{QStringLiteral("--hidden"),
                             QStringLiteral("--no-config"),
                             QStringLiteral("--glob=!.git")};
    return {
        {QStringLiteral("grep"),
         QStringLiteral("rare literal, files"),
         {{"pattern", "xylophoneQuartz"}},
         common + QStringList{QStringLiteral("-l"), QStringLiteral("xylophoneQuartz")}},
        {QStringLiteral("grep"),
         QStringLiteral("regex, content"),
         {{"pattern", "fn_9[0-9]+\\(alpha"}, {"output_mode", "content"}},
         common + QStringList{QStringLiteral("-n"), QStringLiteral("fn_9[0-9]+\\(alpha")}},
        {QStringLiteral("grep"),
         QStringLiteral("case-insensitive, count"),
         {{"pattern", "todo: widget"}, {"-i", true}, {"output_mode", "count"}},
         common
             + QStringList{QStringLiteral("-c"),
                           QStringLiteral("-i"),
                           QStringLiteral("todo: widget")}},
        {QStringLiteral("grep"),
         QStringLiteral("common word, *.py, files"),
         {{"pattern", "return"}, {"glob", "*.py"}},
         common
             + QStringList{QStringLiteral("-l"),
                           QStringLiteral("--glob=*.py"),
                           QStringLiteral("return")}},
        {QStringLiteral("glob"),
         QStringLiteral("**/*.cpp"),
         {{"pattern", "**/*.cpp"}},
         common + QStringList{QStringLiteral("--files"), QStringLiteral("--glob=*.cpp")}},
        {QStringLiteral("glob"),
         QStringLiteral("**/test_*.{py,js}"),
         {{"pattern", "**/test_*.{py,js}"}},
         common + QStringList{QStringLiteral("--files"), QStringLiteral("--glob=test_*.{py,js}")}},
        {QStringLiteral("glob"),
         QStringLiteral("d3/**/*.md"),
         {{"pattern", "d3/**/*.md"}},
         common
             + QStringList{QStringLiteral("--files"),
                           QStringLiteral("--glob=*.md"),
                           QStringLiteral("d3")}},
    };
}

// CPU time used so far by this process and by the children it has waited for (rg), in ms.
double cpuMs(int who)
{
    rusage usage{};
    getrusage(who, &usage);
    return (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e3
           + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e3;
}

struct Timing
{
    double wallMs = 1e12;
    double cpuMs = 1e12;
    void keepBest(double wall, double cpu)
    {
        wallMs = std::min(wallMs, wall);
        cpuMs = std::min(cpuMs, cpu);
    }
};

void timeTool(AgentTool &tool, const QJsonObject &args, ToolResult *result, Timing *timing)
{
    ToolCallContext context;
    context.arguments = args;
    const double cpu = cpuMs(RUSAGE_SELF) + cpuMs(RUSAGE_CHILDREN);
    QElapsedTimer timer;
    timer.start();
    *result = tool.execute(context);
    timing->keepBest(timer.nsecsElapsed() / 1e6, cpuMs(RUSAGE_SELF) + cpuMs(RUSAGE_CHILDREN) - cpu);
}

void timeRipgrep(const QString &rg,
                 const QString &directory,
                 const QStringList &args,
                 qint64 *lines,
                 Timing *timing)
{
    const double cpu = cpuMs(RUSAGE_CHILDREN);
    QProcess process;
    process.setWorkingDirectory(directory);
    process.setStandardInputFile(QProcess::nullDevice());
    QElapsedTimer timer;
    timer.start();
    process.start(rg, args);
    qint64 count = 0;
    while (process.waitForReadyRead(-1) || process.state() == QProcess::Running)
        count += process.readAllStandardOutput().count('\n');
    count += process.readAllStandardOutput().count('\n');
    process.waitForFinished(-1);
    *lines = count;
    timing->keepBest(timer.nsecsElapsed() / 1e6, cpuMs(RUSAGE_CHILDREN) - cpu);
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments().mid(1);
    if (args.size() >= 2 && args[0] == QLatin1String("--generate"))
        return generate(args[1], args.size() > 2 ? args[2].toInt() : 100000);
    if (args.isEmpty() || args.size() > 2) {
        std::fprintf(stderr,
                     "usage: bench_search --generate DIR [FILES]\n"
                     "       bench_search DIR [REPEATS]\n");
        return 2;
    }
    const QString rg = RipgrepSearcher::findExecutable();
    if (rg.isEmpty()) {
        std::fprintf(stderr, "bench_search: rg (Debian package ripgrep) is not on PATH\n");
        return 2;
    }
    {
        QProcess version;
        version.start(rg, {QStringLiteral("--version")});
        version.waitForFinished(-1);
        const QString first = QString::fromUtf8(version.readAllStandardOutput())
                                  .section(QLatin1Char('\n'), 0, 0)
                                  .trimmed();
        std::printf("%s\n",
                    QJsonDocument(QJsonObject{{"ripgrep", first}, {"path", rg}})
                        .toJson(QJsonDocument::Compact)
                        .constData());
    }
    const QString directory = QFileInfo(args[0]).canonicalFilePath();
    const int repeats = args.size() > 1 ? args[1].toInt() : 5;
    const auto workspace = std::make_shared<ToolWorkspace>(directory);
    GrepTool grep(workspace, GrepTool::Backend::Ripgrep);
    GrepTool builtinGrep(workspace, GrepTool::Backend::BuiltIn);
    GlobTool glob(workspace);

    for (const Query &query : queries()) {
        AgentTool &tool = query.kind == QLatin1String("grep") ? static_cast<AgentTool &>(grep)
                                                              : static_cast<AgentTool &>(glob);
        // Alternating the sides spreads the noise of a shared machine over both.
        ToolResult result;
        ToolResult builtin;
        qint64 rgLines = 0;
        const bool grepQuery = query.kind == QLatin1String("grep");
        Timing warm;
        timeTool(tool, query.args, &result, &warm); // fills the page cache
        Timing ours;
        Timing theirs;
        Timing builtinTiming;
        for (int i = 0; i < repeats; ++i) {
            timeTool(tool, query.args, &result, &ours);
            timeRipgrep(rg, directory, query.rg, &rgLines, &theirs);
            if (grepQuery)
                timeTool(builtinGrep, query.args, &builtin, &builtinTiming);
        }
        QJsonObject line{{"kind", query.kind},
                         {"query", query.name},
                         {"agentdeskMs", ours.wallMs},
                         {"ripgrepMs", theirs.wallMs},
                         {"ratio", ours.wallMs / theirs.wallMs},
                         {"agentdeskCpuMs", ours.cpuMs},
                         {"ripgrepCpuMs", theirs.cpuMs},
                         {"cpuRatio", ours.cpuMs / theirs.cpuMs},
                         {"ripgrepLines", double(rgLines)},
                         {"details", result.details.toJson()}};
        if (grepQuery) {
            line.insert(QStringLiteral("builtinMs"), builtinTiming.wallMs);
            line.insert(QStringLiteral("builtinCpuMs"), builtinTiming.cpuMs);
            line.insert(QStringLiteral("builtinSameText"), builtin.text() == result.text());
        }
        std::printf("%s\n", QJsonDocument(line).toJson(QJsonDocument::Compact).constData());
        std::fflush(stdout);
    }
    return 0;
}
