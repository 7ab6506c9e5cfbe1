#include "bashwrappers.h"
#include "translation.h"

#include <QCoreApplication>
#include <QHash>
#include <QRegularExpression>

namespace AgentCore {

namespace {

struct WrapperSpec
{
    QStringList optionsWithValue;
    int operandsBeforeCommand = 0; // timeout's duration, chroot's new root
    bool skipsAssignments = false; // env NAME=value
    bool argumentsFromInput = false;
};

const QHash<QString, WrapperSpec> &wrapperSpecs()
{
    static const QHash<QString, WrapperSpec> specs{
        {QStringLiteral("sudo"),
         {{QStringLiteral("-u"),
           QStringLiteral("-g"),
           QStringLiteral("-C"),
           QStringLiteral("-D"),
           QStringLiteral("-h"),
           QStringLiteral("-p"),
           QStringLiteral("-r"),
           QStringLiteral("-t"),
           QStringLiteral("-T"),
           QStringLiteral("-U"),
           QStringLiteral("--user"),
           QStringLiteral("--group"),
           QStringLiteral("--chdir"),
           QStringLiteral("--host"),
           QStringLiteral("--prompt"),
           QStringLiteral("--role"),
           QStringLiteral("--type"),
           QStringLiteral("--close-from"),
           QStringLiteral("--command-timeout"),
           QStringLiteral("--other-user")}}},
        {QStringLiteral("doas"), {{QStringLiteral("-u"), QStringLiteral("-C")}}},
        {QStringLiteral("pkexec"), {{QStringLiteral("--user")}}},
        {QStringLiteral("run0"),
         {{QStringLiteral("-u"),
           QStringLiteral("--user"),
           QStringLiteral("-g"),
           QStringLiteral("--group"),
           QStringLiteral("-D"),
           QStringLiteral("--chdir")}}},
        {QStringLiteral("env"),
         {{QStringLiteral("-u"),
           QStringLiteral("--unset"),
           QStringLiteral("-C"),
           QStringLiteral("--chdir")},
          0,
          true}},
        {QStringLiteral("nice"), {{QStringLiteral("-n"), QStringLiteral("--adjustment")}}},
        {QStringLiteral("nohup"), {}},
        {QStringLiteral("timeout"),
         {{QStringLiteral("-s"),
           QStringLiteral("--signal"),
           QStringLiteral("-k"),
           QStringLiteral("--kill-after")},
          1}},
        {QStringLiteral("stdbuf"),
         {{QStringLiteral("-i"),
           QStringLiteral("-o"),
           QStringLiteral("-e"),
           QStringLiteral("--input"),
           QStringLiteral("--output"),
           QStringLiteral("--error")}}},
        {QStringLiteral("ionice"),
         {{QStringLiteral("-c"),
           QStringLiteral("-n"),
           QStringLiteral("--class"),
           QStringLiteral("--classdata")}}},
        {QStringLiteral("xargs"),
         {{QStringLiteral("-a"),
           QStringLiteral("-d"),
           QStringLiteral("-E"),
           QStringLiteral("-I"),
           QStringLiteral("-L"),
           QStringLiteral("-n"),
           QStringLiteral("-P"),
           QStringLiteral("-s"),
           QStringLiteral("--arg-file"),
           QStringLiteral("--delimiter"),
           QStringLiteral("--eof"),
           QStringLiteral("--replace"),
           QStringLiteral("--max-lines"),
           QStringLiteral("--max-args"),
           QStringLiteral("--max-procs"),
           QStringLiteral("--max-chars"),
           QStringLiteral("--process-slot-var")},
          0,
          false,
          true}},
        {QStringLiteral("time"),
         {{QStringLiteral("-f"),
           QStringLiteral("-o"),
           QStringLiteral("--format"),
           QStringLiteral("--output")}}},
        {QStringLiteral("command"), {}},
        {QStringLiteral("builtin"), {}},
        {QStringLiteral("exec"), {{QStringLiteral("-a")}}},
        {QStringLiteral("chroot"), {{QStringLiteral("--userspec"), QStringLiteral("--groups")}, 1}},
    };
    return specs;
}

bool isShell(const QString &program)
{
    static const QStringList shells{QStringLiteral("sh"),
                                    QStringLiteral("bash"),
                                    QStringLiteral("dash"),
                                    QStringLiteral("zsh"),
                                    QStringLiteral("ksh"),
                                    QStringLiteral("mksh"),
                                    QStringLiteral("ash"),
                                    QStringLiteral("fish"),
                                    QStringLiteral("csh"),
                                    QStringLiteral("tcsh")};
    return shells.contains(program);
}

// `bash -c '...'`, `bash -s`, `bash` reading a pipe: the code is a string we never see parsed.
QString shellInvocation(const QStringList &words)
{
    for (qsizetype i = 1; i < words.size(); ++i) {
        const QString &word = words.at(i);
        if (word == QLatin1String("--"))
            return i + 1 < words.size()
                       ? QString()
                       : PermissionsTr::tr("%1 reads its commands from its input").arg(words.first());
        if (word == QLatin1String("--rcfile") || word == QLatin1String("--init-file")
            || word == QLatin1String("-o") || word == QLatin1String("+o")
            || word == QLatin1String("-O") || word == QLatin1String("+O")) {
            ++i;
            continue;
        }
        if (word.startsWith(QLatin1String("--")))
            continue;
        if (word.size() > 1
            && (word.startsWith(QLatin1Char('-')) || word.startsWith(QLatin1Char('+')))) {
            if (word.contains(QLatin1Char('c')))
                return PermissionsTr::tr("%1 -c runs a string as shell code").arg(words.first());
            if (word.contains(QLatin1Char('s')))
                return PermissionsTr::tr("%1 reads its commands from its input").arg(words.first());
            continue;
        }
        return {}; // a script file: an unknown program like any other
    }
    return PermissionsTr::tr("%1 reads its commands from its input").arg(words.first());
}

} // namespace

QString BashWrappers::programName(const QString &word)
{
    return word.mid(word.lastIndexOf(QLatin1Char('/')) + 1);
}

std::optional<WrappedCommand> BashWrappers::unwrap(const QStringList &words,
                                                   const QList<bool> &expands)
{
    if (words.isEmpty())
        return std::nullopt;
    const QString program = programName(words.first());
    const auto spec = wrapperSpecs().constFind(program);
    if (spec == wrapperSpecs().constEnd())
        return std::nullopt;
    static const QRegularExpression assignment(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*="));
    qsizetype i = 1;
    for (; i < words.size(); ++i) {
        const QString &word = words.at(i);
        if (word == QLatin1String("--") && !expands.value(i)) {
            ++i;
            break;
        }
        if (word.size() > 1 && word.startsWith(QLatin1Char('-')) && !expands.value(i)) {
            if (program == QLatin1String("command")
                && (word.contains(QLatin1Char('v')) || word.contains(QLatin1Char('V'))))
                return std::nullopt; // command -v only looks programs up
            if (spec->optionsWithValue.contains(word))
                ++i;
            continue;
        }
        if (spec->skipsAssignments && assignment.match(word).hasMatch())
            continue;
        break;
    }
    i += spec->operandsBeforeCommand;
    if (i >= words.size()) {
        if (!spec->argumentsFromInput)
            return std::nullopt;
        return WrappedCommand{{QStringLiteral("echo")}, {false}, true}; // xargs alone echoes
    }
    return WrappedCommand{words.mid(i), expands.mid(i), spec->argumentsFromInput};
}

QList<WrappedCommand> BashWrappers::findActions(const QStringList &words, const QList<bool> &expands)
{
    static const QStringList actions{QStringLiteral("-exec"),
                                     QStringLiteral("-execdir"),
                                     QStringLiteral("-ok"),
                                     QStringLiteral("-okdir")};
    QList<WrappedCommand> commands;
    for (qsizetype i = 1; i < words.size(); ++i) {
        if (!actions.contains(words.at(i)))
            continue;
        WrappedCommand command;
        for (++i; i < words.size(); ++i) {
            if (words.at(i) == QLatin1String(";") || words.at(i) == QLatin1String("+"))
                break;
            command.words.append(words.at(i));
            command.expands.append(expands.value(i));
        }
        if (!command.words.isEmpty())
            commands.append(command);
    }
    return commands;
}

QString BashWrappers::runsShellCode(const QStringList &words)
{
    if (words.isEmpty())
        return {};
    const QString program = programName(words.first());
    if (program == QLatin1String("eval"))
        return PermissionsTr::tr("eval runs a string as shell code");
    if (program == QLatin1String("trap") && words.size() > 2)
        return PermissionsTr::tr("trap runs a string as shell code");
    if (program == QLatin1String("alias") && words.size() > 1)
        return PermissionsTr::tr("alias changes what later commands run");
    if (program == QLatin1String("watch"))
        return PermissionsTr::tr("watch runs a string as shell code");
    if (isShell(program))
        return shellInvocation(words);
    const auto hasAny = [&words](const QStringList &options) {
        for (qsizetype i = 1; i < words.size(); ++i) {
            for (const QString &option : options) {
                if (words.at(i) == option || words.at(i).startsWith(option + QLatin1Char('=')))
                    return true;
            }
        }
        return false;
    };
    if (program == QLatin1String("su")
        && hasAny({QStringLiteral("-c"), QStringLiteral("--command")}))
        return PermissionsTr::tr("su -c runs a string as shell code");
    if (program == QLatin1String("env")
        && hasAny({QStringLiteral("-S"), QStringLiteral("--split-string")}))
        return PermissionsTr::tr("env -S runs a string as a command");
    if ((program == QLatin1String("script") || program == QLatin1String("flock"))
        && hasAny({QStringLiteral("-c"), QStringLiteral("--command")}))
        return PermissionsTr::tr("%1 -c runs a string as shell code").arg(program);
    return {};
}

} // namespace AgentCore
