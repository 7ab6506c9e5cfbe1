#include "shfmtparser.h"
#include "translation.h"

#include "bashcommandbuilder.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>

#include <algorithm>
#include <utility>

namespace AgentCore {

namespace {

struct Word
{
    QString value;
    QString source;
    QString skeleton; // see BashCommandBuilder::hasPattern
    bool expands = false;
    QList<SimpleCommand> nested;
};

using NestedGroups = QList<std::pair<qint64, QList<SimpleCommand>>>;

QString unescapeUnquoted(const QString &raw)
{
    QString value;
    for (qsizetype i = 0; i < raw.size(); ++i) {
        if (raw.at(i) == QLatin1Char('\\') && i + 1 < raw.size()) {
            ++i;
            if (raw.at(i) != QLatin1Char('\n'))
                value += raw.at(i);
        } else {
            value += raw.at(i);
        }
    }
    return value;
}

QString unescapeDoubleQuoted(const QString &raw)
{
    static const QString escapable = QStringLiteral("$`\"\\");
    QString value;
    for (qsizetype i = 0; i < raw.size(); ++i) {
        const QChar next = i + 1 < raw.size() ? raw.at(i + 1) : QChar();
        if (raw.at(i) == QLatin1Char('\\') && next == QLatin1Char('\n')) {
            ++i;
        } else if (raw.at(i) == QLatin1Char('\\') && !next.isNull() && escapable.contains(next)) {
            value += next;
            ++i;
        } else {
            value += raw.at(i);
        }
    }
    return value;
}

// Escaped characters cannot form a glob or a brace expansion.
QString skeletonOf(const QString &raw)
{
    QString skeleton;
    for (qsizetype i = 0; i < raw.size(); ++i) {
        if (raw.at(i) == QLatin1Char('\\') && i + 1 < raw.size()) {
            skeleton += QLatin1String("__");
            ++i;
        } else {
            skeleton += raw.at(i);
        }
    }
    return skeleton;
}

QString describe(const QString &type)
{
    if (type == QLatin1String("IfClause"))
        return QStringLiteral("if");
    if (type == QLatin1String("WhileClause") || type == QLatin1String("ForClause"))
        return PermissionsTr::tr("for/while loops");
    if (type == QLatin1String("CaseClause"))
        return QStringLiteral("case");
    if (type == QLatin1String("FuncDecl"))
        return PermissionsTr::tr("function definitions");
    if (type == QLatin1String("ArithmCmd"))
        return PermissionsTr::tr("arithmetic commands (( ))");
    if (type == QLatin1String("TestClause"))
        return PermissionsTr::tr("[[ ]] tests");
    if (type == QLatin1String("LetClause"))
        return QStringLiteral("let");
    if (type == QLatin1String("CoprocClause"))
        return QStringLiteral("coproc");
    return type;
}

class TreeWalker
{
public:
    explicit TreeWalker(const QByteArray &source)
        : m_source(source)
    {}

    BashParseResult result;

    void walkStmts(const QJsonArray &stmts, QList<SimpleCommand> &out)
    {
        for (const QJsonValue &stmt : stmts)
            walkStmt(stmt.toObject(), out);
    }

private:
    qint64 offset(const QJsonObject &node, const char *key = "Pos") const
    {
        return node.value(QLatin1String(key)).toObject().value(QLatin1String("Offset")).toInteger();
    }

    QString slice(const QJsonObject &node) const
    {
        const qint64 start = offset(node);
        const qint64 end = offset(node, "End");
        if (start < 0 || end < start || end > m_source.size())
            return {};
        return QString::fromUtf8(m_source.mid(start, end - start));
    }

    bool startsWithDollar(const QJsonObject &node) const
    {
        const qint64 at = offset(node);
        return at >= 0 && at < m_source.size() && m_source.at(at) == '$';
    }

    void unsupported(const QString &construct)
    {
        if (result.understood)
            result.problem = PermissionsTr::tr(
                                 "The command uses %1, which AgentDesk does not analyse.")
                                 .arg(construct);
        result.understood = false;
    }

    void walkStmt(const QJsonObject &stmt, QList<SimpleCommand> &out)
    {
        if (stmt.value(QLatin1String("Coprocess")).toBool())
            unsupported(QStringLiteral("coproc"));
        const QJsonArray redirs = stmt.value(QLatin1String("Redirs")).toArray();
        const QJsonObject cmd = stmt.value(QLatin1String("Cmd")).toObject();
        const QString type = cmd.value(QLatin1String("Type")).toString();
        if (cmd.isEmpty() || type == QLatin1String("CallExpr")
            || type == QLatin1String("DeclClause")) {
            walkCall(cmd, redirs, out);
            return;
        }
        const qsizetype first = out.size();
        if (type == QLatin1String("BinaryCmd")) {
            walkStmt(cmd.value(QLatin1String("X")).toObject(), out);
            walkStmt(cmd.value(QLatin1String("Y")).toObject(), out);
        } else if (type == QLatin1String("Subshell") || type == QLatin1String("Block")) {
            walkStmts(cmd.value(QLatin1String("Stmts")).toArray(), out);
        } else if (type == QLatin1String("TimeClause")) {
            if (cmd.value(QLatin1String("Stmt")).isObject())
                walkStmt(cmd.value(QLatin1String("Stmt")).toObject(), out);
        } else {
            unsupported(describe(type));
            scanForCalls(cmd, out); // still listed for the review
            return;
        }
        const qsizetype last = out.size();
        QList<SimpleCommand> nested;
        for (const QJsonValue &redir : redirs)
            BashCommandBuilder::attach(out, first, last, redirection(redir.toObject(), nested));
        out.append(nested);
    }

    void walkCall(const QJsonObject &cmd, const QJsonArray &redirs, QList<SimpleCommand> &out)
    {
        BashCommandBuilder builder;
        NestedGroups nested;
        if (cmd.value(QLatin1String("Type")).toString() == QLatin1String("DeclClause")) {
            const QString variant = cmd.value(QLatin1String("Variant"))
                                        .toObject()
                                        .value(QLatin1String("Value"))
                                        .toString();
            builder.addWord(variant, variant, false);
            for (const QJsonValue &arg : cmd.value(QLatin1String("Args")).toArray())
                declarationArgument(arg.toObject(), builder, nested);
        } else {
            for (const QJsonValue &assign : cmd.value(QLatin1String("Assigns")).toArray())
                assignment(assign.toObject(), builder, nested);
            for (const QJsonValue &arg : cmd.value(QLatin1String("Args")).toArray()) {
                Word word = walkWord(arg.toObject());
                builder.addWord(word.value, word.source, word.expands);
                nested.append({offset(arg.toObject()), std::move(word.nested)});
            }
        }
        for (const QJsonValue &redir : redirs) {
            QList<SimpleCommand> inner;
            builder.addRedirection(redirection(redir.toObject(), inner));
            nested.append({offset(redir.toObject()), inner});
        }
        // Source order, as the built-in parser meets them: redirections may stand anywhere.
        std::stable_sort(nested.begin(), nested.end(), [](const auto &a, const auto &b) {
            return a.first < b.first;
        });
        for (const auto &group : std::as_const(nested))
            builder.addNested(group.second);
        builder.finish(out);
    }

    void assignment(const QJsonObject &assign, BashCommandBuilder &builder, NestedGroups &nested)
    {
        if (assign.contains(QLatin1String("Index")) || assign.contains(QLatin1String("Array"))) {
            unsupported(PermissionsTr::tr("array assignments"));
            return;
        }
        const QString name = assign.value(QLatin1String("Name"))
                                 .toObject()
                                 .value(QLatin1String("Value"))
                                 .toString();
        const QString op = assign.value(QLatin1String("Append")).toBool() ? QStringLiteral("+=")
                                                                          : QStringLiteral("=");
        Word value;
        if (assign.value(QLatin1String("Value")).isObject())
            value = walkWord(assign.value(QLatin1String("Value")).toObject());
        builder.addAssignment(name, op, value.value, slice(assign), value.expands);
        nested.append({offset(assign), std::move(value.nested)});
    }

    // `export X=1 Y`: each argument is one word, as a plain command would have it.
    void declarationArgument(const QJsonObject &assign,
                             BashCommandBuilder &builder,
                             NestedGroups &nested)
    {
        if (assign.contains(QLatin1String("Index")) || assign.contains(QLatin1String("Array"))) {
            unsupported(PermissionsTr::tr("array assignments"));
            return;
        }
        const QString name = assign.value(QLatin1String("Name"))
                                 .toObject()
                                 .value(QLatin1String("Value"))
                                 .toString();
        Word value;
        if (assign.value(QLatin1String("Value")).isObject())
            value = walkWord(assign.value(QLatin1String("Value")).toObject());
        if (assign.value(QLatin1String("Naked")).toBool()) {
            if (assign.value(QLatin1String("Value")).isObject())
                builder.addWord(value.value, value.source, value.expands);
            else
                builder.addWord(name, name, false);
        } else {
            const QString op = assign.value(QLatin1String("Append")).toBool() ? QStringLiteral("+=")
                                                                              : QStringLiteral("=");
            builder.addWord(name + op + value.value, slice(assign), value.expands);
        }
        nested.append({offset(assign), std::move(value.nested)});
    }

    BashRedirection redirection(const QJsonObject &redir, QList<SimpleCommand> &nested)
    {
        const QString fd
            = redir.value(QLatin1String("N")).toObject().value(QLatin1String("Value")).toString();
        const QString op = operatorAt(offset(redir, "OpPos"));
        if (op.isEmpty())
            unsupported(PermissionsTr::tr("an unknown redirection"));
        Word target = walkWord(redir.value(QLatin1String("Word")).toObject());
        nested.append(target.nested);
        if (redir.value(QLatin1String("Hdoc")).isObject()) {
            Word body;
            walkParts(redir.value(QLatin1String("Hdoc"))
                          .toObject()
                          .value(QLatin1String("Parts"))
                          .toArray(),
                      true,
                      body);
            nested.append(body.nested);
        }
        if (op == QLatin1String("<<") || op == QLatin1String("<<-"))
            return BashCommandBuilder::redirection(fd + op, target.value, false);
        return BashCommandBuilder::redirection(fd + op,
                                               target.expands ? target.source : target.value,
                                               target.expands);
    }

    QString operatorAt(qint64 at) const
    {
        static const QList<QByteArray>
            operators{"&>>", "&>", "<<<", "<<-", "<<", "<>", "<&", ">>", ">&", ">|", ">", "<"};
        if (at < 0 || at >= m_source.size())
            return {};
        const QByteArrayView rest = QByteArrayView(m_source).sliced(at);
        for (const QByteArray &op : operators) {
            if (rest.startsWith(op))
                return QString::fromLatin1(op);
        }
        return {};
    }

    Word walkWord(const QJsonObject &node)
    {
        Word word;
        walkParts(node.value(QLatin1String("Parts")).toArray(), false, word);
        word.source = slice(node);
        word.expands = word.expands || BashCommandBuilder::hasPattern(word.skeleton);
        return word;
    }

    void walkParts(const QJsonArray &parts, bool quoted, Word &word)
    {
        for (const QJsonValue &value : parts) {
            const QJsonObject part = value.toObject();
            const QString type = part.value(QLatin1String("Type")).toString();
            const QString text = part.value(QLatin1String("Value")).toString();
            if (type == QLatin1String("Lit")) {
                word.value += quoted ? unescapeDoubleQuoted(text) : unescapeUnquoted(text);
                if (!quoted)
                    word.skeleton += skeletonOf(text);
            } else if (type == QLatin1String("SglQuoted")) {
                word.expands = word.expands || startsWithDollar(part); // $'...' escapes
                word.value += text;
                word.skeleton += QLatin1Char('_');
            } else if (type == QLatin1String("DblQuoted")) {
                word.expands = word.expands || startsWithDollar(part); // $"..." translation
                word.skeleton += QLatin1Char('_');
                walkParts(part.value(QLatin1String("Parts")).toArray(), true, word);
            } else if (type == QLatin1String("CmdSubst") || type == QLatin1String("ProcSubst")) {
                word.expands = true;
                word.skeleton += QLatin1Char('_');
                walkStmts(part.value(QLatin1String("Stmts")).toArray(), word.nested);
            } else if (type == QLatin1String("ParamExp") || type == QLatin1String("ArithmExp")
                       || type == QLatin1String("ExtGlob") || type == QLatin1String("BraceExp")) {
                word.expands = true;
                word.skeleton += QLatin1Char('_');
                scanForSubstitutions(part, word.nested);
            } else {
                unsupported(type);
            }
        }
    }

    // ${x:-$(cmd)}, $(( $(cmd) + 1 )): the commands inside still run.
    void scanForSubstitutions(const QJsonValue &value, QList<SimpleCommand> &out)
    {
        if (value.isArray()) {
            for (const QJsonValue &item : value.toArray())
                scanForSubstitutions(item, out);
            return;
        }
        const QJsonObject object = value.toObject();
        const QString type = object.value(QLatin1String("Type")).toString();
        if (type == QLatin1String("CmdSubst") || type == QLatin1String("ProcSubst")) {
            walkStmts(object.value(QLatin1String("Stmts")).toArray(), out);
            return;
        }
        for (const QJsonValue &item : object)
            scanForSubstitutions(item, out);
    }

    void scanForCalls(const QJsonValue &value, QList<SimpleCommand> &out)
    {
        if (value.isArray()) {
            for (const QJsonValue &item : value.toArray())
                scanForCalls(item, out);
            return;
        }
        const QJsonObject object = value.toObject();
        const QString type = object.value(QLatin1String("Type")).toString();
        if (type == QLatin1String("CallExpr") || type == QLatin1String("DeclClause")) {
            walkCall(object, {}, out);
            return;
        }
        for (const QJsonValue &item : object)
            scanForCalls(item, out);
    }

    const QByteArray &m_source;
};

} // namespace

std::optional<BashParseResult> ShfmtParser::parse(const QString &shfmt,
                                                  const QString &command,
                                                  int timeoutMs)
{
    const QByteArray source = command.toUtf8();
    QProcess process;
    process.setProgram(shfmt);
    process.setArguments(
        {QStringLiteral("-ln"), QStringLiteral("bash"), QStringLiteral("--to-json")});
    process.start();
    if (!process.waitForStarted(timeoutMs))
        return std::nullopt;
    process.write(source);
    process.closeWriteChannel();
    // shfmt's JSON grows with the square of the nesting depth: stop reading at a sane size.
    constexpr qsizetype outputLimit = 16 * 1024 * 1024;
    const QDeadlineTimer deadline(timeoutMs);
    QByteArray output;
    while (process.state() != QProcess::NotRunning && !deadline.hasExpired()
           && output.size() <= outputLimit) {
        process.waitForReadyRead(int(std::clamp<qint64>(deadline.remainingTime(), 1, 100)));
        output += process.readAllStandardOutput();
    }
    if (process.state() != QProcess::NotRunning) {
        process.kill();
        process.waitForFinished();
        return std::nullopt;
    }
    output += process.readAllStandardOutput();
    if (process.exitStatus() != QProcess::NormalExit)
        return std::nullopt;
    if (process.exitCode() != 0) {
        // "1:5: unclosed here-document 'EOF'"; anything else means shfmt itself failed.
        static const QRegularExpression syntaxError(QStringLiteral("(\\d+):(\\d+): (.+)"));
        const QString error = QString::fromUtf8(process.readAllStandardError()).trimmed();
        const QRegularExpressionMatch match = syntaxError.match(
            error.section(QLatin1Char('\n'), 0, 0));
        if (!match.hasMatch())
            return std::nullopt;
        BashParseResult result;
        result.understood = false;
        result.problem = PermissionsTr::tr("Cannot parse the command (line %1, column %2): %3")
                             .arg(match.captured(1), match.captured(2), match.captured(3));
        return result;
    }
    return fromJson(output, source);
}

std::optional<BashParseResult> ShfmtParser::fromJson(const QByteArray &json,
                                                     const QByteArray &source)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(json, &error);
    const QJsonObject file = document.object();
    if (error.error != QJsonParseError::NoError
        || file.value(QLatin1String("Type")).toString() != QLatin1String("File"))
        return std::nullopt;
    TreeWalker walker(source);
    walker.walkStmts(file.value(QLatin1String("Stmts")).toArray(), walker.result.commands);
    return walker.result;
}

} // namespace AgentCore
