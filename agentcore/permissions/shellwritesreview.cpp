#include "shellwritesreview.h"
#include "translation.h"

#include <tools/textfile.h>

#include <QCoreApplication>
#include <QJsonArray>

#include <algorithm>

namespace AgentCore {

namespace {

QString named(const QStringList &items)
{
    if (items.size() <= ShellWritesReview::maxNamed)
        return items.join(QStringLiteral("; "));
    return items.mid(0, ShellWritesReview::maxNamed).join(QStringLiteral("; "))
           + QStringLiteral("; ")
           + PermissionsTr::tr("and %1 more").arg(items.size() - ShellWritesReview::maxNamed);
}

QString hunkList(const QList<int> &hunks)
{
    QStringList numbers;
    for (int hunk : hunks)
        numbers.append(QString::number(hunk + 1));
    return numbers.join(QStringLiteral(", "));
}

ToolResult withText(const ToolResult &commandResult, const QString &appended, bool isError)
{
    QString text = commandResult.text();
    if (!text.isEmpty())
        text += QStringLiteral("\n\n");
    ToolResult result = ToolResult::makeText(text + appended, commandResult.details);
    result.isError = isError;
    return result;
}
} // namespace

void ShellWritesReview::describe(const QList<ShellWrite> &writes,
                                 const ToolResult &commandResult,
                                 PermissionRequest &request)
{
    request.shellWrites = writes;
    request.commandOutput = commandResult.text();
    request.reason = TextFile::plural(writes.size(),
                                      PermissionsTr::tr(
                                          "the command changed 1 path; only what you accept "
                                          "reaches the repository"),
                                      PermissionsTr::tr(
                                          "the command changed %1 paths; only what you accept "
                                          "reaches the repository"));
    request.suggestedRules.clear(); // a review of writes remembers nothing
}

QHash<int, ShellWriteApplier::Choice> ShellWritesReview::choices(
    const PermissionRequest &request, const std::optional<PermissionAnswer> &answer)
{
    QHash<int, ShellWriteApplier::Choice> choices;
    if (!answer || answer->choice == PermissionAnswer::Choice::Deny)
        return choices;
    for (int i = 0; i < request.shellWrites.size(); ++i) {
        if (answer->rejectedWrites.contains(i))
            continue;
        ShellWriteApplier::Choice choice;
        choice.accepted = true;
        const int hunks = int(request.shellWrites[i].diff.hunks().size());
        for (int hunk : answer->rejectedWriteHunks.value(i)) {
            if (hunk >= 0 && hunk < hunks && !request.shellWrites[i].whole
                && !choice.rejectedHunks.contains(hunk))
                choice.rejectedHunks.append(hunk);
        }
        std::sort(choice.rejectedHunks.begin(), choice.rejectedHunks.end());
        choices.insert(i, choice);
    }
    return choices;
}

ToolResult ShellWritesReview::result(const ToolResult &commandResult,
                                     const PermissionRequest &request,
                                     const std::optional<PermissionAnswer> &answer,
                                     const ShellWriteApplier::Outcome &outcome)
{
    const QHash<int, ShellWriteApplier::Choice> chosen = choices(request, answer);
    QStringList applied;
    QStringList rejected;
    QStringList failed;
    QJsonArray list;
    for (int i = 0; i < request.shellWrites.size(); ++i) {
        const ShellWrite &write = request.shellWrites[i];
        QString item = write.path + QStringLiteral(" (") + write.description() + QLatin1Char(')');
        const bool wasApplied = outcome.applied.contains(i);
        const QList<int> rejectedHunks = chosen.value(i).rejectedHunks;
        if (wasApplied && !rejectedHunks.isEmpty()) {
            item = write.path + QStringLiteral(" (")
                   + (rejectedHunks.size() == 1
                          ? PermissionsTr::tr("modified; hunk %1 of %2 rejected")
                          : PermissionsTr::tr("modified; hunks %1 of %2 rejected"))
                         .arg(hunkList(rejectedHunks))
                         .arg(write.diff.hunks().size())
                   + QLatin1Char(')');
        }
        if (wasApplied)
            applied.append(item);
        else if (outcome.failed.contains(i))
            failed.append(item + QStringLiteral(": ") + outcome.failed.value(i));
        else
            rejected.append(item);
        QJsonArray hunks;
        for (int hunk : rejectedHunks)
            hunks.append(hunk);
        // The lines the repository got (the accepted hunks), for the changed-files panel.
        int additions = 0;
        int deletions = 0;
        const QList<UnifiedDiff::Hunk> &diffHunks = write.diff.hunks();
        for (qsizetype h = 0; h < diffHunks.size(); ++h) {
            if (rejectedHunks.contains(int(h)))
                continue;
            for (const QString &line : diffHunks.at(h).lines) {
                if (line.startsWith(QLatin1Char('+')))
                    ++additions;
                else if (line.startsWith(QLatin1Char('-')))
                    ++deletions;
            }
        }
        list.append(QJsonObject{{QStringLiteral("path"), write.path},
                                {QStringLiteral("change"), write.description()},
                                {QStringLiteral("applied"), wasApplied},
                                {QStringLiteral("rejectedHunks"), hunks},
                                {QStringLiteral("kind"), ShellWrite::kindName(write.kind())},
                                {QStringLiteral("directory"),
                                 write.newType == ShellWrite::Type::Directory
                                     || write.oldType == ShellWrite::Type::Directory},
                                {QStringLiteral("additions"), additions},
                                {QStringLiteral("deletions"), deletions}});
    }

    QStringList lines;
    lines.append(
        TextFile::plural(request.shellWrites.size(),
                         PermissionsTr::tr("The command ran on a copy of the repository; the user "
                                           "reviewed the 1 change it made."),
                         PermissionsTr::tr("The command ran on a copy of the repository; the user "
                                           "reviewed the %1 changes it made.")));
    if (!outcome.error.isEmpty())
        lines.append(PermissionsTr::tr("None of them could be applied: %1.").arg(outcome.error));
    if (!applied.isEmpty())
        lines.append(PermissionsTr::tr("Applied to the repository: %1.").arg(named(applied)));
    if (!rejected.isEmpty())
        lines.append(PermissionsTr::tr("Rejected by the user, not in the repository: %1.")
                         .arg(named(rejected)));
    if (!failed.isEmpty())
        lines.append(PermissionsTr::tr("Accepted but not applied: %1.").arg(named(failed)));
    const QString feedback = answer ? answer->feedback.trimmed() : QString();
    if (!feedback.isEmpty())
        lines.append(PermissionsTr::tr("Their feedback: %1").arg(feedback));
    if (!rejected.isEmpty() || !failed.isEmpty() || !outcome.error.isEmpty())
        lines.append(
            PermissionsTr::tr("What was not applied is not in the repository: read the files again "
                              "before relying on them, and do not redo the rejected changes "
                              "unless the user asks."));

    ToolResult result = withText(commandResult,
                                 lines.join(QLatin1Char('\n')),
                                 commandResult.isError);
    result.details.other.insert(QStringLiteral("shellWrites"), list);
    return result;
}

ToolResult ShellWritesReview::discarded(const ToolResult &commandResult,
                                        const QList<ShellWrite> &writes,
                                        const QString &why)
{
    QStringList items;
    for (const ShellWrite &write : writes)
        items.append(write.path + QStringLiteral(" (") + write.description() + QLatin1Char(')'));
    return withText(commandResult,
                    PermissionsTr::tr(
                        "The command ran on a copy of the repository and its changes were "
                        "discarded (%1); none reached the repository: %2.")
                        .arg(why, named(items)),
                    true);
}

} // namespace AgentCore
