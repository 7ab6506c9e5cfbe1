// Where bubblewrap cannot run, the window says so once, in a bar above its content, with the
// reason and what to do, before any command ran; dismissed, it stays away. And the Bash review
// says whether a command gets the network and which rule grants it. The real window, session
// and bwrap probe (a missing bwrap for the fallback).

#include "fakekeystore.h"

#include <agentsession/agentsession.h>
#include <review/bashreviewview.h>
#include <scriptedmodel.h>
#include <settings/settingsdialog.h>
#include <testmain.h>
#include <window/mainwindow.h>
#include <window/sandboxnoticebar.h>

#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace AgentCore;

namespace tst_sandboxnotice {

class tst_SandboxNotice : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    QString makeRepository(const QString &name)
    {
        const QString root = m_dir.filePath(name);
        QDir().mkpath(root);
        QProcess::execute(QStringLiteral("git"),
                          {QStringLiteral("-C"), root, QStringLiteral("init"), QStringLiteral("-q")});
        return root;
    }

    Ui::AgentSetup setup(const QString &bwrap, SandboxMode mode)
    {
        Ui::AgentSetup result;
        result.model.client = std::make_shared<TestSupport::ScriptedModel>(
            QList<TestSupport::ModelStep>{});
        result.model.label = QStringLiteral("scripted");
        result.sessionsDirectory = m_dir.filePath(QStringLiteral("sessions"));
        result.options.permissions.projectTrustPath = m_dir.filePath(
            QStringLiteral("trusted.json"));
        result.options.sandbox.bwrapPath = bwrap;
        result.sandboxMode = mode;
        return result;
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AgentDeskTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_sandboxnotice"));
        QSettings().clear();
        QVERIFY(m_dir.isValid());
    }

    // Sandbox on, no bwrap: the bar comes as the conversation opens, above everything, with
    // what happens (commands run without it), why, and what to do; once dismissed, a new
    // conversation does not bring it back.
    void unavailableSaysSoOnce()
    {
        Ui::MainWindow window(setup(m_dir.filePath(QStringLiteral("no-bwrap")), SandboxMode::On));
        window.resize(1100, 700);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        Ui::SandboxNoticeBar *bar = window.sandboxNotice();
        QVERIFY(bar);
        QVERIFY(!bar->isVisible());
        QVERIFY(window.openRepository(makeRepository(QStringLiteral("first"))));
        QTRY_VERIFY_WITH_TIMEOUT(bar->isVisible(), 10000);
        QVERIFY(window.session()->agent()); // said at the start, before any command

        const QString text = bar->text();
        QVERIFY2(text.contains(QLatin1String("commands run without it, with your rights")),
                 qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("no-bwrap")), qPrintable(text)); // why
        QVERIFY2(text.contains(QLatin1String("install bubblewrap")), qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("set Sandbox to Required")), qPrintable(text));
        // Above the conversation, across the window.
        const auto splitter = window.findChild<QSplitter *>(QStringLiteral("centreSplitter"));
        QVERIFY(splitter);
        const QRect barRect(bar->mapTo(&window, QPoint()), bar->size());
        QVERIFY(barRect.bottom() < splitter->mapTo(&window, QPoint()).y());
        QCOMPARE(barRect.width(), window.width());
        const auto label = bar->findChild<QLabel *>(QStringLiteral("sandboxNoticeText"));
        QVERIFY(label->height() >= label->heightForWidth(label->width())); // all of it shows

        auto dismiss = bar->findChild<QPushButton *>(QStringLiteral("sandboxNoticeDismiss"));
        QVERIFY(dismiss);
        dismiss->click();
        QVERIFY(!bar->isVisible());
        QVERIFY(window.openRepository(makeRepository(QStringLiteral("second"))));
        QTRY_VERIFY_WITH_TIMEOUT(window.session()->agent(), 10000);
        QTest::qWait(200);
        QVERIFY(!bar->isVisible());
    }

    // Required: the bar says commands are refused, and how to run them anyway.
    void requiredSaysCommandsAreRefused()
    {
        Ui::MainWindow window(
            setup(m_dir.filePath(QStringLiteral("no-bwrap")), SandboxMode::Required));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openRepository(makeRepository(QStringLiteral("required"))));
        QTRY_VERIFY_WITH_TIMEOUT(window.sandboxNotice()->isVisible(), 10000);
        QVERIFY2(window.sandboxNotice()->text().contains(QLatin1String("commands are refused")),
                 qPrintable(window.sandboxNotice()->text()));
    }

    // Where bwrap works, or the sandbox is off, there is nothing to say.
    void nothingToSay_data()
    {
        QTest::addColumn<int>("mode");
        QTest::addColumn<bool>("bwrapMissing");
        QTest::newRow("bwrap works") << int(SandboxMode::On) << false;
        QTest::newRow("sandbox off") << int(SandboxMode::Off) << true;
    }
    void nothingToSay()
    {
        QFETCH(int, mode);
        QFETCH(bool, bwrapMissing);
        Ui::MainWindow window(
            setup(bwrapMissing ? m_dir.filePath(QStringLiteral("no-bwrap")) : QString(),
                  SandboxMode(mode)));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openRepository(makeRepository(QStringLiteral("quiet%1").arg(mode))));
        QTRY_VERIFY_WITH_TIMEOUT(window.session()->agent(), 10000);
        QTest::qWait(200);
        QVERIFY(!window.sandboxNotice()->isVisible());
    }

    // The settings' "Commands allowed the network": shown, kept, a line that is no Bash rule
    // named; saved and loaded again.
    void settingsKeepTheNetworkRules()
    {
        Ui::AppSettings initial;
        initial.sandboxNetworkRules = {QStringLiteral("Bash(npm install:*)")};
        FakeKeyStore keys;
        Ui::SettingsDialog dialog(initial, &keys);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        auto edit = dialog.findChild<QPlainTextEdit *>(QStringLiteral("sandboxNetworkRules"));
        QVERIFY(edit && edit->isVisible() && edit->isEnabled());
        QCOMPARE(edit->toPlainText(), QStringLiteral("Bash(npm install:*)"));
        auto problem = dialog.findChild<QLabel *>(QStringLiteral("sandboxNetworkRulesProblem"));
        QVERIFY(problem && !problem->isVisible());
        edit->setPlainText(
            QStringLiteral("Bash(npm install:*)\n\n  Bash(pip install:*) \nEdit(src/**)"));
        QVERIFY(problem->isVisible());
        QVERIFY2(problem->text().contains(QLatin1String("Edit(src/**)")),
                 qPrintable(problem->text()));
        const Ui::AppSettings chosen = dialog.settings();
        QCOMPARE(chosen.sandboxNetworkRules,
                 QStringList({QStringLiteral("Bash(npm install:*)"),
                              QStringLiteral("Bash(pip install:*)"),
                              QStringLiteral("Edit(src/**)")}));
        QCOMPARE(Ui::AppSettings::parseNetworkRules(chosen.sandboxNetworkRules).size(), 2);

        QSettings stored;
        chosen.save(stored);
        QCOMPARE(Ui::AppSettings::load(stored).sandboxNetworkRules, chosen.sandboxNetworkRules);
        stored.clear();
    }

    // "Also readable in the sandbox": shown, kept one path a line, `~/` expanded for the
    // sandbox; saved and loaded again; off with the sandbox.
    void settingsKeepTheReadablePaths()
    {
        Ui::AppSettings initial;
        initial.sandboxReadablePaths = {QStringLiteral("~/.config/mytool")};
        FakeKeyStore keys;
        Ui::SettingsDialog dialog(initial, &keys);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        auto edit = dialog.findChild<QPlainTextEdit *>(QStringLiteral("sandboxReadablePaths"));
        QVERIFY(edit && edit->isVisible() && edit->isEnabled());
        QCOMPARE(edit->toPlainText(), QStringLiteral("~/.config/mytool"));
        edit->setPlainText(QStringLiteral("~/.config/mytool\n\n  /srv/data \nrelative"));
        const Ui::AppSettings chosen = dialog.settings();
        QCOMPARE(chosen.sandboxReadablePaths,
                 QStringList({QStringLiteral("~/.config/mytool"),
                              QStringLiteral("/srv/data"),
                              QStringLiteral("relative")}));
        QCOMPARE(chosen.expandedReadablePaths(),
                 QStringList({QDir::homePath() + QStringLiteral("/.config/mytool"),
                              QStringLiteral("/srv/data")}));
        QSettings stored;
        chosen.save(stored);
        QCOMPARE(Ui::AppSettings::load(stored).sandboxReadablePaths, chosen.sandboxReadablePaths);
        stored.clear();

        auto mode = dialog.findChild<QComboBox *>(QStringLiteral("sandboxCombo"));
        QVERIFY(mode);
        mode->setCurrentIndex(mode->findData(int(SandboxMode::Off)));
        QVERIFY(!edit->isEnabled());
    }

    // The review of a command a network rule covers: sandboxed, with network, and the rule.
    void reviewNamesTheNetworkRule()
    {
        PermissionRequest request;
        request.toolName = QStringLiteral("Bash");
        request.arguments = {{QStringLiteral("command"), QStringLiteral("npm install")}};
        SandboxDecision decision;
        decision.outcome = SandboxDecision::Outcome::Sandboxed;
        decision.network = true;
        decision.networkRule = QStringLiteral("Bash(npm install:*) in AgentDesk's settings");
        request.sandbox = decision;
        Ui::BashReviewView view;
        view.resize(700, 400);
        view.setRequest(request);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const auto label = view.findChild<QLabel *>(QStringLiteral("sandboxState"));
        QVERIFY(label && label->isVisible());
        QCOMPARE(label->text(),
                 QStringLiteral("Runs sandboxed: read-only outside the repository, with network "
                                "(allowed by Bash(npm install:*) in AgentDesk's settings)."));
    }
};

AGENTDESK_TEST_MAIN(tst_SandboxNotice)

} // namespace tst_sandboxnotice

#include "tst_sandboxnotice.moc"
