#include "shellwrite.h"
#include "translation.h"

#include <QCoreApplication>

namespace AgentCore {

namespace {

QString octal(uint mode)
{
    return QString::number(mode & 07777, 8);
}
} // namespace

ShellWrite::Kind ShellWrite::kind() const
{
    if (oldType == Type::None)
        return Kind::Added;
    if (newType == Type::None)
        return Kind::Deleted;
    if (oldType == newType && !contentChanged)
        return Kind::ModeChanged;
    return Kind::Modified;
}

QString ShellWrite::kindName(Kind kind)
{
    switch (kind) {
    case Kind::Added:
        return QStringLiteral("added");
    case Kind::Modified:
        return QStringLiteral("modified");
    case Kind::Deleted:
        return QStringLiteral("deleted");
    case Kind::ModeChanged:
        return QStringLiteral("mode");
    }
    return {};
}

QString ShellWrite::description() const
{
    const bool directory = newType == Type::Directory
                           || (newType == Type::None && oldType == Type::Directory);
    const bool link = newType == Type::Symlink
                      || (newType == Type::None && oldType == Type::Symlink);
    switch (kind()) {
    case Kind::Added:
        if (directory)
            return ToolsTr::tr("directory added");
        if (link)
            return ToolsTr::tr("symbolic link added (→ %1)").arg(QString::fromUtf8(newBytes));
        return ToolsTr::tr("added");
    case Kind::Deleted:
        if (directory)
            return ToolsTr::tr("directory removed");
        if (link)
            return ToolsTr::tr("symbolic link deleted");
        return ToolsTr::tr("deleted");
    case Kind::ModeChanged:
        return ToolsTr::tr("mode %1 → %2").arg(octal(oldMode), octal(newMode));
    case Kind::Modified:
        break;
    }
    if (oldType != newType)
        return newType == Type::Directory ? ToolsTr::tr("replaced by a directory")
               : newType == Type::Symlink ? ToolsTr::tr("replaced by a symbolic link (→ %1)")
                                                .arg(QString::fromUtf8(newBytes))
                                          : ToolsTr::tr("replaced by a file");
    if (link)
        return ToolsTr::tr("symbolic link changed (→ %1)").arg(QString::fromUtf8(newBytes));
    if (oldMode != newMode)
        return ToolsTr::tr("modified, mode %1 → %2").arg(octal(oldMode), octal(newMode));
    return ToolsTr::tr("modified");
}

} // namespace AgentCore
