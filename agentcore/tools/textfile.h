#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace AgentCore {

/// A file's bytes as the text tools see them: UTF-8 byte order mark, line-ending convention,
/// binary or text. A plain value.
struct TextFile
{
    QByteArray bytes;  ///< everything, BOM included
    bool bom = false;  ///< starts with EF BB BF
    bool crlf = false; ///< most line breaks are CRLF

    /// Reads at most \a maxBytes (sets \a error and returns false when the file is larger or
    /// cannot be read). \a path is canonical: a symbolic link is not followed.
    bool load(const QString &path, qint64 maxBytes, QString *error);
    static TextFile fromBytes(const QByteArray &bytes);

    /// The bytes after the BOM.
    QByteArray body() const { return bom ? bytes.mid(3) : bytes; }
    /// The body decoded as UTF-8 (invalid sequences replaced).
    QString text() const { return QString::fromUtf8(body()); }
    /// The body's lines without their CR/LF; a final newline adds no empty line.
    QStringList lines() const;

    /// NUL bytes, or many control characters in invalid UTF-8, in the first 8000 bytes.
    static bool looksBinary(const QByteArray &bytes);
    /// \a one when n is 1, else \a many with %1 replaced by n: plural forms that read well
    /// without a translation loaded.
    static QString plural(qint64 n, const QString &one, const QString &many);
    /// "Nx.y KB" style size for messages.
    static QString sizeText(qint64 bytes);
    /// Numbered lines: the number right-aligned to the width of the largest number shown
    /// ("  7", " 42", "120" for lines 7-120; "7" alone), a tab, the line; lines longer than
    /// \a maxLineLength are cut with a note.
    static QString numbered(const QStringList &lines, int firstNumber, int maxLineLength = 2000);
    /// Turns every bare LF into CRLF (\a text must use LF only, or already CRLF).
    static QByteArray toCrlf(const QByteArray &text);
    static QByteArray toLf(const QByteArray &text);
};

} // namespace AgentCore
