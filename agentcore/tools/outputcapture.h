#pragma once

#include <QByteArray>
#include <QString>
#include <QTemporaryFile>

namespace AgentCore {

/// A command's output as the model sees it: the first and the last bytes, with the whole
/// output written to a log file on the side. Not thread-safe (one command, one thread).
class OutputCapture final
{
    Q_DISABLE_COPY_MOVE(OutputCapture)
public:
    OutputCapture(qsizetype headBytes, qsizetype tailBytes);
    ~OutputCapture();

    /// Starts the full log in a new file named after \a fileTemplate, whose XXXXXX become
    /// random characters (QTemporaryFile: an unpredictable name, mode 0600, never an existing
    /// file or link); false (and no log) when it cannot be created.
    bool openLog(const QString &fileTemplate);
    void append(const QByteArray &chunk);

    qint64 totalBytes() const { return m_total; }
    bool isTruncated() const { return m_total > m_headLimit + m_tailLimit; }
    /// Head and tail, with a note naming the log file between them when bytes were left out.
    QString text() const;
    /// Closes the log; removes it unless \a keep. Returns the path kept, or empty.
    QString finishLog(bool keep);

private:
    qsizetype m_headLimit;
    qsizetype m_tailLimit;
    QByteArray m_head;
    QByteArray m_tail;
    qint64 m_total = 0;
    QTemporaryFile m_log;
};

} // namespace AgentCore
