#include "toolkind.h"

#include <array>
#include <utility>

namespace AgentCore {

namespace {
constexpr std::array toolKindNames{
    std::pair{ToolKind::Bash, "Bash"},
    std::pair{ToolKind::Read, "Read"},
    std::pair{ToolKind::Write, "Write"},
    std::pair{ToolKind::Edit, "Edit"},
    std::pair{ToolKind::Glob, "Glob"},
    std::pair{ToolKind::Grep, "Grep"},
    std::pair{ToolKind::Ls, "LS"},
    std::pair{ToolKind::BashOutput, "BashOutput"},
    std::pair{ToolKind::KillShell, "KillShell"},
};
} // namespace

QString toolKindName(ToolKind kind)
{
    for (const auto &[value, name] : toolKindNames) {
        if (value == kind)
            return QString::fromLatin1(name);
    }
    return {};
}

ToolKind toolKind(QStringView name)
{
    for (const auto &[value, text] : toolKindNames) {
        if (name == QLatin1String(text))
            return value;
    }
    return ToolKind::Other;
}

} // namespace AgentCore
