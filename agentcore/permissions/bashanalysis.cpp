#include "bashanalysis.h"
#include "translation.h"

#include "bashcommandclassifier.h"
#include "builtinbashparser.h"
#include "shfmtparser.h"

#include <QCoreApplication>
#include <QMutex>
#include <QMutexLocker>
#include <QStandardPaths>

namespace AgentCore {

struct BashAnalyzer::ParseMemory
{
    static constexpr qsizetype capacity = 8;

    std::optional<BashParseResult> find(const QString &command)
    {
        QMutexLocker locker(&mutex);
        for (const auto &[text, result] : std::as_const(recent)) {
            if (text == command)
                return result;
        }
        return std::nullopt;
    }
    void keep(const QString &command, const BashParseResult &result)
    {
        QMutexLocker locker(&mutex);
        if (recent.size() >= capacity)
            recent.removeFirst();
        recent.append({command, result});
    }

    QMutex mutex;
    QList<std::pair<QString, BashParseResult>> recent; ///< oldest first
};

QString bashRiskName(BashRisk risk)
{
    switch (risk) {
    case BashRisk::WritesOutsideRepository:
        return PermissionsTr::tr("writes outside the repository");
    case BashRisk::Network:
        return PermissionsTr::tr("network");
    case BashRisk::Deletes:
        return PermissionsTr::tr("deletes files");
    case BashRisk::Privileged:
        return PermissionsTr::tr("privileged");
    case BashRisk::ReadsUnknownPaths:
        return PermissionsTr::tr("may read outside the repository");
    }
    return {};
}

BashAnalyzer::BashAnalyzer(const QString &repositoryRoot, const QString &shfmtPath)
    : m_root(repositoryRoot)
    , m_shfmt(shfmtPath.isEmpty()               ? findShfmt()
              : shfmtPath == QLatin1String("-") ? QString()
                                                : shfmtPath)
    , m_memory(std::make_shared<ParseMemory>())
{}

QString BashAnalyzer::findShfmt()
{
    return QStandardPaths::findExecutable(QStringLiteral("shfmt"));
}

BashAnalysis BashAnalyzer::analyze(const QString &command) const
{
    BashAnalysis analysis;
    analysis.command = command;
    if (command.trimmed().isEmpty() || command.contains(QChar(0))) {
        analysis.parser = QStringLiteral("builtin");
        analysis.problem = command.trimmed().isEmpty()
                               ? PermissionsTr::tr("The command is empty.")
                               : PermissionsTr::tr("The command contains a NUL character.");
        return analysis;
    }
    std::optional<BashParseResult> parsed;
    if (!m_shfmt.isEmpty()) {
        parsed = m_memory->find(command);
        if (!parsed) {
            parsed = ShfmtParser::parse(m_shfmt, command);
            if (parsed) // not a failure of shfmt itself: the next call tries again
                m_memory->keep(command, *parsed);
        }
        analysis.parser = QStringLiteral("shfmt");
    }
    if (!parsed) { // shfmt missing, failing or too slow
        parsed = BuiltinBashParser::parse(command);
        analysis.parser = QStringLiteral("builtin");
    }
    analysis.commands = parsed->commands;
    analysis.understood = parsed->understood;
    analysis.problem = parsed->problem;
    BashCommandClassifier(m_root, m_readableRoots).classify(analysis);
    return analysis;
}

} // namespace AgentCore
