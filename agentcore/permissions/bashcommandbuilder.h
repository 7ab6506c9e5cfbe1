#pragma once

#include "bashanalysis.h"

namespace AgentCore {

/// Collects the parts of one simple command as a parser meets them and produces the
/// SimpleCommand both parsers agree on (normalised text, which redirections write files).
/// A plain value; used by one parser on one thread.
class BashCommandBuilder final
{
public:
    /// `NAME=value` or `NAME+=value`; \a source is the whole assignment as written.
    void addAssignment(const QString &name,
                       const QString &op,
                       const QString &value,
                       const QString &source,
                       bool expands);
    /// \a value after quote removal, \a source as written.
    void addWord(const QString &value, const QString &source, bool expands);
    void addRedirection(const BashRedirection &redirection);
    /// Commands found inside the parts (`$( )`, backquotes), kept for after this one.
    void addNested(const QList<SimpleCommand> &commands);
    bool isEmpty() const;

    /// Appends the command, then its nested commands, to \a out.
    void finish(QList<SimpleCommand> &out);

    /// \a op with its file descriptor prefix ("2>", ">>", "2>&"); \a target after quote
    /// removal, or as written when it \a expands.
    static BashRedirection redirection(const QString &op, const QString &target, bool expands);
    /// Adds \a redirection to commands [first, last) of \a commands: the redirections of a
    /// `( )` or `{ }` group apply to every command inside.
    static void attach(QList<SimpleCommand> &commands,
                       qsizetype first,
                       qsizetype last,
                       const BashRedirection &redirection);
    /// The word as it appears in SimpleCommand::text.
    static QString quoteWord(const QString &word);
    /// \a skeleton is a word with every quoted or escaped character replaced by '_': true when
    /// what is left is a glob or a brace expansion.
    static bool hasPattern(QStringView skeleton);

private:
    SimpleCommand m_command;
    QStringList m_text;
    QList<SimpleCommand> m_nested;
};

} // namespace AgentCore
