#include <permissions/bashsedscript.h>
#include <testmain.h>

#include <QTest>

using namespace AgentCore;

namespace tst_bashsedscript {

class tst_BashSedScript : public QObject
{
    Q_OBJECT

private slots:
    void script_data();
    void script();
    void invocation_data();
    void invocation();
};

void tst_BashSedScript::script_data()
{
    QTest::addColumn<QString>("script");
    QTest::addColumn<bool>("readOnly");

    QTest::newRow("range print") << "1,20p" << true;
    QTest::newRow("substitute") << "s/a/b/g" << true;
    QTest::newRow("substitute flags") << "s|a|b|gI2" << true;
    QTest::newRow("escaped delimiter") << "s/a\\/w/b/" << true;
    QTest::newRow("regex range block") << "/foo/,/bar/{p;d}" << true;
    QTest::newRow("address block") << "1,5{p}" << true;
    QTest::newRow("join lines") << "$!N;P;D" << true;
    QTest::newRow("transliterate") << "y/abc/xyz/" << true;
    QTest::newRow("read file") << "r other.txt" << true;
    QTest::newRow("append text") << "a\\\nhello w x" << true;
    QTest::newRow("labels") << ":a;N;$!ba;s/\\n/ /g" << true;
    QTest::newRow("quit with status") << "5q1" << true;
    QTest::newRow("negated") << "/x/!d" << true;
    QTest::newRow("step") << "0~3p" << true;
    QTest::newRow("comment") << "p # w out" << true;
    QTest::newRow("custom address delimiter") << "\\,a/b,p" << true;
    QTest::newRow("substitute write flag") << "s/a/b/w out" << false;
    QTest::newRow("substitute exec flag") << "s/a/b/e" << false;
    QTest::newRow("write command") << "1d;w x" << false;
    QTest::newRow("write first line") << "W out" << false;
    QTest::newRow("exec command") << "e ls" << false;
    QTest::newRow("exec after substitute") << "s/a/b/;e" << false;
    QTest::newRow("write in block") << "/x/{w out\n}" << false;
    QTest::newRow("unterminated substitute") << "s/a/b" << false;
    QTest::newRow("unknown command") << "k" << false;
}

void tst_BashSedScript::script()
{
    QFETCH(QString, script);
    QFETCH(bool, readOnly);
    QCOMPARE(BashSedScript::isReadOnlyScript(script), readOnly);
}

void tst_BashSedScript::invocation_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<bool>("readOnly");

    QTest::newRow("print") << QStringList{"-n", "1,20p", "f"} << true;
    QTest::newRow("expression") << QStringList{"-e", "s/a/b/", "-e", "p", "f"} << true;
    QTest::newRow("cluster") << QStringList{"-nE", "-e", "p"} << true;
    QTest::newRow("attached expression") << QStringList{"-ne", "s/a/b/p"} << true;
    QTest::newRow("long expression") << QStringList{"--expression=1d", "f"} << true;
    QTest::newRow("sandbox") << QStringList{"--sandbox", "w out"} << true;
    QTest::newRow("in place") << QStringList{"-i", "s/a/b/", "f"} << false;
    QTest::newRow("in place suffix") << QStringList{"-i.bak", "s/a/b/", "f"} << false;
    QTest::newRow("in place cluster") << QStringList{"-ni", "p", "f"} << false;
    QTest::newRow("long in place") << QStringList{"--in-place", "s/a/b/", "f"} << false;
    QTest::newRow("script file") << QStringList{"-f", "script.sed", "f"} << false;
    QTest::newRow("writing expression") << QStringList{"p", "-e", "w out"} << false;
    QTest::newRow("writing script") << QStringList{"s/a/b/w out", "f"} << false;
}

void tst_BashSedScript::invocation()
{
    QFETCH(QStringList, args);
    QFETCH(bool, readOnly);
    QCOMPARE(BashSedScript::isReadOnlyInvocation(args, QList<bool>(args.size(), false)), readOnly);
}

AGENTDESK_GUILESS_TEST_MAIN(tst_BashSedScript)

} // namespace tst_bashsedscript

#include "tst_bashsedscript.moc"
