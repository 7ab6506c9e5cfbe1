// A session in a git worktree of its own, in the real window with real git: its agent edits
// the worktree and never the main checkout, the user brings back the hunks they accept, and a
// resumed session whose worktree was deleted outside AgentDesk is shown read-only instead of
// running in the main checkout.
#include "../checkpoint/checkpointtesttree.h"

#include <agentsession/agentsession.h>
#include <composer/composer.h>
#include <futureresult.h>
#include <page/conversationpage.h>
#include <review/reviewqueue.h>
#include <review/shellwritesreviewview.h>
#include <scriptedmodel.h>
#include <session/sessionlog.h>
#include <sessions/sessionspanel.h>
#include <slowgit.h>
#include <testmain.h>
#include <window/mainwindow.h>
#include <worktree/sessionworktrees.h>

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QElapsedTimer>
#include <QLabel>
#include <QMessageBox>
#include <QPointer>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>
#include <QTimer>

#include <memory>

using namespace AgentCore;
using namespace CheckpointTest;
namespace tst_worktreesession {

using TestSupport::ModelStep;
using TestSupport::ScriptedModel;
using Ui::AgentSession;

namespace {

constexpr int runTimeoutMs = 15'000;

QByteArray fortyLines()
{
    QByteArray text;
    for (int i = 1; i <= 40; ++i)
        text += "line " + QByteArray::number(i) + '\n';
    return text;
}

QJsonObject editArguments(const QString &oldText, const QString &newText)
{
    return {{QStringLiteral("file_path"), QStringLiteral("a.txt")},
            {QStringLiteral("old_string"), oldText},
            {QStringLiteral("new_string"), newText}};
}

} // namespace

class tst_WorktreeSession : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AgentDeskTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_worktreesession"));
    }
    void init()
    {
        // The window's git runs on worker threads: one on the UI thread fails the test.
        QTest::failOnWarning(QRegularExpression(QStringLiteral("runs on the UI thread")));
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        m_root = m_dir->filePath(QStringLiteral("main"));
        QVERIFY(QDir().mkpath(m_root));
        QVERIFY(git(m_root, {QStringLiteral("init"), QStringLiteral("-q")}));
        QVERIFY(writeFile(m_root + QStringLiteral("/a.txt"), fortyLines()));
        QVERIFY(git(m_root, {QStringLiteral("add"), QStringLiteral("-A")}));
        QVERIFY(git(m_root,
                    {QStringLiteral("commit"),
                     QStringLiteral("-q"),
                     QStringLiteral("-m"),
                     QStringLiteral("base")}));
    }
    void cleanup()
    {
        m_window.reset();
        m_dir.reset();
    }

    void editsStayInTheWorktreeUntilBroughtBack();
    void worktreeInTheDataFolderIsTheSessionsOwn();
    void gitRunsInTheWorktreesBash();
    void resumedSessionFindsItsWorktreeOrIsReadOnly();
    void deletingAsksToKeepUncommittedWorkOnTheBranch();
    void keepAsBranchCommitsOffTheUiThread();
    void notAGitRepositoryHasNoWorktreeSessions();

private:
    Ui::AgentSession *session() const { return m_window->session(); }
    /// \a dataFolder: the worktrees in a protected folder, as AgentDesk's data folder is.
    void openWindow(const QList<ModelStep> &steps, bool dataFolder = false);
    QString dataFolder() const { return m_dir->filePath(QStringLiteral("data")); }
    QString configFolder() const { return m_dir->filePath(QStringLiteral("config")); }
    /// "New Session in a Worktree…" from the sessions panel, until the session is assembled.
    void startWorktreeSession();
    void type(const QString &text)
    {
        Ui::Composer *composer = m_window->conversationPage()->composer();
        QTest::keyClicks(composer, text);
        QTest::keyClick(composer, Qt::Key_Return);
    }
    QAction *action(const char *name) const
    {
        return m_window->findChild<QAction *>(QLatin1String(name));
    }

    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_root;
    std::shared_ptr<ScriptedModel> m_model;
    std::unique_ptr<Ui::MainWindow> m_window;
};

void tst_WorktreeSession::openWindow(const QList<ModelStep> &steps, bool dataFolder)
{
    m_window.reset();
    m_model = std::make_shared<ScriptedModel>(steps);
    Ui::AgentSetup setup;
    setup.model.client = m_model;
    setup.model.label = QStringLiteral("scripted");
    setup.options.systemPrompt = QStringLiteral("You are tested.");
    setup.options.permissions.mode = PermissionMode::AcceptEdits; // no review of the edits
    setup.sessionsDirectory = m_dir->filePath(QStringLiteral("sessions"));
    setup.worktreesDirectory = m_dir->filePath(QStringLiteral("worktrees"));
    if (dataFolder) {
        // As CodingSession::defaultOptions() protects the real ones.
        setup.worktreesDirectory = this->dataFolder() + QStringLiteral("/worktrees");
        setup.options.permissions.protectedPaths = {this->dataFolder(), configFolder()};
    }
    m_window = std::make_unique<Ui::MainWindow>(setup);
    m_window->resize(1200, 760);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    QVERIFY(m_window->openRepository(m_root));
    QTRY_VERIFY_WITH_TIMEOUT(session()->agent(), runTimeoutMs);
}

void tst_WorktreeSession::startWorktreeSession()
{
    QAction *newInWorktree = m_window->sessionsPanel()->newInWorktreeAction();
    QVERIFY2(newInWorktree->isEnabled(), qPrintable(newInWorktree->toolTip()));
    QVERIFY(!session()->worktree());
    newInWorktree->trigger();
    // (The new session may take the old one's address: its worktree tells them apart.)
    QTRY_VERIFY2_WITH_TIMEOUT(session()->worktree(),
                              qPrintable(m_window->statusBar()->currentMessage()),
                              runTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(session()->agent(), runTimeoutMs);
}

void tst_WorktreeSession::editsStayInTheWorktreeUntilBroughtBack()
{
    openWindow({ModelStep::toolCall(QStringLiteral("r1"),
                                    QStringLiteral("Read"),
                                    {{QStringLiteral("file_path"), QStringLiteral("a.txt")}}),
                ModelStep::toolCall(QStringLiteral("e1"),
                                    QStringLiteral("Edit"),
                                    editArguments(QStringLiteral("line 3\n"),
                                                  QStringLiteral("line three\n"))),
                ModelStep::toolCall(QStringLiteral("e2"),
                                    QStringLiteral("Edit"),
                                    editArguments(QStringLiteral("line 37\n"),
                                                  QStringLiteral("line thirty-seven\n"))),
                ModelStep::text(QStringLiteral("Both lines are spelled out."))});
    QVERIFY(!action("bringBackAction")->isEnabled()); // an ordinary session
    startWorktreeSession();
    const SessionWorktree worktree = *session()->worktree();
    QVERIFY(worktree.branch.startsWith(QStringLiteral("agentdesk/session-")));
    QVERIFY(worktree.path.startsWith(m_dir->filePath(QStringLiteral("worktrees"))));
    QCOMPARE(session()->repositoryRoot(), worktree.path); // the agent's root
    // The window says where the session works.
    auto label = m_window->findChild<QLabel *>(QStringLiteral("worktreeLabel"));
    QVERIFY(label->isVisible());
    QVERIFY(label->text().contains(worktree.branch));
    // So does its welcome: the worktree's branch and folder, not the main checkout's.
    Ui::ConversationPage *page = m_window->conversationPage();
    QCOMPARE(page->findChild<QLabel *>(QStringLiteral("repositoryHead"))->text(),
             QStringLiteral("Branch: %1").arg(worktree.branch));
    QCOMPARE(page->findChild<QLabel *>(QStringLiteral("repositoryPath"))->text(),
             QDir::toNativeSeparators(worktree.path));

    type(QStringLiteral("spell out lines 3 and 37"));
    QTRY_COMPARE_WITH_TIMEOUT(m_model->callCount(), 4, runTimeoutMs);
    QTRY_COMPARE_WITH_TIMEOUT(session()->state(), AgentSession::State::Idle, runTimeoutMs);

    QByteArray both = fortyLines();
    both.replace("line 3\n", "line three\n");
    both.replace("line 37\n", "line thirty-seven\n");
    QCOMPARE(readFile(worktree.path + QStringLiteral("/a.txt")), both);
    QCOMPARE(readFile(m_root + QStringLiteral("/a.txt")), fortyLines()); // untouched
    // The session file keeps its worktree for the resume.
    QString error;
    const auto contents = SessionLog::load(session()->sessionPath(), &error);
    QVERIFY2(contents, qPrintable(error));
    QCOMPARE(SessionWorktree::fromState(contents->state)->branch, worktree.branch);

    // Bring back the first hunk only.
    QVERIFY(action("bringBackAction")->isEnabled());
    action("bringBackAction")->trigger();
    Ui::ShellWritesReviewView *view = nullptr;
    QTRY_VERIFY((view = m_window->findChild<Ui::ShellWritesReviewView *>()) && view->isVisible());
    view->setHunkAccepted(0, 1, false);
    view->findChild<QAbstractButton *>(QStringLiteral("allowOnceButton"))->click();
    QTRY_VERIFY(!m_window->findChild<Ui::ShellWritesReviewView *>());

    // Written on a worker thread; the status bar says when it is done.
    QTRY_VERIFY2_WITH_TIMEOUT(m_window->statusBar()->currentMessage().contains(
                                  QStringLiteral("Brought back 1")),
                              qPrintable(m_window->statusBar()->currentMessage()),
                              runTimeoutMs);
    QVERIFY(!m_window->isWorktreeBusy());
    QByteArray first = fortyLines();
    first.replace("line 3\n", "line three\n");
    QCOMPARE(readFile(m_root + QStringLiteral("/a.txt")), first);
    QCOMPARE(readFile(worktree.path + QStringLiteral("/a.txt")), both); // the branch keeps all
}

// Issue #34, item 1: the window's worktrees live in AgentDesk's data folder, which is
// protected as AgentDesk's own. A worktree session works in its worktree as in any checkout:
// acceptEdits edits it without a question. What is AgentDesk's own stays so: the worktree's
// .agentdesk/ settings and a command naming AgentDesk's settings folder ask, without
// "Allow for this session".
void tst_WorktreeSession::worktreeInTheDataFolderIsTheSessionsOwn()
{
    QVERIFY(QDir().mkpath(configFolder()));
    const QString removeSettings = QStringLiteral("for f in %1/*; do rm $f; done")
                                       .arg(QFileInfo(configFolder()).canonicalFilePath());
    openWindow({ModelStep::toolCall(QStringLiteral("r1"),
                                    QStringLiteral("Read"),
                                    {{QStringLiteral("file_path"), QStringLiteral("a.txt")}}),
                ModelStep::toolCall(QStringLiteral("e1"),
                                    QStringLiteral("Edit"),
                                    editArguments(QStringLiteral("line 3\n"),
                                                  QStringLiteral("line three\n"))),
                ModelStep::toolCall(QStringLiteral("w1"),
                                    QStringLiteral("Write"),
                                    {{QStringLiteral("file_path"),
                                      QStringLiteral(".agentdesk/settings.local.json")},
                                     {QStringLiteral("content"), QStringLiteral("{}")}}),
                ModelStep::toolCall(QStringLiteral("b1"),
                                    QStringLiteral("Bash"),
                                    {{QStringLiteral("command"), removeSettings}}),
                ModelStep::text(QStringLiteral("Done."))},
               true);
    startWorktreeSession();
    const SessionWorktree worktree = *session()->worktree();
    QVERIFY(worktree.path.startsWith(dataFolder()));
    QCOMPARE(session()->permissionMode(), PermissionMode::AcceptEdits);
    Ui::ConversationPage *page = m_window->conversationPage();

    type(QStringLiteral("spell out line 3, then widen your rights"));
    // The edit went through unasked; the settings file waits for the user.
    QTRY_COMPARE_WITH_TIMEOUT(page->reviews()->count(), 1, runTimeoutMs);
    QByteArray edited = fortyLines();
    edited.replace("line 3\n", "line three\n");
    QCOMPARE(readFile(worktree.path + QStringLiteral("/a.txt")), edited);
    const auto answerProtected = [page] {
        QWidget *review = page->reviews()->currentView();
        auto forSession = review->findChild<QAbstractButton *>(
            QStringLiteral("allowSessionButton"));
        auto always = review->findChild<QAbstractButton *>(QStringLiteral("allowAlwaysButton"));
        QVERIFY(forSession && always);
        QVERIFY(!forSession->isEnabled());
        QVERIFY(!always->isEnabled());
        // A review that just arrived may not be laid out yet on a loaded machine: a click at
        // the centre of a button without a size misses it, and the run waits for an answer.
        auto deny = review->findChild<QAbstractButton *>(QStringLiteral("denyButton"));
        QVERIFY(deny);
        QTRY_VERIFY(deny->isVisible() && deny->isEnabled() && !deny->size().isEmpty());
        QTest::mouseClick(deny, Qt::LeftButton);
    };
    const QPointer<QWidget> firstReview = page->reviews()->currentView();
    answerProtected();
    QTRY_COMPARE_WITH_TIMEOUT(m_model->callCount(), 4, runTimeoutMs);
    // The second question, not the first still on its way out (a loaded machine shows both).
    QTRY_VERIFY_WITH_TIMEOUT(page->reviews()->count() == 1
                                 && page->reviews()->currentView() != firstReview.data(),
                             runTimeoutMs);
    answerProtected();
    QTRY_COMPARE_WITH_TIMEOUT(session()->state(), AgentSession::State::Idle, runTimeoutMs);
    QCOMPARE(m_model->callCount(), 5);
    QVERIFY(!QFileInfo::exists(worktree.path + QStringLiteral("/.agentdesk/settings.local.json")));
}

// Issue #34, item 2: the main checkout under /tmp (this test's folder), which the sandbox
// makes private, and the worktree in the data folder: git works in the session's Bash.
void tst_WorktreeSession::gitRunsInTheWorktreesBash()
{
    openWindow({ModelStep::toolCall(QStringLiteral("b1"),
                                    QStringLiteral("Bash"),
                                    {{QStringLiteral("command"),
                                      QStringLiteral("git status --short --branch && git log "
                                                     "--format=%s && git diff --stat")}}),
                ModelStep::text(QStringLiteral("Done."))},
               true);
    QVERIFY(m_root.startsWith(QStringLiteral("/tmp/")));
    startWorktreeSession();
    const SessionWorktree worktree = *session()->worktree();
    type(QStringLiteral("where are we?"));
    QTRY_COMPARE_WITH_TIMEOUT(m_model->callCount(), 2, runTimeoutMs);
    QTRY_COMPARE_WITH_TIMEOUT(session()->state(), AgentSession::State::Idle, runTimeoutMs);
    QString result;
    const Context second = m_model->contexts().at(1);
    for (auto it = second.messages.crbegin(); it != second.messages.crend(); ++it) {
        if (it->isToolResult()) {
            result = it->text();
            break;
        }
    }
    QVERIFY2(result.startsWith(QStringLiteral("## %1\nbase").arg(worktree.branch)),
             qPrintable(result));
}

void tst_WorktreeSession::resumedSessionFindsItsWorktreeOrIsReadOnly()
{
    openWindow({ModelStep::text(QStringLiteral("noted")), ModelStep::text(QStringLiteral("again"))});
    startWorktreeSession();
    const SessionWorktree worktree = *session()->worktree();
    type(QStringLiteral("note this"));
    QTRY_COMPARE_WITH_TIMEOUT(m_model->callCount(), 1, runTimeoutMs);
    QTRY_COMPARE_WITH_TIMEOUT(session()->state(), AgentSession::State::Idle, runTimeoutMs);
    const QString path = session()->sessionPath();

    // A new window: the session goes on in its worktree.
    openWindow({ModelStep::text(QStringLiteral("resumed"))});
    QVERIFY(session()->sessionPath() != path);
    QVERIFY(TestSupport::futureResult(m_window->resumeSession(path)));
    QTRY_VERIFY_WITH_TIMEOUT(session()->agent(), runTimeoutMs);
    QVERIFY(!session()->isReadOnly());
    QCOMPARE(session()->repositoryRoot(), worktree.path);
    QVERIFY(action("bringBackAction")->isEnabled());

    // Deleted outside AgentDesk: reported, read-only, not run in the main checkout.
    m_window.reset();
    QVERIFY(git(m_root,
                {QStringLiteral("worktree"),
                 QStringLiteral("remove"),
                 QStringLiteral("--force"),
                 worktree.path}));
    QVERIFY(git(m_root, {QStringLiteral("branch"), QStringLiteral("-D"), worktree.branch}));
    openWindow({ModelStep::text(QStringLiteral("must not run"))});
    QVERIFY(TestSupport::futureResult(m_window->resumeSession(path)));
    QTRY_VERIFY_WITH_TIMEOUT(session()->agent(), runTimeoutMs);
    QVERIFY(session()->isReadOnly());
    QVERIFY(!session()->worktreeProblem().isEmpty());
    QVERIFY(session()->worktreeProblem().contains(worktree.branch));
    QVERIFY(m_window->statusBar()->currentMessage().contains(worktree.branch));
    QVERIFY(!m_window->conversationPage()->composer()->isEnabled());
    QVERIFY(!action("bringBackAction")->isEnabled());
    auto label = m_window->findChild<QLabel *>(QStringLiteral("worktreeLabel"));
    QVERIFY(label->isVisible());
    session()->send(QStringLiteral("run anyway"));
    QTest::qWait(200);
    QCOMPARE(m_model->callCount(), 0);
    QVERIFY(!QDir(worktree.path).exists()); // nothing recreated silently
    // The file still names the worktree: nothing was written over it.
    QString error;
    const auto contents = SessionLog::load(path, &error);
    QVERIFY2(contents, qPrintable(error));
    QVERIFY(SessionWorktree::fromState(contents->state));
}

void tst_WorktreeSession::deletingAsksToKeepUncommittedWorkOnTheBranch()
{
    openWindow({ModelStep::toolCall(QStringLiteral("r1"),
                                    QStringLiteral("Read"),
                                    {{QStringLiteral("file_path"), QStringLiteral("a.txt")}}),
                ModelStep::toolCall(QStringLiteral("e1"),
                                    QStringLiteral("Edit"),
                                    editArguments(QStringLiteral("line 3\n"),
                                                  QStringLiteral("line three\n"))),
                ModelStep::text(QStringLiteral("done"))});
    startWorktreeSession();
    const SessionWorktree worktree = *session()->worktree();
    type(QStringLiteral("spell out line 3"));
    QTRY_COMPARE_WITH_TIMEOUT(m_model->callCount(), 3, runTimeoutMs);
    QTRY_COMPARE_WITH_TIMEOUT(session()->state(), AgentSession::State::Idle, runTimeoutMs);
    const QString path = session()->sessionPath();

    // The question comes once the file and `git status` were read on a worker thread.
    QString asked;
    QTimer answer;
    connect(&answer, &QTimer::timeout, this, [&asked, &answer] {
        auto box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
        if (!box)
            return;
        answer.stop();
        asked = box->objectName();
        for (QAbstractButton *button : box->buttons()) {
            if (button->text() == QStringLiteral("Keep as Branch and Delete"))
                button->click();
        }
    });
    answer.start(20);
    emit m_window->sessionsPanel()->deleteRequested(path);
    QTRY_COMPARE_WITH_TIMEOUT(asked, QStringLiteral("deleteWorktreeBox"), runTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(!QFile::exists(path), runTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(!QDir(worktree.path).exists(), runTimeoutMs);
    QVERIFY(!session()->worktree()); // an ordinary conversation in its place
    // The branch outlives the worktree, with the session's edit committed on it.
    QProcess show;
    show.setWorkingDirectory(m_root);
    show.start(QStringLiteral("git"),
               {QStringLiteral("show"), worktree.branch + QStringLiteral(":a.txt")});
    QVERIFY(show.waitForFinished());
    QByteArray expected = fortyLines();
    expected.replace("line 3\n", "line three\n");
    QCOMPARE(show.readAllStandardOutput(), expected);
    QCOMPARE(readFile(m_root + QStringLiteral("/a.txt")), fortyLines());
}

// "Keep as Branch" runs git on a worker thread: with a git that takes a second per run the
// window goes on handling events, the worktree actions wait meanwhile, and the status bar says
// when the work is committed. A window closed before git is done drops the result.
void tst_WorktreeSession::keepAsBranchCommitsOffTheUiThread()
{
    openWindow({ModelStep::toolCall(QStringLiteral("r1"),
                                    QStringLiteral("Read"),
                                    {{QStringLiteral("file_path"), QStringLiteral("a.txt")}}),
                ModelStep::toolCall(QStringLiteral("e1"),
                                    QStringLiteral("Edit"),
                                    editArguments(QStringLiteral("line 3\n"),
                                                  QStringLiteral("line three\n"))),
                ModelStep::text(QStringLiteral("done"))});
    startWorktreeSession();
    const SessionWorktree worktree = *session()->worktree();
    type(QStringLiteral("spell out line 3"));
    QTRY_COMPARE_WITH_TIMEOUT(m_model->callCount(), 3, runTimeoutMs);
    QTRY_COMPARE_WITH_TIMEOUT(session()->state(), AgentSession::State::Idle, runTimeoutMs);
    QVERIFY(action("keepAsBranchAction")->isEnabled());

    const TestSupport::SlowGit slowGit(300); // Keep as Branch runs git about ten times
    QVERIFY(slowGit.isValid());
    // The event loop goes on while git works: the ticker ticks while the window is busy. (No
    // bound on how long trigger() takes: a loaded machine may take any time to return, but a
    // window that waited for git would return with the work done, and never tick meanwhile.)
    int ticksWhileBusy = 0;
    QTimer ticker;
    connect(&ticker, &QTimer::timeout, this, [this, &ticksWhileBusy] {
        ticksWhileBusy += m_window->isWorktreeBusy() ? 1 : 0;
    });
    ticker.start(20);
    QElapsedTimer clock;
    clock.start();
    action("keepAsBranchAction")->trigger();
    QVERIFY2(m_window->isWorktreeBusy(), "Keep as Branch waited for git");
    QVERIFY(!action("keepAsBranchAction")->isEnabled());
    QVERIFY(!action("bringBackAction")->isEnabled());
    QVERIFY2(m_window->statusBar()->currentMessage().contains(QStringLiteral("Committing")),
             qPrintable(m_window->statusBar()->currentMessage()));
    QTRY_VERIFY2_WITH_TIMEOUT(m_window->statusBar()->currentMessage().contains(
                                  QStringLiteral("is kept on branch")),
                              qPrintable(m_window->statusBar()->currentMessage()),
                              4 * runTimeoutMs);
    QVERIFY2(clock.elapsed() >= 300, "the slow git was not run");
    ticker.stop(); // it asks the window, which goes below
    QVERIFY2(ticksWhileBusy >= 1, "the event loop stood still while git ran");
    QVERIFY(!m_window->isWorktreeBusy());
    QVERIFY(action("keepAsBranchAction")->isEnabled());
    QProcess show;
    show.setWorkingDirectory(m_root);
    show.start(QStringLiteral("git"),
               {QStringLiteral("show"), worktree.branch + QStringLiteral(":a.txt")});
    QVERIFY(show.waitForFinished());
    QByteArray expected = fortyLines();
    expected.replace("line 3\n", "line three\n");
    QCOMPARE(show.readAllStandardOutput(), expected);

    // Closed while git runs: nothing is called on the window that is gone.
    action("keepAsBranchAction")->trigger();
    QVERIFY(m_window->isWorktreeBusy());
    m_window.reset();
    QVERIFY(QThreadPool::globalInstance()->waitForDone(30'000));
    QTest::qWait(50); // the result, had it not been dropped
}

void tst_WorktreeSession::notAGitRepositoryHasNoWorktreeSessions()
{
    QTemporaryDir plain;
    m_root = plain.path();
    openWindow({});
    QAction *newInWorktree = m_window->sessionsPanel()->newInWorktreeAction();
    QTRY_VERIFY(!newInWorktree->isEnabled()); // git is asked on a worker thread
    QVERIFY(newInWorktree->toolTip().contains(QStringLiteral("not a git repository")));
    m_window.reset();
}

AGENTDESK_TEST_MAIN(tst_WorktreeSession)

} // namespace tst_worktreesession

#include "tst_worktreesession.moc"
