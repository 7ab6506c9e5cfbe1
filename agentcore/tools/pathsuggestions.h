#pragma once

#include <QString>
#include <QStringList>

namespace AgentCore {

struct ResolvedPath;

/// "Did you mean" for a path that does not exist: names in the nearest existing directory
/// that look like the requested one, and files with a similar name elsewhere in the
/// repository (not ignored ones). Stateless; thread-safe.
class PathSuggestions final
{
public:
    /// At most \a count paths, best first, named as the tools name files (relative to \a root
    /// when inside it).
    static QStringList find(const QString &root, const ResolvedPath &missing, int count = 5);
    /// \a headline ("File not found: x"), followed by a "Similar paths: ..." line when find()
    /// has any, as the tools report a missing path to the model.
    static QString notFoundMessage(const QString &root,
                                   const ResolvedPath &missing,
                                   const QString &headline);
    /// Levenshtein distance, case-insensitive.
    static int distance(QStringView a, QStringView b);
};

} // namespace AgentCore
