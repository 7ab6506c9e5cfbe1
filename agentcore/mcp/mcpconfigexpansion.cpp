#include "mcpconfigexpansion.h"

#include <QCoreApplication>
#include <QRegularExpression>

namespace AgentCore {

namespace {
struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(AgentCore::McpConfigExpansion)
};

const QRegularExpression &reference()
{
    // ${keyring:NAME}, ${VAR}, ${VAR:-default}
    static const QRegularExpression pattern(QStringLiteral(
        R"(\$\{(?:keyring:([A-Za-z0-9_.-]{1,64})|([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?)\})"));
    return pattern;
}

QStringList textsOf(const McpServerConfig &config)
{
    QStringList texts{config.command, config.url};
    texts += config.args;
    texts += config.env.values();
    return texts;
}
} // namespace

QStringList McpConfigExpansion::keyringNames(const McpServerConfig &config)
{
    QStringList names;
    for (const QString &text : textsOf(config)) {
        QRegularExpressionMatchIterator it = reference().globalMatch(text);
        while (it.hasNext()) {
            const QString name = it.next().captured(1);
            if (!name.isEmpty() && !names.contains(name))
                names.append(name);
        }
    }
    return names;
}

QString McpConfigExpansion::expand(const QString &text,
                                   const QProcessEnvironment &environment,
                                   const QHash<QString, QString> &secrets,
                                   QStringList *missing)
{
    QString result;
    qsizetype last = 0;
    QRegularExpressionMatchIterator it = reference().globalMatch(text);
    while (it.hasNext()) {
        const QRegularExpressionMatch match = it.next();
        result += text.mid(last, match.capturedStart() - last);
        last = match.capturedEnd();
        if (const QString secret = match.captured(1); !secret.isEmpty()) {
            if (secrets.contains(secret))
                result += secrets.value(secret);
            else if (missing)
                missing->append(Tr::tr("the secret \"%1\" is not in the keyring").arg(secret));
            continue;
        }
        const QString variable = match.captured(2);
        if (environment.contains(variable))
            result += environment.value(variable);
        else if (match.capturedStart(3) >= 0)
            result += match.captured(3);
        else if (missing)
            missing->append(Tr::tr("the variable %1 is not set").arg(variable));
    }
    result += text.mid(last);
    return result;
}

McpServerConfig McpConfigExpansion::expand(const McpServerConfig &config,
                                           const QProcessEnvironment &environment,
                                           const QHash<QString, QString> &secrets,
                                           QStringList *missing)
{
    QStringList problems;
    McpServerConfig expanded = config;
    expanded.command = expand(config.command, environment, secrets, &problems);
    expanded.url = expand(config.url, environment, secrets, &problems);
    for (QString &arg : expanded.args)
        arg = expand(arg, environment, secrets, &problems);
    for (auto it = expanded.env.begin(); it != expanded.env.end(); ++it)
        it.value() = expand(it.value(), environment, secrets, &problems);
    problems.removeDuplicates();
    if (missing)
        *missing += problems;
    return expanded;
}

} // namespace AgentCore
