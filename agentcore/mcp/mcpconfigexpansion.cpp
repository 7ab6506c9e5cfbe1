#include "mcpconfigexpansion.h"
#include "translation.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QUrl>

namespace AgentCore {

namespace {

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
    texts += config.headers.values();
    return texts;
}

// Whether \a variable may not be expanded: a provider key's variable (by name, as the filter
// removes it from every command's environment whatever its patterns), or one whose value holds
// the value of such a variable (a copy under an innocent name). The reason, or empty.
QString providerKey(const QString &variable,
                    const QProcessEnvironment &environment,
                    const CommandEnvironment &filter)
{
    CommandEnvironment keysOnly = filter;
    keysOnly.setSecretPatterns({}); // GITHUB_TOKEN is the server's own: the user may name it
    keysOnly.setPassedPatterns({});
    const QString why = McpTr::tr("a model provider's key, which AgentDesk never gives to an MCP "
                                  "server (its arguments are visible to every user in ps, and a "
                                  "server is not the provider): give the server a key of its own");
    if (keysOnly.isSecretName(variable))
        return McpTr::tr("%1 is %2").arg(variable, why);
    const QString value = environment.value(variable);
    if (value.isEmpty())
        return {};
    for (const QString &name : environment.keys()) {
        if (name == variable || !keysOnly.isSecretName(name))
            continue;
        const QString key = environment.value(name);
        if (key.isEmpty())
            continue;
        const bool holds = key.size() >= CommandEnvironment::minimumSecretValueLength
                               ? value.contains(key)
                               : value == key;
        if (holds)
            return McpTr::tr("%1 holds the value of %2, %3").arg(variable, name, why);
    }
    return {};
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
                                   const CommandEnvironment &filter,
                                   QStringList *problems)
{
    QStringList found;
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
            else
                found.append(McpTr::tr("the secret \"%1\" is not in the keyring").arg(secret));
            continue;
        }
        const QString variable = match.captured(2);
        // Checked before the default is looked at: naming a key is the mistake, set or not.
        if (const QString why = providerKey(variable, environment, filter); !why.isEmpty())
            found.append(why);
        else if (environment.contains(variable))
            result += environment.value(variable);
        else if (match.capturedStart(3) >= 0)
            result += match.captured(3);
        else
            found.append(McpTr::tr("the variable %1 is not set").arg(variable));
    }
    result += text.mid(last);
    if (problems)
        *problems += found;
    return result;
}

McpServerConfig McpConfigExpansion::expand(const McpServerConfig &config,
                                           const QProcessEnvironment &environment,
                                           const QHash<QString, QString> &secrets,
                                           const CommandEnvironment &filter,
                                           QStringList *problems)
{
    QStringList found;
    const auto expanded = [&](const QString &text) {
        return expand(text, environment, secrets, filter, &found);
    };
    McpServerConfig result = config;
    result.command = expanded(config.command);
    result.url = expanded(config.url);
    for (QString &arg : result.args)
        arg = expanded(arg);
    for (auto it = result.env.begin(); it != result.env.end(); ++it)
        it.value() = expanded(it.value());
    for (auto it = result.headers.begin(); it != result.headers.end(); ++it) {
        it.value() = expanded(it.value());
        // A value is one line, as McpConfig checked the text: a variable cannot add a header.
        if (it.value().contains(QLatin1Char('\n')) || it.value().contains(QLatin1Char('\r')))
            found.append(McpTr::tr("the header %1 holds a line break once expanded").arg(it.key()));
    }
    if (result.url != config.url) {
        const QUrl url(result.url, QUrl::StrictMode);
        if (!url.isValid() || url.host().isEmpty()
            || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https")))
            found.append(McpTr::tr("the url is no http or https URL once expanded"));
    }
    found.removeDuplicates();
    if (problems)
        *problems += found;
    return result;
}

} // namespace AgentCore
