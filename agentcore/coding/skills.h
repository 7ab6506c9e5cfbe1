#pragma once

#include <loop/agenttypes.h>

#include <QList>
#include <QString>
#include <QStringList>

namespace AgentCore {

/// A skill: a folder with a SKILL.md whose front matter gives its `name` and `description`
/// and whose body holds instructions the model loads when a task matches the description
/// (the Skill tool), plus any other files it reads with Read. As Claude Code's and the
/// agents' `.agents/skills/` folders hold them. A plain value.
struct Skill
{
    QString name;        ///< front matter's, else the folder's name
    QString description; ///< what the system prompt shows
    QString body;        ///< the instructions, front matter removed
    QString folder;      ///< absolute, canonical
    bool user = false;   ///< from `~/.config/agentdesk/skills/`, not the repository

    friend bool operator==(const Skill &, const Skill &) = default;
};

/// The skills one session offers, with the problems met reading them.
struct Skills
{
    QList<Skill> skills; ///< sorted by name: the system prompt's part stays byte-identical
    QStringList warnings;

    /// At most this many skills (the rest are left out with a warning)...
    static constexpr int maxSkills = 50;
    /// ...each SKILL.md up to this size (a larger one is skipped with a warning)...
    static constexpr qint64 maxSkillFileBytes = 64 * 1024;
    /// ...its description up to this many characters (cut, with a warning; what the agents'
    /// skills specification allows)...
    static constexpr int maxDescriptionChars = 1024;
    /// ...and its name this long, lower-case letters, digits and '-'.
    static constexpr int maxNameChars = 64;

    /// The skills of \a repositoryRoot's `.agentdesk/skills/`, `.agents/skills/` and
    /// `.claude/skills/`, then of \a userFolder (`~/.config/agentdesk/skills`; empty: none):
    /// the first folder that has a name wins. A skill without a description is skipped; front
    /// matter errors are warnings naming the file and line. Reads files only; any thread.
    static Skills discover(const QString &repositoryRoot, const QString &userFolder);
    /// `~/.config/agentdesk/skills`.
    static QString userFolder();

    const Skill *find(const QString &name) const;
    /// The system prompt's part: the names and descriptions, how to load one. Empty without
    /// skills. Pure.
    QString promptSection() const;
    /// The user skills' folders (outside the repository): Read reads them without asking.
    QStringList userFolders() const;
};

/// The Skill tool: loads one skill's instructions by name. Read-only, parallel-safe; its
/// result names the skill, its description and its folder (details: "skill", "description",
/// "folder"), then the body.
class SkillTool final : public AgentTool
{
public:
    explicit SkillTool(Skills skills);

    ToolDefinition definition() const override;
    ToolResult execute(const ToolCallContext &context) override;

    static constexpr const char *toolName = "Skill";

private:
    Skills m_skills;
};

} // namespace AgentCore
