#include "textfile.h"
#include "translation.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QStringDecoder>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <unistd.h>

namespace AgentCore {

bool TextFile::load(const QString &path, qint64 maxBytes, QString *error)
{
    // \a path is canonical (ToolWorkspace::resolve): a link there now was swapped in after the
    // path guard saw the file, and may point anywhere.
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
        const int code = errno;
        *error = ToolsTr::tr("Cannot read %1: %2")
                     .arg(path,
                          code == ELOOP ? ToolsTr::tr("it became a symbolic link")
                                        : QString::fromLocal8Bit(std::strerror(code)));
        return false;
    }
    QFile file;
    if (!file.open(fd, QIODevice::ReadOnly, QFileDevice::AutoCloseHandle)) {
        ::close(fd);
        *error = ToolsTr::tr("Cannot read %1: %2").arg(path, file.errorString());
        return false;
    }
    if (file.size() > maxBytes) {
        *error = ToolsTr::tr("%1 is too large (%2; the limit is %3).")
                     .arg(path, sizeText(file.size()), sizeText(maxBytes));
        return false;
    }
    *this = fromBytes(file.readAll());
    return true;
}

TextFile TextFile::fromBytes(const QByteArray &bytes)
{
    TextFile file;
    file.bytes = bytes;
    file.bom = bytes.startsWith("\xEF\xBB\xBF");
    qsizetype crlf = 0;
    qsizetype lf = 0;
    const char *data = bytes.constData();
    for (qsizetype i = bytes.indexOf('\n'); i >= 0; i = bytes.indexOf('\n', i + 1)) {
        if (i > 0 && data[i - 1] == '\r')
            ++crlf;
        else
            ++lf;
    }
    file.crlf = crlf > lf;
    return file;
}

QStringList TextFile::lines() const
{
    QString content = text();
    if (content.isEmpty())
        return {};
    QStringList lines = content.split(QLatin1Char('\n'));
    if (lines.last().isEmpty())
        lines.removeLast();
    for (QString &line : lines) {
        if (line.endsWith(QLatin1Char('\r')))
            line.chop(1);
    }
    return lines;
}

bool TextFile::looksBinary(const QByteArray &bytes)
{
    const QByteArray head = bytes.left(8000);
    if (head.contains('\0'))
        return true;
    QStringDecoder decoder(QStringDecoder::Utf8);
    const QString decoded = decoder.decode(head);
    Q_UNUSED(decoded)
    if (!decoder.hasError())
        return false;
    // Not UTF-8: a legacy 8-bit text has few control characters; a binary format has many.
    qsizetype control = 0;
    for (const char c : head) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 32 && byte != '\n' && byte != '\r' && byte != '\t' && byte != '\f'
            && byte != '\b' && byte != 27)
            ++control;
    }
    return control * 20 > head.size();
}

QString TextFile::plural(qint64 n, const QString &one, const QString &many)
{
    return n == 1 ? one : many.arg(n);
}

QString TextFile::sizeText(qint64 bytes)
{
    if (bytes < 1024)
        return plural(bytes, ToolsTr::tr("1 byte"), ToolsTr::tr("%1 bytes"));
    if (bytes < 1024 * 1024)
        return ToolsTr::tr("%1 KiB").arg(double(bytes) / 1024, 0, 'f', 1);
    return ToolsTr::tr("%1 MiB").arg(double(bytes) / (1024 * 1024), 0, 'f', 1);
}

QString TextFile::numbered(const QStringList &lines, int firstNumber, int maxLineLength)
{
    QString out;
    int number = firstNumber;
    // No padding (cat -n pads to six columns): every request re-sends each line's prefix to
    // the model, and the tab lines the text up all the same.
    for (const QString &line : lines) {
        out += QString::number(number++);
        out += QLatin1Char('\t');
        if (line.size() > maxLineLength) {
            out += QStringView(line).left(maxLineLength);
            out += ToolsTr::tr("... [line cut: %1 more characters]").arg(line.size() - maxLineLength);
        } else {
            out += line;
        }
        out += QLatin1Char('\n');
    }
    return out;
}

QByteArray TextFile::toCrlf(const QByteArray &text)
{
    QByteArray out;
    out.reserve(text.size() + text.count('\n'));
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text[i] == '\n' && (i == 0 || text[i - 1] != '\r'))
            out += '\r';
        out += text[i];
    }
    return out;
}

QByteArray TextFile::toLf(const QByteArray &text)
{
    QByteArray out = text;
    out.replace("\r\n", "\n");
    return out;
}

} // namespace AgentCore
