#include "skills.h"

#include "frontmatter.h"
#include "translation.h"

#include <permissions/permissionsettings.h>
#include <tools/toolschema.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QRegularExpression>

#include <algorithm>

namespace AgentCore {

namespace {

bool isInside(const QString &path, const QString &top)
{
    return path == top || path.startsWith(top + u'/');
}

void readFolder(const QString &folder, const QString &top, bool user, Skills &into)
{
    const QString realFolder = QFileInfo(folder).canonicalFilePath();
    const QString realTop = QFileInfo(top).canonicalFilePath();
    if (realFolder.isEmpty() || realTop.isEmpty() || !isInside(realFolder, realTop)
        || !QFileInfo(realFolder).isDir())
        return;
    static const QRegularExpression namePattern(QStringLiteral("^[a-z0-9]+(-[a-z0-9]+)*$"));
    const QStringList entries = QDir(folder).entryList(QDir::Dirs | QDir::NoDotAndDotDot,
                                                       QDir::Name);
    for (const QString &entry : entries) {
        const QString path = QDir(folder).filePath(entry + QStringLiteral("/SKILL.md"));
        const QFileInfo info(path);
        if (!info.isFile())
            continue;
        const QString skillFolder = QFileInfo(QDir(folder).filePath(entry)).canonicalFilePath();
        const QString real = info.canonicalFilePath();
        if (real.isEmpty() || !isInside(real, realTop) || !isInside(skillFolder, realTop)) {
            into.warnings.append(
                CodingTr::tr("%1: skipped: it leads out of its folder (a symbolic link)").arg(path));
            continue;
        }
        if (info.size() > Skills::maxSkillFileBytes) {
            into.warnings.append(CodingTr::tr("%1: skipped: larger than %2 KB")
                                     .arg(path)
                                     .arg(Skills::maxSkillFileBytes / 1024));
            continue;
        }
        QFile file(real);
        if (!file.open(QIODevice::ReadOnly)) {
            into.warnings.append(
                CodingTr::tr("%1: skipped: it cannot be read: %2").arg(path, file.errorString()));
            continue;
        }
        const FrontMatter matter = FrontMatter::parse(QString::fromUtf8(
                                                          file.read(Skills::maxSkillFileBytes)),
                                                      path);
        into.warnings += matter.errors;
        Skill skill;
        skill.name = matter.fields.value(QStringLiteral("name"), entry).trimmed();
        skill.description = matter.fields.value(QStringLiteral("description")).simplified();
        skill.body = matter.body.trimmed();
        skill.folder = skillFolder;
        skill.user = user;
        if (skill.name.size() > Skills::maxNameChars || !namePattern.match(skill.name).hasMatch()) {
            into.warnings.append(CodingTr::tr("%1: skipped: the name \"%2\" is not up to %3 "
                                              "lower-case letters, digits and hyphens")
                                     .arg(path, skill.name.left(Skills::maxNameChars))
                                     .arg(Skills::maxNameChars));
            continue;
        }
        if (skill.description.isEmpty()) {
            into.warnings.append(CodingTr::tr("%1: skipped: it has no description, so the model "
                                              "could not know when it applies")
                                     .arg(path));
            continue;
        }
        if (skill.description.size() > Skills::maxDescriptionChars) {
            into.warnings.append(CodingTr::tr("%1: the description is longer than %2 characters: "
                                              "cut")
                                     .arg(path)
                                     .arg(Skills::maxDescriptionChars));
            skill.description.truncate(Skills::maxDescriptionChars);
        }
        if (into.find(skill.name))
            continue; // a folder before this one has it
        if (into.skills.size() >= Skills::maxSkills) {
            into.warnings.append(
                CodingTr::tr("%1: skipped: more than %2 skills").arg(path).arg(Skills::maxSkills));
            return;
        }
        into.skills.append(skill);
    }
}

} // namespace

Skills Skills::discover(const QString &repositoryRoot, const QString &userFolder)
{
    Skills found;
    if (!repositoryRoot.isEmpty()) {
        const QDir root(repositoryRoot);
        for (const char *folder : {".agentdesk/skills", ".agents/skills", ".claude/skills"})
            readFolder(root.filePath(QLatin1String(folder)), repositoryRoot, false, found);
    }
    if (!userFolder.isEmpty())
        readFolder(userFolder, userFolder, true, found);
    std::sort(found.skills.begin(), found.skills.end(), [](const Skill &a, const Skill &b) {
        return a.name < b.name;
    });
    return found;
}

QString Skills::userFolder()
{
    return QFileInfo(PermissionSettings::userSettingsPath()).absolutePath()
           + QStringLiteral("/skills");
}

const Skill *Skills::find(const QString &name) const
{
    for (const Skill &skill : skills) {
        if (skill.name == name)
            return &skill;
    }
    return nullptr;
}

QString Skills::promptSection() const
{
    if (skills.isEmpty())
        return {};
    // For the model, not translated (see systemprompt.cpp).
    QString section = QStringLiteral(
        "\n# Skills\n"
        "Skills are instructions for particular tasks, kept out of this prompt until needed. "
        "When the task matches a skill's description, call the Skill tool with its name before "
        "you start, and follow what it says; read the other files of its folder with Read "
        "when it refers to them.\n");
    for (const Skill &skill : skills)
        section += QStringLiteral("- %1: %2\n").arg(skill.name, skill.description);
    return section;
}

QStringList Skills::userFolders() const
{
    QStringList folders;
    for (const Skill &skill : skills) {
        if (skill.user)
            folders.append(skill.folder);
    }
    return folders;
}

SkillTool::SkillTool(Skills skills)
    : m_skills(std::move(skills))
{}

ToolDefinition SkillTool::definition() const
{
    QJsonArray names;
    for (const Skill &skill : m_skills.skills)
        names.append(skill.name);
    QJsonObject name = schemaProperty("string",
                                      QStringLiteral("The skill's name, as the system prompt "
                                                     "lists it."));
    name.insert(QStringLiteral("enum"), names);
    return {
        QLatin1String(toolName),
        QStringLiteral("Loads a skill's instructions (the skills are listed in the system "
                       "prompt). Call it when the task matches a skill's description."),
        QJsonObject{
            {QStringLiteral("type"), QStringLiteral("object")},
            {QStringLiteral("properties"), QJsonObject{{QStringLiteral("name"), name}}},
            {QStringLiteral("required"), QJsonArray{QStringLiteral("name")}},
            {QStringLiteral("additionalProperties"), false},
        },
    };
}

ToolResult SkillTool::execute(const ToolCallContext &context)
{
    const QString name = context.arguments.value(QLatin1String("name")).toString();
    const Skill *skill = m_skills.find(name);
    if (!skill)
        return ToolResult::makeError(QStringLiteral("No skill is called \"%1\".").arg(name));
    ToolDetails details;
    details.other = {{QStringLiteral("skill"), skill->name},
                     {QStringLiteral("description"), skill->description},
                     {QStringLiteral("folder"), skill->folder}};
    const QString text = QStringLiteral("Skill \"%1\": %2\nIts folder: %3 (read its other files "
                                        "with Read)\n\n%4")
                             .arg(skill->name, skill->description, skill->folder, skill->body);
    return ToolResult::makeText(text, details);
}

} // namespace AgentCore
