#include "builtinsearcher.h"
#include "translation.h"

#include "filewalker.h"

#include <QCoreApplication>
#include <QFile>
#include <QRegularExpression>
#include <QThread>

#include <atomic>
#include <optional>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace AgentCore {

namespace {

bool readFile(const QByteArray &path, QByteArray &bytes)
{
    // Paths here are canonical or come from a walk that skips links: a link now is a file
    // swapped since, which may point anywhere.
    const int fd = ::open(path.constData(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0)
        return false;
    struct stat info;
    if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
        ::close(fd);
        return false;
    }
    bytes.resize(qsizetype(info.st_size));
    qsizetype done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::read(fd, bytes.data() + done, size_t(bytes.size() - done));
        if (n <= 0)
            break;
        done += n;
    }
    ::close(fd);
    bytes.truncate(done);
    return true;
}

bool isLiteral(const QString &pattern)
{
    for (const QChar c : pattern) {
        if (QStringView(u"\\^$.|?*+()[]{}").contains(c))
            return false;
    }
    return !pattern.isEmpty();
}

QString lineText(const QString &text, qsizetype start, qsizetype end)
{
    if (end > start && text[end - 1] == QLatin1Char('\r'))
        --end;
    return text.mid(start, end - start);
}

class FileSearch
{
public:
    FileSearch(const GrepQuery &query, QRegularExpression::PatternOptions options)
        : m_query(query)
        , m_regex(query.pattern, options | QRegularExpression::MultilineOption)
        , m_lineRegex(query.pattern, options)
        , m_literal(!query.caseInsensitive && isLiteral(query.pattern) ? query.pattern.toUtf8()
                                                                       : QByteArray())
    {}

    std::optional<GrepFile> search(const QByteArray &path)
    {
        if (!readFile(path, m_bytes) || m_bytes.contains('\0'))
            return std::nullopt;
        if (!m_literal.isEmpty() && !m_bytes.contains(m_literal))
            return std::nullopt;
        const qsizetype bom = m_bytes.startsWith("\xEF\xBB\xBF") ? 3 : 0;
        const QString text = QString::fromUtf8(QByteArrayView(m_bytes).sliced(bom));

        struct Hit
        {
            qint64 number;
            qsizetype start;
            qsizetype end;
        };
        std::vector<Hit> hits;
        qint64 number = 1;
        qsizetype counted = 0;
        qsizetype pos = 0;
        while (pos < text.size()) {
            const QRegularExpressionMatch match = m_regex.match(text, pos);
            if (!match.hasMatch())
                break;
            const qsizetype start = match.capturedStart();
            if (start >= text.size() && text.endsWith(QLatin1Char('\n')))
                break; // the empty "line" after the last newline is no line
            const qsizetype lineStart = start == 0
                                            ? 0
                                            : text.lastIndexOf(QLatin1Char('\n'), start - 1) + 1;
            qsizetype lineEnd = text.indexOf(QLatin1Char('\n'), start);
            if (lineEnd < 0)
                lineEnd = text.size();
            // A match across a line break does not count; the line may still match alone.
            if (match.capturedEnd() > lineEnd
                && !m_lineRegex.match(text.mid(lineStart, lineEnd - lineStart)).hasMatch()) {
                pos = lineEnd + 1;
                continue;
            }
            number += QStringView(text).mid(counted, lineStart - counted).count(QLatin1Char('\n'));
            counted = lineStart;
            hits.push_back({number, lineStart, lineEnd});
            if (m_query.mode == GrepQuery::Mode::FilesWithMatches)
                break;
            pos = lineEnd + 1;
        }
        if (hits.empty())
            return std::nullopt;

        GrepFile file;
        file.count = qint64(hits.size());
        if (m_query.mode != GrepQuery::Mode::Content)
            return file;
        if (m_query.before == 0 && m_query.after == 0) {
            for (const Hit &hit : hits)
                file.lines.append({hit.number, lineText(text, hit.start, hit.end), true});
            return file;
        }
        std::vector<qsizetype> starts{0};
        for (qsizetype i = text.indexOf(QLatin1Char('\n')); i >= 0;
             i = text.indexOf(QLatin1Char('\n'), i + 1)) {
            if (i + 1 < text.size())
                starts.push_back(i + 1);
        }
        const qint64 total = qint64(starts.size());
        const auto lineAt = [&](qint64 n) {
            const qsizetype start = starts[size_t(n - 1)];
            qsizetype end = n < total ? starts[size_t(n)] - 1 : text.size();
            if (n == total && text.endsWith(QLatin1Char('\n')))
                end = text.size() - 1;
            return lineText(text, start, end);
        };
        // The union of the windows around the matches, in order.
        qint64 shown = 0; // the last line emitted
        size_t next = 0;  // the first hit not below the line being emitted
        for (const Hit &hit : hits) {
            const qint64 from = std::max(shown + 1, hit.number - m_query.before);
            const qint64 to = std::min(total, hit.number + m_query.after);
            for (qint64 n = from; n <= to; ++n) {
                while (next < hits.size() && hits[next].number < n)
                    ++next;
                file.lines.append({n, lineAt(n), next < hits.size() && hits[next].number == n});
            }
            shown = std::max(shown, to);
        }
        return file;
    }

private:
    const GrepQuery &m_query;
    QRegularExpression m_regex;
    QRegularExpression m_lineRegex;
    QByteArray m_literal;
    QByteArray m_bytes;
};

} // namespace

GrepOutcome BuiltinSearcher::run(const GrepQuery &query, int threads)
{
    GrepOutcome outcome;
    QRegularExpression::PatternOptions options = QRegularExpression::UseUnicodePropertiesOption;
    if (query.caseInsensitive)
        options |= QRegularExpression::CaseInsensitiveOption;
    const QRegularExpression probe(query.pattern, options);
    if (!probe.isValid()) {
        outcome.error = ToolsTr::tr("Invalid regular expression: %1 (at offset %2).")
                            .arg(probe.errorString())
                            .arg(probe.patternErrorOffset());
        return outcome;
    }

    std::vector<QByteArray> files;
    if (!query.file.isEmpty()) {
        files.push_back(query.file.toUtf8());
    } else {
        FileWalker walker(query.directory);
        if (!query.glob.isEmpty())
            walker.setOverrideGlobs({query.glob.toUtf8()});
        walker.setAbortToken(query.abort);
        walker.walk([&files](QByteArrayView relative, bool isDirectory) {
            if (!isDirectory)
                files.push_back(relative.toByteArray());
            return FileWalker::Visit::Continue;
        });
    }

    const QByteArray prefix = QFile::encodeName(query.directory) + '/';
    std::vector<std::optional<GrepFile>> results(files.size());
    std::atomic<size_t> next{0};
    std::atomic<qint64> lines{0};
    std::atomic_bool full{false};
    const auto work = [&] {
        FileSearch search(query, options);
        for (;;) {
            const size_t i = next++;
            if (i >= files.size() || full.load() || query.abort.isAborted())
                return;
            results[i] = search.search(prefix + files[i]);
            if (results[i] && (lines += results[i]->count) > query.maxLines)
                full = true;
        }
    };
    if (threads <= 0)
        threads = std::min(8, QThread::idealThreadCount());
    threads = int(
        std::min<size_t>(size_t(std::max(1, threads)), std::max<size_t>(1, files.size() / 64)));
    // Threads of this search's own, not QtConcurrent on the global pool (docs/architecture.md,
    // "Threads"): the calling tool thread works with them, and a search never queues behind
    // the pool's other work (snapshots, probes; two threads on a two-core machine).
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t)
        pool.emplace_back(work);
    work();
    for (std::thread &thread : pool)
        thread.join();

    qint64 kept = 0;
    for (size_t i = 0; i < files.size(); ++i) {
        if (!results[i])
            continue;
        if (kept >= query.maxLines) {
            outcome.incomplete = true;
            break;
        }
        kept += results[i]->count;
        results[i]->path = QString::fromUtf8(files[i]);
        outcome.files.append(std::move(*results[i]));
    }
    if (query.abort.isAborted())
        outcome.incomplete = true;
    return outcome;
}

} // namespace AgentCore
