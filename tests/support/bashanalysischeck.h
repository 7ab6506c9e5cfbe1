#pragma once

// What a BashAnalysis says, in short text a QCOMPARE shows whole: for the tests of the command
// analysis (tests/permissions/tst_bashanalysis*.cpp).

#include <QString>
#include <QStringList>

namespace AgentCore {
struct BashAnalysis;
}

namespace TestSupport {

/// "deletes@1 network@0": each risk of \a analysis (writes, network, deletes, privileged,
/// reads) with the index of the command it belongs to, in the analysis's order.
QString riskCodes(const AgentCore::BashAnalysis &analysis);

/// The text of each simple command of \a analysis, in order.
QStringList commandTexts(const AgentCore::BashAnalysis &analysis);

} // namespace TestSupport
