#include <permissions/bashanalysis.h>
#include <review/bashreviewview.h>
#include <testmain.h>

#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QTextBlock>
#include <QTextLayout>
#include <QTreeWidget>

namespace tst_bashreviewview {

using AgentCore::BashAnalysis;
using AgentCore::BashRisk;
using AgentCore::PermissionAnswer;
using AgentCore::PermissionRequest;
using AgentCore::PermissionRule;
using Choice = PermissionAnswer::Choice;

namespace {

AgentCore::SimpleCommand simple(const QString &text)
{
    AgentCore::SimpleCommand command;
    command.text = text;
    command.words = text.split(QLatin1Char(' '));
    return command;
}

PermissionRule rule(const QString &text)
{
    return *PermissionRule::parse(text, AgentCore::PermissionBehavior::Allow);
}

PermissionRequest bashRequest()
{
    PermissionRequest request;
    request.id = 11;
    request.toolName = QStringLiteral("Bash");
    request.reason = QStringLiteral("deletes files and uses the network");
    request.workingDirectory = QStringLiteral("/home/dev/calculator");
    request.timeoutMs = 120000;
    BashAnalysis analysis;
    analysis.command = QStringLiteral(
        "rm -rf build && curl -fsSL https://example.com/setup.sh -o setup.sh");
    analysis.understood = true;
    analysis.parser = QStringLiteral("builtin");
    analysis.commands = {simple(QStringLiteral("rm -rf build")),
                         simple(QStringLiteral(
                             "curl -fsSL https://example.com/setup.sh -o setup.sh"))};
    analysis.risks = {{BashRisk::Deletes, 0, QStringLiteral("deletes files: rm -rf build")},
                      {BashRisk::Network, 1, QStringLiteral("network: curl")}};
    request.bash = analysis;
    request.arguments.insert(QStringLiteral("command"), analysis.command);
    request.suggestedRules = {rule(QStringLiteral("Bash(rm -rf build)")),
                              rule(QStringLiteral("Bash(curl:*)"))};
    return request;
}

PermissionAnswer answerOf(const QSignalSpy &spy)
{
    return spy.at(0).at(1).value<PermissionAnswer>();
}

} // namespace

class tst_BashReviewView : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        qRegisterMetaType<AgentCore::PermissionAnswer>();
    }

    void listsCommandsWithRisks()
    {
        Ui::BashReviewView view;
        view.setRequest(bashRequest());
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QCOMPARE(view.findChild<QPlainTextEdit *>(QStringLiteral("commandText"))->toPlainText(),
                 bashRequest().bash->command);
        auto list = view.findChild<QTreeWidget *>(QStringLiteral("commandList"));
        QCOMPARE(list->topLevelItemCount(), 2);
        QCOMPARE(list->topLevelItem(0)->text(0), QStringLiteral("rm -rf build"));
        QVERIFY(list->topLevelItem(0)->text(1).contains(QStringLiteral("deletes files")));
        QVERIFY(list->topLevelItem(1)->text(1).contains(QStringLiteral("network")));
        QVERIFY(!view.findChild<QLabel *>(QStringLiteral("notUnderstood"))->isVisible());

        const QString context = view.findChild<QLabel *>(QStringLiteral("commandContext"))->text();
        QVERIFY2(context.contains(QDir::toNativeSeparators(QStringLiteral("/home/dev/calculator"))),
                 qPrintable(context));
        QVERIFY2(context.contains(QStringLiteral("2 minutes")), qPrintable(context));
    }

    void notUnderstoodIsShownPlainly()
    {
        PermissionRequest request = bashRequest();
        request.bash->understood = false;
        request.bash->problem = QStringLiteral("uses a for loop."); // the analysis ends it so
        request.bash->commands.clear();
        request.bash->risks.clear();
        request.suggestedRules.clear();
        Ui::BashReviewView view;
        view.setRequest(request);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        auto label = view.findChild<QLabel *>(QStringLiteral("notUnderstood"));
        QVERIFY(label->isVisible());
        QVERIFY(label->text().startsWith(QStringLiteral("Not understood")));
        QVERIFY(label->text().contains(QStringLiteral("uses a for loop. AgentDesk cannot tell")));
        // No rule may approve what was not understood; once is still the user's call.
        QVERIFY(!view.findChild<QPushButton *>(QStringLiteral("allowSessionButton"))->isEnabled());
        QVERIFY(!view.findChild<QPushButton *>(QStringLiteral("allowAlwaysButton"))->isEnabled());
        QVERIFY(view.findChild<QPushButton *>(QStringLiteral("allowOnceButton"))->isEnabled());
    }

    void showsTheModelsDescription()
    {
        PermissionRequest request = bashRequest();
        request.arguments.insert(QStringLiteral("description"),
                                 QStringLiteral("Clean the build and fetch the setup script"));
        Ui::BashReviewView view;
        view.setRequest(request);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        auto description = view.findChild<QLabel *>(QStringLiteral("commandDescription"));
        QVERIFY(description);
        QVERIFY(description->isVisible());
        QVERIFY2(description->text().contains(
                     QStringLiteral("Clean the build and fetch the setup script")),
                 qPrintable(description->text()));

        // A model's description of megabytes is cut, not wrapped whole into the review.
        PermissionRequest huge = bashRequest();
        huge.arguments.insert(QStringLiteral("description"), QString(4'000'000, u'x'));
        Ui::BashReviewView hugeView;
        hugeView.setRequest(huge);
        const QString hugeText = hugeView.findChild<QLabel *>(QStringLiteral("commandDescription"))
                                     ->text();
        QVERIFY2(hugeText.size() < 1000, qPrintable(QString::number(hugeText.size())));
        QVERIFY(hugeText.endsWith(QChar(0x2026)));

        // Without one, no empty line for it.
        Ui::BashReviewView plain;
        plain.setRequest(bashRequest());
        plain.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plain));
        QVERIFY(!plain.findChild<QLabel *>(QStringLiteral("commandDescription"))->isVisible());
    }

    // A background command (run_in_background) is said to be one: it has no time limit.
    void backgroundCommandSaysSo()
    {
        PermissionRequest request = bashRequest();
        request.arguments.insert(QStringLiteral("run_in_background"), true);
        Ui::BashReviewView view;
        view.setRequest(request);
        const QString context = view.findChild<QLabel *>(QStringLiteral("commandContext"))->text();
        QVERIFY2(context.contains(QLatin1String("In the background, until stopped or the "
                                                "session ends")),
                 qPrintable(context));
        QVERIFY(!context.contains(QLatin1String("Timeout")));
        Ui::BashReviewView plain;
        plain.setRequest(bashRequest());
        QVERIFY(plain.findChild<QLabel *>(QStringLiteral("commandContext"))
                    ->text()
                    .contains(QLatin1String("Timeout")));
    }

    // The policy's reason for asking ("could not be analysed: ...") and the box that explains
    // what not understood means say the same thing: the review says it once.
    void notUnderstoodIsSaidOnce()
    {
        PermissionRequest request = bashRequest();
        request.reason = QStringLiteral("the command could not be analysed: uses a for loop");
        request.bash->understood = false;
        request.bash->problem = QStringLiteral("uses a for loop");
        request.bash->commands.clear();
        request.bash->risks.clear();
        request.suggestedRules.clear();
        Ui::BashReviewView view;
        view.setRequest(request);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QString shown;
        for (const QLabel *label : view.findChildren<QLabel *>()) {
            if (label->isVisible())
                shown += label->text() + QLatin1Char('\n');
        }
        QCOMPARE(shown.count(QStringLiteral("for loop")), 1);
    }

    // A column is shown only when it has something in it.
    void noEmptyColumns_data()
    {
        QTest::addColumn<bool>("risks");
        QTest::newRow("risks") << true;
        QTest::newRow("no risks") << false;
    }

    void noEmptyColumns()
    {
        QFETCH(bool, risks);
        PermissionRequest request = bashRequest();
        if (!risks) {
            request.bash->command = QStringLiteral("cmake -B build && cmake --build build");
            request.bash->commands = {simple(QStringLiteral("cmake -B build")),
                                      simple(QStringLiteral("cmake --build build"))};
            request.bash->risks.clear();
        }
        Ui::BashReviewView view;
        view.resize(700, 400);
        view.setRequest(request);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        auto list = view.findChild<QTreeWidget *>(QStringLiteral("commandList"));
        QVERIFY(list->isVisible());
        for (int column = 0; column < list->columnCount(); ++column) {
            if (list->isColumnHidden(column))
                continue;
            bool filled = false;
            for (int row = 0; row < list->topLevelItemCount(); ++row)
                filled = filled || !list->topLevelItem(row)->text(column).isEmpty();
            QVERIFY2(filled, qPrintable(QStringLiteral("column %1 is empty").arg(column)));
        }
        QCOMPARE(list->isColumnHidden(1), !risks);
    }

    void buttonGivesChoice_data()
    {
        QTest::addColumn<QString>("button");
        QTest::addColumn<int>("choice");
        QTest::newRow("once") << "allowOnceButton" << int(Choice::AllowOnce);
        QTest::newRow("session") << "allowSessionButton" << int(Choice::AllowSession);
        QTest::newRow("always") << "allowAlwaysButton" << int(Choice::AllowAlways);
        QTest::newRow("deny") << "denyButton" << int(Choice::Deny);
    }

    void buttonGivesChoice()
    {
        QFETCH(QString, button);
        QFETCH(int, choice);
        Ui::BashReviewView view;
        view.setRequest(bashRequest());
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QSignalSpy answered(&view, &Ui::BashReviewView::answered);
        QTest::mouseClick(view.findChild<QPushButton *>(button), Qt::LeftButton);
        QCOMPARE(answered.size(), 1);
        QCOMPARE(answered.at(0).at(0).value<quint64>(), quint64(11));
        QCOMPARE(int(answerOf(answered).choice), choice);
        // A compound command's default is a rule per command, which the core writes.
        QVERIFY(!answerOf(answered).rule);
    }

    void chosenRuleIsWritten()
    {
        Ui::BashReviewView view;
        view.setRequest(bashRequest());
        auto rules = view.findChild<QComboBox *>(QStringLiteral("ruleChoice"));
        QCOMPARE(rules->count(), 3);
        rules->setCurrentIndex(2);
        QSignalSpy answered(&view, &Ui::BashReviewView::answered);
        view.findChild<QPushButton *>(QStringLiteral("allowSessionButton"))->click();
        QCOMPARE(answerOf(answered).choice, Choice::AllowSession);
        QCOMPARE(answerOf(answered).rule->toString(), QStringLiteral("Bash(curl:*)"));
    }

    void denyCarriesFeedback()
    {
        Ui::BashReviewView view;
        view.setRequest(bashRequest());
        view.show();
        QVERIFY(QTest::qWaitForWindowActive(&view));
        QSignalSpy answered(&view, &Ui::BashReviewView::answered);
        auto feedback = view.findChild<QLineEdit *>(QStringLiteral("denyFeedback"));
        QTest::keyClicks(feedback, QStringLiteral("do not download scripts"));
        QTest::mouseClick(view.findChild<QPushButton *>(QStringLiteral("denyButton")),
                          Qt::LeftButton);
        QCOMPARE(answered.size(), 1);
        QCOMPARE(answerOf(answered).choice, Choice::Deny);
        QCOMPARE(answerOf(answered).feedback, QStringLiteral("do not download scripts"));
    }

    void commandIsColoured()
    {
#ifndef AGENTDESK_HAVE_SYNTAX_HIGHLIGHTING
        QSKIP("built without KSyntaxHighlighting");
#else
        Ui::BashReviewView view;
        view.setRequest(bashRequest());
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QTextBlock block = view.findChild<QPlainTextEdit *>(QStringLiteral("commandText"))
                                     ->document()
                                     ->firstBlock();
        QTRY_VERIFY(!block.layout()->formats().isEmpty());
#endif
    }

    void screenshot()
    {
        const QString dir = qEnvironmentVariable("AGENTDESK_SHOTS");
        if (dir.isEmpty())
            QSKIP("set AGENTDESK_SHOTS to a directory to save screenshots");
        QDir().mkpath(dir);
        Ui::BashReviewView view;
        view.resize(900, 480);
        PermissionRequest described = bashRequest();
        described.arguments.insert(QStringLiteral("description"),
                                   QStringLiteral("Clean the build and fetch the setup script"));
        view.setRequest(described);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QTest::qWait(50);
        QVERIFY(view.grab().save(dir + QStringLiteral("/bashreview.png")));

        PermissionRequest request = bashRequest();
        request.bash->command = QStringLiteral("for f in *.log; do gzip \"$f\"; done");
        request.bash->understood = false;
        request.bash->problem = QStringLiteral("for loops are not analysed");
        request.reason = QStringLiteral("the command could not be analysed: for loops are not "
                                        "analysed");
        request.bash->commands.clear();
        request.bash->risks.clear();
        request.suggestedRules.clear();
        Ui::BashReviewView other;
        other.resize(900, 400);
        other.setRequest(request);
        other.show();
        QVERIFY(QTest::qWaitForWindowExposed(&other));
        QTest::qWait(50);
        QVERIFY(other.grab().save(dir + QStringLiteral("/bashreview-notunderstood.png")));
    }

    // Issue #34: the breakdown showed `echo done` for `echo done > /tmp/out.txt`: where a
    // command writes is what the user must see. Analysed by the real analyser.
    void breakdownShowsRedirectionTargets()
    {
        const QString command = QStringLiteral(
            "make 2>&1 | tee build.log > /tmp/out.txt && sort < names.txt >> sorted.txt");
        PermissionRequest request = bashRequest();
        request.bash = AgentCore::BashAnalyzer(QDir::tempPath(), QStringLiteral("-"))
                           .analyze(command);
        QVERIFY(request.bash->understood);
        request.arguments.insert(QStringLiteral("command"), command);
        Ui::BashReviewView view;
        view.setRequest(request);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        auto list = view.findChild<QTreeWidget *>(QStringLiteral("commandList"));
        QStringList rows;
        for (int i = 0; i < list->topLevelItemCount(); ++i)
            rows.append(list->topLevelItem(i)->text(0));
        const QString all = rows.join(QLatin1Char('\n'));
        QVERIFY2(all.contains(QStringLiteral("make 2>&1")), qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("tee build.log > /tmp/out.txt")), qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("sort < names.txt >> sorted.txt")), qPrintable(all));
    }

    // Issue #34: a long command's box was two lines high and cut. It is as tall as the
    // command wrapped at its width, up to a cap, and scrolls beyond.
    void commandBoxFitsTheCommand()
    {
        PermissionRequest request = bashRequest();
        QString command = QStringLiteral("cmake -B build -S .");
        while (command.size() < 400)
            command += QStringLiteral(" && printf '%s\\n' configured-the-long-build-tree");
        request.bash->command = command;
        request.arguments.insert(QStringLiteral("command"), command);
        Ui::BashReviewView view;
        view.resize(600, 700);
        view.setRequest(request);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        auto box = view.findChild<QPlainTextEdit *>(QStringLiteral("commandText"));
        const int lineHeight = QFontMetrics(box->font()).lineSpacing();
        // Wrapped at 600 pixels, 400 characters take several lines, all of them shown.
        QTRY_VERIFY2(box->height() > 4 * lineHeight, qPrintable(QString::number(box->height())));
        QTRY_COMPARE(box->verticalScrollBar()->maximum(), 0);
        // Wider, fewer lines: the box follows.
        const int narrowHeight = box->height();
        view.resize(1200, 700);
        QTRY_VERIFY(box->height() < narrowHeight);
        QTRY_COMPARE(box->verticalScrollBar()->maximum(), 0);

        // A command of hundreds of lines stops at the cap and scrolls.
        QStringList lines;
        for (int i = 0; i < 300; ++i)
            lines.append(QStringLiteral("echo line %1").arg(i));
        request.bash->command = lines.join(QLatin1Char('\n'));
        view.setRequest(request);
        QTRY_VERIFY(box->verticalScrollBar()->maximum() > 0);
        QVERIFY2(box->height() < 14 * lineHeight, qPrintable(QString::number(box->height())));
    }
};

AGENTDESK_TEST_MAIN(tst_BashReviewView)

} // namespace tst_bashreviewview

#include "tst_bashreviewview.moc"
