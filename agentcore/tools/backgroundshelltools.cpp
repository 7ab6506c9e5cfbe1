#include "backgroundshelltools.h"
#include "translation.h"

#include "toolschema.h"

#include <QJsonArray>
#include <QRegularExpression>

namespace AgentCore {

namespace {

// The ids the model may use, for an error that names a wrong one.
QString knownShells(const BackgroundShells &shells)
{
    QStringList ids;
    for (const BackgroundShell &shell : shells.shells())
        ids.append(QStringLiteral("%1 (%2)").arg(shell.id, shell.stateText()));
    return ids.isEmpty() ? ToolsTr::tr("No background command was started in this session.")
                         : ToolsTr::tr("The background commands of this session: %1.")
                               .arg(ids.join(QStringLiteral(", ")));
}

ToolDetails shellDetails(const BackgroundShell &shell)
{
    ToolDetails details;
    details.logPath = shell.logPath;
    details.other = {{QStringLiteral("shellId"), shell.id},
                     {QStringLiteral("command"), shell.command},
                     {QStringLiteral("pid"), double(shell.pid)},
                     {QStringLiteral("running"), shell.running},
                     {QStringLiteral("stopped"), shell.stopped},
                     {QStringLiteral("outputBytes"), double(shell.totalBytes)}};
    if (!shell.running)
        details.other.insert(shell.crashed ? QStringLiteral("signal") : QStringLiteral("exitCode"),
                             shell.exitCode);
    return details;
}

// The lines of \a text that \a filter matches (a last line without its newline counts).
QString matchingLines(const QString &text, const QRegularExpression &filter)
{
    QStringList kept;
    for (const QString &line : text.split(QLatin1Char('\n'))) {
        if (!line.isEmpty() && filter.match(line).hasMatch())
            kept.append(line);
    }
    return kept.join(QLatin1Char('\n'));
}

} // namespace

BashOutputTool::BashOutputTool(std::shared_ptr<BackgroundShells> shells)
    : m_shells(std::move(shells))
{}

ToolDefinition BashOutputTool::definition() const
{
    return {
        toolKindName(ToolKind::BashOutput),
        ToolsTr::tr("Reads the output a background command (Bash with run_in_background) printed "
                    "since the last read, and whether it still runs or how it ended. Each read "
                    "shows at most the last %1 KiB of the new output; its log file has all of it.")
            .arg(maxShownBytes / 1024),
        QJsonObject{
            {QStringLiteral("type"), QStringLiteral("object")},
            {QStringLiteral("properties"),
             QJsonObject{
                 {QStringLiteral("bash_id"),
                  schemaProperty("string", ToolsTr::tr("The shell id Bash returned (bash_1, ...)."))},
                 {QStringLiteral("filter"),
                  schemaProperty("string",
                                 ToolsTr::tr("A regular expression: only the new lines that "
                                             "match are shown; the others are read all the "
                                             "same and will not be shown again."))},
             }},
            {QStringLiteral("required"), QJsonArray{QStringLiteral("bash_id")}},
            {QStringLiteral("additionalProperties"), false},
        },
    };
}

ToolResult BashOutputTool::execute(const ToolCallContext &context)
{
    const QString id = context.arguments.value(QLatin1String("bash_id")).toString().trimmed();
    const QString pattern = context.arguments.value(QLatin1String("filter")).toString();
    const QRegularExpression filter(pattern);
    if (!pattern.isEmpty() && !filter.isValid())
        return ToolResult::makeError(
            ToolsTr::tr("filter is not a valid regular expression: %1").arg(filter.errorString()));
    const std::optional<BackgroundShells::Taken> taken = m_shells->takeNew(id);
    if (!taken) {
        return ToolResult::makeError(ToolsTr::tr("No background command has the id \"%1\". %2")
                                         .arg(id, knownShells(*m_shells)));
    }
    const BackgroundShell &shell = taken->shell;
    QString text = shell.running
                       ? ToolsTr::tr("Shell %1 (%2) is running.").arg(shell.id, shell.command)
                       : ToolsTr::tr("Shell %1 (%2) has ended: %3.")
                             .arg(shell.id, shell.command, shell.stateText());
    text += QLatin1Char('\n');
    QByteArray bytes = taken->bytes;
    qint64 leftOut = taken->dropped;
    if (bytes.size() > maxShownBytes) {
        qsizetype cut = bytes.size() - maxShownBytes;
        while (cut < bytes.size() && (static_cast<unsigned char>(bytes[cut]) & 0xC0) == 0x80)
            ++cut; // on a character boundary
        leftOut += cut;
        bytes.remove(0, cut);
    }
    QString output = QString::fromUtf8(bytes);
    if (!pattern.isEmpty())
        output = matchingLines(output, filter);
    if (leftOut > 0) {
        text += ToolsTr::tr("[... %1 bytes of new output left out; all of it is in %2 ...]")
                    .arg(leftOut)
                    .arg(shell.logPath.isEmpty() ? ToolsTr::tr("no log file") : shell.logPath);
        text += QLatin1Char('\n');
    }
    if (output.isEmpty()) {
        text += pattern.isEmpty() ? ToolsTr::tr("(no new output)")
                                  : ToolsTr::tr("(no new line matches the filter)");
    } else {
        text += output;
    }
    while (text.endsWith(QLatin1Char('\n')))
        text.chop(1);
    return ToolResult::makeText(text, shellDetails(shell));
}

KillShellTool::KillShellTool(std::shared_ptr<BackgroundShells> shells)
    : m_shells(std::move(shells))
{}

ToolDefinition KillShellTool::definition() const
{
    return {
        toolKindName(ToolKind::KillShell),
        ToolsTr::tr("Stops a background command (Bash with run_in_background) and everything it "
                    "started, and waits for it to end."),
        QJsonObject{
            {QStringLiteral("type"), QStringLiteral("object")},
            {QStringLiteral("properties"),
             QJsonObject{
                 {QStringLiteral("shell_id"),
                  schemaProperty("string", ToolsTr::tr("The shell id Bash returned (bash_1, ...)."))},
             }},
            {QStringLiteral("required"), QJsonArray{QStringLiteral("shell_id")}},
            {QStringLiteral("additionalProperties"), false},
        },
    };
}

ToolResult KillShellTool::execute(const ToolCallContext &context)
{
    const QString id = context.arguments.value(QLatin1String("shell_id")).toString().trimmed();
    const std::optional<BackgroundShell> before = m_shells->shell(id);
    if (!before) {
        return ToolResult::makeError(ToolsTr::tr("No background command has the id \"%1\". %2")
                                         .arg(id, knownShells(*m_shells)));
    }
    if (!before->running) {
        return ToolResult::makeText(ToolsTr::tr("Shell %1 (%2) had already ended: %3.")
                                        .arg(before->id, before->command, before->stateText()),
                                    shellDetails(*before));
    }
    const std::optional<BackgroundShell> after = m_shells->stop(id);
    const BackgroundShell &shell = after ? *after : *before;
    if (shell.running) {
        return ToolResult::makeError(ToolsTr::tr("Shell %1 (%2) was told to stop but still runs.")
                                         .arg(shell.id, shell.command));
    }
    return ToolResult::makeText(ToolsTr::tr("Stopped shell %1 (%2).").arg(shell.id, shell.command),
                                shellDetails(shell));
}

} // namespace AgentCore
