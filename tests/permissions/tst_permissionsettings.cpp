#include <permissions/permissionsettings.h>
#include <testmain.h>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

using namespace AgentCore;

namespace tst_permissionsettings {

namespace {
bool writeFile(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate)
           && file.write(bytes) == bytes.size();
}

// JSON written with single quotes, which need no escaping in C++.
QByteArray json(const char *text)
{
    return QByteArray(text).replace('\'', '"');
}

QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<missing>");
}

PermissionRule rule(const char *text, PermissionBehavior behavior)
{
    return PermissionRule::parse(QString::fromUtf8(text), behavior).value();
}

QStringList ruleTexts(const QList<PermissionRule> &rules, PermissionBehavior behavior)
{
    QStringList texts;
    for (const PermissionRule &rule : rules) {
        if (rule.behavior == behavior)
            texts.append(rule.toString());
    }
    return texts;
}
} // namespace

class tst_PermissionSettings : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void missingFileIsEmpty()
    {
        QTemporaryDir dir;
        QString error;
        const auto settings = PermissionSettings::load(dir.filePath(QStringLiteral("none.json")),
                                                       &error);
        QVERIFY(settings.has_value());
        QVERIFY(settings->rules.isEmpty());
        QVERIFY(!settings->defaultMode);
        QVERIFY(error.isEmpty());
    }

    void loadsRulesModeAndDirectories()
    {
        QTemporaryDir dir;
        const QString root = QFileInfo(dir.path()).canonicalFilePath();
        QVERIFY(QDir(root).mkpath(QStringLiteral("shared")));
        const QString path = PermissionSettings::projectSettingsPath(root);
        QVERIFY(
            writeFile(path,
                      json("{'model': 'x', 'permissions': {"
                           "  'allow': ['Bash(git status)', 'Bash(npm test:*)', 'not a rule(', 3],"
                           "  'ask': ['Edit(src/**)'],"
                           "  'deny': ['Bash(rm:*)'],"
                           "  'defaultMode': 'acceptEdits',"
                           "  'additionalDirectories': ['shared', '/opt/x']}}")));
        const auto settings = PermissionSettings::load(path);
        QVERIFY(settings.has_value());
        QCOMPARE(ruleTexts(settings->rules, PermissionBehavior::Allow),
                 QStringList({"Bash(git status)", "Bash(npm test:*)"}));
        QCOMPARE(ruleTexts(settings->rules, PermissionBehavior::Ask), QStringList{"Edit(src/**)"});
        QCOMPARE(ruleTexts(settings->rules, PermissionBehavior::Deny), QStringList{"Bash(rm:*)"});
        for (const PermissionRule &rule : settings->rules)
            QCOMPARE(rule.source, path);
        QCOMPARE(settings->defaultMode, PermissionMode::AcceptEdits);
        // Relative to the project, not to .agentdesk/.
        QCOMPARE(settings->additionalDirectories,
                 QStringList({root + QStringLiteral("/shared"), QStringLiteral("/opt/x")}));
        QCOMPARE(settings->warnings.size(), 2);
        QVERIFY(settings->warnings.first().contains(QLatin1String("not a rule(")));
    }

    // "sandboxReadable": `~/` expanded, relative to the file's folder, links kept (the
    // sandbox makes them again); an entry that is no path warns.
    void loadsSandboxReadablePaths()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("settings.json"));
        QVERIFY(writeFile(path,
                          json("{'permissions': {'sandboxReadable': ['~/.config/mytool', "
                               "'/srv/data/../data', 'near', 7]}}")));
        const auto settings = PermissionSettings::load(path);
        QVERIFY(settings.has_value());
        QCOMPARE(settings->sandboxReadable,
                 QStringList({QDir::homePath() + QStringLiteral("/.config/mytool"),
                              QStringLiteral("/srv/data"),
                              QDir::cleanPath(dir.filePath(QStringLiteral("near")))}));
        QCOMPARE(settings->warnings.size(), 1);
        QVERIFY(settings->warnings.first().contains(QLatin1String("sandboxReadable")));
    }

    void unknownModeWarns()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("s.json"));
        QVERIFY(writeFile(path, json("{'permissions': {'defaultMode': 'yolo'}}")));
        const auto settings = PermissionSettings::load(path);
        QVERIFY(settings.has_value());
        QVERIFY(!settings->defaultMode);
        QCOMPARE(settings->warnings.size(), 1);
        QVERIFY(settings->warnings.first().contains(QLatin1String("yolo")));
    }

    void invalidFiles_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::newRow("broken json") << QByteArray(json("{'permissions': {'allow': ["));
        QTest::newRow("not an object") << QByteArray(json("['Bash']"));
        QTest::newRow("permissions not an object") << QByteArray(json("{'permissions': 3}"));
    }

    void invalidFiles()
    {
        QFETCH(QByteArray, content);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("settings.json"));
        QVERIFY(writeFile(path, content));
        QString error;
        QVERIFY(!PermissionSettings::load(path, &error));
        QVERIFY2(error.contains(path), qPrintable(error));

        // Never overwritten: the user's broken file stays as it was.
        error.clear();
        QVERIFY(!PermissionSettings::appendRule(path,
                                                rule("Bash(ls)", PermissionBehavior::Allow),
                                                &error));
        QVERIFY(!error.isEmpty());
        QCOMPARE(readFile(path), content);
    }

    void appendKeepsOtherKeys()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("settings.local.json"));
        QVERIFY(
            writeFile(path,
                      json("{'theme': 'dark',"
                           " 'permissions': {'allow': ['Bash(git status)'], 'defaultMode': 'plan',"
                           "                 'deny': ['Read(/secret/**)']},"
                           " 'hooks': {'before': ['x']}}")));
        QString error;
        QVERIFY2(PermissionSettings::appendRule(path,
                                                rule("Bash(npm test:*)", PermissionBehavior::Allow),
                                                &error),
                 qPrintable(error));
        // Twice: not added twice.
        QVERIFY(PermissionSettings::appendRule(path,
                                               rule("Bash(npm test:*)", PermissionBehavior::Allow)));
        QVERIFY(PermissionSettings::appendRule(path, rule("Edit(src/**)", PermissionBehavior::Ask)));

        const QJsonObject root = QJsonDocument::fromJson(readFile(path)).object();
        QCOMPARE(root.value(QLatin1String("theme")).toString(), QStringLiteral("dark"));
        QCOMPARE(root.value(QLatin1String("hooks")).toObject(),
                 QJsonObject({{"before", QJsonArray{"x"}}}));
        const QJsonObject permissions = root.value(QLatin1String("permissions")).toObject();
        QCOMPARE(permissions.value(QLatin1String("allow")).toArray(),
                 QJsonArray({"Bash(git status)", "Bash(npm test:*)"}));
        QCOMPARE(permissions.value(QLatin1String("ask")).toArray(), QJsonArray{"Edit(src/**)"});
        QCOMPARE(permissions.value(QLatin1String("deny")).toArray(), QJsonArray{"Read(/secret/**)"});
        QCOMPARE(permissions.value(QLatin1String("defaultMode")).toString(), QStringLiteral("plan"));
    }

    void appendCreatesFileAndFolder()
    {
        QTemporaryDir dir;
        const QString path = PermissionSettings::projectLocalSettingsPath(dir.path());
        QVERIFY(path.endsWith(QLatin1String("/.agentdesk/settings.local.json")));
        QVERIFY(!QFile::exists(path));
        QVERIFY(
            PermissionSettings::appendRule(path, rule("Edit(src/**)", PermissionBehavior::Allow)));
        const auto settings = PermissionSettings::load(path);
        QVERIFY(settings.has_value());
        QCOMPARE(ruleTexts(settings->rules, PermissionBehavior::Allow), QStringList{"Edit(src/**)"});
    }

    // Sessions of one process answering "always allow" at the same moment (the approval
    // inbox): every rule ends up in the file, none written over by another's older copy.
    void appendsAtOnceKeepEveryRule()
    {
        QTemporaryDir dir;
        const QString path = PermissionSettings::projectLocalSettingsPath(dir.path());
        constexpr int threads = 6;
        constexpr int rulesEach = 15;
        QList<QThread *> running;
        for (int t = 0; t < threads; ++t) {
            running.append(QThread::create([t, &path] {
                for (int i = 0; i < rulesEach; ++i) {
                    const QByteArray text = "Edit(src/t" + QByteArray::number(t) + "/f"
                                            + QByteArray::number(i) + ".txt)";
                    PermissionSettings::appendRule(path,
                                                   rule(text.constData(),
                                                        PermissionBehavior::Allow));
                }
            }));
            running.constLast()->start();
        }
        for (QThread *thread : std::as_const(running)) {
            QVERIFY(thread->wait(60'000));
            delete thread;
        }
        const auto settings = PermissionSettings::load(path);
        QVERIFY(settings.has_value());
        QCOMPARE(ruleTexts(settings->rules, PermissionBehavior::Allow).size(), threads * rulesEach);
    }

    void paths()
    {
        QVERIFY(PermissionSettings::userSettingsPath().endsWith(
            QLatin1String("/agentdesk/settings.json")));
        QCOMPARE(PermissionSettings::projectSettingsPath(QStringLiteral("/r")),
                 QStringLiteral("/r/.agentdesk/settings.json"));
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_PermissionSettings)

} // namespace tst_permissionsettings

#include "tst_permissionsettings.moc"
