// The composer: what Enter, Shift+Enter, Alt+Enter and Esc do while idle and while the agent
// runs, and the `@` file list on a real git repository.
#include <composer/composer.h>
#include <composer/repositoryfiles.h>
#include <testmain.h>

#include "../tools/toolstest.h"

#include <QDir>
#include <QListView>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

namespace tst_composer {

using Ui::Composer;

class tst_Composer : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();

    void keys_data();
    void keys();
    void emptyTextIsNotSent();
    void escape_data();
    void escape();
    void placeholderSaysWhatEnterDoes();
    void growsToAFewLines();

    void mentionOffersRepositoryFiles();
    void mentionFiltersAsTheUserTypes();
    void mentionEnterInsertsInsteadOfSending();
    void mentionEscapeClosesTheListOnly();
    void mentionSeesFilesCreatedSinceTheListing();
    void atInsideAWordIsNoMention();
    void matchRanksFileNamesFirst();

    void screenshots();

private:
    /// A shown, focused composer on the test repository.
    void show(Composer &composer, bool withRepository = false);

    std::unique_ptr<ToolsTest::Repo> m_repo;
};

void tst_Composer::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    m_repo = std::make_unique<ToolsTest::Repo>();
    QVERIFY(m_repo->isValid());
    QVERIFY(m_repo->write(QStringLiteral(".gitignore"), "build/\n*.env\n"));
    QVERIFY(m_repo->write(QStringLiteral("README.md"), "# Demo\n"));
    QVERIFY(m_repo->write(QStringLiteral("src/main.cpp"), "int main() {}\n"));
    QVERIFY(m_repo->write(QStringLiteral("src/mainwindow.cpp"), "\n"));
    QVERIFY(m_repo->write(QStringLiteral("src/domain/remainder.h"), "\n"));
    QVERIFY(m_repo->write(QStringLiteral("build/main.o"),
                          "\x7f"
                          "ELF"));
    QVERIFY(m_repo->write(QStringLiteral("secrets.env"), "TOKEN=1\n"));
}

void tst_Composer::show(Composer &composer, bool withRepository)
{
    composer.resize(480, composer.height());
    composer.show();
    composer.activateWindow();
    composer.setFocus();
    QVERIFY(QTest::qWaitForWindowExposed(&composer));
    QTRY_VERIFY(composer.hasFocus());
    if (withRepository) {
        composer.setRepositoryRoot(m_repo->root());
        QSignalSpy listed(composer.repositoryFiles(), &Ui::RepositoryFiles::pathsChanged);
        QVERIFY(listed.wait());
    }
}

void tst_Composer::keys_data()
{
    QTest::addColumn<bool>("running");
    QTest::addColumn<Qt::KeyboardModifiers>("modifiers");
    QTest::addColumn<QString>("emitted"); // the signal, or "" for none
    QTest::addColumn<QString>("left");    // the text left in the box

    const QString typed = QStringLiteral("fix the bug");
    QTest::newRow("idle, Enter sends") << false << Qt::KeyboardModifiers() << "submitted"
                                       << "";
    QTest::newRow("idle, Alt+Enter sends")
        << false << Qt::KeyboardModifiers(Qt::AltModifier) << "submitted"
        << "";
    QTest::newRow("idle, Shift+Enter adds a line")
        << false << Qt::KeyboardModifiers(Qt::ShiftModifier) << "" << typed + QLatin1Char('\n');
    QTest::newRow("running, Enter steers") << true << Qt::KeyboardModifiers() << "steered"
                                           << "";
    QTest::newRow("running, Alt+Enter queues")
        << true << Qt::KeyboardModifiers(Qt::AltModifier) << "followUpQueued"
        << "";
    QTest::newRow("running, Shift+Enter adds a line")
        << true << Qt::KeyboardModifiers(Qt::ShiftModifier) << "" << typed + QLatin1Char('\n');
    QTest::newRow("keypad Enter sends")
        << false << Qt::KeyboardModifiers(Qt::KeypadModifier) << "submitted"
        << "";
}

void tst_Composer::keys()
{
    QFETCH(bool, running);
    QFETCH(Qt::KeyboardModifiers, modifiers);
    QFETCH(QString, emitted);
    QFETCH(QString, left);

    Composer composer;
    show(composer);
    composer.setRunning(running);
    QSignalSpy submitted(&composer, &Composer::submitted);
    QSignalSpy steered(&composer, &Composer::steered);
    QSignalSpy queued(&composer, &Composer::followUpQueued);
    QTest::keyClicks(&composer, QStringLiteral("fix the bug"));
    const Qt::Key key = modifiers & Qt::KeypadModifier ? Qt::Key_Enter : Qt::Key_Return;
    QTest::keyClick(&composer, key, modifiers);

    const QList<std::pair<QString, QSignalSpy *>> spies{{QStringLiteral("submitted"), &submitted},
                                                        {QStringLiteral("steered"), &steered},
                                                        {QStringLiteral("followUpQueued"), &queued}};
    for (const auto &[name, spy] : spies) {
        QCOMPARE(spy->count(), name == emitted ? 1 : 0);
        if (name == emitted)
            QCOMPARE(spy->first().first().toString(), QStringLiteral("fix the bug"));
    }
    QCOMPARE(composer.toPlainText(), left);
}

void tst_Composer::emptyTextIsNotSent()
{
    Composer composer;
    show(composer);
    QSignalSpy submitted(&composer, &Composer::submitted);
    QTest::keyClicks(&composer, QStringLiteral("   "));
    QTest::keyClick(&composer, Qt::Key_Return);
    QCOMPARE(submitted.count(), 0);

    QTest::keyClicks(&composer, QStringLiteral("  run the tests  "));
    QTest::keyClick(&composer, Qt::Key_Return);
    QCOMPARE(submitted.count(), 1);
    QCOMPARE(submitted.first().first().toString(), QStringLiteral("run the tests"));
}

void tst_Composer::escape_data()
{
    QTest::addColumn<bool>("running");
    QTest::addColumn<int>("stops");
    QTest::newRow("idle: nothing to stop") << false << 0;
    QTest::newRow("running: stops") << true << 1;
}

void tst_Composer::escape()
{
    QFETCH(bool, running);
    QFETCH(int, stops);
    Composer composer;
    show(composer);
    composer.setRunning(running);
    QSignalSpy stop(&composer, &Composer::stopRequested);
    QTest::keyClicks(&composer, QStringLiteral("half a thought"));
    QTest::keyClick(&composer, Qt::Key_Escape);
    QCOMPARE(stop.count(), stops);
    QCOMPARE(composer.toPlainText(), QStringLiteral("half a thought")); // never thrown away
}

void tst_Composer::placeholderSaysWhatEnterDoes()
{
    Composer composer;
    QVERIFY(composer.placeholderText().contains(QStringLiteral("Enter sends")));
    QVERIFY(!composer.placeholderText().contains(QStringLiteral("Alt+Enter")));
    composer.setRunning(true);
    QVERIFY(composer.placeholderText().contains(QStringLiteral("Enter steers")));
    QVERIFY(composer.placeholderText().contains(QStringLiteral("Alt+Enter queues")));
    QVERIFY(composer.placeholderText().contains(QStringLiteral("Esc stops")));
    composer.setRunning(false);
    QVERIFY(composer.placeholderText().contains(QStringLiteral("Enter sends")));
}

void tst_Composer::growsToAFewLines()
{
    Composer composer;
    show(composer);
    const int oneLine = composer.height();
    for (int i = 0; i < 2; ++i)
        QTest::keyClick(&composer, Qt::Key_Return, Qt::ShiftModifier);
    const int threeLines = composer.height();
    QVERIFY2(threeLines > oneLine,
             qPrintable(QStringLiteral("%1 -> %2").arg(oneLine).arg(threeLines)));
    for (int i = 0; i < 20; ++i)
        QTest::keyClick(&composer, Qt::Key_Return, Qt::ShiftModifier);
    const int many = composer.height();
    QVERIFY(many > threeLines);
    QVERIFY(many < oneLine * Composer::maxVisibleLines);
    composer.clear();
    QTRY_COMPARE(composer.height(), oneLine);
}

void tst_Composer::mentionOffersRepositoryFiles()
{
    Composer composer;
    show(composer, true);
    QTest::keyClicks(&composer, QStringLiteral("look at @"));
    QTRY_VERIFY(composer.isCompletionVisible());
    const QStringList offered = composer.completions();
    QVERIFY(offered.contains(QStringLiteral("src/main.cpp")));
    QVERIFY(offered.contains(QStringLiteral("README.md")));
    QVERIFY2(!offered.contains(QStringLiteral("secrets.env")), qPrintable(offered.join(u' ')));
    QVERIFY2(!offered.contains(QStringLiteral("build/main.o")), qPrintable(offered.join(u' ')));
    for (const QString &path : offered)
        QVERIFY2(!path.startsWith(QStringLiteral(".git/")), qPrintable(path));
}

void tst_Composer::mentionFiltersAsTheUserTypes()
{
    Composer composer;
    show(composer, true);
    QTest::keyClicks(&composer, QStringLiteral("look at @main"));
    QTRY_VERIFY(composer.isCompletionVisible());
    QCOMPARE(composer.completions(),
             (QStringList{"src/main.cpp", "src/mainwindow.cpp", "src/domain/remainder.h"}));
    QTest::keyClick(&composer, Qt::Key_W);
    QCOMPARE(composer.completions(), QStringList{"src/mainwindow.cpp"});
    QTest::keyClick(&composer, Qt::Key_Backspace);
    QCOMPARE(composer.completions().size(), 3);

    QTest::keyClick(&composer, Qt::Key_Down);
    QTest::keyClick(&composer, Qt::Key_Tab);
    QVERIFY(!composer.isCompletionVisible());
    QVERIFY(composer.hasFocus());
    QCOMPARE(composer.toPlainText(), QStringLiteral("look at @src/mainwindow.cpp "));

    // Typing on after the mention does not reopen the list.
    QTest::keyClicks(&composer, QStringLiteral("please"));
    QVERIFY(!composer.isCompletionVisible());
    QTest::keyClicks(&composer, QStringLiteral(" @zzz-no-such-file"));
    QVERIFY(!composer.isCompletionVisible());
}

void tst_Composer::mentionEnterInsertsInsteadOfSending()
{
    Composer composer;
    show(composer, true);
    QSignalSpy submitted(&composer, &Composer::submitted);
    QTest::keyClicks(&composer, QStringLiteral("@readme"));
    QTRY_VERIFY(composer.isCompletionVisible());
    QTest::keyClick(&composer, Qt::Key_Return);
    QCOMPARE(submitted.count(), 0);
    QCOMPARE(composer.toPlainText(), QStringLiteral("@README.md "));
    QVERIFY(!composer.isCompletionVisible());

    QTest::keyClick(&composer, Qt::Key_Return);
    QCOMPARE(submitted.count(), 1);
    QCOMPARE(submitted.first().first().toString(), QStringLiteral("@README.md"));
}

void tst_Composer::mentionEscapeClosesTheListOnly()
{
    Composer composer;
    show(composer, true);
    composer.setRunning(true);
    QSignalSpy stop(&composer, &Composer::stopRequested);
    QTest::keyClicks(&composer, QStringLiteral("@src"));
    QTRY_VERIFY(composer.isCompletionVisible());
    QTest::keyClick(&composer, Qt::Key_Escape);
    QVERIFY(!composer.isCompletionVisible());
    QCOMPARE(stop.count(), 0);
    QCOMPARE(composer.toPlainText(), QStringLiteral("@src"));
    // The listing started when the list opened arrives: the list stays closed.
    if (composer.repositoryFiles()->isListing())
        QVERIFY(QSignalSpy(composer.repositoryFiles(), &Ui::RepositoryFiles::pathsChanged).wait());
    QVERIFY(!composer.isCompletionVisible());
    QTest::keyClick(&composer, Qt::Key_Escape);
    QCOMPARE(stop.count(), 1);
}

void tst_Composer::mentionSeesFilesCreatedSinceTheListing()
{
    Composer composer;
    show(composer, true);
    QVERIFY(m_repo->write(QStringLiteral("src/parser.cpp"), "\n"));
    QTest::keyClicks(&composer, QStringLiteral("@parser"));
    QTRY_COMPARE(composer.completions(), QStringList{"src/parser.cpp"});
    QVERIFY(QFile::remove(m_repo->path(QStringLiteral("src/parser.cpp"))));
}

void tst_Composer::atInsideAWordIsNoMention()
{
    Composer composer;
    show(composer, true);
    QTest::keyClicks(&composer, QStringLiteral("mail me@src"));
    QTest::qWait(50); // nothing to await: the list must stay closed
    QVERIFY(!composer.isCompletionVisible());
}

void tst_Composer::matchRanksFileNamesFirst()
{
    const QStringList paths{"docs/domain.md", "main/app.cpp", "src/main.cpp", "src/xmain.cpp"};
    QCOMPARE(Ui::RepositoryFiles::match(paths, QStringLiteral("MAIN"), 10),
             (QStringList{"src/main.cpp", "src/xmain.cpp", "docs/domain.md", "main/app.cpp"}));
    QCOMPARE(Ui::RepositoryFiles::match(paths, QString(), 2), paths.mid(0, 2));
    QCOMPARE(Ui::RepositoryFiles::match(paths, QStringLiteral("nothing"), 10), QStringList());
}

void tst_Composer::screenshots()
{
    const QString directory = qEnvironmentVariable("AGENTDESK_SHOTS");
    if (directory.isEmpty())
        QSKIP("Set AGENTDESK_SHOTS to a directory to save screenshots.");
    QDir().mkpath(directory);
    QWidget frame;
    frame.setAutoFillBackground(true);
    auto composer = new Composer(&frame);
    composer->setGeometry(12, 12, 560, composer->height());
    frame.resize(584, composer->height() + 24);
    frame.show();
    QVERIFY(QTest::qWaitForWindowExposed(&frame));
    QVERIFY(frame.grab().save(directory + QStringLiteral("/composer-idle.png")));

    composer->setRunning(true);
    composer->setFocus();
    QTest::keyClicks(composer,
                     QStringLiteral("Use the existing parser instead of writing a new one"));
    QTest::keyClick(composer, Qt::Key_Return, Qt::ShiftModifier);
    QTest::keyClicks(composer, QStringLiteral("and keep the tests green"));
    frame.resize(584, composer->height() + 24);
    QVERIFY(frame.grab().save(directory + QStringLiteral("/composer-running.png")));

    composer->clear();
    frame.resize(584, composer->height() + 24);
    QVERIFY(frame.grab().save(directory + QStringLiteral("/composer-running-empty.png")));

    composer->setRepositoryRoot(m_repo->root());
    QSignalSpy listed(composer->repositoryFiles(), &Ui::RepositoryFiles::pathsChanged);
    QVERIFY(listed.wait());
    frame.activateWindow();
    composer->setFocus();
    QTRY_VERIFY(composer->hasFocus());
    QTest::keyClicks(composer, QStringLiteral("compare with @main"));
    QTRY_VERIFY(composer->isCompletionVisible());
    const auto popup = composer->findChild<QListView *>(QStringLiteral("mentionPopup"));
    QVERIFY(popup->grab().save(directory + QStringLiteral("/composer-mention.png")));
}

AGENTDESK_TEST_MAIN(tst_Composer)

} // namespace tst_composer

#include "tst_composer.moc"
