#pragma once

#include <QJsonObject>
#include <QList>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <optional>

namespace AgentCore {

/// One language server AgentDesk may start: its command and the files it is for. A value type.
struct LspServerConfig
{
    QString name;    ///< as the user and the model read it: "clangd", "pylsp"
    QString command; ///< the program (a name looked up on PATH, or a path)
    QStringList args;
    QStringList suffixes; ///< file name suffixes it is for, lower case, without the dot

    bool isValid() const { return !name.isEmpty() && !command.isEmpty() && !suffixes.isEmpty(); }
    bool handles(const QString &path) const;

    /// As the settings keep it: {"name", "command", "args": [...], "suffixes": [...]}.
    QJsonObject toJson() const;
    /// nullopt when \a json is not a valid server (a name and a command of at most 200
    /// characters, at most 50 arguments of 1,000, suffixes of letters, digits, '+' and '_').
    static std::optional<LspServerConfig> fromJson(const QJsonObject &json);

    /// This server as it runs on the repository at \a root: clangd looks for
    /// compile_commands.json only in the file's folders and their build/ folder, so a CMake
    /// build in build/<preset>/ (the newest of them) is named to it with
    /// --compile-commands-dir, unless its arguments name one already. Reads folder listings.
    LspServerConfig forRepository(const QString &root) const;

    friend bool operator==(const LspServerConfig &, const LspServerConfig &) = default;

    /// The servers AgentDesk knows, in the order it prefers them for a language: clangd (C and
    /// C++, with the repository's compile_commands.json), pylsp then pyright (Python),
    /// typescript-language-server (TypeScript, JavaScript), rust-analyzer, gopls.
    static QList<LspServerConfig> defaults();
    /// Of \a configs, those whose command is found (on \a environment's PATH): the first of
    /// each suffix wins, so a later server for a language already served is left out.
    static QList<LspServerConfig> available(const QList<LspServerConfig> &configs,
                                            const QProcessEnvironment &environment);
    /// The LSP language identifier of \a path ("cpp", "python", ...).
    static QString languageId(const QString &path);
};

} // namespace AgentCore
