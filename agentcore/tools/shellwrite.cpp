#include "shellwrite.h"

#include <QCoreApplication>

namespace AgentCore {

namespace {
struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(AgentCore::ShellWrite)
};

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

QString ShellWrite::description() const
{
    const bool directory = newType == Type::Directory
                           || (newType == Type::None && oldType == Type::Directory);
    const bool link = newType == Type::Symlink
                      || (newType == Type::None && oldType == Type::Symlink);
    switch (kind()) {
    case Kind::Added:
        if (directory)
            return Tr::tr("directory added");
        if (link)
            return Tr::tr("symbolic link added (→ %1)").arg(QString::fromUtf8(newBytes));
        return Tr::tr("added");
    case Kind::Deleted:
        if (directory)
            return Tr::tr("directory removed");
        if (link)
            return Tr::tr("symbolic link deleted");
        return Tr::tr("deleted");
    case Kind::ModeChanged:
        return Tr::tr("mode %1 → %2").arg(octal(oldMode), octal(newMode));
    case Kind::Modified:
        break;
    }
    if (oldType != newType)
        return newType == Type::Directory ? Tr::tr("replaced by a directory")
               : newType == Type::Symlink
                   ? Tr::tr("replaced by a symbolic link (→ %1)").arg(QString::fromUtf8(newBytes))
                   : Tr::tr("replaced by a file");
    if (link)
        return Tr::tr("symbolic link changed (→ %1)").arg(QString::fromUtf8(newBytes));
    if (oldMode != newMode)
        return Tr::tr("modified, mode %1 → %2").arg(octal(oldMode), octal(newMode));
    return Tr::tr("modified");
}

} // namespace AgentCore
