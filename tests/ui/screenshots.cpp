// agentdesk_screenshots DIR: saves the window in its main states to DIR as PNG files, for
// people to look at (scripts/screenshots). Each state is a real window on a temporary git
// repository, driven like a user would drive it, with a scripted model.
#include "fakekeystore.h"

#include <agentsession/agentsession.h>
#include <ai/pricing.h>
#include <common/usagelabel.h>
#include <composer/composer.h>
#include <composer/composerpictures.h>
#include <context/compaction.h>
#include <context/rewind.h>
#include <contextview/compactdialog.h>
#include <contextview/contextdialog.h>
#include <conversation/compactionitem.h>
#include <conversation/conversationitem.h>
#include <conversation/conversationview.h>
#include <conversation/messageitem.h>
#include <conversation/taskcarditem.h>
#include <conversation/toolcarditem.h>
#include <futureresult.h>
#include <httptestserver.h>
#include <i18n/translations.h>
#include <loop/agent.h>
#include <mcp/mcpservers.h>
#include <page/conversationpage.h>
#include <review/diffreviewview.h>
#include <review/filediffview.h>
#include <review/reviewqueue.h>
#include <review/ruleofferbar.h>
#include <review/shellwritesreviewview.h>
#include <rewind/branchcontroller.h>
#include <rewind/branchtreedialog.h>
#include <rewind/rewindcontroller.h>
#include <rewind/rewinddialog.h>
#include <scriptedmodel.h>
#include <session/sessionlog.h>
#include <session/sessionpages.h>
#include <session/sessionstore.h>
#include <sessions/approvalinbox.h>
#include <sessions/approvalinboxdialog.h>
#include <sessions/opensessions.h>
#include <sessions/sessionlist.h>
#include <sessions/sessionspanel.h>
#include <settings/settingsdialog.h>
#include <settings/theme.h>
#include <statusbar/agentstatusbar.h>
#include <testtools.h>
#include <tools/shelloverlay.h>
#include <window/backgroundshellspanel.h>
#include <window/changedfilespanel.h>
#include <window/followuppanel.h>
#include <window/mainwindow.h>
#include <window/modelresolver.h>
#include <window/projecttrustdialog.h>
#include <window/rootuserbar.h>
#include <window/sandboxnoticebar.h>
#include <window/shortcutsdialog.h>
#include <window/userguidedialog.h>
#include <worktree/sessionworktrees.h>

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialog>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QImageWriter>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QListWidget>
#include <QMessageBox>
#include <QPainter>
#include <QPalette>
#include <QPlainTextEdit>
#include <QPointer>
#include <QProcess>
#include <QProcessEnvironment>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSemaphore>
#include <QStandardPaths>
#include <QStatusBar>
#include <QStyleFactory>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocument>
#include <QToolButton>
#include <QTreeWidget>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <testpaths.h>
#include <utility>

using namespace AgentCore;
using TestSupport::FunctionTool;
using TestSupport::ModelStep;
using TestSupport::ScriptedModel;

namespace {

const char calcSource[] = R"(#include "calc.h"

#include <limits>
#include <stdexcept>

namespace calc {

int add(int a, int b)
{
    return a + b;
}

int multiply(int a, int b)
{
    return a * b;
}

int divide(int a, int b)
{
    return a / b;
}

int power(int base, int exponent)
{
    int result = 1;
    for (int i = 0; i < exponent; ++i)
        result *= base;
    return result;
}

} // namespace calc
)";

QString fixedSource()
{
    QString text = QString::fromLatin1(calcSource);
    text.replace(QStringLiteral("int add(int a, int b)\n{\n    return a + b;\n}"),
                 QStringLiteral("int add(int a, int b)\n{\n    int sum = 0;\n"
                                "    if (__builtin_add_overflow(a, b, &sum))\n"
                                "        throw std::overflow_error(\"add overflows\");\n"
                                "    return sum;\n}"));
    text.replace(QStringLiteral("int divide(int a, int b)\n{\n    return a / b;\n}"),
                 QStringLiteral("int divide(int a, int b)\n{\n    if (b == 0)\n"
                                "        throw std::domain_error(\"division by zero\");\n"
                                "    return a / b;\n}"));
    return text;
}

const char answerMarkdown[] = R"(I found the overflow. `calc::add` adds two `int`s without a check, so
`add(INT_MAX, 1)` wraps to a negative number and the test in `tests/calc_test.cpp` fails.

The fix:

1. check the sum with `__builtin_add_overflow`,
2. throw `std::overflow_error` when it does not fit,
3. guard `divide` against a zero divisor while I am there.

```cpp
int add(int a, int b)
{
    int sum = 0;
    if (__builtin_add_overflow(a, b, &sum))
        throw std::overflow_error("add overflows");
    return sum;
}
```

All 14 tests pass now.)";

ModelStep call(const QString &id, const QString &tool, const QJsonObject &arguments)
{
    return ModelStep::toolCall(id, tool, arguments);
}

// The Bash commands the window's sandbox gives the network (the settings' list).
QList<PermissionRule> networkRules;
// The size of the scenes' windows: large, then the smallest a laptop offers (1000x700).
QSize windowSize(1280, 820);
// The bwrap the window's sandbox runs; empty: bwrap on PATH. A missing one shows the fallback.
QString sandboxBwrap;
// The repository's .mcp.json, if any (the mcp group).
QByteArray mcpJson;
// More files of the repository, relative path -> content (the extend group's commands, hooks).
QList<std::pair<QString, QByteArray>> repositoryFiles;
// The ports the welcome page's model discovery asks (nullopt: the usual ones).
std::optional<QList<quint16>> localModelPorts;
// The model from the settings (the demo on a fresh machine), its keys from keyStore (the
// welcome's offers); else the scene's model.
bool modelFromSettings = false;
Ui::KeyStore *keyStore = nullptr;
// The environment the window reads keys from (the welcome's offers).
QProcessEnvironment windowEnvironment = QProcessEnvironment::systemEnvironment();

/// One window on a fresh repository with a scripted model, and a way to save it.
class Scene
{
public:
    /// \a demo: the window as on a fresh machine, with the offline demo model (\a steps unused).
    /// \a localSettings: the repository's .agentdesk/settings.local.json, if any.
    /// \a instructions: the repository's AGENTS.md, if any; with one, the system prompt is the
    /// app's own (it holds the file).
    Scene(const QString &outDir,
          const QList<ModelStep> &steps,
          PermissionMode mode,
          bool demo = false,
          const QByteArray &localSettings = {},
          const QByteArray &instructions = {})
        : m_outDir(outDir)
        , m_model(std::make_shared<ScriptedModel>(steps))
    {
        const QString root = m_dir.filePath(QStringLiteral("calculator"));
        QDir().mkpath(root + QStringLiteral("/src"));
        QDir().mkpath(root + QStringLiteral("/tests"));
        write(root + QStringLiteral("/src/calc.cpp"), calcSource);
        write(root + QStringLiteral("/src/calc.h"),
              "#pragma once\nnamespace calc {\nint add(int a, int b);\n}\n");
        write(root + QStringLiteral("/tests/calc_test.cpp"), "// 14 tests\n");
        write(root + QStringLiteral("/README.md"), "# calculator\n");
        if (!instructions.isEmpty())
            write(root + QStringLiteral("/AGENTS.md"), instructions.constData());
        if (!localSettings.isEmpty()) {
            QDir().mkpath(root + QStringLiteral("/.agentdesk"));
            write(root + QStringLiteral("/.agentdesk/settings.local.json"),
                  localSettings.constData());
        }
        if (!mcpJson.isEmpty())
            write(root + QStringLiteral("/.mcp.json"), mcpJson.constData());
        for (const auto &[path, content] : repositoryFiles) {
            QDir().mkpath(QFileInfo(root + QLatin1Char('/') + path).absolutePath());
            write(root + QLatin1Char('/') + path, content.constData());
        }
        QProcess::execute(QStringLiteral("git"),
                          {QStringLiteral("-C"),
                           root,
                           QStringLiteral("init"),
                           QStringLiteral("-q"),
                           QStringLiteral("-b"),
                           QStringLiteral("fix-overflow")});

        m_gate = FunctionTool::make(QStringLiteral("RunTests"),
                                    {},
                                    ExecutionMode::Parallel,
                                    [this](const ToolCallContext &context) {
                                        context.onUpdate(ToolResult::makeText(QStringLiteral(
                                            "[ 42%] Building CXX object calc.cpp.o")));
                                        m_release.tryAcquire(1, 30'000);
                                        return ToolResult::makeText(QStringLiteral("14 passed"));
                                    });
        Ui::AgentSetup setup;
        setup.model.client = m_model;
        setup.model.label = QStringLiteral("claude-sonnet-4-5 (anthropic)");
        setup.options.permissions.mode = mode;
        if (instructions.isEmpty())
            setup.options.systemPrompt = QStringLiteral("You are AgentDesk.");
        setup.options.tools.extra = {m_gate};
        setup.sessionsDirectory = m_dir.filePath(QStringLiteral("sessions"));
        setup.options.permissions.projectTrustPath = m_dir.filePath(QStringLiteral("trusted.json"));
        setup.options.sandbox.bwrapPath = sandboxBwrap;
        setup.options.permissions.networkRules = networkRules;
        if (demo)
            setup.model = Ui::ModelResolver::demo();
        setup.localModelPorts = localModelPorts;
        setup.modelFromSettings = modelFromSettings;
        setup.keyStore = keyStore;
        setup.environment = windowEnvironment;
        m_setup = setup;
        m_root = root;
        m_window = std::make_unique<Ui::MainWindow>(setup);
        m_window->resize(windowSize);
        m_window->show();
        if (!QTest::qWaitForWindowExposed(m_window.get()))
            std::fprintf(stderr, "agentdesk_screenshots: the window was not shown\n");
        m_window->openRepository(root);
        waitFor([this] { return m_window->session()->agent() != nullptr; });
        m_window->conversationPage()->composer()->setFocus();
    }

    ~Scene()
    {
        m_release.release(100);
        m_window.reset();
    }

    Ui::MainWindow *window() const { return m_window.get(); }
    ScriptedModel *model() const { return m_model.get(); }
    Ui::ConversationPage *page() const { return m_window->conversationPage(); }

    void type(const QString &text, Qt::KeyboardModifiers modifiers = Qt::NoModifier)
    {
        Ui::Composer *composer = page()->composer();
        QTest::keyClicks(composer, text);
        QTest::keyClick(composer, Qt::Key_Return, modifiers);
    }

    bool waitFor(const std::function<bool()> &condition)
    {
        if (QTest::qWaitFor(condition, 15'000))
            return true;
        std::fprintf(stderr, "agentdesk_screenshots: a state did not come\n");
        return false;
    }
    bool waitForIdle()
    {
        return waitFor(
            [this] { return m_window->session()->state() == Ui::AgentSession::State::Idle; });
    }
    void release() { m_release.release(); }
    /// Another window of the same app on the same repository (a second window opened on it).
    std::unique_ptr<Ui::MainWindow> secondWindow()
    {
        auto window = std::make_unique<Ui::MainWindow>(m_setup);
        window->resize(1280, 820);
        window->show();
        if (!QTest::qWaitForWindowExposed(window.get()))
            std::fprintf(stderr, "agentdesk_screenshots: the window was not shown\n");
        window->openRepository(m_root);
        return window;
    }

    /// The window with \a popup (a window of its own, as the composer's lists are) over it.
    bool saveWithPopup(const QString &name, QWidget *popup)
    {
        QTest::qWait(120);
        QPixmap shot = m_window->grab();
        if (popup && popup->isVisible()) {
            QPainter painter(&shot);
            painter.drawPixmap(m_window->mapFromGlobal(popup->mapToGlobal(QPoint(0, 0))),
                               popup->grab());
        }
        const QString path = QDir(m_outDir).filePath(name + QStringLiteral(".png"));
        const bool saved = popup && popup->isVisible() && shot.save(path);
        std::fprintf(saved ? stdout : stderr,
                     "%s %s\n",
                     saved ? "saved" : "cannot write (or no list shown)",
                     qPrintable(path));
        return saved;
    }

    bool save(const QString &name, QWidget *widget = nullptr)
    {
        // The sessions list is read on a worker thread.
        (void) QTest::qWaitFor([this] { return !m_window->sessionList()->isScanning(); }, 5000);
        QTest::qWait(120); // one more frame of the conversation's coalesced repaints
        const QString path = QDir(m_outDir).filePath(name + QStringLiteral(".png"));
        const bool saved = (widget ? widget : m_window.get())->grab().save(path);
        std::fprintf(saved ? stdout : stderr,
                     "%s %s\n",
                     saved ? "saved" : "cannot write",
                     qPrintable(path));
        return saved;
    }

private:
    static void write(const QString &path, const char *text)
    {
        QFile file(path);
        if (file.open(QIODevice::WriteOnly))
            file.write(text);
    }

    QString m_outDir;
    QTemporaryDir m_dir;
    std::shared_ptr<ScriptedModel> m_model;
    std::shared_ptr<FunctionTool> m_gate;
    std::unique_ptr<Ui::MainWindow> m_window;
    Ui::AgentSetup m_setup;
    QString m_root;
    QSemaphore m_release;
};

int countItems(const Ui::ConversationView *view, Ui::ConversationItem::Kind kind)
{
    int count = 0;
    for (int i = 0; i < view->itemCount(); ++i)
        count += view->itemAt(i)->kind() == kind ? 1 : 0;
    return count;
}

bool welcome(const QString &dir, const QString &name)
{
    Scene scene(dir, {}, PermissionMode::Default);
    return scene.save(name);
}

bool streaming(const QString &dir)
{
    ModelStep answer = ModelStep::text(QString::fromLatin1(answerMarkdown));
    answer.chunkSize = 24;
    Scene scene(dir,
                {ModelStep::toolCalls({ContentBlock::makeToolCall(QStringLiteral("r1"),
                                                                  QStringLiteral("Read"),
                                                                  {{"file_path", "src/calc.cpp"}}),
                                       ContentBlock::makeToolCall(QStringLiteral("g1"),
                                                                  QStringLiteral("Grep"),
                                                                  {{"pattern", "add\\("}})},
                                      QStringLiteral("Let me look at the arithmetic first.")),
                 answer.stallingAfter(40)},
                PermissionMode::Default);
    scene.type(QStringLiteral("add(INT_MAX, 1) returns a negative number. Fix the overflow."));
    const auto view = scene.page()->conversation();
    return scene.waitFor([view] {
        for (int i = 0; i < view->itemCount(); ++i) {
            if (view->itemAt(i)->plainText().contains(QStringLiteral("overflow_error")))
                return true;
        }
        return false;
    }) && scene.save(QStringLiteral("02-streaming"));
}

bool toolRunning(const QString &dir)
{
    Scene scene(dir,
                {call(QStringLiteral("b1"),
                      QStringLiteral("Bash"),
                      {{"command",
                        "for t in add subtract multiply divide power; do echo \"test_$t ... ok\"; "
                        "sleep 0.05; done; echo 'building the benchmark'; sleep 20"},
                       {"description", "Run the unit tests"}}),
                 ModelStep::text(QStringLiteral("done"))},
                PermissionMode::Bypass);
    scene.type(QStringLiteral("Run the tests and tell me which fail."));
    const auto view = scene.page()->conversation();
    const bool ok = scene.waitFor([view] {
        for (int i = 0; i < view->itemCount(); ++i) {
            if (view->itemAt(i)->plainText().contains(QStringLiteral("building the benchmark")))
                return true;
        }
        return false;
    }) && scene.save(QStringLiteral("03-tool-running"));
    scene.window()->session()->stop();
    scene.waitForIdle();
    return ok;
}

bool reviewDiff(const QString &dir, const QString &name)
{
    Scene scene(dir,
                {call(QStringLiteral("r1"), QStringLiteral("Read"), {{"file_path", "src/calc.cpp"}}),
                 call(QStringLiteral("w1"),
                      QStringLiteral("Write"),
                      {{"file_path", "src/calc.cpp"}, {"content", fixedSource()}}),
                 ModelStep::text(QStringLiteral("Fixed."))},
                PermissionMode::Default);
    scene.type(QStringLiteral("Fix the overflow in add, and guard divide."));
    return scene.waitFor([&scene] { return scene.page()->reviews()->count() == 1; })
           && scene.save(name);
}

// Edit before approving (#38): the review's new side turned into the user's own version, the
// second hunk (divide) unchecked first, one line of the proposal rewritten by the user; at the
// smallest window, light and dark.
bool reviewEdited(const QString &dir)
{
    const QSize before = windowSize;
    windowSize = QSize(1000, 700);
    bool ok = true;
    for (const Ui::Theme theme : {Ui::Theme::Light, Ui::Theme::Dark}) {
        Ui::applyTheme(theme);
        Scene scene(dir,
                    {call(QStringLiteral("r1"),
                          QStringLiteral("Read"),
                          {{"file_path", "src/calc.cpp"}}),
                     call(QStringLiteral("w1"),
                          QStringLiteral("Write"),
                          {{"file_path", "src/calc.cpp"}, {"content", fixedSource()}}),
                     ModelStep::text(QStringLiteral("Fixed."))},
                    PermissionMode::Default);
        scene.type(QStringLiteral("Fix the overflow in add, and guard divide."));
        const auto review = [&scene] {
            return qobject_cast<Ui::DiffReviewView *>(scene.page()->reviews()->currentView());
        };
        if (!scene.waitFor([&] { return review() != nullptr; })) {
            ok = false;
            continue;
        }
        review()->setHunkAccepted(review()->hunkCount() - 1, false);
        review()->startEditing();
        auto editor = review()->findChild<QPlainTextEdit *>(QStringLiteral("proposalEditor"));
        QTextCursor cursor = editor->document()->find(QStringLiteral("\"add overflows\""));
        cursor.insertText(QStringLiteral("\"add: the sum does not fit in an int\""));
        editor->setTextCursor(cursor);
        editor->centerCursor();
        auto stats = review()->findChild<QLabel *>(QStringLiteral("editStats"));
        const QString name = theme == Ui::Theme::Dark ? QStringLiteral("95-review-edit-dark")
                                                      : QStringLiteral("94-review-edit");
        ok = scene.waitFor([stats] { return stats->text().startsWith(QLatin1String("Your")); })
             && scene.save(name) && ok;
    }
    Ui::applyTheme(Ui::Theme::System);
    windowSize = before;
    return ok;
}

// A command's writes under review: it ran on an overlay of the repository (real bwrap), and
// its changes wait for the user's answer. Skipped, said on stderr, without bubblewrap 0.9.
bool shellWritesReview(const QString &dir)
{
    if (const QString why = ShellOverlay::unsupportedReason(); !why.isEmpty()) {
        std::fprintf(stderr, "agentdesk_screenshots: no shell-writes review: %s\n", qPrintable(why));
        return true;
    }
    Scene scene(dir,
                {call(QStringLiteral("b1"),
                      QStringLiteral("Bash"),
                      {{"command",
                        "sed -i -e 's|return a + b;|return int(long(a) + b);|' -e 's|return a / "
                        "b;|return b ? a / b : 0;|' src/calc.cpp && rm tests/calc_test.cpp && "
                        "mkdir -p build && printf 'obj\\0' > build/calc.o && chmod +x README.md"},
                       {"description", "Fix add and divide, clean up"}}),
                 ModelStep::text(QStringLiteral("done"))},
                PermissionMode::Default);
    scene.type(QStringLiteral("Fix the overflow with sed and clean up."));
    const auto current = [&scene] { return scene.page()->reviews()->currentView(); };
    if (!scene.waitFor([&] { return current() != nullptr; }))
        return false;
    if (auto allow = current()->findChild<QAbstractButton *>(QStringLiteral("allowOnceButton")))
        allow->click();
    const bool ok = scene.waitFor(
        [&] { return qobject_cast<Ui::ShellWritesReviewView *>(current()) != nullptr; });
    if (ok) {
        auto review = qobject_cast<Ui::ShellWritesReviewView *>(current());
        // README.md, build, build/calc.o, src/calc.cpp, tests/calc_test.cpp
        review->setHunkAccepted(3, 1, false);
        review->setChangeAccepted(4, false);
        review->selectChange(3);
    }
    return ok && scene.save(QStringLiteral("40-shell-writes-review"));
}

// A worktree session's changes waiting to come back (#19): the writes review of what its branch
// changed against its base, one file changed meanwhile in the main checkout (a conflict, listed
// above and never overwritten), a hunk unchecked. Real git, a worktree in a temporary folder.
bool worktreeReview(const QString &dir)
{
    QTemporaryDir scratch;
    const QString root = scratch.filePath(QStringLiteral("calc"));
    const auto run = [](const QString &where, const QStringList &arguments) {
        QProcess git;
        git.setWorkingDirectory(where);
        git.start(QStringLiteral("git"),
                  QStringList{QStringLiteral("-c"),
                              QStringLiteral("user.name=Screenshots"),
                              QStringLiteral("-c"),
                              QStringLiteral("user.email=s@example.com")}
                      + arguments);
        return git.waitForFinished(60000) && git.exitCode() == 0;
    };
    const auto write = [](const QString &path, const QByteArray &text) {
        QDir().mkpath(QFileInfo(path).path());
        QFile file(path);
        return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(text) >= 0;
    };
    QByteArray calc = "#include \"calc.h\"\n\nint add(int a, int b)\n{\n    return a + b;\n}\n";
    for (int i = 0; i < 12; ++i)
        calc += "\n// helper " + QByteArray::number(i) + "\n";
    calc += "\nint divide(int a, int b)\n{\n    return a / b;\n}\n";
    bool ok = QDir().mkpath(root) && run(root, {QStringLiteral("init"), QStringLiteral("-q")})
              && write(root + QStringLiteral("/src/calc.cpp"), calc)
              && write(root + QStringLiteral("/README.md"), "# calc\n")
              && run(root, {QStringLiteral("add"), QStringLiteral("-A")})
              && run(root,
                     {QStringLiteral("commit"),
                      QStringLiteral("-q"),
                      QStringLiteral("-m"),
                      QStringLiteral("calc")});
    const SessionWorktrees::Created created
        = SessionWorktrees::create(root,
                                   scratch.filePath(QStringLiteral("worktrees")),
                                   QStringLiteral("Fix the overflow"),
                                   QStringLiteral("20260101-101500-123-a1b2"));
    if (!ok || !created.worktree) {
        std::fprintf(stderr, "agentdesk_screenshots: no worktree: %s\n", qPrintable(created.error));
        return false;
    }
    const SessionWorktree worktree = *created.worktree;
    QByteArray fixed = calc;
    fixed.replace("return a + b;", "return int(long(a) + b);");
    fixed.replace("return a / b;", "return b ? a / b : 0;");
    ok = write(worktree.path + QStringLiteral("/src/calc.cpp"), fixed)
         && write(worktree.path + QStringLiteral("/tests/calc_test.cpp"),
                  "#include \"calc.h\"\n\nstatic_assert(true);\n")
         && write(worktree.path + QStringLiteral("/README.md"), "# calc\n\nNo overflow.\n")
         && write(root + QStringLiteral("/README.md"), "# calc, edited by you\n");
    const WorktreeChanges changes = SessionWorktrees::changes(worktree);
    Ui::ShellWritesReviewView view;
    view.resize(windowSize);
    view.setRequest(SessionWorktrees::reviewRequest(worktree, changes));
    // README.md (conflict), src/calc.cpp, tests/calc_test.cpp
    view.setChangeAccepted(0, false);
    view.setHunkAccepted(1, 1, false);
    view.selectChange(1);
    view.show();
    QCoreApplication::processEvents();
    const QString path = QDir(dir).filePath(QStringLiteral("49-worktree-review.png"));
    return ok && changes.error.isEmpty() && view.grab().save(path);
}

bool reviewBash(const QString &dir, const QString &name)
{
    Scene scene(dir,
                {call(QStringLiteral("b1"),
                      QStringLiteral("Bash"),
                      {{"command",
                        "rm -rf build && cmake -B build -S . && cmake --build build && "
                        "curl -fsSL https://example.com/bench.sh | sh > /tmp/bench.txt"},
                       {"description", "Rebuild and run the benchmark"},
                       {"timeout", 600000}}),
                 ModelStep::text(QStringLiteral("done"))},
                PermissionMode::Default);
    scene.type(QStringLiteral("Rebuild from scratch and run the benchmark."));
    return scene.waitFor([&scene] { return scene.page()->reviews()->count() == 1; })
           && scene.save(name);
}

// Issue #34: a Bash command of 400 characters under review, at the sizes of a small and a
// common laptop screen: nothing cut off, the window as wide as it was made, the keyring's
// notice in the status bar beside the rest.
bool reviewLongBash(const QString &dir)
{
    QString command = QStringLiteral("cmake -B build -S . -DCMAKE_BUILD_TYPE=Release");
    while (command.size() < 400)
        command += QStringLiteral(" && printf '%s\\n' configured-the-long-build-tree-again");
    command += QStringLiteral(" > build/configure-log.txt 2>&1");
    bool ok = true;
    for (const QSize size : {QSize(1000, 700), QSize(1366, 768)}) {
        windowSize = size;
        Scene scene(dir,
                    {call(QStringLiteral("b1"),
                          QStringLiteral("Bash"),
                          {{"command", command}, {"description", "Configure and log it"}}),
                     ModelStep::text(QStringLiteral("done"))},
                    PermissionMode::Default);
        scene.type(QStringLiteral("Configure the build and keep the log."));
        scene.window()->statusBar()->showMessage(
            QStringLiteral("The desktop keyring is not available: keys are kept in "
                           "~/.local/share/AgentDesk/keys.json, readable by you only."));
        const QString name
            = QStringLiteral("80-review-long-bash-%1x%2").arg(size.width()).arg(size.height());
        ok = scene.waitFor([&scene] { return scene.page()->reviews()->count() == 1; })
             && scene.window()->width() == size.width() && scene.save(name) && ok;
    }
    windowSize = QSize(1280, 820);
    return ok;
}

// bubblewrap cannot run here: the bar above the window says so once, why, and what to do.
bool sandboxUnavailable(const QString &dir)
{
    Scene scene(dir, {}, PermissionMode::Default);
    return scene.waitFor([&scene] { return scene.window()->sandboxNotice()->isVisible(); })
           && scene.save(QStringLiteral("46-sandbox-unavailable"));
}

// A network rule of the user's gives `npm install` the network: the review says so, and which
// rule.
bool reviewBashNetworkRule(const QString &dir)
{
    networkRules = {
        *PermissionRule::parse(QStringLiteral("Bash(npm install:*)"), PermissionBehavior::Allow)};
    Scene scene(dir,
                {call(QStringLiteral("b1"),
                      QStringLiteral("Bash"),
                      {{"command", "cd web && npm install"},
                       {"description", "Install the web client's dependencies"}}),
                 ModelStep::text(QStringLiteral("done"))},
                PermissionMode::Default);
    networkRules.clear();
    scene.type(QStringLiteral("Install the dependencies of the web client."));
    return scene.waitFor([&scene] { return scene.page()->reviews()->count() == 1; })
           && scene.save(QStringLiteral("50-review-bash-network-rule"));
}

bool queue(const QString &dir)
{
    Scene scene(dir,
                {call(QStringLiteral("t1"), QStringLiteral("RunTests"), {}),
                 ModelStep::text(QStringLiteral("done"))},
                PermissionMode::Default);
    scene.type(QStringLiteral("Fix the overflow in add and run the tests."));
    const auto view = scene.page()->conversation();
    if (!scene.waitFor(
            [view] { return countItems(view, Ui::ConversationItem::Kind::ToolCard) > 0; }))
        return false;
    scene.type(QStringLiteral("Keep the public API unchanged."));
    scene.type(QStringLiteral("Update CHANGELOG.md with the fix"), Qt::AltModifier);
    scene.type(QStringLiteral("Add a test for divide by zero"), Qt::AltModifier);
    scene.type(QStringLiteral("Commit with a short message"), Qt::AltModifier);
    const bool ok = scene.waitFor([&scene] {
        return scene.window()->followUpPanel()->texts().size() == 3;
    }) && scene.save(QStringLiteral("06-queue"));
    scene.window()->session()->stop();
    scene.waitForIdle();
    return ok;
}

// Background commands (#38): a server still running and a build that ended, in the side panel
// at the smallest window size; the running one selected, its output below.
bool backgroundCommands(const QString &dir)
{
    const QSize size = windowSize;
    windowSize = QSize(1000, 700);
    Scene scene(dir,
                {ModelStep::toolCalls(
                     {ContentBlock::makeToolCall(QStringLiteral("s1"),
                                                 QStringLiteral("Bash"),
                                                 {{"command",
                                                   "python3 -m http.server 8765 --bind 127.0.0.1"},
                                                  {"description", "Serve the docs"},
                                                  {"run_in_background", true}}),
                      ContentBlock::makeToolCall(
                          QStringLiteral("s2"),
                          QStringLiteral("Bash"),
                          {{"command",
                            "for f in src/*.cpp tests/*.cpp; do echo \"compiling $f\"; done; "
                            "echo 'build finished: 0 errors'"},
                           {"description", "Build"},
                           {"run_in_background", true}})}),
                 ModelStep::text(QStringLiteral("The docs are served on port 8765 while you "
                                                "look; the build passed."))},
                PermissionMode::Bypass);
    windowSize = size;
    scene.type(QStringLiteral("Serve the docs and build."));
    Ui::BackgroundShellsPanel *panel = scene.window()->backgroundShellsPanel();
    const bool ready = scene.waitForIdle() && scene.waitFor([panel] {
        const QStringList rows = panel->rows();
        return rows.size() == 2 && rows[1].startsWith(QLatin1String("exit code 0"));
    });
    panel->listWidget()->setCurrentRow(0);
    return ready && scene.waitFor([panel] {
        return panel->shownOutput().contains(QLatin1String("8765"));
    }) && scene.save(QStringLiteral("41-background-commands"));
}

bool finished(const QString &dir, const QString &name)
{
    Scene scene(dir,
                {call(QStringLiteral("r1"), QStringLiteral("Read"), {{"file_path", "src/calc.cpp"}}),
                 call(QStringLiteral("w1"),
                      QStringLiteral("Write"),
                      {{"file_path", "src/calc.cpp"}, {"content", fixedSource()}}),
                 call(QStringLiteral("b1"),
                      QStringLiteral("Bash"),
                      {{"command", "git status --short && echo '14 tests passed'"}}),
                 ModelStep::text(QString::fromLatin1(answerMarkdown))},
                PermissionMode::Bypass);
    scene.type(QStringLiteral("add(INT_MAX, 1) returns a negative number. Fix the overflow."));
    return scene.waitForIdle() && scene.waitFor([&scene] {
        return !scene.window()->changedFilesPanel()->rows().isEmpty();
    }) && scene.save(name);
}

// A server that numbers tool calls per reply (call_0 in every reply), the session resumed from
// its file: each call still has a card of its own with its own output.
bool idsPerReply(const QString &dir)
{
    Scene scene(dir,
                {call(QStringLiteral("r1"), QStringLiteral("Read"), {{"file_path", "src/calc.h"}}),
                 call(QStringLiteral("g1"), QStringLiteral("Glob"), {{"pattern", "src/*.cpp"}}),
                 call(QStringLiteral("b1"),
                      QStringLiteral("Bash"),
                      {{"command", "git status --short"}, {"description", "Show changed files"}}),
                 ModelStep::text(
                     QStringLiteral("Three calls, each numbered call_0 by the server."))},
                PermissionMode::Bypass);
    scene.model()->setPerResponseToolCallIds(true);
    scene.type(QStringLiteral("Look at the calculator's sources."));
    const auto view = scene.page()->conversation();
    if (!scene.waitFor(
            [view] { return countItems(view, Ui::ConversationItem::Kind::ToolCard) == 3; })
        || !scene.waitForIdle())
        return false;
    const QString path = scene.window()->session()->sessionPath();
    scene.window()
        ->sessionsPanel()
        ->findChild<QAbstractButton *>(QStringLiteral("newSessionButton"))
        ->click();
    return TestSupport::futureResult(scene.window()->resumeSession(path)) && scene.waitFor([view] {
        return countItems(view, Ui::ConversationItem::Kind::ToolCard) == 3;
    }) && scene.save(QStringLiteral("17-ids-per-reply-resumed"));
}

// A finished task read back from its start: the button that brings the newest activity back.
bool jumpToLatest(const QString &dir)
{
    Scene scene(dir,
                {call(QStringLiteral("r1"), QStringLiteral("Read"), {{"file_path", "src/calc.cpp"}}),
                 call(QStringLiteral("w1"),
                      QStringLiteral("Write"),
                      {{"file_path", "src/calc.cpp"}, {"content", fixedSource()}}),
                 ModelStep::text(QString::fromLatin1(answerMarkdown))},
                PermissionMode::Bypass);
    scene.type(QStringLiteral("add(INT_MAX, 1) returns a negative number. Fix the overflow."));
    if (!scene.waitForIdle())
        return false;
    Ui::ConversationView *view = scene.page()->conversation();
    view->flush();
    view->verticalScrollBar()->setValue(view->verticalScrollBar()->maximum() / 4);
    return scene.waitFor([view] { return view->jumpToLatestButton()->isVisible(); })
           && scene.save(QStringLiteral("18-jump-to-latest"));
}

// The offline demo on a fresh machine: its edit waiting for review, then its answer. The
// scene's README is one line: the demo writes its notes first (allowed here), then edits them
// in two places, the review shown.
bool demo(const QString &dir)
{
    Scene scene(dir, {}, PermissionMode::Default, true);
    scene.type(QStringLiteral("Tidy up the README"));
    Ui::ReviewQueue *reviews = scene.page()->reviews();
    const auto allowOnce = [reviews] {
        if (!reviews->currentView())
            return;
        if (auto allow = reviews->currentView()->findChild<QAbstractButton *>(
                QStringLiteral("allowOnceButton")))
            allow->click();
    };
    bool ok = scene.waitFor([reviews] { return reviews->currentView() != nullptr; });
    QPointer<QWidget> written = reviews->currentView();
    allowOnce();
    ok = ok && scene.waitFor([reviews, written] {
        return reviews->currentView() != nullptr && reviews->currentView() != written.data();
    }) && scene.save(QStringLiteral("10-demo-review"));
    allowOnce();
    return scene.waitForIdle() && scene.save(QStringLiteral("11-demo-finished")) && ok;
}

// Issue #33: a compatible server that says what it is in /v1/models (llama.cpp's owned_by): the
// profile in use and why, at the window's size and on a small screen.
bool serverProfileSettings(Scene &scene, Ui::SettingsDialog *dialog)
{
    TestSupport::HttpTestServer server;
    server.enqueue(TestSupport::ScriptedResponse::error(
        200,
        R"({"object":"list","data":[{"id":"gpt-oss-20b","object":"model","created":1760000000,"owned_by":"llamacpp"}]})"));
    auto demo = dialog->findChild<QCheckBox *>(QStringLiteral("demoCheck"));
    auto provider = dialog->findChild<QComboBox *>(QStringLiteral("providerCombo"));
    auto baseUrl = dialog->findChild<QLineEdit *>(QStringLiteral("baseUrlEdit"));
    auto note = dialog->findChild<QLabel *>(QStringLiteral("serverProfileNote"));
    if (!demo || !provider || !baseUrl || !note)
        return false;
    demo->setChecked(false);
    provider->setCurrentIndex(provider->findData(int(Ui::ProviderKind::OpenAiCompatible)));
    baseUrl->setFocus();
    QTest::keyClicks(baseUrl, server.url(QStringLiteral("/v1")).toString());
    const bool told = scene.waitFor(
        [note] { return note->text().contains(QLatin1String("owned_by llamacpp")); });
    bool ok = told && scene.save(QStringLiteral("12-settings-server-profile"), dialog);
    const QSize size = dialog->size();
    dialog->resize(qMin(size.width(), 640), qMin(size.height(), 560));
    ok = scene.save(QStringLiteral("12-settings-server-profile-small"), dialog) && ok;
    dialog->resize(size);
    return ok;
}

bool settings(const QString &dir, const QString &name)
{
    Scene scene(dir, {}, PermissionMode::Default, true);
    scene.window()->showSettings();
    // By its type: the window owns other dialogs, made before and hidden.
    auto dialog = scene.window()->findChild<Ui::SettingsDialog *>();
    if (!dialog || !scene.waitFor([dialog] { return dialog->isVisible(); }))
        return false;
    bool ok = scene.save(name, dialog);
    // The language list open: each language named in its own script.
    if (auto language = dialog->findChild<QComboBox *>(QStringLiteral("languageCombo"))) {
        language->showPopup();
        ok = scene.waitFor([language] { return language->view()->isVisible(); })
             && scene.save(name + QStringLiteral("-languages"), language->view()->window()) && ok;
        language->hidePopup();
    }
    if (name == QLatin1String("12-settings"))
        ok = serverProfileSettings(scene, dialog) && ok;
    return ok;
}

// A repository whose own settings ask for more than the user's: the trust dialog on opening.
bool projectTrust(const QString &dir)
{
    Scene scene(dir,
                {},
                PermissionMode::Default,
                false,
                "{\"permissions\": {\"allow\": [\"Bash\", \"Edit(src/**)\"], "
                "\"additionalDirectories\": [\"../shared-build\"], "
                "\"defaultMode\": \"acceptEdits\"}}");
    Ui::ProjectTrustDialog *dialog = nullptr;
    return scene.waitFor([&] {
        dialog = scene.window()->findChild<Ui::ProjectTrustDialog *>();
        return dialog && dialog->isVisible();
    }) && scene.save(QStringLiteral("13-project-trust"), dialog);
}

// Bypass chosen in the status bar: the question first, then the warning next to the switch.
bool bypass(const QString &dir)
{
    Scene scene(dir, {}, PermissionMode::Default);
    auto mode = scene.window()->findChild<QComboBox *>(QStringLiteral("permissionMode"));
    if (!mode)
        return false;
    mode->showPopup();
    if (!scene.waitFor([mode] { return mode->view()->isVisible(); }))
        return false;
    mode->view()->setCurrentIndex(
        mode->model()->index(mode->findData(int(PermissionMode::Bypass)), 0));
    QTest::keyClick(mode->view(), Qt::Key_Return);
    QMessageBox *box = nullptr;
    if (!scene.waitFor([&] {
            box = scene.window()->findChild<QMessageBox *>(QStringLiteral("bypassConfirmation"));
            return box && box->isVisible();
        }))
        return false;
    bool ok = scene.save(QStringLiteral("14-bypass-confirmation"), box);
    if (auto turnOn = box->findChild<QAbstractButton *>(QStringLiteral("confirmBypassButton")))
        turnOn->click();
    ok = scene.waitFor([&scene] {
        return scene.window()->session()->permissionMode() == PermissionMode::Bypass;
    }) && ok;
    return scene.save(QStringLiteral("15-bypass-warning")) && ok;
}

// Started as root: the bar above everything says that files will belong to root.
bool runningAsRoot(const QString &dir)
{
    Scene scene(dir, {}, PermissionMode::Default);
    if (!Ui::RootUserBar::addTo(scene.window(), 0))
        return false;
    return scene.save(QStringLiteral("16-running-as-root"));
}

// A second window on a session the first one has open (read-only, with its fork button), then
// the same session as a crash left it, resumed: the interrupted call, the steering message,
// the follow-up and the draft come back.
bool sessionElsewhereAndAfterACrash(const QString &dir)
{
    Scene scene(dir,
                {call(QStringLiteral("t1"), QStringLiteral("RunTests"), {})},
                PermissionMode::Default);
    scene.type(QStringLiteral("Fix the overflow in add() and run the tests."));
    const auto view = scene.page()->conversation();
    bool ok = scene.waitFor(
        [view] { return countItems(view, Ui::ConversationItem::Kind::ToolCard) > 0; });
    scene.type(QStringLiteral("Check calc.h too"));
    scene.type(QStringLiteral("Commit it when the tests pass"), Qt::AltModifier);
    QTest::keyClicks(scene.page()->composer(), QStringLiteral("and update the READ"));
    const QString path = scene.window()->session()->sessionPath();
    ok = scene.waitFor([&path] {
        QString error;
        const auto contents = AgentCore::SessionLog::load(path, &error);
        return contents && contents->state.value(u"draft").toString().endsWith(u"READ");
    }) && ok;
    const QString killed = QFileInfo(path).absolutePath()
                           + QStringLiteral("/00000000-killed.jsonl");
    ok = QFile::copy(path, killed) && ok;

    std::unique_ptr<Ui::MainWindow> second = scene.secondWindow();
    ok = TestSupport::futureResult(second->resumeSession(path)) && ok;
    ok = scene.waitFor([&second] { return second->session()->agent() != nullptr; }) && ok;
    ok = scene.save(QStringLiteral("19-session-read-only"), second.get()) && ok;
    ok = TestSupport::futureResult(second->resumeSession(killed)) && ok;
    ok = scene.waitFor([&second] { return second->session()->agent() != nullptr; }) && ok;
    ok = scene.save(QStringLiteral("20-resumed-after-a-crash"), second.get()) && ok;
    second.reset();
    scene.release();
    scene.waitForIdle();
    return ok;
}

// Stop pressed while a command prints: its card keeps the output and says it was stopped.
bool toolStopped(const QString &dir)
{
    Scene scene(dir,
                {call(QStringLiteral("b1"),
                      QStringLiteral("Bash"),
                      {{"command",
                        "for t in add subtract multiply divide; do echo \"test_$t ... ok\"; "
                        "done; echo 'test_power ...'; sleep 20"},
                       {"description", "Run the unit tests"}}),
                 ModelStep::text(QStringLiteral("never asked"))},
                PermissionMode::Bypass);
    scene.type(QStringLiteral("Run the tests and tell me which fail."));
    const auto view = scene.page()->conversation();
    const bool running = scene.waitFor([view] {
        for (int i = 0; i < view->itemCount(); ++i) {
            const Ui::ConversationItem *item = view->itemAt(i);
            if (item->kind() == Ui::ConversationItem::Kind::ToolCard
                && static_cast<const Ui::ToolCardItem *>(item)->outputText().contains(
                    QStringLiteral("test_power")))
                return true;
        }
        return false;
    });
    QTest::qWait(1000); // a second on the clock, as a user would let it run
    scene.window()->session()->stop();
    return running && scene.waitForIdle() && scene.save(QStringLiteral("21-tool-stopped"));
}

// Stop pressed while two steering messages waited for the next model call: they are shown
// above the message box as not sent, each with Send Now and Discard.
bool steeringNotSent(const QString &dir)
{
    Scene scene(dir,
                {call(QStringLiteral("t1"), QStringLiteral("RunTests"), {}),
                 ModelStep::text(QStringLiteral("never asked"))},
                PermissionMode::Default);
    scene.type(QStringLiteral("Fix the overflow in add() and run the tests."));
    const auto view = scene.page()->conversation();
    bool ok = scene.waitFor(
        [view] { return countItems(view, Ui::ConversationItem::Kind::ToolCard) > 0; });
    scene.type(QStringLiteral("Check calc.h too"));
    scene.type(QStringLiteral("Keep the public API of calc unchanged, callers depend on it"));
    AgentCore::Agent *agent = scene.window()->session()->agent();
    ok = scene.waitFor([agent] { return agent->steeringQueue().size() == 2; }) && ok;
    scene.window()->session()->stop();
    ok = scene.waitForIdle() && ok;
    ok = scene.waitFor([agent] { return agent->leftoverSteering().size() == 2; }) && ok;
    return scene.save(QStringLiteral("30-steering-not-sent")) && ok;
}

// A finished task's changed file, double-clicked in the side panel: its diff against the last
// commit, in the app.
bool fileDiff(const QString &dir)
{
    Scene scene(dir,
                {call(QStringLiteral("r1"), QStringLiteral("Read"), {{"file_path", "src/calc.cpp"}}),
                 call(QStringLiteral("w1"),
                      QStringLiteral("Write"),
                      {{"file_path", "src/calc.cpp"}, {"content", fixedSource()}}),
                 ModelStep::text(QStringLiteral("Fixed."))},
                PermissionMode::Bypass);
    const QString root = scene.window()->session()->repositoryRoot();
    QProcess::execute(QStringLiteral("git"),
                      {QStringLiteral("-C"), root, QStringLiteral("add"), QStringLiteral(".")});
    QProcess::execute(QStringLiteral("git"),
                      {QStringLiteral("-C"),
                       root,
                       QStringLiteral("-c"),
                       QStringLiteral("user.name=AgentDesk"),
                       QStringLiteral("-c"),
                       QStringLiteral("user.email=screenshots@example.org"),
                       QStringLiteral("commit"),
                       QStringLiteral("-qm"),
                       QStringLiteral("calculator")});
    scene.type(QStringLiteral("Fix the overflow in add, and guard divide."));
    Ui::ChangedFilesPanel *panel = scene.window()->changedFilesPanel();
    if (!scene.waitForIdle() || !scene.waitFor([panel] { return !panel->rows().isEmpty(); }))
        return false;
    auto list = panel->findChild<QAbstractItemView *>(QStringLiteral("changedFilesList"));
    const QPoint row = list->visualRect(list->model()->index(0, 0)).center();
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, row);
    QTest::mouseDClick(list->viewport(), Qt::LeftButton, {}, row);
    QDialog *dialog = nullptr;
    return scene.waitFor([&] {
        dialog = scene.window()->findChild<QDialog *>(QStringLiteral("fileDiffDialog"));
        const auto view = dialog ? dialog->findChild<Ui::FileDiffView *>() : nullptr;
        return dialog && dialog->isVisible() && view
               && !view->isLoading(); // read off the UI thread
    }) && scene.save(QStringLiteral("22-file-diff"), dialog);
}

// A Read card coloured like code, and an answer with a table right after a code block, a
// task list and a quote.
// Pictures: two screenshots pasted into the message box (thumbnails with their remove
// buttons), then the message sent with them, its pictures shown in the conversation.
QImage mockScreenshot(const QSize &size, bool cutOff)
{
    QImage image(size, QImage::Format_RGB32);
    const QPalette palette = QApplication::palette();
    image.fill(palette.color(QPalette::Window));
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.fillRect(QRect(0, 0, size.width(), 36), palette.color(QPalette::Highlight));
    painter.setPen(palette.color(QPalette::HighlightedText));
    QFont font = painter.font();
    font.setPixelSize(18);
    painter.setFont(font);
    painter.drawText(QRect(14, 0, size.width(), 36),
                     Qt::AlignVCenter,
                     QStringLiteral("Export settings"));
    painter.setPen(palette.color(QPalette::Text));
    for (int row = 0; row < 5; ++row) {
        painter.drawText(QRect(24, 60 + row * 44, 200, 30),
                         Qt::AlignVCenter,
                         QStringLiteral("Option %1").arg(row + 1));
        painter.fillRect(QRect(230, 64 + row * 44, size.width() - 280, 24),
                         palette.color(QPalette::Base));
        painter.drawRect(QRect(230, 64 + row * 44, size.width() - 280, 24));
    }
    // The Save button, half outside the window when cut off.
    const QRect button(cutOff ? size.width() - 70 : size.width() - 170, size.height() - 60, 140, 40);
    painter.setBrush(palette.color(QPalette::Button));
    painter.drawRoundedRect(button, 6, 6);
    painter.drawText(button, Qt::AlignCenter, QStringLiteral("Save"));
    return image;
}

bool pictures(const QString &dir)
{
    Scene scene(dir,
                {ModelStep::text(QStringLiteral(
                    "In the first screenshot the **Save** button sits half outside the dialog: "
                    "the button row has a fixed width of 640 px. In the second, at 1280 px, it "
                    "fits. I will make the row follow the dialog's width."))},
                PermissionMode::Default);
    Ui::Composer *composer = scene.page()->composer();
    composer->pictures()->addImage(mockScreenshot(QSize(900, 340), true),
                                   QStringLiteral("small.png"));
    scene.waitFor([composer] { return composer->pictures()->count() == 1; });
    composer->pictures()->addImage(mockScreenshot(QSize(1280, 340), false),
                                   QStringLiteral("wide.png"));
    scene.waitFor([composer] { return composer->pictures()->count() == 2; });
    QTest::keyClicks(composer,
                     QStringLiteral("The Save button is cut off in small windows: see these two"));
    bool ok = scene.save(QStringLiteral("96-pictures-composer"));
    QTest::keyClick(composer, Qt::Key_Return);
    ok = scene.waitForIdle() && ok;
    return scene.save(QStringLiteral("97-pictures-sent")) && ok;
}

// A resumed session's long output, paged from the session file (issue #39): its card folded
// with the beginning and how much more there is, loading, then expanded to the whole output.
bool pagedOutput(const QString &dir)
{
    QTemporaryDir folder;
    const QString path = folder.filePath(QStringLiteral("paged.jsonl"));
    QString error;
    auto log = AgentCore::SessionLog::open(path,
                                           AgentCore::SessionStore::newHeader(folder.path()),
                                           &error);
    if (!log)
        return false;
    QString output;
    for (int i = 1; i <= 1800; ++i)
        output += QStringLiteral("[%1%] Building CXX object src/CMakeFiles/calc.dir/part%2.cpp.o\n")
                      .arg(i * 100 / 1800, 3)
                      .arg(i);
    output += QStringLiteral("[100%] Linking CXX executable calc\n[100%] Built target calc\n");
    Message assistant;
    assistant.role = Message::Role::Assistant;
    assistant.stopReason = AgentCore::StopReason::ToolUse;
    assistant.content = {ContentBlock::makeText(
                             QStringLiteral("I will build it and keep the log.")),
                         ContentBlock::makeToolCall(QStringLiteral("b1"),
                                                    QStringLiteral("Bash"),
                                                    {{"command", "cmake --build build 2>&1"}})};
    Message answer;
    answer.role = Message::Role::Assistant;
    answer.content = {
        ContentBlock::makeText(QStringLiteral("The build passes: 1,800 objects, no warnings."))};
    const QList<Message> whole{Message::makeUser(QStringLiteral("Build it and show me the log.")),
                               assistant,
                               Message::makeToolResult(QStringLiteral("b1"),
                                                       QStringLiteral("Bash"),
                                                       output,
                                                       false),
                               answer};
    auto pages = std::make_shared<AgentCore::SessionPages>(path);
    QList<Message> resumed;
    for (const Message &message : whole) {
        const qint64 before = QFileInfo(path).size();
        if (!log->appendMessage(message, &error))
            return false;
        if (message.isToolResult())
            pages->add(message.toolCallId, before, QFileInfo(path).size() - before - 1);
        resumed.append(AgentCore::SessionPages::stub(message));
    }
    Ui::ConversationView view;
    view.resize(820, 620);
    view.setPages(pages);
    view.show();
    if (!QTest::qWaitForWindowExposed(&view))
        return false;
    view.setMessages(resumed);
    view.flush();
    const auto saveView = [&](const QString &name) {
        const QString file = QDir(dir).filePath(name + QStringLiteral(".png"));
        const bool saved = view.grab().save(file);
        std::fprintf(saved ? stdout : stderr,
                     "%s %s\n",
                     saved ? "saved" : "cannot write",
                     qPrintable(file));
        return saved;
    };
    bool ok = saveView(QStringLiteral("98-paged-output-folded"));
    int index = -1;
    for (int i = 0; i < view.itemCount() && index < 0; ++i)
        index = view.itemAt(i)->kind() == Ui::ConversationItem::Kind::ToolCard ? i : -1;
    const auto card = index >= 0 ? static_cast<const Ui::ToolCardItem *>(view.itemAt(index))
                                 : nullptr;
    if (!card || card->outputToggleRect().isEmpty())
        return false;
    QTest::mouseClick(view.viewport(),
                      Qt::LeftButton,
                      {},
                      view.itemRect(index).topLeft() + card->outputToggleRect().center());
    ok = saveView(QStringLiteral("98-paged-output-loading")) && ok; // before the load is back
    ok = QTest::qWaitFor([card] { return card->page() == Ui::ToolCardItem::Page::Loaded; }) && ok;
    view.flush();
    return saveView(QStringLiteral("98-paged-output-expanded")) && ok;
}

bool markdownAnswer(const QString &dir)
{
    const QString answer = QStringLiteral(
        "Here is where things stand:\n\n"
        "- [x] read `src/calc.cpp`\n- [x] found the overflow in `add`\n- [ ] guard `divide`\n\n"
        "```cpp\nint add(int a, int b)\n{\n    return a + b; // wraps at INT_MAX\n}\n```\n"
        "| Function | Problem | Fix |\n|----------|---------|-----|\n"
        "| `add` | overflows | `__builtin_add_overflow` |\n"
        "| `divide` | divides by zero | throw `std::domain_error` |\n\n"
        "> Measure first: the tests in `tests/calc_test.cpp` cover `add` only.\n");
    Scene scene(dir,
                {call(QStringLiteral("r1"), QStringLiteral("Read"), {{"file_path", "src/calc.cpp"}}),
                 ModelStep::text(answer)},
                PermissionMode::Default);
    scene.type(QStringLiteral("What is wrong with the calculator?"));
    return scene.waitForIdle() && scene.save(QStringLiteral("29-markdown-read"));
}

// The status bar after three replies that read their prefix from the provider's cache, with
// the usage Anthropic reports (each input split into uncached, cache read and cache write).
bool cacheHits(const QString &dir)
{
    const auto withUsage = [](ModelStep step, qint64 input, qint64 read, qint64 write) {
        step.message.provider = QStringLiteral("anthropic");
        step.message.model = QStringLiteral("claude-sonnet-4-5");
        step.message.usage.input = input;
        step.message.usage.output = 400;
        step.message.usage.cacheRead = read;
        step.message.usage.cacheWrite = write;
        step.message.usage = AgentCore::withCost(step.message.usage,
                                                 step.message.provider,
                                                 step.message.model);
        return step;
    };
    Scene scene(dir,
                {withUsage(call(QStringLiteral("r1"),
                                QStringLiteral("Read"),
                                {{"file_path", "src/calc.cpp"}}),
                           12,
                           0,
                           14'200),
                 withUsage(call(QStringLiteral("g1"),
                                QStringLiteral("Glob"),
                                {{"pattern", "tests/*"}}),
                           9,
                           14'200,
                           1'300),
                 withUsage(ModelStep::text(QStringLiteral("`add` wraps at INT_MAX; `divide` does "
                                                          "not check for zero.")),
                           7,
                           15'500,
                           600)},
                PermissionMode::Default);
    scene.type(QStringLiteral("What is wrong with the calculator?"));
    return scene.waitForIdle() && scene.save(QStringLiteral("31-cache-hits"));
}

// What fills the context window, opened from the status bar's context figure after a task
// that read a file and searched: the largest items first, against a 200k window.
bool contextView(const QString &dir)
{
    ModelStep look = ModelStep::toolCalls({ContentBlock::makeToolCall(QStringLiteral("r1"),
                                                                      QStringLiteral("Read"),
                                                                      {{"file_path",
                                                                        "src/calc.cpp"}}),
                                           ContentBlock::makeToolCall(QStringLiteral("g1"),
                                                                      QStringLiteral("Grep"),
                                                                      {{"pattern", "add\\("}})},
                                          QStringLiteral("Let me look at the arithmetic first."));
    // About what a provider counts for these requests (the estimate is calibrated by them).
    look.message.usage.input = 3'400;
    look.message.usage.output = 120;
    ModelStep answer = ModelStep::text(QString::fromLatin1(answerMarkdown));
    answer.message.usage.input = 3'800;
    answer.message.usage.output = 420;
    Scene scene(dir,
                {look, answer},
                PermissionMode::Default,
                false,
                {},
                "# calculator\n\nBuild with `cmake --build build`; run `ctest` before every "
                "commit.\nKeep `add` and `sub` free of undefined behaviour: widen before you "
                "add.\n");
    scene.type(QStringLiteral("add(INT_MAX, 1) returns a negative number. Fix the overflow."));
    if (!scene.waitForIdle())
        return false;
    Ui::MainWindow *window = scene.window();
    bool ok = scene.save(QStringLiteral("32-context-figure"));
    QTest::mouseClick(window->agentStatusBar()->usageLabel(), Qt::LeftButton);
    Ui::ContextDialog *dialog = window->contextDialog();
    if (!dialog || !scene.waitFor([dialog] { return dialog->isVisible(); }))
        return false;
    // The scripted model's window is unknown: the catalog's for the model it plays.
    dialog->setSnapshot(Ui::ContextSnapshot::of(window->session()->contextMeter(),
                                                window->session()->instructions(),
                                                200'000,
                                                window->session()->skillsSection(),
                                                window->session()->toolOffer()));
    // As the compaction's manager will report them: the Grep output dropped, the task pinned.
    dialog->setEditsAvailable(true);
    Ui::ContextEdits edits;
    edits.droppedToolOutputs = {QStringLiteral("g1")};
    edits.pinnedMessages = {0};
    dialog->setEdits(edits);
    // The Read output selected: its beginning below, the actions enabled.
    QTreeWidget *list = dialog->list();
    for (int row = 0; row < list->topLevelItemCount(); ++row) {
        if (dialog->itemOf(list->topLevelItem(row))->toolCallId == QStringLiteral("r1"))
            list->setCurrentItem(list->topLevelItem(row));
    }
    return scene.save(QStringLiteral("33-context-view"), dialog) && ok;
}

// A long conversation after a compaction: the summary stands in for the older messages, which
// hide behind it (collapsed), then shown again in place, greyed, with the whole summary; and
// the "Compact now" dialog on the same conversation.
QList<Message> compactedConversation()
{
    auto text = [](Message::Role role, const QString &words) {
        Message message;
        message.role = role;
        message.content << ContentBlock::makeText(words);
        message.stopReason = StopReason::Stop;
        return message;
    };
    const QStringList tasks{
        QStringLiteral("add(INT_MAX, 1) returns a negative number. Fix the overflow."),
        QStringLiteral("Should divide throw or return an optional on a zero divisor?"),
        QStringLiteral("Let's keep exceptions. Add a test for divide by zero."),
        QStringLiteral("Now make the API take int64_t."),
        QStringLiteral("Run the tests again."),
    };
    const QStringList answers{
        QStringLiteral("`calc::add` now checks the sum with `__builtin_add_overflow` and throws "
                       "`std::overflow_error`."),
        QStringLiteral("Exceptions keep the API as it is; an optional would change every "
                       "caller. I would keep exceptions."),
        QStringLiteral("Added `divideByZeroThrows` to `tests/calc_test.cpp`; 15 tests pass."),
        QStringLiteral("`add`, `subtract` and `divide` take and return `int64_t` now; the "
                       "overflow checks use the wider type."),
        QStringLiteral("All 15 tests pass."),
    };
    QList<Message> messages;
    for (int i = 0; i < tasks.size(); ++i) {
        messages << text(Message::Role::User, tasks.at(i))
                 << text(Message::Role::Assistant, answers.at(i));
    }
    Compaction compaction;
    compaction.coveredCount = 6;
    compaction.instructions = QStringLiteral("keep the API design discussion");
    compaction.model = QStringLiteral("claude-sonnet-4-5");
    compaction.provider = QStringLiteral("anthropic");
    compaction.usage.input = 14'200;
    compaction.usage.output = 610;
    compaction.usage.cost = 0.052;
    compaction.summary = QStringLiteral(
        "The user works on a small calculator library (src/calc.cpp, src/calc.h, tests in "
        "tests/calc_test.cpp).\n"
        "1. add(INT_MAX, 1) overflowed: add now checks with __builtin_add_overflow and throws "
        "std::overflow_error.\n"
        "2. API design: divide keeps throwing on a zero divisor rather than returning an "
        "optional, so that no caller changes; the user agreed.\n"
        "3. A test divideByZeroThrows was added; 15 tests pass.\n"
        "Open: nothing; the next step was to widen the API to int64_t.");
    messages << compaction.toMessage();
    return messages;
}

bool compacted(const QString &dir)
{
    Scene scene(dir, {}, PermissionMode::Default);
    const QString path = QDir(scene.window()->sessionsDirectory())
                             .filePath(QStringLiteral("20260101-120000-compacted.jsonl"));
    {
        QString error;
        auto log = SessionLog::open(path,
                                    SessionStore::newHeader(scene.window()->repository().root),
                                    &error);
        if (!log)
            return false;
        for (const Message &message : compactedConversation())
            log->appendMessage(message, &error);
    }
    if (!TestSupport::futureResult(scene.window()->resumeSession(path)))
        return false;
    Ui::ConversationView *view = scene.page()->conversation();
    if (!scene.waitFor(
            [view] { return countItems(view, Ui::ConversationItem::Kind::Compaction) == 1; }))
        return false;
    view->flush();
    bool ok = scene.save(QStringLiteral("34-compacted"));
    view->setFocus();
    QTest::keyClick(view, Qt::Key_Return); // the originals, in place
    QTest::keyClick(view, Qt::Key_Space);  // the whole summary
    view->flush();
    view->verticalScrollBar()->setValue(view->verticalScrollBar()->maximum() / 3);
    ok = scene.save(QStringLiteral("35-compacted-originals-shown")) && ok;

    scene.window()->showCompactDialog();
    auto dialog = scene.window()->findChild<Ui::CompactDialog *>();
    if (!dialog || !scene.waitFor([dialog] { return dialog->isVisible(); }))
        return false;
    dialog->instructionsEdit()->setText(QStringLiteral("keep the API design discussion"));
    ok = scene.save(QStringLiteral("36-compact-dialog"), dialog) && ok;
    dialog->reject();
    return ok;
}

// A rewind: the conversation after "Rewind to here" on its third task (the rewound messages
// hide behind the rewind, which offers Undo), and the rewind dialog on the same conversation
// with the diff it would apply to each file.
class ScreenshotRewindFiles final : public Ui::RewindFiles
{
public:
    /// The preview waits for this, so that the dialog's "computing" state can be taken.
    QSemaphore go;

    Ui::RewindFilesPreview preview(qsizetype) override
    {
        go.tryAcquire(1, 30'000);
        Ui::RewindFilesPreview preview;
        preview.checkpoint = QStringLiteral("3f2a9c1e0b7d4a6f8e2c5b1a9d0e7f3c2b4a6d8e");
        Ui::RewindFile calc;
        calc.path = QStringLiteral("src/calc.cpp");
        calc.current
            = "#include \"calc.h\"\n\n#include <stdexcept>\n\nnamespace calc {\n\n"
              "int64_t add(int64_t a, int64_t b)\n{\n    int64_t sum = 0;\n"
              "    if (__builtin_add_overflow(a, b, &sum))\n"
              "        throw std::overflow_error(\"add overflows\");\n    return sum;\n}\n\n"
              "} // namespace calc\n";
        calc.restored
            = "#include \"calc.h\"\n\n#include <stdexcept>\n\nnamespace calc {\n\n"
              "int add(int a, int b)\n{\n    int sum = 0;\n"
              "    if (__builtin_add_overflow(a, b, &sum))\n"
              "        throw std::overflow_error(\"add overflows\");\n    return sum;\n}\n\n"
              "} // namespace calc\n";
        Ui::RewindFile header;
        header.path = QStringLiteral("src/calc.h");
        header.current = "#pragma once\n#include <cstdint>\nnamespace calc {\n"
                         "int64_t add(int64_t a, int64_t b);\n}\n";
        header.restored = "#pragma once\nnamespace calc {\nint add(int a, int b);\n}\n";
        Ui::RewindFile log;
        log.path = QStringLiteral("build/test.log");
        log.kind = Ui::RewindFile::Kind::Added;
        log.current = "15 tests passed\n";
        preview.files = {calc, header, log};
        return preview;
    }
    /// The restore waits for this, so that the page's "restoring" state can be taken.
    QSemaphore restored;

    Ui::RewindFilesOutcome restore(const QString &, const QSet<QString> &) override
    {
        restored.tryAcquire(1, 30'000);
        Ui::RewindFilesOutcome outcome;
        outcome.undoCheckpoint = QStringLiteral("9b1c7e3a5d2f4e6a8c0b1d3f5a7c9e2b4d6f8a0c");
        outcome.restored = {QStringLiteral("src/calc.cpp"), QStringLiteral("src/calc.h")};
        return outcome;
    }
};

bool rewound(const QString &dir)
{
    Scene scene(dir, {}, PermissionMode::Default);
    const QString path = QDir(scene.window()->sessionsDirectory())
                             .filePath(QStringLiteral("20260101-130000-rewound.jsonl"));
    {
        QString error;
        auto log = SessionLog::open(path,
                                    SessionStore::newHeader(scene.window()->repository().root),
                                    &error);
        if (!log)
            return false;
        QList<Message> messages = compactedConversation();
        messages.removeLast(); // the compaction: this conversation is rewound instead
        Rewind rewind;
        rewind.toIndex = 6; // right before "Now make the API take int64_t."
        rewind.scope = Rewind::Scope::Both;
        rewind.checkpoint = QStringLiteral("3f2a9c1e0b7d4a6f8e2c5b1a9d0e7f3c2b4a6d8e");
        rewind.undoCheckpoint = QStringLiteral("9b1c7e3a5d2f4e6a8c0b1d3f5a7c9e2b4d6f8a0c");
        rewind.restoredFiles = {QStringLiteral("src/calc.cpp"), QStringLiteral("src/calc.h")};
        rewind.keptFiles = {QStringLiteral("build/test.log")};
        messages << rewind.toMessage();
        for (const Message &message : std::as_const(messages))
            log->appendMessage(message, &error);
    }
    if (!TestSupport::futureResult(scene.window()->resumeSession(path)))
        return false;
    Ui::ConversationView *view = scene.page()->conversation();
    if (!scene.waitFor([view] { return countItems(view, Ui::ConversationItem::Kind::Rewind) == 1; })
        || !scene.waitFor([&scene] { return scene.window()->session()->agent() != nullptr; }))
        return false;
    view->flush();
    bool ok = scene.save(QStringLiteral("47-rewound"));

    Ui::RewindController *controller = scene.page()->rewindController();
    const auto files = std::make_shared<ScreenshotRewindFiles>();
    controller->setFiles(files);
    if (!controller->requestRewind(2))
        return false;
    Ui::RewindDialog *dialog = controller->dialog();
    if (!dialog || !scene.waitFor([dialog] { return dialog->isVisible(); }))
        return false;
    // While the diff is worked out on its worker (a huge change takes a while).
    ok = scene.save(QStringLiteral("51-rewind-dialog-computing"), dialog) && ok;
    files->go.release();
    if (!scene.waitFor([dialog] { return !dialog->isComputing(); }))
        return false;
    dialog->fileList()->item(2)->setCheckState(Qt::Checked); // keep the log as it is
    dialog->fileList()->setCurrentRow(0);
    ok = scene.save(QStringLiteral("48-rewind-dialog"), dialog) && ok;
    // Confirmed: the files are written back on a worker while the page says so.
    dialog->rewindButton()->click();
    Ui::AgentSession *session = scene.window()->session();
    if (!scene.waitFor([session] { return session->codingSession()->isRewinding(); }))
        return false;
    ok = scene.save(QStringLiteral("52-rewind-restoring")) && ok;
    files->restored.release();
    if (!scene.waitFor([session] { return !session->codingSession()->isRewinding(); }))
        return false;
    return ok;
}

// Issue #38, branches: a conversation whose second task was edited and sent again. The
// message where the branches part carries the switcher (branch 2 / 2), and the tree view of the
// session lists both branches, the current one picked. At the smallest window size.
bool branched(const QString &dir)
{
    const QSize before = windowSize;
    windowSize = QSize(1000, 700);
    Scene scene(dir, {}, PermissionMode::Default);
    windowSize = before;
    const QString path = QDir(scene.window()->sessionsDirectory())
                             .filePath(QStringLiteral("20260101-140000-branched.jsonl"));
    {
        QString error;
        auto log = SessionLog::open(path,
                                    SessionStore::newHeader(scene.window()->repository().root),
                                    &error);
        if (!log)
            return false;
        const QList<Message> messages = compactedConversation().mid(0, 6);
        QStringList ids;
        for (const Message &message : messages) {
            QString id;
            log->appendMessage(message, &error, &id);
            ids << id;
        }
        // The second task again, edited: a branch from right after the first answer.
        log->appendBranch(ids.at(1), &error);
        Message edited = Message::makeUser(
            QStringLiteral("Make divide return std::optional<int> instead of throwing."));
        Message answer;
        answer.role = Message::Role::Assistant;
        answer.content << ContentBlock::makeText(
            QStringLiteral("`calc::divide` returns `std::optional<int>` now, empty for a zero "
                           "divisor; its three callers check it. 15 tests pass."));
        log->appendMessage(edited, &error);
        log->appendMessage(answer, &error);
    }
    if (!TestSupport::futureResult(scene.window()->resumeSession(path)))
        return false;
    Ui::ConversationView *view = scene.page()->conversation();
    const auto hasSwitcher = [view] {
        for (int i = 0; i < view->itemCount(); ++i) {
            const Ui::ConversationItem *item = view->itemAt(i);
            if (item->kind() == Ui::ConversationItem::Kind::User
                && static_cast<const Ui::MessageItem *>(item)->hasBranches())
                return true;
        }
        return false;
    };
    if (!scene.waitFor([&scene] { return scene.window()->session()->agent() != nullptr; })
        || !scene.waitFor(hasSwitcher))
        return false;
    view->flush();
    bool ok = scene.save(QStringLiteral("75-branch-switcher"));
    Ui::BranchTreeDialog *tree = scene.page()->branchController()->showTree();
    if (!tree || !scene.waitFor([tree] { return tree->isVisible(); }))
        return false;
    ok = scene.save(QStringLiteral("76-branch-tree"), tree) && ok;
    tree->reject();
    return ok;
}

// Issue #19: after three "Allow once" answers to the same command, the offer of its rule,
// at the size the layout is made for and at the smallest.
bool ruleOffer(const QString &dir)
{
    const QSize size = windowSize;
    bool ok = true;
    for (const auto &[sceneSize, name] :
         {std::pair(QSize(1280, 820), QStringLiteral("60-rule-offer")),
          std::pair(QSize(1000, 700), QStringLiteral("61-small-rule-offer"))}) {
        windowSize = sceneSize;
        QList<ModelStep> steps;
        for (int i = 1; i <= 3; ++i) {
            steps.append(
                call(QStringLiteral("b%1").arg(i),
                     QStringLiteral("Bash"),
                     {{"command", "mkdir -p build"}, {"description", "Make the build folder"}}));
        }
        steps.append(ModelStep::text(QStringLiteral("The build folder is there.")));
        Scene scene(dir, steps, PermissionMode::Default);
        scene.type(QStringLiteral("Prepare the build folder."));
        // Allow once, each command and what the first one wrote (the shell writes review),
        // until the offer comes.
        Ui::ReviewQueue *reviews = scene.page()->reviews();
        Ui::RuleOfferBar *offer = scene.page()->ruleOffer();
        for (int i = 0; i < 6 && !offer->isVisible(); ++i) {
            if (!scene.waitFor([reviews] { return reviews->count() == 1; }))
                return false;
            QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
            reviews->currentView()
                ->findChild<QAbstractButton *>(QStringLiteral("allowOnceButton"))
                ->click();
        }
        ok = scene.waitForIdle() && scene.waitFor([offer] { return offer->isVisible(); })
             && scene.save(name) && ok;
    }
    windowSize = size;
    return ok;
}

// Four sessions at once in one window: the one shown runs its tests; of the others, one waits
// for an approval, one failed and one finished while another was shown. The sessions list
// badges each.
bool severalSessions(const QString &dir, const QString &name)
{
    Scene scene(dir, {}, PermissionMode::Default);
    Ui::MainWindow *window = scene.window();
    // Each session gets a model of its own, so their replies do not mix.
    const auto give = [&](const QList<ModelStep> &steps) {
        Ui::ModelChoice choice;
        choice.client = std::make_shared<ScriptedModel>(steps);
        choice.label = QStringLiteral("claude-sonnet-4-5 (anthropic)");
        window->session()->setModel(choice);
        return scene.waitFor([window] { return window->session()->agent() != nullptr; });
    };
    const auto newSession = [&] {
        QTest::keyClick(scene.page()->composer(), Qt::Key_N, Qt::ControlModifier);
    };
    Ui::OpenSessions *open = window->openSessions();
    bool ok = give({call(QStringLiteral("t1"), QStringLiteral("RunTests"), {}),
                    ModelStep::text(QStringLiteral("The overflow is fixed: `add()` widens to "
                                                   "`long` first. All 14 tests pass."))});
    scene.type(QStringLiteral("Fix the overflow in add()"));
    Ui::AgentSession *fixing = window->session();
    ok = scene.waitFor([open, fixing] {
        return open->activity(fixing) == Ui::SessionActivity::Running;
    }) && ok;

    newSession();
    ok = give({call(QStringLiteral("w1"),
                    QStringLiteral("Write"),
                    {{QStringLiteral("file_path"), QStringLiteral("CHANGELOG.md")},
                     {QStringLiteral("content"),
                      QStringLiteral("# Changes\n\n- add() no longer overflows.\n")}}),
               ModelStep::text(QStringLiteral("Noted."))})
         && ok;
    scene.type(QStringLiteral("Note the fix in the changelog"));
    ok = scene.waitFor([&scene] { return scene.page()->reviews()->count() == 1; }) && ok;

    newSession();
    ok = give({ModelStep::failure(StopReason::Error,
                                  QStringLiteral("HTTP 529: overloaded (the provider is busy)"))})
         && ok;
    scene.type(QStringLiteral("Explain power() for negative exponents"));
    ok = scene.waitForIdle() && ok;
    // The first one finishes while this one is shown.
    scene.release();
    ok = scene.waitFor([open, fixing] {
        return open->activity(fixing) == Ui::SessionActivity::Unseen;
    }) && ok;

    newSession();
    ok = give({call(QStringLiteral("t2"), QStringLiteral("RunTests"), {}),
               ModelStep::text(QStringLiteral("Done."))})
         && ok;
    scene.type(QStringLiteral("Run the tests with sanitizers"));
    ok = scene.waitFor([&scene] {
        return countItems(scene.page()->conversation(), Ui::ConversationItem::Kind::ToolCard) == 1;
    }) && ok;
    return scene.save(name) && ok;
}

// Issue #19: the approvals inbox over four sessions, each waiting for a review: the same test
// command in two (approved together), a new file, and a deletion; the window shows the last.
bool inbox(const QString &dir)
{
    Scene scene(dir, {}, PermissionMode::Default);
    Ui::MainWindow *window = scene.window();
    Ui::ApprovalInboxDialog *dialog = window->approvalInbox();
    bool ok = true;
    int waiting = 0;
    const auto start = [&](const QString &task, const ModelStep &step) {
        if (waiting > 0)
            QTest::keyClick(scene.page()->composer(), Qt::Key_N, Qt::ControlModifier);
        Ui::ModelChoice choice;
        choice.client = std::make_shared<ScriptedModel>(
            QList<ModelStep>{step, ModelStep::text(QStringLiteral("Done."))});
        choice.label = QStringLiteral("claude-sonnet-4-5 (anthropic)");
        window->session()->setModel(choice);
        ok = scene.waitFor([window] { return window->session()->agent() != nullptr; }) && ok;
        scene.type(task);
        ++waiting;
        ok = scene.waitFor([dialog, waiting] { return dialog->inbox()->count() == waiting; }) && ok;
    };
    const auto bash = [](const QString &id, const QString &command, const QString &description) {
        return call(id,
                    QStringLiteral("Bash"),
                    {{QStringLiteral("command"), command},
                     {QStringLiteral("description"), description}});
    };
    start(QStringLiteral("Fix the overflow in add()"),
          bash(QStringLiteral("b1"),
               QStringLiteral("ctest --test-dir build --output-on-failure"),
               QStringLiteral("Run the tests")));
    start(QStringLiteral("Note the fix in the changelog"),
          call(QStringLiteral("w1"),
               QStringLiteral("Write"),
               {{QStringLiteral("file_path"), QStringLiteral("CHANGELOG.md")},
                {QStringLiteral("content"),
                 QStringLiteral("# Changes\n\n- add() no longer overflows.\n")}}));
    start(QStringLiteral("Check power() for negative exponents"),
          bash(QStringLiteral("b2"),
               QStringLiteral("ctest  --test-dir build --output-on-failure"),
               QStringLiteral("Run the tests")));
    start(QStringLiteral("Start over with a clean build"),
          bash(QStringLiteral("b3"), QStringLiteral("rm -rf build"), QStringLiteral("Clean")));
    QTest::keyClick(scene.page()->composer(), Qt::Key_A, Qt::ControlModifier | Qt::ShiftModifier);
    ok = scene.waitFor([dialog] { return dialog->isVisible() && dialog->currentView(); }) && ok;
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    ok = scene.save(QStringLiteral("62-approval-inbox"), dialog) && ok;
    ok = scene.save(QStringLiteral("63-approval-inbox-window")) && ok;
    // The change below the list: reviewed per hunk here as on its page.
    QTest::keyClick(dialog->list(), Qt::Key_Down);
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    ok = scene.save(QStringLiteral("64-approval-inbox-diff"), dialog) && ok;
    return ok;
}

bool multiStates(const QString &dir)
{
    bool ok = severalSessions(dir, QStringLiteral("52-several-sessions"));
    Ui::applyTheme(Ui::Theme::Dark);
    ok = severalSessions(dir, QStringLiteral("53-several-sessions-dark")) && ok;
    Ui::applyTheme(Ui::Theme::System);
    return ok;
}

// Where bubblewrap cannot run (the command would run with the user's rights, and the bar says
// so once), and a command that a network rule lets reach the network.
bool sandboxStates(const QString &dir)
{
    sandboxBwrap = QStringLiteral("/nonexistent/bwrap");
    bool ok = reviewBash(dir, QStringLiteral("45-review-bash-unsandboxed"));
    ok = sandboxUnavailable(dir) && ok;
    sandboxBwrap.clear();
    return reviewBashNetworkRule(dir) && ok;
}

QString everythingScript()
{
    return TestSupport::mcpServersDir()
           + QStringLiteral("/node_modules/@modelcontextprotocol/server-everything/dist/index.js");
}

// Issue #20: a repository's .mcp.json asks before its servers start; the settings page lists
// them with their state and tools; an MCP tool's card with the picture it returned, and while
// the server reports progress.
bool mcpStates(const QString &dir)
{
    if (!QFileInfo::exists(everythingScript())) {
        std::fprintf(stderr,
                     "agentdesk_screenshots: server-everything is not installed (ctest -R "
                     "mcp_install_servers); the mcp group is left out\n");
        return true;
    }
    mcpJson = QJsonDocument(
                  QJsonObject{
                      {QStringLiteral("mcpServers"),
                       QJsonObject{
                           {QStringLiteral("everything"),
                            QJsonObject{{QStringLiteral("command"), QStringLiteral("node")},
                                        {QStringLiteral("args"),
                                         QJsonArray{everythingScript(), QStringLiteral("stdio")}}}},
                           {QStringLiteral("tracker"),
                            QJsonObject{{QStringLiteral("command"), QStringLiteral("npx")},
                                        {QStringLiteral("args"),
                                         QJsonArray{QStringLiteral("-y"),
                                                    QStringLiteral("@example/tracker-mcp")}},
                                        {QStringLiteral("env"),
                                         QJsonObject{{QStringLiteral("TRACKER_TOKEN"),
                                                      QStringLiteral("${keyring:tracker}")}}}}}}}})
                  .toJson();
    Scene scene(dir,
                {call(QStringLiteral("m0"), QStringLiteral("mcp__everything__get-tiny-image"), {}),
                 ModelStep::text(QStringLiteral("That is the MCP logo, 20 × 20 pixels.")),
                 call(QStringLiteral("m1"),
                      QStringLiteral("mcp__everything__trigger-long-running-operation"),
                      {{QStringLiteral("duration"), 30}, {QStringLiteral("steps"), 10}}),
                 ModelStep::text(QStringLiteral("Done."))},
                PermissionMode::Default);
    mcpJson.clear();
    Ui::ProjectTrustDialog *trust = nullptr;
    bool ok = scene.waitFor([&] {
        trust = scene.window()->findChild<Ui::ProjectTrustDialog *>();
        return trust && trust->isVisible();
    }) && scene.save(QStringLiteral("70-mcp-trust"), trust);
    if (!trust)
        return false;
    trust->findChild<QAbstractButton *>(QStringLiteral("trustButton"))->click();
    Ui::McpServers *servers = scene.window()->mcpServers();
    ok = scene.waitFor([servers] {
        const QList<Ui::McpServerEntry> entries = servers->servers();
        return entries.size() == 2 && entries.at(0).client
               && entries.at(0).client->state() == McpClient::State::Ready
               && !entries.at(1).problem.isEmpty();
    }) && ok;

    scene.window()->showSettings();
    auto settings = scene.window()->findChild<Ui::SettingsDialog *>();
    if (!settings || !scene.waitFor([settings] { return settings->isVisible(); }))
        return false;
    settings->showMcpServers();
    auto tree = settings->findChild<QTreeWidget *>(QStringLiteral("mcpServerTree"));
    tree->setCurrentItem(tree->topLevelItem(0));
    tree->topLevelItem(0)->setExpanded(true);
    settings->resize(760, 640);
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    ok = scene.save(QStringLiteral("71-mcp-settings"), settings) && ok;
    settings->reject();

    // The composer's `/` list of the servers' prompts and `@` list of their resources.
    Ui::Composer *composer = scene.page()->composer();
    scene.window()->activateWindow();
    composer->setFocus();
    ok = scene.waitFor([composer] { return composer->hasFocus(); }) && ok;
    QTest::keyClicks(composer, QStringLiteral("/"));
    ok = scene.waitFor([composer] { return composer->completions().size() > 2; })
         && scene.saveWithPopup(QStringLiteral("73-mcp-prompt-list"),
                                composer->findChild<QListView *>(QStringLiteral("mentionPopup")))
         && ok;
    composer->clear();
    QTest::keyClicks(composer, QStringLiteral("Compare src/calc.cpp with @everything:"));
    ok = scene.waitFor([composer] { return composer->completions().size() > 2; })
         && scene.saveWithPopup(QStringLiteral("74-mcp-resource-list"),
                                composer->findChild<QListView *>(QStringLiteral("mentionPopup")))
         && ok;
    QTest::keyClick(composer, Qt::Key_Escape);
    composer->clear();

    // An MCP tool asks whatever its annotations say (issue #31): allowed once here.
    Ui::ReviewQueue *reviews = scene.page()->reviews();
    const auto allowOnce = [&scene, reviews] {
        if (!scene.waitFor([reviews] { return reviews->currentView() != nullptr; }))
            return false;
        auto allow = reviews->currentView()->findChild<QAbstractButton *>(
            QStringLiteral("allowOnceButton"));
        if (!allow)
            return false;
        allow->click();
        return true;
    };

    // A tool's picture on its card, as the model got it.
    scene.type(QStringLiteral("Show me the MCP logo"));
    ok = allowOnce() && ok;
    ok = scene.waitFor([&scene] {
        const Ui::ConversationView *view = scene.page()->conversation();
        for (int i = 0; i < view->itemCount(); ++i) {
            if (view->itemAt(i)->kind() == Ui::ConversationItem::Kind::ToolCard
                && !static_cast<const Ui::ToolCardItem *>(view->itemAt(i))->pictures().isEmpty())
                return true;
        }
        return false;
    }) && scene.waitForIdle()
         && scene.save(QStringLiteral("75-mcp-tool-picture")) && ok;

    scene.type(QStringLiteral("Run the long operation"));
    // The review shows what the call is given, not only the tool's name (issue #34, item 3).
    ok = scene.waitFor([reviews] { return reviews->currentView() != nullptr; })
         && scene.save(QStringLiteral("76-mcp-review-arguments")) && ok;
    ok = allowOnce() && ok;
    ok = scene.waitFor([&scene] {
        const Ui::ConversationView *view = scene.page()->conversation();
        for (int i = 0; i < view->itemCount(); ++i) {
            if (view->itemAt(i)->kind() == Ui::ConversationItem::Kind::ToolCard
                && static_cast<const Ui::ToolCardItem *>(view->itemAt(i))
                       ->outputText()
                       .contains(QStringLiteral("progress 3")))
                return true;
        }
        return false;
    }) && scene.save(QStringLiteral("72-mcp-tool-progress"))
         && ok;
    scene.window()->openSessions()->stopAll();
    return scene.waitForIdle() && ok;
}

// Issue #34, item 14: the look, in the app's Light and Dark themes at a small and a common
// laptop size. The conversation with tool cards, the assistant's answer, the notice bars over
// the window (the sandbox is unavailable, AgentDesk runs as root) and the status bar's bypass
// warning; a diff under review; the settings dialog. The window stays as wide as it was made
// and needs no more than that: nothing is cut off on the right.
bool lookStates(const QString &dir)
{
    const QSize before = windowSize;
    bool ok = true;
    const auto fits = [](Scene &scene, const QSize &size, const QString &name) {
        const int needed = scene.window()->minimumSizeHint().width();
        if (scene.window()->width() == size.width() && needed <= size.width())
            return true;
        std::fprintf(stderr,
                     "agentdesk_screenshots: %s is %d px wide and needs %d, made %d\n",
                     qPrintable(name),
                     scene.window()->width(),
                     needed,
                     size.width());
        return false;
    };
    for (const Ui::Theme theme : {Ui::Theme::Light, Ui::Theme::Dark}) {
        Ui::applyTheme(theme);
        const QString themeName = theme == Ui::Theme::Dark ? QStringLiteral("dark")
                                                           : QStringLiteral("light");
        for (const QSize size : {QSize(1000, 700), QSize(1366, 768)}) {
            windowSize = size;
            const QString suffix
                = QStringLiteral("%1-%2x%3").arg(themeName).arg(size.width()).arg(size.height());
            {
                sandboxBwrap = QStringLiteral("/nonexistent/bwrap");
                Scene scene(dir,
                            {call(QStringLiteral("r1"),
                                  QStringLiteral("Read"),
                                  {{"file_path", "src/calc.cpp"}}),
                             call(QStringLiteral("w1"),
                                  QStringLiteral("Write"),
                                  {{"file_path", "src/calc.cpp"}, {"content", fixedSource()}}),
                             call(QStringLiteral("b1"),
                                  QStringLiteral("Bash"),
                                  {{"command", "git status --short && echo '14 tests passed'"}}),
                             ModelStep::text(QString::fromLatin1(answerMarkdown))},
                            PermissionMode::Bypass);
                sandboxBwrap.clear();
                Ui::RootUserBar::addTo(scene.window(), 0);
                scene.type(QStringLiteral("add(INT_MAX, 1) returns a negative number. Fix it."));
                const QString name = QStringLiteral("90-look-conversation-") + suffix;
                ok = scene.waitForIdle() && scene.waitFor([&scene] {
                    return scene.window()->sandboxNotice()->isVisible()
                           && !scene.window()->changedFilesPanel()->rows().isEmpty();
                }) && fits(scene, size, name)
                     && scene.save(name) && ok;
            }
            {
                Scene scene(dir,
                            {call(QStringLiteral("r1"),
                                  QStringLiteral("Read"),
                                  {{"file_path", "src/calc.cpp"}}),
                             call(QStringLiteral("w1"),
                                  QStringLiteral("Write"),
                                  {{"file_path", "src/calc.cpp"}, {"content", fixedSource()}}),
                             ModelStep::text(QStringLiteral("Fixed."))},
                            PermissionMode::Default);
                scene.type(QStringLiteral("Fix the overflow in add, and guard divide."));
                const QString name = QStringLiteral("91-look-review-") + suffix;
                ok = scene.waitFor([&scene] { return scene.page()->reviews()->count() == 1; })
                     && fits(scene, size, name) && scene.save(name) && ok;
            }
        }
        windowSize = QSize(1366, 768);
        Scene scene(dir, {}, PermissionMode::Default, true);
        scene.window()->showSettings();
        auto dialog = scene.window()->findChild<Ui::SettingsDialog *>();
        ok = dialog && scene.waitFor([dialog] { return dialog->isVisible(); })
             && scene.save(QStringLiteral("92-look-settings-") + themeName, dialog) && ok;
    }
    Ui::applyTheme(Ui::Theme::System);
    windowSize = before;
    return ok;
}

// Issue #37: a subagent's Task card. An explore subagent read the source and searched it, then
// answered: its card folded (one line of what it did), then opened on its conversation (its
// tool cards drawn as the main conversation's). A general subagent's Write waits for review:
// the review says which subagent asks, the open card shows the call waiting. \a suffix names
// the variant ("light-1000x700"); empty for the docs.
bool subagentScenes(const QString &dir, const QString &suffix)
{
    const auto named = [&suffix](const char *name) {
        return suffix.isEmpty() ? QString::fromLatin1(name)
                                : QString::fromLatin1(name) + QLatin1Char('-') + suffix;
    };
    const auto task = [](const QString &type, const QString &description, const QString &prompt) {
        return call(QStringLiteral("t1"),
                    QStringLiteral("Task"),
                    {{"description", description}, {"prompt", prompt}, {"subagent_type", type}});
    };
    const auto openCard = [](Scene &scene) {
        Ui::ConversationView *view = scene.page()->conversation();
        Ui::TaskCardItem *card = view->task({QStringLiteral("t1")});
        if (!card)
            return false;
        view->flush();
        const QRect rect = view->itemRect(view->indexOf(card));
        QTest::mouseClick(view->viewport(),
                          Qt::LeftButton,
                          {},
                          rect.topLeft() + card->headerRect().center());
        view->flush();
        return card->isOpen();
    };
    // A priced reply that took a moment: the card shows tokens, cost and time.
    const auto priced = [](ModelStep step, qint64 input) {
        step.message.provider = QStringLiteral("anthropic");
        step.message.model = QStringLiteral("claude-sonnet-4-5");
        step.message.usage.input = input;
        step.message.usage.output = input / 20;
        step.message.usage.cost = double(input) * 3e-6 + double(input / 20) * 15e-6;
        step.delayMs = 300;
        return step;
    };
    bool ok = true;
    {
        Scene scene(dir,
                    {task(QStringLiteral("explore"),
                          QStringLiteral("Find where add() can overflow"),
                          QStringLiteral("Find every place in src/ where calc::add or its callers "
                                         "can overflow; answer with file:line.")),
                     priced(call(QStringLiteral("c1"),
                                 QStringLiteral("Grep"),
                                 {{"pattern", "add\\("}, {"path", "src"}}),
                            8'200),
                     priced(call(QStringLiteral("c2"),
                                 QStringLiteral("Read"),
                                 {{"file_path", "src/calc.cpp"}}),
                            8'900),
                     priced(ModelStep::text(QStringLiteral(
                                "Only `calc::add` in src/calc.cpp:9 can overflow: it returns "
                                "`a + b` unchecked. `multiply` (line 14) and `power` (line 25) "
                                "overflow the same way.")),
                            9'600),
                     ModelStep::text(QStringLiteral(
                         "The subagent found three unchecked operations in `src/calc.cpp`: "
                         "`add` (line 9), `multiply` (line 14) and `power` (line 25)."))},
                    PermissionMode::Default);
        scene.type(QStringLiteral("Where can add() overflow? Let a subagent search."));
        ok = scene.waitForIdle() && scene.waitFor([&scene] {
            const Ui::TaskCardItem *card = scene.page()->conversation()->task(
                {QStringLiteral("t1")});
            return card && card->progress() == Ui::TaskCardItem::Progress::Done;
        }) && scene.save(named("95-subagent-folded"))
             && ok;
        ok = openCard(scene) && scene.save(named("96-subagent-open")) && ok;
    }
    {
        Scene scene(dir,
                    {task(QStringLiteral("general"),
                          QStringLiteral("Fix the overflow in add"),
                          QStringLiteral("Make calc::add throw std::overflow_error on overflow.")),
                     call(QStringLiteral("c1"),
                          QStringLiteral("Read"),
                          {{"file_path", "src/calc.cpp"}}),
                     call(QStringLiteral("c2"),
                          QStringLiteral("Write"),
                          {{"file_path", "src/calc.cpp"}, {"content", fixedSource()}}),
                     ModelStep::text(QStringLiteral("Fixed."))},
                    PermissionMode::Default);
        scene.type(QStringLiteral("Fix the overflow in add; let a subagent do it."));
        ok = scene.waitFor([&scene] { return scene.page()->reviews()->count() == 1; })
             && openCard(scene) && scene.save(named("97-subagent-review")) && ok;
        scene.window()->openSessions()->stopAll();
        ok = scene.waitForIdle() && ok;
    }
    return ok;
}

// The Task card states in the app's Light and Dark themes at the smallest window.
bool subagentStates(const QString &dir)
{
    const QSize before = windowSize;
    windowSize = QSize(1000, 700);
    bool ok = true;
    for (const Ui::Theme theme : {Ui::Theme::Light, Ui::Theme::Dark}) {
        Ui::applyTheme(theme);
        ok = subagentScenes(dir,
                            theme == Ui::Theme::Dark ? QStringLiteral("dark-1000x700")
                                                     : QStringLiteral("light-1000x700"))
             && ok;
    }
    Ui::applyTheme(Ui::Theme::System);
    windowSize = before;
    return ok;
}

// Help > Keyboard Shortcuts (the shortcut table) and Help > User Guide (F1), over the window.
bool helpDialogs(const QString &dir)
{
    Scene scene(dir, {}, PermissionMode::Default);
    Ui::MainWindow *window = scene.window();
    if (auto keys = window->findChild<QAction *>(QStringLiteral("keyboardShortcutsAction")))
        keys->trigger();
    Ui::ShortcutsDialog *shortcuts = nullptr;
    bool ok = scene.waitFor([&] {
        shortcuts = window->findChild<Ui::ShortcutsDialog *>();
        return shortcuts && shortcuts->isVisible();
    }) && scene.save(QStringLiteral("65-keyboard-shortcuts"), shortcuts);
    if (shortcuts)
        shortcuts->close();
    // F1 as a user presses it: the window's shortcut, in the active window.
    window->activateWindow();
    ok = QTest::qWaitForWindowActive(window) && ok;
    QTest::keyClick(scene.page()->composer(), Qt::Key_F1);
    Ui::UserGuideDialog *guide = nullptr;
    ok = scene.waitFor([&] {
        guide = window->findChild<Ui::UserGuideDialog *>();
        return guide && guide->isVisible();
    }) && ok;
    if (!guide)
        return false;
    // A section with a picture, as a reader finds it from the list of sections.
    guide->contents()->setCurrentRow(1);
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    return scene.save(QStringLiteral("66-user-guide"), guide) && ok;
}

// Issue #35: a fresh window finds what the user already has (a key in the environment, a model
// server on this computer) and offers it on the welcome page, one click each.
bool welcomeOffers(const QString &dir)
{
    TestSupport::HttpTestServer server;
    server.enqueue(TestSupport::ScriptedResponse::error(
        200,
        R"({"object":"list","data":[{"id":"qwen3-coder:30b","object":"model","owned_by":"library"},)"
        R"({"id":"llama3.2:latest","object":"model","owned_by":"library"}]})"));
    localModelPorts = QList<quint16>{server.port()};
    FakeKeyStore keys;
    keyStore = &keys;
    modelFromSettings = true;
    const QProcessEnvironment environment = windowEnvironment;
    windowEnvironment.insert(QStringLiteral("ANTHROPIC_API_KEY"), QStringLiteral("sk-ant-shown"));
    bool ok = true;
    {
        Scene scene(dir, {}, PermissionMode::Default, true);
        ok = scene.waitFor([&scene] {
            return scene.page()->findChildren<QWidget *>(QStringLiteral("modelOffer")).size() == 2;
        }) && scene.save(QStringLiteral("80-welcome-offers"));
    }
    localModelPorts.reset();
    keyStore = nullptr;
    modelFromSettings = false;
    windowEnvironment = environment;
    return ok;
}

// Issue #36: the repository's custom commands in the composer's `/` list, its hooks in the
// trust dialog, on the settings' Hooks page and on the card of the call they ran for.
bool extendStates(const QString &dir)
{
    repositoryFiles = {
        {QStringLiteral(".agentdesk/commands/review.md"),
         "---\ndescription: Review the staged changes for bugs and style\n"
         "argument-hint: [focus]\n---\nReview `git diff --cached` with $ARGUMENTS in mind.\n"},
        {QStringLiteral(".agentdesk/commands/release/notes.md"),
         "---\ndescription: Draft release notes since the last tag\n---\n"
         "Write release notes for the commits since the last tag.\n"},
        {QStringLiteral(".claude/commands/fix-issue.md"),
         "---\ndescription: Fix a GitHub issue by its number\nargument-hint: <number>\n---\n"
         "Fix issue #$1.\n"},
        {QStringLiteral(".agentdesk/hooks/no-push.sh"),
         "#!/bin/sh\n# Refuses git push: the CI pushes.\n"
         "if grep -q 'git push'; then echo 'pushing is not allowed here' >&2; exit 2; fi\n"
         "echo 'checked: no git push'\n"},
        {QStringLiteral(".agentdesk/hooks/format.sh"),
         "#!/bin/sh\ncat >/dev/null\necho 'formatted with clang-format'\n"},
        {QStringLiteral(".agentdesk/settings.json"),
         R"({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", )"
         R"("command": "sh .agentdesk/hooks/no-push.sh"}]}], )"
         R"("PostToolUse": [{"matcher": "Bash|Edit|Write", "hooks": [{"type": "command", )"
         R"("command": "sh .agentdesk/hooks/format.sh"}]}]}})"},
    };
    Scene scene(dir,
                {call(QStringLiteral("b1"),
                      QStringLiteral("Bash"),
                      {{QStringLiteral("command"), QStringLiteral("git status --short")},
                       {QStringLiteral("description"), QStringLiteral("Show changed files")}}),
                 ModelStep::text(QStringLiteral("Nothing is changed yet."))},
                PermissionMode::Bypass);
    repositoryFiles.clear();
    Ui::ProjectTrustDialog *trust = nullptr;
    bool ok = scene.waitFor([&] {
        trust = scene.window()->findChild<Ui::ProjectTrustDialog *>();
        return trust && trust->isVisible();
    }) && scene.save(QStringLiteral("81-hooks-trust"), trust);
    if (!trust)
        return false;
    trust->findChild<QAbstractButton *>(QStringLiteral("trustButton"))->click();

    Ui::Composer *composer = scene.page()->composer();
    scene.window()->activateWindow();
    composer->setFocus();
    ok = scene.waitFor([composer] { return composer->hasFocus(); }) && ok;
    QTest::keyClicks(composer, QStringLiteral("/"));
    ok = scene.waitFor([composer] { return composer->completions().size() > 2; })
         && scene.saveWithPopup(QStringLiteral("82-custom-commands"),
                                composer->findChild<QListView *>(QStringLiteral("mentionPopup")))
         && ok;
    QTest::keyClick(composer, Qt::Key_Escape);
    composer->clear();

    scene.type(QStringLiteral("What is changed?"));
    Ui::ConversationView *view = scene.page()->conversation();
    int card = -1;
    ok = scene.waitForIdle() && scene.waitFor([view, &card] {
        for (int i = 0; i < view->itemCount(); ++i) {
            if (view->itemAt(i)->kind() == Ui::ConversationItem::Kind::ToolCard
                && static_cast<const Ui::ToolCardItem *>(view->itemAt(i))->hookRunCount() == 2)
                card = i;
        }
        return card >= 0;
    }) && ok;
    if (card < 0)
        return false;
    // Opened as a user opens it: a click on "Details", the card's last line.
    const QRect cardRect = view->itemRect(card);
    QTest::mouseClick(view->viewport(),
                      Qt::LeftButton,
                      {},
                      QPoint(cardRect.left() + 40, cardRect.bottom() - 14));
    ok = scene.waitFor([view, card] {
        return static_cast<const Ui::ToolCardItem *>(view->itemAt(card))
            ->detailsShownText()
            .contains(QLatin1String("PostToolUse"));
    }) && scene.save(QStringLiteral("83-tool-card-hooks"))
         && ok;

    scene.window()->showSettings();
    auto settings = scene.window()->findChild<Ui::SettingsDialog *>();
    if (!settings || !scene.waitFor([settings] { return settings->isVisible(); }))
        return false;
    auto tabs = settings->findChild<QTabWidget *>(QStringLiteral("settingsTabs"));
    auto hooks = settings->findChild<QTreeWidget *>(QStringLiteral("hooks"));
    if (!tabs || !hooks)
        return false;
    tabs->setCurrentWidget(hooks->parentWidget());
    settings->resize(760, 480);
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    ok = hooks->topLevelItemCount() == 2
         && scene.save(QStringLiteral("84-settings-hooks"), settings) && ok;
    settings->reject();
    return ok;
}

// The pictures of the README, docs/guide.md and the AppStream metainfo: each a state above,
// at a laptop's window size, saved under a name of its own and stamped with what made it.
// `agentdesk_screenshots --docs DIR` (scripts/screenshots --docs) makes them;
// `agentdesk_screenshots --check-docs ROOT` (ctest docs_images_are_current) checks that every
// picture the docs name is one of them, is there, and carries the stamp this program gives it.
struct DocsPicture
{
    QLatin1String name; // docs/images/NAME.png
    QLatin1String made; // the state's own name
    bool (*produce)(const QString &dir);
};

const QSize docsWindowSize(1000, 700);
const char docsStampKey[] = "AgentDesk-Screenshot";

const QList<DocsPicture> &docsPictures()
{
    static const QList<DocsPicture> pictures{
        {QLatin1String("welcome"),
         QLatin1String("01-welcome"),
         [](const QString &dir) { return welcome(dir, QStringLiteral("01-welcome")); }},
        {QLatin1String("demo"), QLatin1String("11-demo-finished"), demo},
        {QLatin1String("review"),
         QLatin1String("04-review-diff"),
         [](const QString &dir) { return reviewDiff(dir, QStringLiteral("04-review-diff")); }},
        {QLatin1String("review-command"),
         QLatin1String("05-review-bash"),
         [](const QString &dir) { return reviewBash(dir, QStringLiteral("05-review-bash")); }},
        {QLatin1String("file-diff"), QLatin1String("22-file-diff"), fileDiff},
        {QLatin1String("queue"), QLatin1String("06-queue"), queue},
        {QLatin1String("background-commands"),
         QLatin1String("41-background-commands"),
         backgroundCommands},
        {QLatin1String("sessions"), QLatin1String("17-ids-per-reply-resumed"), idsPerReply},
        {QLatin1String("several-sessions"),
         QLatin1String("52-several-sessions"),
         [](const QString &dir) {
             return severalSessions(dir, QStringLiteral("52-several-sessions"));
         }},
        {QLatin1String("inbox"), QLatin1String("62-approval-inbox"), inbox},
        {QLatin1String("subagent"),
         QLatin1String("96-subagent-open"),
         [](const QString &dir) { return subagentScenes(dir, QString()); }},
        {QLatin1String("rewind"), QLatin1String("48-rewind-dialog"), rewound},
        {QLatin1String("context"), QLatin1String("33-context-view"), contextView},
        {QLatin1String("compaction"), QLatin1String("34-compacted"), compacted},
        {QLatin1String("mcp"), QLatin1String("71-mcp-settings"), mcpStates},
        {QLatin1String("settings"),
         QLatin1String("12-settings"),
         [](const QString &dir) { return settings(dir, QStringLiteral("12-settings")); }},
        {QLatin1String("shortcuts"), QLatin1String("65-keyboard-shortcuts"), helpDialogs},
        {QLatin1String("user-guide"), QLatin1String("66-user-guide"), helpDialogs},
        {QLatin1String("commands"), QLatin1String("82-custom-commands"), extendStates},
        {QLatin1String("hooks"), QLatin1String("83-tool-card-hooks"), extendStates},
    };
    return pictures;
}

QString docsStamp(const DocsPicture &picture)
{
    return QStringLiteral("%1: agentdesk_screenshots state %2, window %3x%4")
        .arg(picture.name, picture.made)
        .arg(docsWindowSize.width())
        .arg(docsWindowSize.height());
}

// Makes every docs picture in \a dir: small PNGs, each stamped with docsStamp().
bool saveDocs(const QString &dir)
{
    windowSize = docsWindowSize;
    QTemporaryDir scratch;
    QList<bool (*)(const QString &)> produced;
    bool ok = true;
    for (const DocsPicture &picture : docsPictures()) {
        if (!produced.contains(picture.produce)) {
            produced.append(picture.produce);
            ok = picture.produce(scratch.path()) && ok;
        }
        QImage image(scratch.filePath(picture.made + QStringLiteral(".png")));
        const QString path = QDir(dir).filePath(picture.name + QStringLiteral(".png"));
        if (image.isNull()) {
            std::fprintf(stderr,
                         "agentdesk_screenshots: %s was not made (state %s)\n",
                         qPrintable(path),
                         qPrintable(QString(picture.made)));
            ok = false;
            continue;
        }
        image.setText(QString::fromLatin1(docsStampKey), docsStamp(picture));
        QImageWriter writer(path, "png");
        writer.setQuality(0); // the smallest file zlib makes
        const bool saved = writer.write(image.convertToFormat(QImage::Format_RGB32));
        std::fprintf(saved ? stdout : stderr,
                     "%s %s\n",
                     saved ? "saved" : "cannot write",
                     qPrintable(path));
        ok = saved && ok;
    }
    return ok;
}

// Every picture README.md, docs/*.md and installer/*.metainfo.xml.in under \a root name
// (`images/NAME.png`): one of docsPictures(), in root/docs/images, stamped as this program
// stamps it. Prints each problem; false when there is one.
bool checkDocs(const QString &root)
{
    QStringList files{QStringLiteral("README.md")};
    const QDir docs(root + QStringLiteral("/docs"));
    for (const QString &name : docs.entryList({QStringLiteral("*.md")}, QDir::Files, QDir::Name))
        files.append(QStringLiteral("docs/") + name);
    const QDir installer(root + QStringLiteral("/installer"));
    for (const QString &name :
         installer.entryList({QStringLiteral("*.metainfo.xml.in")}, QDir::Files, QDir::Name))
        files.append(QStringLiteral("installer/") + name);
    static const QRegularExpression named(QStringLiteral("(?:^|[/(\"'])images/([\\w.-]+)\\.png"),
                                          QRegularExpression::MultilineOption);
    int problems = 0;
    int pictures = 0;
    const auto problem = [&problems](const QString &where, const QString &what) {
        std::fprintf(stderr, "%s: %s\n", qPrintable(where), qPrintable(what));
        ++problems;
    };
    for (const QString &file : files) {
        QFile text(root + QLatin1Char('/') + file);
        if (!text.open(QIODevice::ReadOnly)) {
            if (file == QLatin1String("README.md"))
                problem(file, QStringLiteral("cannot be read"));
            continue;
        }
        const QString content = QString::fromUtf8(text.readAll());
        for (auto match = named.globalMatch(content); match.hasNext();) {
            const QRegularExpressionMatch found = match.next();
            const QString name = found.captured(1);
            const int line = int(content.left(found.capturedStart(1)).count(QLatin1Char('\n'))) + 1;
            ++pictures;
            const auto entry = std::find_if(docsPictures().cbegin(),
                                            docsPictures().cend(),
                                            [&name](const DocsPicture &picture) {
                                                return picture.name == name;
                                            });
            const QString label
                = QStringLiteral("%1:%2: images/%3.png").arg(file).arg(line).arg(name);
            if (entry == docsPictures().cend()) {
                problem(label, QStringLiteral("no state of agentdesk_screenshots makes it"));
                continue;
            }
            const QString path = docs.filePath(QStringLiteral("images/") + name
                                               + QStringLiteral(".png"));
            QImage image(path);
            if (image.isNull()) {
                problem(label, QStringLiteral("missing"));
                continue;
            }
            const QString stamp = image.text(QString::fromLatin1(docsStampKey));
            if (stamp != docsStamp(*entry))
                problem(label,
                        QStringLiteral("not made by the current agentdesk_screenshots (its stamp: "
                                       "\"%1\", expected \"%2\")")
                            .arg(stamp, docsStamp(*entry)));
        }
    }
    if (problems > 0)
        std::fprintf(stderr,
                     "%d of %d pictures the docs name are not current: run scripts/screenshots "
                     "--docs\n",
                     problems,
                     pictures);
    else
        std::printf("%d pictures the docs name, each current\n", pictures);
    return problems == 0 && pictures > 0;
}
} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true); // no recent list or settings of the user
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    Ui::Translations::install(QStringLiteral("en")); // "1 file", "2 files"
    const QStringList arguments = QCoreApplication::arguments();
    const bool docs = arguments.size() == 3 && arguments.at(1) == QLatin1String("--docs");
    const bool checking = arguments.size() == 3 && arguments.at(1) == QLatin1String("--check-docs");
    if (arguments.size() != 2 && !docs && !checking) {
        std::fprintf(stderr,
                     "usage: agentdesk_screenshots DIR | --docs DIR | --check-docs CHECKOUT\n");
        return 2;
    }
    if (checking)
        return checkDocs(arguments.at(2)) ? 0 : 1;
    const QString dir = arguments.last();
    if (!QDir().mkpath(dir)) {
        std::fprintf(stderr, "agentdesk_screenshots: cannot create %s\n", qPrintable(dir));
        return 1;
    }
    if (docs)
        return saveDocs(dir) ? 0 : 1;
    // AGENTDESK_SCREENSHOTS_ONLY=NAME: one group of states alone (while working on them).
    const QList<std::pair<QLatin1String, bool (*)(const QString &)>>
        groups{{QLatin1String("multi"), multiStates},
               {QLatin1String("rewind"), rewound},
               {QLatin1String("branches"), branched},
               {QLatin1String("sandbox"), sandboxStates},
               {QLatin1String("habit"), ruleOffer},
               {QLatin1String("inbox"), inbox},
               {QLatin1String("mcp"), mcpStates},
               {QLatin1String("worktree"), worktreeReview},
               {QLatin1String("longbash"), reviewLongBash},
               {QLatin1String("background"), backgroundCommands},
               {QLatin1String("look"), lookStates},
               {QLatin1String("subagent"), subagentStates},
               {QLatin1String("help"), helpDialogs},
               {QLatin1String("demo"), demo},
               {QLatin1String("extend"),
                [](const QString &dir) { return welcomeOffers(dir) && extendStates(dir); }},
               {QLatin1String("edit"), reviewEdited},
               {QLatin1String("pictures"), pictures},
               {QLatin1String("paged"), pagedOutput},
               {QLatin1String("settings"),
                [](const QString &dir) { return settings(dir, QStringLiteral("12-settings")); }}};
    if (const QString only = qEnvironmentVariable("AGENTDESK_SCREENSHOTS_ONLY"); !only.isEmpty()) {
        for (const auto &[name, save] : groups) {
            if (only == name)
                return save(dir) ? 0 : 1;
        }
        std::fprintf(stderr, "agentdesk_screenshots: no group %s\n", qPrintable(only));
        return 2;
    }
    bool ok = welcome(dir, QStringLiteral("01-welcome"));
    ok = streaming(dir) && ok;
    ok = toolRunning(dir) && ok;
    ok = reviewDiff(dir, QStringLiteral("04-review-diff")) && ok;
    ok = reviewBash(dir, QStringLiteral("05-review-bash")) && ok;
    ok = shellWritesReview(dir) && ok;
    ok = worktreeReview(dir) && ok;
    ok = queue(dir) && ok;
    ok = backgroundCommands(dir) && ok;
    ok = finished(dir, QStringLiteral("07-finished")) && ok;
    ok = demo(dir) && ok;
    ok = settings(dir, QStringLiteral("12-settings")) && ok;
    ok = projectTrust(dir) && ok;
    ok = bypass(dir) && ok;
    ok = runningAsRoot(dir) && ok;
    ok = idsPerReply(dir) && ok;
    ok = jumpToLatest(dir) && ok;
    ok = sessionElsewhereAndAfterACrash(dir) && ok;
    ok = toolStopped(dir) && ok;
    ok = steeringNotSent(dir) && ok;
    ok = fileDiff(dir) && ok;
    ok = contextView(dir) && ok;
    ok = compacted(dir) && ok;
    ok = rewound(dir) && ok;
    ok = branched(dir) && ok;
    // The smallest window the layout is made for: nothing may be cut off.
    windowSize = QSize(1000, 700);
    ok = welcome(dir, QStringLiteral("23-small-welcome")) && ok;
    ok = reviewDiff(dir, QStringLiteral("24-small-review-diff")) && ok;
    ok = reviewBash(dir, QStringLiteral("25-small-review-bash")) && ok;
    ok = finished(dir, QStringLiteral("26-small-finished")) && ok;
    ok = reviewLongBash(dir) && ok;
    // Simplified Chinese, which needs a CJK font (fonts-noto-cjk in the build root).
    Ui::Translations::install(QStringLiteral("zh_CN"));
    ok = reviewDiff(dir, QStringLiteral("27-zh-CN-review-diff")) && ok;
    ok = settings(dir, QStringLiteral("28-zh-CN-settings")) && ok;
    Ui::Translations::install(QStringLiteral("en"));
    windowSize = QSize(1280, 820);
    ok = markdownAnswer(dir) && ok;
    ok = cacheHits(dir) && ok;
    ok = sandboxStates(dir) && ok;
    ok = ruleOffer(dir) && ok;
    ok = multiStates(dir) && ok;
    ok = inbox(dir) && ok;
    ok = mcpStates(dir) && ok;
    ok = lookStates(dir) && ok;
    ok = subagentStates(dir) && ok;
    ok = helpDialogs(dir) && ok;
    ok = welcomeOffers(dir) && ok;
    ok = extendStates(dir) && ok;
    ok = reviewEdited(dir) && ok;
    ok = pictures(dir) && ok;
    ok = pagedOutput(dir) && ok;
    Ui::applyTheme(Ui::Theme::Dark);
    ok = reviewDiff(dir, QStringLiteral("08-review-diff-dark")) && ok;
    ok = finished(dir, QStringLiteral("09-finished-dark")) && ok;
    return ok ? 0 : 1;
}
