#include "ripgrepsearcher.h"
#include "translation.h"

#include "filewalker.h"

#include <QCoreApplication>
#include <QHash>
#include <QProcess>
#include <QStandardPaths>

#include <algorithm>
#include <vector>

namespace AgentCore {

namespace {

class OutputParser
{
public:
    explicit OutputParser(const GrepQuery &query)
        : m_query(query)
    {}

    GrepOutcome outcome;

    // Returns false once the query's line budget is spent.
    bool feed(const QByteArray &chunk)
    {
        m_pending += chunk;
        const char separator = m_query.mode == GrepQuery::Mode::FilesWithMatches ? '\0' : '\n';
        qsizetype start = 0;
        for (qsizetype end = m_pending.indexOf(separator); end >= 0;
             end = m_pending.indexOf(separator, start)) {
            const bool more = record(QByteArrayView(m_pending).sliced(start, end - start));
            start = end + 1;
            if (!more) {
                m_pending.clear();
                return false;
            }
        }
        m_pending.remove(0, start);
        return true;
    }

private:
    GrepFile &fileFor(QByteArrayView path)
    {
        if (path.startsWith("./"))
            path = path.sliced(2);
        if (path == m_lastPath && m_last >= 0)
            return outcome.files[m_last];
        m_lastPath = path.toByteArray();
        const auto it = m_index.constFind(m_lastPath);
        if (it != m_index.constEnd()) {
            m_last = *it;
        } else {
            m_last = outcome.files.size();
            m_index.insert(m_lastPath, m_last);
            outcome.files.append({QString::fromUtf8(path), 0, {}});
        }
        return outcome.files[m_last];
    }

    bool record(QByteArrayView record)
    {
        if (m_query.mode == GrepQuery::Mode::FilesWithMatches) {
            if (!record.isEmpty())
                fileFor(record).count = 1;
            return true;
        }
        const qsizetype nul = record.indexOf('\0');
        if (nul < 0)
            return true; // "--" between context groups: grouping is recomputed from numbers
        GrepFile &file = fileFor(record.first(nul));
        const QByteArrayView rest = record.sliced(nul + 1);
        if (m_query.mode == GrepQuery::Mode::Count) {
            file.count = rest.toByteArray().toLongLong();
            m_lines += file.count;
            return true;
        }
        qsizetype digits = 0;
        while (digits < rest.size() && rest[digits] >= '0' && rest[digits] <= '9')
            ++digits;
        if (digits == 0 || digits >= rest.size())
            return true;
        GrepLine line;
        line.number = rest.first(digits).toByteArray().toLongLong();
        line.match = rest[digits] == ':';
        QByteArrayView text = rest.sliced(digits + 1);
        if (text.endsWith('\r'))
            text.chop(1);
        line.text = QString::fromUtf8(text);
        if (line.match) {
            ++file.count;
            if (++m_lines > m_query.maxLines) {
                outcome.incomplete = true;
                return false;
            }
        }
        file.lines.append(line);
        return true;
    }

    const GrepQuery &m_query;
    QByteArray m_pending;
    QHash<QByteArray, qsizetype> m_index;
    QByteArray m_lastPath;
    qsizetype m_last = -1;
    qint64 m_lines = 0;
};

void sortByPath(QList<GrepFile> &files)
{
    std::vector<std::pair<QByteArray, qsizetype>> keys;
    keys.reserve(size_t(files.size()));
    for (qsizetype i = 0; i < files.size(); ++i)
        keys.emplace_back(files[i].path.toUtf8(), i);
    std::sort(keys.begin(), keys.end(), [](const auto &a, const auto &b) {
        return FileWalker::pathLess(a.first, b.first);
    });
    QList<GrepFile> sorted;
    sorted.reserve(files.size());
    for (const auto &key : keys)
        sorted.append(std::move(files[key.second]));
    files = std::move(sorted);
}

} // namespace

QString RipgrepSearcher::findExecutable()
{
    return QStandardPaths::findExecutable(QStringLiteral("rg"));
}

QStringList RipgrepSearcher::arguments(const GrepQuery &query)
{
    QStringList args{QStringLiteral("--no-config"),
                     QStringLiteral("--hidden"),
                     QStringLiteral("--no-ignore-dot"),
                     QStringLiteral("--no-ignore-global"),
                     QStringLiteral("--no-messages"),
                     QStringLiteral("--color=never"),
                     QStringLiteral("--no-heading"),
                     QStringLiteral("--with-filename"),
                     QStringLiteral("--null"),
                     QStringLiteral("--auto-hybrid-regex")};
    switch (query.mode) {
    case GrepQuery::Mode::FilesWithMatches:
        args << QStringLiteral("--files-with-matches");
        break;
    case GrepQuery::Mode::Count:
        args << QStringLiteral("--count");
        break;
    case GrepQuery::Mode::Content:
        args << QStringLiteral("--line-number");
        if (query.before > 0)
            args << QStringLiteral("--before-context=%1").arg(query.before);
        if (query.after > 0)
            args << QStringLiteral("--after-context=%1").arg(query.after);
        break;
    }
    if (query.caseInsensitive)
        args << QStringLiteral("--ignore-case");
    if (!query.glob.isEmpty())
        args << QStringLiteral("--glob=") + query.glob;
    // Last, so that no user glob can whitelist it back.
    args << QStringLiteral("--glob=!.git");
    args << QStringLiteral("--regexp=") + query.pattern << QStringLiteral("--")
         << (query.file.isEmpty() ? QStringLiteral(".") : query.file);
    return args;
}

GrepOutcome RipgrepSearcher::run(const QString &executable, const GrepQuery &query)
{
    QProcess process;
    process.setProgram(executable);
    process.setArguments(arguments(query));
    process.setWorkingDirectory(query.directory);
    process.setStandardInputFile(QProcess::nullDevice());
    process.start();
    if (!process.waitForStarted()) {
        GrepOutcome failed;
        failed.error = ToolsTr::tr("Cannot run %1: %2").arg(executable, process.errorString());
        return failed;
    }
    OutputParser parser(query);
    bool stopped = false;
    for (;;) {
        process.waitForReadyRead(50);
        if (!parser.feed(process.readAllStandardOutput()) || query.abort.isAborted()) {
            stopped = true;
            break;
        }
        if (process.state() == QProcess::NotRunning)
            break;
    }
    if (stopped) {
        process.kill();
        process.waitForFinished();
        parser.outcome.incomplete = true;
    } else {
        process.waitForFinished();
        parser.feed(process.readAllStandardOutput());
        // 1 is "no match"; 2 an error, which counts only when nothing was found at all.
        if (process.exitStatus() != QProcess::NormalExit
            || (process.exitCode() == 2 && parser.outcome.files.isEmpty())) {
            parser.outcome.error = QString::fromUtf8(process.readAllStandardError()).trimmed();
            if (parser.outcome.error.isEmpty())
                parser.outcome.error = ToolsTr::tr("ripgrep failed (exit code %1).")
                                           .arg(process.exitCode());
        }
    }
    sortByPath(parser.outcome.files);
    return parser.outcome;
}

} // namespace AgentCore
