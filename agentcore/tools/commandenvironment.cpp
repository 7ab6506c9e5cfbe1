#include "commandenvironment.h"

#include <ai/providerconfig.h>

#include <algorithm>

namespace AgentCore {

namespace {

// Whole-name wildcards: * any run of characters, ? one character, case-insensitive. By hand
// rather than with QRegularExpression (Qt 6.4's wildcard conversion is for file paths): every
// Bash command tests each variable against every pattern, and compiling a regular expression
// per test cost ~13 us each, 6-10 ms per command with a desktop's 60-100 variables.
bool matchesWildcard(QStringView name, QStringView pattern)
{
    const auto same = [](QChar a, QChar b) {
        return a == b || a.toCaseFolded() == b.toCaseFolded();
    };
    qsizetype n = 0, p = 0;
    qsizetype star = -1, resume = 0; // the last * seen and where its run would end next
    while (n < name.size()) {
        if (p < pattern.size() && pattern[p] == QLatin1Char('*')) {
            star = p++;
            resume = n;
        } else if (p < pattern.size()
                   && (pattern[p] == QLatin1Char('?') || same(pattern[p], name[n]))) {
            ++p;
            ++n;
        } else if (star >= 0) { // let the last * take one more character
            p = star + 1;
            n = ++resume;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == QLatin1Char('*'))
        ++p;
    return p == pattern.size();
}

bool matchesAny(const QString &name, const QStringList &patterns)
{
    return std::any_of(patterns.cbegin(), patterns.cend(), [&name](const QString &pattern) {
        return matchesWildcard(name, pattern);
    });
}

} // namespace

QStringList CommandEnvironment::defaultSecretPatterns()
{
    // Whole names, so SSH_AUTH_SOCK, XDG_SESSION_TYPE or DBUS_SESSION_BUS_ADDRESS stay.
    return {
        QStringLiteral("*_KEY"),         // OPENAI_API_KEY, API_KEY, STRIPE_KEY
        QStringLiteral("*APIKEY*"),      // GOOGLE_APIKEY
        QStringLiteral("*ACCESS_KEY*"),  // AWS_SECRET_ACCESS_KEY, AWS_ACCESS_KEY_ID
        QStringLiteral("*PRIVATE_KEY*"), // SIGNING_PRIVATE_KEY_PEM
        QStringLiteral("*TOKEN"),        // GITHUB_TOKEN, GH_TOKEN, HF_TOKEN, AWS_SESSION_TOKEN
        QStringLiteral("*_TOKEN_*"),     // SLACK_TOKEN_XOXB
        QStringLiteral("*SECRET*"),      // CLIENT_SECRET, SECRET_KEY_BASE
        QStringLiteral("*PASSWORD*"),    // PGPASSWORD, DB_PASSWORD_PROD
        QStringLiteral("*PASSWD*"),      // SMTP_PASSWD
        QStringLiteral("*PASSPHRASE*"),  // GPG_PASSPHRASE
        QStringLiteral("*_AUTH"),        // NPM_CONFIG__AUTH, BASIC_AUTH
        QStringLiteral("*CREDENTIALS"),  // DOCKER_CREDENTIALS (not *_CREDENTIALS_FILE paths)
    };
}

void CommandEnvironment::addSecretNames(const QStringList &names)
{
    for (const QString &name : names) {
        if (!name.isEmpty() && !m_secretNames.contains(name))
            m_secretNames.append(name);
    }
}

void CommandEnvironment::addSecretValues(const QStringList &values)
{
    for (const QString &value : values) {
        if (!value.isEmpty() && !m_secretValues.contains(value))
            m_secretValues.append(value);
    }
}

bool CommandEnvironment::isSecretName(const QString &name) const
{
    if (m_secretNames.contains(name))
        return true;
    if (matchesAny(name, m_passedPatterns))
        return false;
    return apiKeyVariables().contains(name) || matchesAny(name, m_secretPatterns);
}

QProcessEnvironment CommandEnvironment::apply(const QProcessEnvironment &environment,
                                              QStringList *removed) const
{
    QProcessEnvironment result = environment;
    QStringList gone;
    QStringList values = m_secretValues;
    const QStringList names = environment.keys();
    for (const QString &name : names) {
        if (!isSecretName(name))
            continue;
        result.remove(name);
        gone.append(name);
        values.append(environment.value(name));
    }
    // The same secret under a name that does not look like one (OPENAI_KEY_COPY=$OPENAI_API_KEY,
    // a URL with the key in it) is still the secret.
    values.removeAll(QString());
    const auto holdsSecret = [&values](const QString &value) {
        return std::any_of(values.cbegin(), values.cend(), [&value](const QString &secret) {
            return value == secret
                   || (secret.size() >= minimumSecretValueLength && value.contains(secret));
        });
    };
    const QStringList kept = result.keys();
    for (const QString &name : kept) {
        if (holdsSecret(result.value(name))) {
            result.remove(name);
            gone.append(name);
        }
    }
    if (removed) {
        gone.sort();
        *removed = gone;
    }
    return result;
}

} // namespace AgentCore
