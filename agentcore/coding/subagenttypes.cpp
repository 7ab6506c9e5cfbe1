#include "subagenttypes.h"

#include "frontmatter.h"
#include "translation.h"

#include <loop/toolkind.h>
#include <permissions/permissionsettings.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

#include <algorithm>

namespace AgentCore {

namespace {

bool isInsideFolder(const QString &path, const QString &top)
{
    return path == top || path.startsWith(top + u'/');
}

const QRegularExpression &typeNamePattern()
{
    static const QRegularExpression pattern(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"));
    return pattern;
}

bool isReadOnlyTool(const QString &name)
{
    const ToolKind kind = toolKind(name);
    return kind == ToolKind::Read || searchesFiles(kind);
}

// "Read, Grep" as Claude Code writes it; a flow list ([Read, Grep]) too.
QStringList toolNames(const QString &value)
{
    QString list = value.trimmed();
    if (list.startsWith(u'[') && list.endsWith(u']'))
        list = list.mid(1, list.size() - 2);
    QStringList names;
    for (const QString &part : list.split(u',', Qt::SkipEmptyParts)) {
        QString name = part.trimmed();
        if (name.size() >= 2 && (name.startsWith(u'"') || name.startsWith(u'\''))
            && name.endsWith(name.front()))
            name = name.mid(1, name.size() - 2);
        if (!name.isEmpty())
            names.append(name);
    }
    return names;
}

// One folder's *.md files (not its subfolders), sorted by file name.
void readAgentsFolder(const QString &folder,
                      const QString &top,
                      SubagentType::Scope scope,
                      SubagentTypes &into,
                      int &fromFiles)
{
    const QFileInfo info(folder);
    if (!info.isDir())
        return;
    const QString realFolder = info.canonicalFilePath();
    const QString realTop = QFileInfo(top).canonicalFilePath();
    if (realFolder.isEmpty() || realTop.isEmpty() || !isInsideFolder(realFolder, realTop))
        return;
    QStringList files = QDir(folder).entryList({QStringLiteral("*.md")},
                                               QDir::Files | QDir::Readable,
                                               QDir::Name);
    // A folder of thousands is not read to its end.
    if (files.size() > 4 * SubagentTypes::maxTypes)
        files = files.mid(0, 4 * SubagentTypes::maxTypes);
    for (const QString &fileName : std::as_const(files)) {
        const QString path = QDir(folder).filePath(fileName);
        if (fromFiles >= SubagentTypes::maxTypes) {
            into.warnings.append(CodingTr::tr("%1: skipped: more than %2 agent types")
                                     .arg(path)
                                     .arg(SubagentTypes::maxTypes));
            return;
        }
        const QString real = QFileInfo(path).canonicalFilePath();
        if (real.isEmpty() || !isInsideFolder(real, realTop)) {
            into.warnings.append(
                CodingTr::tr("%1: skipped: it leads out of its folder (a symbolic link)").arg(path));
            continue;
        }
        if (QFileInfo(real).size() > SubagentTypes::maxFileBytes) {
            into.warnings.append(CodingTr::tr("%1: skipped: larger than %2 KB")
                                     .arg(path)
                                     .arg(SubagentTypes::maxFileBytes / 1024));
            continue;
        }
        QFile file(real);
        if (!file.open(QIODevice::ReadOnly)) {
            into.warnings.append(
                CodingTr::tr("%1: skipped: it cannot be read: %2").arg(path, file.errorString()));
            continue;
        }
        const FrontMatter matter = FrontMatter::parse(QString::fromUtf8(
                                                          file.read(SubagentTypes::maxFileBytes)),
                                                      path);
        into.warnings += matter.errors;
        SubagentType type;
        type.path = path;
        type.scope = scope;
        type.name = matter.fields.value(QStringLiteral("name")).trimmed();
        if (type.name.isEmpty())
            type.name = fileName.chopped(3); // ".md"
        if (!typeNamePattern().match(type.name).hasMatch()) {
            into.warnings.append(CodingTr::tr("%1: skipped: an agent type's name takes up to 64 "
                                              "letters, digits, '.', '_' and '-'")
                                     .arg(path));
            continue;
        }
        if (into.find(type.name)) {
            if (SubagentTypes::builtIn().contains(*into.find(type.name)))
                into.warnings.append(CodingTr::tr("%1: skipped: \"%2\" is a built-in agent type")
                                         .arg(path, type.name));
            continue; // a folder before this one has it
        }
        type.description = matter.fields.value(QStringLiteral("description")).simplified();
        if (type.description.isEmpty()) {
            into.warnings.append(
                CodingTr::tr("%1: skipped: it has no description (the model chooses a type by "
                             "it)")
                    .arg(path));
            continue;
        }
        if (type.description.size() > SubagentTypes::maxDescriptionChars) {
            into.warnings.append(CodingTr::tr("%1: the description is longer than %2 characters: "
                                              "cut")
                                     .arg(path)
                                     .arg(SubagentTypes::maxDescriptionChars));
            type.description.truncate(SubagentTypes::maxDescriptionChars);
        }
        if (matter.fields.contains(QStringLiteral("tools")))
            type.tools = toolNames(matter.fields.value(QStringLiteral("tools")));
        type.model = matter.fields.value(QStringLiteral("model")).simplified();
        if (type.model.compare(u"inherit", Qt::CaseInsensitive) == 0)
            type.model.clear();
        type.systemPrompt = matter.body.trimmed();
        into.types.append(type);
        ++fromFiles;
    }
}

} // namespace

bool SubagentType::isReadOnly() const
{
    return tools && std::all_of(tools->cbegin(), tools->cend(), isReadOnlyTool);
}

bool SubagentType::offers(const QString &toolName) const
{
    if (!tools)
        return true;
    return std::any_of(tools->cbegin(), tools->cend(), [&toolName](const QString &name) {
        return name.compare(toolName, Qt::CaseInsensitive) == 0;
    });
}

QList<SubagentType> SubagentTypes::builtIn()
{
    SubagentType explore;
    explore.name = QStringLiteral("explore");
    explore.description = QStringLiteral(
        "Read-only search of the repository: finds files, code and facts and reports them "
        "with paths and line numbers. Cannot change anything. Use it for searches that would "
        "fill your context with files you do not need to keep.");
    explore.tools = QStringList{toolKindName(ToolKind::Read),
                                toolKindName(ToolKind::Grep),
                                toolKindName(ToolKind::Glob),
                                toolKindName(ToolKind::Ls)};
    explore.systemPrompt = QStringLiteral(
        "You are a read-only search agent. Search the repository with your tools to answer "
        "the task you are given, then reply with what you found: the answer first, then the "
        "relevant paths with line numbers and short excerpts. You cannot change files or run "
        "commands. Be thorough but brief: your final message is all the agent that started "
        "you receives.");
    SubagentType general;
    general.name = QStringLiteral("general");
    general.description = QStringLiteral(
        "A general-purpose agent with the same tools as you, for a self-contained task of "
        "several steps (research, or a change confined to a few files) whose details you do "
        "not need to keep in your context.");
    general.systemPrompt = QStringLiteral(
        "You are a coding agent doing one self-contained task for another agent. Do the task "
        "with your tools, then reply with a short account of what you did and found: the "
        "result first, then the files you changed or that matter, with paths. Your final "
        "message is all the agent that started you receives.");
    return {explore, general};
}

SubagentTypes SubagentTypes::discover(const QString &repositoryRoot, const QString &userFolder)
{
    SubagentTypes found;
    found.types = builtIn();
    int fromFiles = 0;
    if (!repositoryRoot.isEmpty()) {
        const QDir root(repositoryRoot);
        readAgentsFolder(root.filePath(QStringLiteral(".agentdesk/agents")),
                         repositoryRoot,
                         SubagentType::Scope::Project,
                         found,
                         fromFiles);
        readAgentsFolder(root.filePath(QStringLiteral(".claude/agents")),
                         repositoryRoot,
                         SubagentType::Scope::Project,
                         found,
                         fromFiles);
    }
    if (!userFolder.isEmpty())
        readAgentsFolder(userFolder, userFolder, SubagentType::Scope::User, found, fromFiles);
    std::stable_sort(found.types.begin() + builtIn().size(),
                     found.types.end(),
                     [](const SubagentType &a, const SubagentType &b) { return a.name < b.name; });
    return found;
}

QString SubagentTypes::userFolder()
{
    return QFileInfo(PermissionSettings::userSettingsPath()).absolutePath()
           + QStringLiteral("/agents");
}

const SubagentType *SubagentTypes::find(const QString &name) const
{
    for (const SubagentType &type : types) {
        if (type.name == name)
            return &type;
    }
    return nullptr;
}

QString SubagentTypes::listing() const
{
    QString text;
    for (const SubagentType &type : types)
        text += QStringLiteral("- %1: %2\n").arg(type.name, type.description);
    return text;
}

} // namespace AgentCore
