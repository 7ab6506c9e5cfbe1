#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace AgentCore {

/// One problem a language server reports in a file, as AgentDesk keeps it: positions 1-based
/// (LSP's are 0-based, in UTF-16 units, which a QString's indexes are), the text capped. A
/// value type, made from the server's JSON, which is validated like any hostile input.
struct LspDiagnostic
{
    enum class Severity { Error = 1, Warning, Information, Hint };

    static constexpr qsizetype maxMessageChars = 1000;
    static constexpr qsizetype maxPerFile = 500; ///< kept of one publication

    int line = 0; ///< 1-based
    int column = 0;
    int endLine = 0;
    int endColumn = 0;
    Severity severity = Severity::Error;
    QString message;
    QString source; ///< "clang", "pyflakes", ...
    QString code;

    /// nullopt when \a json is not a diagnostic (no range or message).
    static std::optional<LspDiagnostic> fromJson(const QJsonObject &json);
    /// The diagnostics of a textDocument/publishDiagnostics notification's or a pull's list,
    /// at most maxPerFile.
    static QList<LspDiagnostic> listFromJson(const QJsonValue &json);

    QString severityName() const;
    /// "12:5 error: use of undeclared identifier 'x' [clang]"
    QString toText() const;
    /// The same problem, wherever it now is: an edit above it moves it without fixing it.
    bool isSameProblem(const LspDiagnostic &other) const;

    friend bool operator==(const LspDiagnostic &, const LspDiagnostic &) = default;
};

/// Those of \a after that are not in \a before (a multiset difference by isSameProblem): what
/// a change introduced.
QList<LspDiagnostic> introducedDiagnostics(const QList<LspDiagnostic> &before,
                                           const QList<LspDiagnostic> &after);

/// \a diagnostics one a line, errors first then by line, at most \a maxShown of them, and a
/// last line saying how many more there are.
QString diagnosticsText(QList<LspDiagnostic> diagnostics, qsizetype maxShown);

} // namespace AgentCore
