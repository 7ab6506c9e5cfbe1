#pragma once

#include <QProcessEnvironment>
#include <QStringList>

namespace AgentCore {

/// The environment a Bash command runs in: AgentDesk's own, so the command sees what the
/// user's terminal sees (PATH, HOME, LANG, SSH_AUTH_SOCK, DISPLAY, ...), minus its secrets.
/// Removed are:
/// - the provider key variables AgentDesk reads (apiKeyVariables()) and the names added
///   with addSecretNames() (the run's --api-key-env variable);
/// - every variable whose name matches a secret pattern (defaultSecretPatterns() unless
///   replaced), unless it matches a passed pattern (setPassedPatterns(): the user's escape);
/// - every variable whose value contains a secret value: the run's key (addSecretValues())
///   or the value of a variable removed above, so a copy under an innocent name goes too.
/// Patterns are whole-name wildcards (* and ?), case-insensitive. The run's own key is
/// removed even when passed: by its name when added with addSecretNames(), always by value.
/// A value type; not thread-safe (ToolWorkspace guards its copy).
class CommandEnvironment final
{
public:
    /// Names that hold secrets by convention: *_API_KEY, *TOKEN, *SECRET*, *PASSWORD*, ...
    static QStringList defaultSecretPatterns();
    /// Secret values shorter than this only match equal values, not inside longer ones (a local
    /// server's key "x" must not remove every variable with an x).
    static constexpr qsizetype minimumSecretValueLength = 8;

    QStringList secretPatterns() const { return m_secretPatterns; }
    void setSecretPatterns(const QStringList &patterns) { m_secretPatterns = patterns; }
    QStringList passedPatterns() const { return m_passedPatterns; }
    void setPassedPatterns(const QStringList &patterns) { m_passedPatterns = patterns; }
    void addSecretNames(const QStringList &names);
    void addSecretValues(const QStringList &values);

    /// True when a variable called \a name is removed whatever its value.
    bool isSecretName(const QString &name) const;

    /// \a environment without the secrets; \a removed (optional) receives the removed names,
    /// sorted (names only: they are no secret).
    QProcessEnvironment apply(const QProcessEnvironment &environment,
                              QStringList *removed = nullptr) const;

private:
    QStringList m_secretPatterns = defaultSecretPatterns();
    QStringList m_passedPatterns;
    QStringList m_secretNames; ///< removed even when passed
    QStringList m_secretValues;
};

} // namespace AgentCore
