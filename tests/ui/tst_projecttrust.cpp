// Issue #14 in the window: a repository's settings files that ask for more than the user's own
// settings are shown once (ProjectTrustDialog) and apply only when trusted; an agent's change
// to AgentDesk's settings is reviewed even in acceptEdits, and takes no effect in the session.
// Issue #31: a resumed session file's "Always allow in this session" rules are asked about
// once (SessionRulesDialog) and apply only when kept.
#include "../tools/toolstest.h"

#include <agentsession/agentsession.h>
#include <futureresult.h>
#include <loop/agent.h>
#include <page/conversationpage.h>
#include <permissions/projecttrust.h>
#include <review/reviewqueue.h>
#include <scriptedmodel.h>
#include <session/sessionlog.h>
#include <statusbar/agentstatusbar.h>
#include <testmain.h>
#include <window/dialogsequence.h>
#include <window/mainwindow.h>
#include <window/projecttrustdialog.h>
#include <window/sessionrulesdialog.h>

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QApplication>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace AgentCore;
namespace tst_projecttrust {

using TestSupport::ModelStep;
using TestSupport::ScriptedModel;
using Ui::AgentSession;
using Ui::ProjectTrustDialog;
using Ui::SessionRulesDialog;

namespace {

constexpr int runTimeoutMs = 15'000;
const QByteArray wideSettings
    = "{\"permissions\": {\"allow\": [\"Bash\"], \"deny\": [\"Bash(curl:*)\"], "
      "\"defaultMode\": \"bypass\"}}";

QStringList items(const QListWidget *list)
{
    QStringList texts;
    for (int i = 0; i < list->count(); ++i)
        texts.append(list->item(i)->text());
    return texts;
}

} // namespace

class tst_ProjectTrust : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AgentDeskTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_projecttrust"));
    }

    void cleanup()
    {
        m_window.reset();
        m_repo.reset();
        m_mcpConfig.clear();
    }

    void dialogListsWhatIsAsked()
    {
        const QStringList grants{QStringLiteral("allow: Bash"),
                                 QStringLiteral("defaultMode: bypass")};
        ProjectTrustDialog dialog(QStringLiteral("/src/repo"), grants);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QCOMPARE(items(dialog.findChild<QListWidget *>(QStringLiteral("grants"))), grants);
        auto distrust = dialog.findChild<QPushButton *>(QStringLiteral("distrustButton"));
        auto trust = dialog.findChild<QPushButton *>(QStringLiteral("trustButton"));
        QVERIFY(distrust && trust);
        QVERIFY(distrust->isDefault()); // Enter does not widen the agent's permissions
        QTest::mouseClick(trust, Qt::LeftButton);
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
    }

    // Issue #15: the dialog by keyboard. Esc and Enter (on the default button, which has
    // the focus) both leave the repository untrusted; Tab reaches Trust.
    void dialogByKeyboard_data()
    {
        QTest::addColumn<bool>("tabToTrust");
        QTest::addColumn<int>("key");
        QTest::addColumn<int>("result");
        QTest::newRow("Esc") << false << int(Qt::Key_Escape) << int(QDialog::Rejected);
        QTest::newRow("Enter") << false << int(Qt::Key_Return) << int(QDialog::Rejected);
        QTest::newRow("Tab to Trust, Space")
            << true << int(Qt::Key_Space) << int(QDialog::Accepted);
    }

    void dialogByKeyboard()
    {
        QFETCH(bool, tabToTrust);
        QFETCH(int, key);
        QFETCH(int, result);
        ProjectTrustDialog dialog(QStringLiteral("/src/repo"), {QStringLiteral("allow: Bash")});
        QSignalSpy finished(&dialog, &QDialog::finished);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        dialog.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&dialog));
        auto distrust = dialog.findChild<QPushButton *>(QStringLiteral("distrustButton"));
        auto trust = dialog.findChild<QPushButton *>(QStringLiteral("trustButton"));
        QCOMPARE(QApplication::focusWidget(), distrust);
        for (int i = 0; tabToTrust && QApplication::focusWidget() != trust && i < 5; ++i)
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        if (tabToTrust)
            QCOMPARE(QApplication::focusWidget(), trust);
        QTest::keyClick(QApplication::focusWidget(), Qt::Key(key));
        QTRY_COMPARE(finished.size(), 1);
        QCOMPARE(dialog.result(), result);
    }

    // Issue #15 in the window: a session started in bypass warns without asking; choosing
    // bypass in a session asks once, Cancel keeps the mode the session has.
    void bypassInTheWindow()
    {
        openWindow({}, {}, PermissionMode::Bypass);
        Ui::AgentStatusBar *bar = m_window->findChild<Ui::AgentStatusBar *>();
        QVERIFY(bar);
        QWidget *warning = bar->findChild<QWidget *>(QStringLiteral("bypassWarning"));
        QVERIFY(warning && warning->isVisible());
        chooseMode(bar, PermissionMode::Default);
        QCOMPARE(session()->permissionMode(), PermissionMode::Default);
        QVERIFY(!warning->isVisible());
        chooseMode(bar, PermissionMode::Bypass);
        QTest::qWait(50);
        QVERIFY(!confirmation(bar));
        QCOMPARE(session()->permissionMode(), PermissionMode::Bypass);

        // A new conversation started in default mode asks.
        m_window.reset();
        openWindow({}, {}, PermissionMode::Default);
        bar = m_window->findChild<Ui::AgentStatusBar *>();
        warning = bar->findChild<QWidget *>(QStringLiteral("bypassWarning"));
        QVERIFY(!warning->isVisible());
        chooseMode(bar, PermissionMode::Bypass);
        QTRY_VERIFY(confirmation(bar));
        QTest::keyClick(confirmation(bar), Qt::Key_Escape);
        QTRY_VERIFY(!confirmation(bar));
        QCOMPARE(session()->permissionMode(), PermissionMode::Default);
        QCOMPARE(bar->permissionMode(), PermissionMode::Default);
        QVERIFY(!warning->isVisible());

        chooseMode(bar, PermissionMode::Bypass);
        QTRY_VERIFY(confirmation(bar));
        QTest::mouseClick(confirmation(bar)->findChild<QPushButton *>(
                              QStringLiteral("confirmBypassButton")),
                          Qt::LeftButton);
        QTRY_COMPARE(session()->permissionMode(), PermissionMode::Bypass);
        QVERIFY(warning->isVisible());

        // The next conversation starts in the chosen mode: warned, not asked.
        QVERIFY(m_window->openRepository(m_repo->root()));
        QTRY_VERIFY_WITH_TIMEOUT(session()->agent(), runTimeoutMs);
        QCOMPARE(session()->permissionMode(), PermissionMode::Bypass);
        QVERIFY(warning->isVisible());
        QVERIFY(!confirmation(bar));
    }

    void trustAppliesAndIsRemembered()
    {
        openWindow({}, wideSettings);
        ProjectTrustDialog *dialog = waitForDialog();
        QVERIFY(dialog);
        QCOMPARE(items(dialog->findChild<QListWidget *>(QStringLiteral("grants"))),
                 QStringList(
                     {QStringLiteral("allow: Bash"), QStringLiteral("defaultMode: bypass")}));
        // Not applied while the user decides; the deny rule applies either way.
        QCOMPARE(session()->permissionMode(), PermissionMode::Default);

        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("trustButton")),
                          Qt::LeftButton);
        QCOMPARE(session()->permissionMode(), PermissionMode::Bypass);
        QVERIFY(session()->untrustedGrants().isEmpty());
        QCOMPARE(ProjectTrust::load(m_trustStore, m_repo->root()).grants(),
                 QStringList(
                     {QStringLiteral("allow: Bash"), QStringLiteral("defaultMode: bypass")}));

        // The next conversation applies it without asking again.
        QVERIFY(m_window->openRepository(m_repo->root()));
        QTRY_VERIFY_WITH_TIMEOUT(session()->agent(), runTimeoutMs);
        QCOMPARE(session()->permissionMode(), PermissionMode::Bypass);
        QTest::qWait(50);
        QVERIFY(!m_window->findChild<ProjectTrustDialog *>());
    }

    void distrustKeepsTheUsersSettings()
    {
        openWindow({}, wideSettings);
        ProjectTrustDialog *dialog = waitForDialog();
        QVERIFY(dialog);
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("distrustButton")),
                          Qt::LeftButton);
        QCOMPARE(session()->permissionMode(), PermissionMode::Default);
        QVERIFY(ProjectTrust::load(m_trustStore, m_repo->root()).grants().isEmpty());
        QCOMPARE(session()->untrustedGrants().size(), 2);
    }

    // The issue's scenario: in acceptEdits the agent writes settings.local.json granting
    // bypass. It is reviewed, "always" is not offered, and the session does not change.
    void agentSettingsChangeIsReviewedAndWaits()
    {
        const QString content = QString::fromUtf8(wideSettings);
        openWindow({ModelStep::toolCall(QStringLiteral("w1"),
                                        QStringLiteral("Write"),
                                        {{"file_path", ".agentdesk/settings.local.json"},
                                         {"content", content}}),
                    ModelStep::text(QStringLiteral("Now I can do anything."))},
                   {},
                   PermissionMode::AcceptEdits);
        session()->send(QStringLiteral("give yourself more rights"));
        QTRY_COMPARE_WITH_TIMEOUT(page()->reviews()->count(), 1, runTimeoutMs);
        QWidget *review = page()->reviews()->currentView();
        auto always = review->findChild<QAbstractButton *>(QStringLiteral("allowAlwaysButton"));
        auto forSession = review->findChild<QAbstractButton *>(
            QStringLiteral("allowSessionButton"));
        QVERIFY(always && forSession);
        QVERIFY(!always->isEnabled());
        QVERIFY(!forSession->isEnabled());
        QTest::mouseClick(review->findChild<QAbstractButton *>(QStringLiteral("allowOnceButton")),
                          Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(session()->state(), AgentSession::State::Idle, runTimeoutMs);
        QCOMPARE(m_repo->read(QStringLiteral(".agentdesk/settings.local.json")), wideSettings);
        // Written, but not re-read during the session: it waits for the next start (and
        // then for the user's trust).
        QCOMPARE(session()->permissionMode(), PermissionMode::AcceptEdits);
        QVERIFY(session()->untrustedGrants().isEmpty());
        QVERIFY(!m_window->findChild<ProjectTrustDialog *>());
    }

    // Issue #31, item 9: a session file allowing Write for the session, resumed in the window,
    // shows its rules and applies none until kept. Drop (clicked, or Enter: the default) leaves
    // a Write asking and the rule out of the file; Keep lets it run unasked.
    void resumedSessionRulesAskFirst_data()
    {
        QTest::addColumn<int>("answer"); // 0 click Drop, 1 press Enter, 2 click Keep
        QTest::newRow("Drop") << 0;
        QTest::newRow("Enter drops") << 1;
        QTest::newRow("Keep") << 2;
    }

    void resumedSessionRulesAskFirst()
    {
        QFETCH(int, answer);
        const bool keep = answer == 2;
        openWindow({ModelStep::text(QStringLiteral("Done."))}, {});
        session()->send(QStringLiteral("look around"));
        QTRY_COMPARE_WITH_TIMEOUT(session()->state(), AgentSession::State::Idle, runTimeoutMs);
        const QString path = session()->sessionPath();
        QVERIFY(!path.isEmpty());
        const QString sessions = m_config.filePath(QStringLiteral("sessions-%1").arg(m_windows));
        m_window.reset();
        {
            QString error;
            std::optional<SessionLog::Contents> contents = SessionLog::load(path, &error);
            QVERIFY2(contents, qPrintable(error));
            QJsonObject state = contents->state;
            state.insert(u"sessionRules",
                         QJsonArray{
                             QJsonObject{{QStringLiteral("rule"), QStringLiteral("Write")},
                                         {QStringLiteral("behavior"), QStringLiteral("allow")}}});
            const std::unique_ptr<SessionLog> log = SessionLog::open(path, {}, &error);
            QVERIFY2(log, qPrintable(error));
            QVERIFY(log->appendState(state, &error));
        }

        openWindow({ModelStep::toolCall(QStringLiteral("w1"),
                                        QStringLiteral("Write"),
                                        {{"file_path", "made.txt"}, {"content", "made\n"}}),
                    ModelStep::text(QStringLiteral("Written."))},
                   {},
                   std::nullopt,
                   sessions,
                   false);
        QVERIFY(TestSupport::futureResult(m_window->resumeSession(path)));
        QTRY_COMPARE(session()->sessionPath(), path);
        QTRY_VERIFY_WITH_TIMEOUT(session()->agent(), runTimeoutMs);
        SessionRulesDialog *dialog = nullptr;
        QVERIFY(QTest::qWaitFor(
            [&] { return (dialog = m_window->findChild<SessionRulesDialog *>()) != nullptr; },
            runTimeoutMs));
        QTRY_VERIFY(dialog->isVisible());
        QCOMPARE(items(dialog->findChild<QListWidget *>(QStringLiteral("sessionRules"))),
                 QStringList{QStringLiteral("allow Write")});
        // Nothing applies while the user decides.
        QCOMPARE(session()->unconfirmedSessionRules(), QStringList{QStringLiteral("allow Write")});
        auto drop = dialog->findChild<QPushButton *>(QStringLiteral("dropButton"));
        auto keepButton = dialog->findChild<QPushButton *>(QStringLiteral("keepButton"));
        QVERIFY(drop && keepButton);
        QVERIFY(drop->isDefault());
        if (answer == 2) // looked at by a person
            QVERIFY(dialog->grab().save(QStringLiteral("/tmp/session-rules.png")));
        if (answer == 0) {
            QTest::mouseClick(drop, Qt::LeftButton);
        } else if (answer == 1) {
            dialog->activateWindow();
            QVERIFY(QTest::qWaitForWindowActive(dialog));
            QCOMPARE(QApplication::focusWidget(), drop);
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
        } else {
            QTest::mouseClick(keepButton, Qt::LeftButton);
        }
        QTRY_VERIFY(!m_window->findChild<SessionRulesDialog *>());
        QVERIFY(session()->unconfirmedSessionRules().isEmpty());

        session()->send(QStringLiteral("make the file"));
        if (keep) {
            QTRY_COMPARE_WITH_TIMEOUT(session()->state(), AgentSession::State::Idle, runTimeoutMs);
            QCOMPARE(m_repo->read(QStringLiteral("made.txt")), QByteArray("made\n"));
            QCOMPARE(page()->reviews()->count(), 0);
        } else {
            QTRY_COMPARE_WITH_TIMEOUT(page()->reviews()->count(), 1, runTimeoutMs);
            QVERIFY(!QFileInfo::exists(m_repo->root() + QStringLiteral("/made.txt")));
        }
        QString error;
        const std::optional<SessionLog::Contents> after = SessionLog::load(path, &error);
        QVERIFY2(after, qPrintable(error));
        QCOMPARE(after->state.value(u"sessionRules").toArray().size(), keep ? 1 : 0);
    }

    // Issue #34: a repository whose settings files and .mcp.json both ask for trust gets one
    // question at a time, each window-modal in front of the window (two at once put the second
    // behind it); answering one brings the other.
    void oneTrustQuestionAtATime()
    {
        m_mcpConfig = R"({"mcpServers": {"local": {"command": "true"}}})";
        openWindow({}, wideSettings);
        auto sequence = m_window->findChild<Ui::DialogSequence *>();
        QVERIFY(sequence);
        const auto shown = [this] {
            QList<QDialog *> visible;
            for (QDialog *dialog : m_window->findChildren<QDialog *>()) {
                if (dialog->isVisible())
                    visible.append(dialog);
            }
            return visible;
        };
        QTRY_COMPARE_WITH_TIMEOUT(shown().size(), 1, runTimeoutMs);
        // Until the other question came (it waits), never two.
        QElapsedTimer clock;
        clock.start();
        while (sequence->waiting() == 0 && clock.elapsed() < runTimeoutMs) {
            QCOMPARE(shown().size(), 1);
            QTest::qWait(20);
        }
        QList<QDialog *> visible = shown();
        QCOMPARE(visible.size(), 1);
        QStringList asked{visible.first()->objectName()};
        QVERIFY(visible.first()->windowModality() == Qt::WindowModal);
        QCOMPARE(visible.first()->parentWidget(), m_window.get());

        QTest::mouseClick(visible.first()->findChild<QPushButton *>(
                              QStringLiteral("distrustButton")),
                          Qt::LeftButton);
        QTRY_VERIFY(shown().size() == 1 && shown().first()->objectName() != asked.first());
        visible = shown();
        asked.append(visible.first()->objectName());
        QVERIFY(visible.first()->windowModality() == Qt::WindowModal);
        QCOMPARE(visible.first()->parentWidget(), m_window.get());
        asked.sort();
        QCOMPARE(asked,
                 (QStringList{QStringLiteral("mcpTrustDialog"),
                              QStringLiteral("projectTrustDialog")}));
        QTest::mouseClick(visible.first()->findChild<QPushButton *>(
                              QStringLiteral("distrustButton")),
                          Qt::LeftButton);
        QTRY_VERIFY(shown().isEmpty());
        QCOMPARE(sequence->waiting(), 0);
        QCOMPARE(session()->untrustedGrants().size(), 2);
    }

    // A resumed session in bypass in a repository whose settings ask for trust: the bypass
    // question and the trust question come in turn, never both at once.
    void resumedBypassAndTrustAskInTurn()
    {
        const QString sessions = m_config.filePath(QStringLiteral("sessions-bypass"));
        openWindow({ModelStep::text(QStringLiteral("Done."))}, {}, PermissionMode::Bypass, sessions);
        session()->send(QStringLiteral("a task in bypass"));
        QTRY_COMPARE_WITH_TIMEOUT(session()->state(), AgentSession::State::Idle, runTimeoutMs);
        const QString path = session()->sessionPath();
        m_window.reset();

        openWindow({}, wideSettings, std::nullopt, sessions, false);
        ProjectTrustDialog *first = waitForDialog(); // the new conversation's
        QVERIFY(first);
        QTest::mouseClick(first->findChild<QPushButton *>(QStringLiteral("distrustButton")),
                          Qt::LeftButton);
        QTRY_VERIFY(!m_window->findChild<ProjectTrustDialog *>());
        QVERIFY(TestSupport::futureResult(m_window->resumeSession(path)));
        QTRY_VERIFY_WITH_TIMEOUT(session()->agent() && session()->sessionPath() == path,
                                 runTimeoutMs);
        const auto shown = [this] {
            QList<QDialog *> visible;
            for (QDialog *dialog : m_window->findChildren<QDialog *>()) {
                if (dialog->isVisible())
                    visible.append(dialog);
            }
            return visible;
        };
        QStringList asked;
        for (int i = 0; i < 2; ++i) {
            QTRY_COMPARE_WITH_TIMEOUT(shown().size(), 1, runTimeoutMs);
            QTest::qWait(100);
            QCOMPARE(shown().size(), 1);
            QDialog *dialog = shown().first();
            asked.append(dialog->objectName());
            auto cancel = dialog->findChild<QPushButton *>(QStringLiteral("distrustButton"));
            if (auto box = qobject_cast<QMessageBox *>(dialog))
                box->button(QMessageBox::Cancel)->click();
            else
                QTest::mouseClick(cancel, Qt::LeftButton);
            QTRY_VERIFY(!dialog->isVisible() || shown().value(0) != dialog);
        }
        QTRY_VERIFY(shown().isEmpty());
        asked.sort();
        QCOMPARE(asked,
                 (QStringList{QStringLiteral("bypassConfirmation"),
                              QStringLiteral("projectTrustDialog")}));
        QCOMPARE(session()->permissionMode(), PermissionMode::Default);
    }

private:
    void openWindow(const QList<ModelStep> &steps,
                    const QByteArray &localSettings,
                    std::optional<PermissionMode> mode = std::nullopt,
                    const QString &sessionsDirectory = {},
                    bool newRepository = true)
    {
        if (newRepository || !m_repo)
            m_repo = std::make_unique<ToolsTest::Repo>();
        QVERIFY(m_repo->isValid());
        if (!localSettings.isEmpty())
            QVERIFY(m_repo->write(QStringLiteral(".agentdesk/settings.local.json"), localSettings));
        if (!m_mcpConfig.isEmpty())
            QVERIFY(m_repo->write(QStringLiteral(".mcp.json"), m_mcpConfig));
        QVERIFY(m_config.isValid());
        m_trustStore = m_config.filePath(QStringLiteral("trusted-%1.json").arg(++m_windows));
        Ui::AgentSetup setup;
        setup.model.client = std::make_shared<ScriptedModel>(steps);
        setup.model.label = QStringLiteral("scripted");
        setup.options.systemPrompt = QStringLiteral("You are tested.");
        setup.options.permissions.projectTrustPath = m_trustStore;
        setup.options.permissions.mode = mode;
        setup.sessionsDirectory = sessionsDirectory.isEmpty() ? m_config.filePath(
                                      QStringLiteral("sessions-%1").arg(m_windows))
                                                              : sessionsDirectory;
        m_window = std::make_unique<Ui::MainWindow>(setup);
        m_window->resize(900, 600);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        QVERIFY(m_window->openRepository(m_repo->root()));
        QTRY_VERIFY_WITH_TIMEOUT(session()->agent(), runTimeoutMs);
    }

    ProjectTrustDialog *waitForDialog()
    {
        const auto shown = [this] { return m_window->findChild<ProjectTrustDialog *>() != nullptr; };
        if (!QTest::qWaitFor(shown, runTimeoutMs))
            return nullptr;
        return m_window->findChild<ProjectTrustDialog *>();
    }

    static void chooseMode(Ui::AgentStatusBar *bar, PermissionMode mode)
    {
        auto box = bar->findChild<QComboBox *>(QStringLiteral("permissionMode"));
        QVERIFY(box);
        box->showPopup();
        QTRY_VERIFY(box->view()->isVisible());
        box->view()->setCurrentIndex(box->model()->index(box->findData(int(mode)), 0));
        QTest::keyClick(box->view(), Qt::Key_Return);
        QTRY_VERIFY(!box->view()->isVisible());
    }

    static QMessageBox *confirmation(const Ui::AgentStatusBar *bar)
    {
        auto box = bar->findChild<QMessageBox *>(QStringLiteral("bypassConfirmation"));
        return box && box->isVisible() ? box : nullptr;
    }

    Ui::ConversationPage *page() const { return m_window->conversationPage(); }
    AgentSession *session() const { return m_window->session(); }

    QTemporaryDir m_config;
    QString m_trustStore;
    int m_windows = 0;
    QByteArray m_mcpConfig; // written as the repository's .mcp.json when set
    std::unique_ptr<ToolsTest::Repo> m_repo;
    std::unique_ptr<Ui::MainWindow> m_window;
};

AGENTDESK_TEST_MAIN(tst_ProjectTrust)

} // namespace tst_projecttrust

#include "tst_projecttrust.moc"
