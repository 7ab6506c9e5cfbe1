#include "commandline.h"

#include <QDir>
#include <QTest>

using App::CommandLine;

class tst_CommandLine : public QObject
{
    Q_OBJECT
private slots:
    void parse_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("action");
        QTest::addColumn<QString>("repository");
        QTest::addColumn<QString>("output");

        const QString cwd = QDir::currentPath();
        const auto run = int(CommandLine::Action::Run);
        QTest::newRow("no arguments") << QStringList() << run << cwd << QString();
        QTest::newRow("repository") << QStringList{QStringLiteral("/src/calc")} << run
                                    << QStringLiteral("/src/calc") << QString();
        QTest::newRow("version") << QStringList{QStringLiteral("--version")}
                                 << int(CommandLine::Action::ShowVersion) << QString()
                                 << QStringLiteral("agentdesk " AGENTDESK_VERSION "\n");
        QTest::newRow("unknown option")
            << QStringList{QStringLiteral("--frobnicate")} << int(CommandLine::Action::Fail)
            << QString() << QStringLiteral("Unknown option 'frobnicate'.");
        QTest::newRow("two repositories")
            << QStringList{QStringLiteral("a"), QStringLiteral("b")}
            << int(CommandLine::Action::Fail) << QString()
            << QStringLiteral("Only one repository can be opened, got 2.");
    }

    void parse()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, action);
        QFETCH(QString, repository);
        QFETCH(QString, output);
        const CommandLine result = CommandLine::parse(QStringList{QStringLiteral("agentdesk")}
                                                      + arguments);
        QCOMPARE(int(result.action), action);
        QCOMPARE(result.repository, repository);
        if (!output.isNull())
            QCOMPARE(result.output, output);
    }

    void helpListsOptionsButNotScreenshot()
    {
        const CommandLine result = CommandLine::parse(
            {QStringLiteral("agentdesk"), QStringLiteral("--help")});
        QCOMPARE(int(result.action), int(CommandLine::Action::ShowHelp));
        QVERIFY(result.output.startsWith(QStringLiteral("Usage: ")));
        QVERIFY(result.output.contains(QStringLiteral(" [options] [repository]\n")));
        QVERIFY(result.output.contains(QStringLiteral("--version")));
        QVERIFY(result.output.contains(QStringLiteral("repository")));
        QVERIFY(!result.output.contains(QStringLiteral("--screenshot")));
    }
};

QTEST_GUILESS_MAIN(tst_CommandLine)
#include "tst_commandline.moc"
