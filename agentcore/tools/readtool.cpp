#include "readtool.h"
#include "translation.h"

#include "pathsuggestions.h"
#include "textfile.h"
#include "toolschema.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>

namespace AgentCore {

// The picture as an image block after a line that names it: the model sees what it asked for,
// scaled to what it takes. Too large a file is refused before it is read.
ToolResult ReadTool::readPicture(const ResolvedPath &path, qint64 size) const
{
    if (size > maxPictureFileBytes) {
        return ToolResult::makeError(
            ToolsTr::tr("%1 is a picture of %2, too large to read (at most %3).")
                .arg(path.displayPath(),
                     TextFile::sizeText(size),
                     TextFile::sizeText(maxPictureFileBytes)));
    }
    QFile file(path.path);
    if (!file.open(QIODevice::ReadOnly)) {
        return ToolResult::makeError(
            ToolsTr::tr("Cannot read %1: %2").arg(path.displayPath(), file.errorString()));
    }
    const QByteArray bytes = file.read(maxPictureFileBytes);
    const PictureScaler &scaler = m_workspace->pictureScaler();
    const PreparedPicture picture = scaler ? scaler(bytes, m_workspace->pictureLimits())
                                           : PreparedPicture::asIs(bytes,
                                                                   m_workspace->pictureLimits());
    if (!picture.ok()) {
        //: Read of a picture that cannot be sent: "shot.png cannot be sent as a picture: it is a
        //: broken PNG picture"
        return ToolResult::makeError(ToolsTr::tr("%1 cannot be sent as a picture: %2")
                                         .arg(path.displayPath(), picture.error));
    }
    ToolDetails details;
    details.path = path.path;
    details.displayPath = path.displayPath();
    details.other.insert(QStringLiteral("picture"), picture.summary());
    ToolResult result = ToolResult::makeText(ToolsTr::tr("%1: %2").arg(path.displayPath(),
                                                                       picture.summary()),
                                             details);
    result.content.append(picture.block);
    return result;
}

ReadTool::ReadTool(std::shared_ptr<ToolWorkspace> workspace)
    : m_workspace(std::move(workspace))
{}

ToolDefinition ReadTool::definition() const
{
    // Descriptions say only what the names and the schema do not: every request carries them.
    QJsonObject offset = schemaProperty("integer", ToolsTr::tr("First line."));
    offset.insert(QStringLiteral("minimum"), 1);
    QJsonObject limit = schemaProperty("integer",
                                       ToolsTr::tr("Lines (default %1).").arg(defaultLimit));
    limit.insert(QStringLiteral("minimum"), 1);
    return {
        toolKindName(ToolKind::Read),
        ToolsTr::tr(
            "Reads a text file, each line as its number, a tab and the text (number and tab are "
            "not in the file: never put them in old_string). At most %1 lines, each cut at %2 "
            "characters; binary files are refused. An unchanged file read before answers only "
            "that: your earlier output is still exact. PNG, JPEG, GIF and WebP pictures come as "
            "pictures.")
            .arg(defaultLimit)
            .arg(maxLineLength),
        QJsonObject{
            {QStringLiteral("type"), QStringLiteral("object")},
            {QStringLiteral("properties"),
             QJsonObject{{QStringLiteral("file_path"), schemaProperty("string")},
                         {QStringLiteral("offset"), offset},
                         {QStringLiteral("limit"), limit}}},
            {QStringLiteral("required"), QJsonArray{QStringLiteral("file_path")}},
            {QStringLiteral("additionalProperties"), false},
        },
    };
}

ToolResult ReadTool::execute(const ToolCallContext &context)
{
    const QJsonObject &args = context.arguments;
    const ResolvedPath path = m_workspace->resolve(args.value(QLatin1String("file_path")).toString(),
                                                   PathAccess::Read);
    if (!path.ok())
        return ToolResult::makeError(path.error);
    const QFileInfo info(path.path);
    if (!info.exists()) {
        return ToolResult::makeError(PathSuggestions::notFoundMessage(
            m_workspace->root(), path, ToolsTr::tr("File not found: %1").arg(path.displayPath())));
    }
    if (info.isDir()) {
        return ToolResult::makeError(
            ToolsTr::tr("%1 is a directory. Use LS to list it or Glob to find files in it.")
                .arg(path.displayPath()));
    }

    if (!pictureTypeOfFileName(path.path).isEmpty())
        return readPicture(path, info.size());

    TextFile file;
    QString error;
    if (!file.load(path.path, maxFileBytes, &error))
        return ToolResult::makeError(
            error + QLatin1Char(' ')
            + ToolsTr::tr("Use Grep to search it, or Bash (head, tail, sed -n) "
                          "to see parts of it."));
    if (TextFile::looksBinary(file.bytes)) {
        return ToolResult::makeError(
            ToolsTr::tr("%1 is a binary file (%2); Read shows text files only.")
                .arg(path.displayPath(), TextFile::sizeText(file.bytes.size())));
    }
    const FileSnapshot snapshot = ToolWorkspace::snapshotOf(file.bytes, info.lastModified());
    m_workspace->recordRead(path.path, snapshot);

    const QStringList lines = file.lines();
    const int total = int(lines.size());
    const int offset = int(std::max<qint64>(1, args.value(QLatin1String("offset")).toInteger(1)));
    const int limit = int(
        std::max<qint64>(1, args.value(QLatin1String("limit")).toInteger(defaultLimit)));
    ToolDetails details;
    details.path = path.path;
    details.displayPath = path.displayPath();
    details.other.insert(QStringLiteral("totalLines"), total);
    if (total == 0) {
        details.other.insert(QStringLiteral("startLine"), 0);
        details.other.insert(QStringLiteral("endLine"), 0);
        return ToolResult::makeText(ToolsTr::tr("(%1 is empty)").arg(path.displayPath()), details);
    }
    if (offset > total) {
        return ToolResult::makeError(
            ToolsTr::tr("%1 has %2; offset %3 is past its end.")
                .arg(path.displayPath(),
                     TextFile::plural(total, ToolsTr::tr("1 line"), ToolsTr::tr("%1 lines")))
                .arg(offset));
    }

    // Whole lines only, until the line limit or the output cap, whichever comes first.
    const int first = offset - 1;
    int last = std::min(total, first + limit); // exclusive
    qsizetype chars = 0;
    int cutLines = 0;
    for (int i = first; i < last; ++i) {
        const qsizetype length = std::min<qsizetype>(lines[i].size(), maxLineLength) + 8;
        if (chars + length > maxOutputChars && i > first) {
            last = i;
            break;
        }
        chars += length;
        if (lines[i].size() > maxLineLength)
            ++cutLines;
    }
    details.other.insert(QStringLiteral("startLine"), offset);
    details.other.insert(QStringLiteral("endLine"), last);
    details.other.insert(QStringLiteral("truncated"), last < total || offset > 1);
    details.other.insert(QStringLiteral("cutLines"), cutLines);

    // The same lines of the same bytes, still in front of the model: say so instead of sending
    // them again (the content decides, so a write by Bash or outside AgentDesk shows the text).
    ReadLedger &ledger = m_workspace->readLedger();
    if (const std::optional<ReadLedger::Entry> earlier = ledger.findShown(path.path,
                                                                          snapshot.hash,
                                                                          offset,
                                                                          last)) {
        details.other.insert(QStringLiteral("unchanged"), true);
        details.other.insert(QStringLiteral("unchangedSince"), earlier->toolCallId);
        const QString range = earlier->firstLine == offset && earlier->lastLine == last
                                  ? ToolsTr::tr("%1 is unchanged since your last Read of it (lines "
                                                "%2-%3 of %4):")
                                        .arg(path.displayPath())
                                        .arg(offset)
                                        .arg(last)
                                        .arg(total)
                                  : ToolsTr::tr(
                                        "Lines %2-%3 of %1 are unchanged since your earlier "
                                        "Read of lines %4-%5:")
                                        .arg(path.displayPath())
                                        .arg(offset)
                                        .arg(last)
                                        .arg(earlier->firstLine)
                                        .arg(earlier->lastLine);
        return ToolResult::makeText(range + QLatin1Char(' ')
                                        + ToolsTr::tr("that output, above in this conversation, is "
                                                      "still exact, so it is not repeated here."),
                                    details);
    }
    if (!context.toolCallId.isEmpty())
        ledger.record({path.path, offset, last, snapshot.hash, context.toolCallId});

    QString text = TextFile::numbered(lines.mid(first, last - first), offset, maxLineLength);
    if (last < total) {
        text += QLatin1Char('\n')
                + ToolsTr::tr("[Showing lines %1-%2 of %3. Call Read with offset=%4 to continue.]")
                      .arg(offset)
                      .arg(last)
                      .arg(total)
                      .arg(last + 1);
    }
    return ToolResult::makeText(text, details);
}

} // namespace AgentCore
