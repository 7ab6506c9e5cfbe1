#include "bashanalysischeck.h"

#include <permissions/bashanalysis.h>

namespace TestSupport {

using namespace AgentCore;

namespace {

QString riskCode(BashRisk risk)
{
    switch (risk) {
    case BashRisk::WritesOutsideRepository:
        return QStringLiteral("writes");
    case BashRisk::Network:
        return QStringLiteral("network");
    case BashRisk::Deletes:
        return QStringLiteral("deletes");
    case BashRisk::Privileged:
        return QStringLiteral("privileged");
    case BashRisk::ReadsUnknownPaths:
        return QStringLiteral("reads");
    }
    return {};
}

} // namespace

QString riskCodes(const BashAnalysis &analysis)
{
    QStringList codes;
    for (const BashRiskNote &note : analysis.risks)
        codes.append(riskCode(note.risk) + QLatin1Char('@') + QString::number(note.commandIndex));
    return codes.join(QLatin1Char(' '));
}

QStringList commandTexts(const BashAnalysis &analysis)
{
    QStringList result;
    for (const SimpleCommand &command : analysis.commands)
        result.append(command.text);
    return result;
}

} // namespace TestSupport
