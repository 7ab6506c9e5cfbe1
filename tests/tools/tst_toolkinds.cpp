// The built-in tools say what they are (ToolKind), and the one name -> kind function that
// permissions and the window use for calls they know only by name agrees with them.
#include "toolstest.h"

#include <testmain.h>
#include <tools/codingtools.h>

#include <QSet>
#include <QTest>

using namespace AgentCore;

namespace tst_toolkinds {

class tst_ToolKinds : public QObject
{
    Q_OBJECT

private slots:
    void builtInToolsSayTheirKind()
    {
        ToolsTest::Repo repo;
        QSet<ToolKind> kinds;
        for (const AgentToolPtr &tool : CodingTools::create(repo.workspace())) {
            const QString name = tool->definition().name;
            QVERIFY2(tool->kind() != ToolKind::Other, qPrintable(name));
            QCOMPARE(toolKind(name), tool->kind());
            QCOMPARE(toolKindName(tool->kind()), name);
            kinds.insert(tool->kind());
        }
        QCOMPARE(kinds.size(), 7); // one tool of each kind
    }

    void otherNamesAreOther_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("extension tool") << QStringLiteral("RunTests");
        QTest::newRow("case differs") << QStringLiteral("bash");
        QTest::newRow("ls in lower case") << QStringLiteral("ls");
        QTest::newRow("empty") << QString();
    }

    void otherNamesAreOther()
    {
        QFETCH(QString, name);
        QCOMPARE(toolKind(name), ToolKind::Other);
    }

    void fileChangesAndSearches()
    {
        QVERIFY(changesFile(ToolKind::Edit) && changesFile(ToolKind::Write));
        QVERIFY(!changesFile(ToolKind::Bash) && !changesFile(ToolKind::Read));
        QVERIFY(searchesFiles(ToolKind::Glob) && searchesFiles(ToolKind::Grep)
                && searchesFiles(ToolKind::Ls));
        QVERIFY(!searchesFiles(ToolKind::Read) && !searchesFiles(ToolKind::Other));
        QVERIFY(toolKindName(ToolKind::Other).isEmpty());
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_ToolKinds)

} // namespace tst_toolkinds

#include "tst_toolkinds.moc"
