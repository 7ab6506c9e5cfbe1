#include "customcommand.h"

#include "frontmatter.h"
#include "translation.h"

#include <permissions/permissionsettings.h>

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

#include <algorithm>

namespace AgentCore {

namespace {

bool isInside(const QString &path, const QString &top)
{
    return path == top || path.startsWith(top + u'/');
}

const QRegularExpression &segmentPattern()
{
    static const QRegularExpression pattern(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9_.-]*$"));
    return pattern;
}

// The commands of one folder, sorted by name (a stable order for the list and the tests).
void readFolder(const QString &folder,
                const QString &top,
                CustomCommand::Scope scope,
                CustomCommands &into)
{
    const QFileInfo info(folder);
    if (!info.isDir())
        return;
    const QString realFolder = info.canonicalFilePath();
    const QString realTop = QFileInfo(top).canonicalFilePath();
    if (realFolder.isEmpty() || realTop.isEmpty() || !isInside(realFolder, realTop))
        return;
    QStringList files;
    QDirIterator it(folder,
                    {QStringLiteral("*.md")},
                    QDir::Files | QDir::Readable,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QString relative = QDir(folder).relativeFilePath(path);
        if (relative.count(u'/') > CustomCommands::maxDepth)
            continue;
        files.append(path);
        if (files.size() > 4 * CustomCommands::maxCommands)
            break; // a folder of thousands is not read to its end
    }
    files.sort();
    for (const QString &path : std::as_const(files)) {
        QString relative = QDir(folder).relativeFilePath(path);
        relative.chop(3); // ".md"
        const QStringList segments = relative.split(u'/');
        const bool valid = std::all_of(segments.cbegin(), segments.cend(), [](const QString &s) {
            return segmentPattern().match(s).hasMatch();
        });
        if (!valid) {
            into.warnings.append(CodingTr::tr("%1: skipped: a command's file and folder names "
                                              "take letters, digits, '.', '_' and '-' only")
                                     .arg(path));
            continue;
        }
        const QString name = segments.join(u':');
        if (into.find(name))
            continue; // a folder before this one has it
        if (into.commands.size() >= CustomCommands::maxCommands) {
            into.warnings.append(CodingTr::tr("%1: skipped: more than %2 custom commands")
                                     .arg(path)
                                     .arg(CustomCommands::maxCommands));
            return;
        }
        const QString real = QFileInfo(path).canonicalFilePath();
        if (real.isEmpty() || !isInside(real, realTop)) {
            into.warnings.append(
                CodingTr::tr("%1: skipped: it leads out of its folder (a symbolic link)").arg(path));
            continue;
        }
        QFile file(real);
        if (QFileInfo(real).size() > CustomCommands::maxFileBytes) {
            into.warnings.append(CodingTr::tr("%1: skipped: larger than %2 KB")
                                     .arg(path)
                                     .arg(CustomCommands::maxFileBytes / 1024));
            continue;
        }
        if (!file.open(QIODevice::ReadOnly)) {
            into.warnings.append(
                CodingTr::tr("%1: skipped: it cannot be read: %2").arg(path, file.errorString()));
            continue;
        }
        const FrontMatter matter = FrontMatter::parse(QString::fromUtf8(
                                                          file.read(CustomCommands::maxFileBytes)),
                                                      path);
        into.warnings += matter.errors;
        CustomCommand command;
        command.name = name;
        command.path = path;
        command.scope = scope;
        command.body = matter.body.trimmed();
        command.description = matter.fields.value(QStringLiteral("description")).simplified();
        if (command.description.size() > CustomCommands::maxDescriptionChars) {
            into.warnings.append(CodingTr::tr("%1: the description is longer than %2 characters: "
                                              "cut")
                                     .arg(path)
                                     .arg(CustomCommands::maxDescriptionChars));
            command.description.truncate(CustomCommands::maxDescriptionChars);
        }
        command.argumentHint = matter.fields.value(QStringLiteral("argument-hint"))
                                   .simplified()
                                   .left(CustomCommands::maxDescriptionChars);
        command.allowedTools = FrontMatter::listOf(
            matter.fields.value(QStringLiteral("allowed-tools")));
        command.model = matter.fields.value(QStringLiteral("model")).simplified();
        into.commands.append(command);
    }
}

} // namespace

CustomCommands CustomCommands::discover(const QString &repositoryRoot, const QString &userFolder)
{
    CustomCommands found;
    if (!repositoryRoot.isEmpty()) {
        const QDir root(repositoryRoot);
        readFolder(root.filePath(QStringLiteral(".agentdesk/commands")),
                   repositoryRoot,
                   CustomCommand::Scope::Project,
                   found);
        readFolder(root.filePath(QStringLiteral(".claude/commands")),
                   repositoryRoot,
                   CustomCommand::Scope::Project,
                   found);
    }
    if (!userFolder.isEmpty())
        readFolder(userFolder, userFolder, CustomCommand::Scope::User, found);
    std::stable_sort(found.commands.begin(),
                     found.commands.end(),
                     [](const CustomCommand &a, const CustomCommand &b) { return a.name < b.name; });
    return found;
}

QString CustomCommands::userFolder()
{
    return QFileInfo(PermissionSettings::userSettingsPath()).absolutePath()
           + QStringLiteral("/commands");
}

const CustomCommand *CustomCommands::find(const QString &name) const
{
    for (const CustomCommand &command : commands) {
        if (command.name == name)
            return &command;
    }
    return nullptr;
}

std::optional<CustomCommandInvocation> CustomCommandInvocation::parse(const QString &text)
{
    const QString trimmed = text.trimmed();
    if (!trimmed.startsWith(u'/') || trimmed.size() < 2 || trimmed.at(1).isSpace())
        return std::nullopt;
    qsizetype end = 1;
    while (end < trimmed.size() && !trimmed.at(end).isSpace())
        ++end;
    CustomCommandInvocation invocation;
    invocation.name = trimmed.mid(1, end - 1);
    invocation.arguments = trimmed.mid(end).trimmed();
    return invocation;
}

QStringList CustomCommandInvocation::positional() const
{
    QStringList words;
    QString current;
    bool inWord = false;
    QChar quote;
    for (const QChar c : arguments) {
        if (!quote.isNull()) {
            if (c == quote)
                quote = QChar();
            else
                current += c;
            continue;
        }
        if (c == u'"' || c == u'\'') {
            quote = c;
            inWord = true;
            continue;
        }
        if (c.isSpace()) {
            if (inWord)
                words.append(current);
            current.clear();
            inWord = false;
            continue;
        }
        current += c;
        inWord = true;
    }
    if (inWord)
        words.append(current);
    return words;
}

QString substituteArguments(const QString &body, const CustomCommandInvocation &invocation)
{
    static const QRegularExpression placeholder(QStringLiteral("\\$(ARGUMENTS|[1-9])"));
    const QStringList words = invocation.positional();
    QString result;
    qsizetype last = 0;
    bool used = false;
    QRegularExpressionMatchIterator it = placeholder.globalMatch(body);
    while (it.hasNext()) {
        const QRegularExpressionMatch match = it.next();
        result += body.mid(last, match.capturedStart() - last);
        const QString key = match.captured(1);
        if (key == QLatin1String("ARGUMENTS")) {
            result += invocation.arguments;
        } else {
            const int index = key.toInt() - 1;
            result += index < words.size() ? words.at(index) : QString();
        }
        last = match.capturedEnd();
        used = true;
    }
    result += body.mid(last);
    if (!used && !invocation.arguments.isEmpty())
        result += QStringLiteral("\n\nARGUMENTS: ") + invocation.arguments;
    return result;
}

} // namespace AgentCore
