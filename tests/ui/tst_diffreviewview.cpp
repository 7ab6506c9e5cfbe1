#include <review/diffreviewview.h>
#include <review/difftextview.h>
#include <testmain.h>

#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QTextBlock>
#include <QTextLayout>
#include <QToolButton>

namespace tst_diffreviewview {

using AgentCore::PermissionAnswer;
using AgentCore::PermissionRequest;
using AgentCore::PermissionRule;
using AgentCore::UnifiedDiff;
using Choice = PermissionAnswer::Choice;

namespace {

QString numberedLines(int count, const QMap<int, QString> &changes = {})
{
    QString text;
    for (int i = 1; i <= count; ++i)
        text += changes.value(i, QStringLiteral("    int value%1 = compute(%1);").arg(i))
                + QLatin1Char('\n');
    return text;
}

PermissionRule rule(const QString &text)
{
    return *PermissionRule::parse(text, AgentCore::PermissionBehavior::Allow);
}

// Two hunks: line 5 and line 35 of 40 change.
PermissionRequest editRequest()
{
    PermissionRequest request;
    request.id = 7;
    request.toolName = QStringLiteral("Edit");
    request.filePath = QStringLiteral("/repo/src/main.cpp");
    request.displayPath = QStringLiteral("src/main.cpp");
    request.reason = QStringLiteral("Edit asks in default mode");
    request.oldText = numberedLines(40);
    request.newText = numberedLines(40,
                                    {{5, QStringLiteral("    int value5 = compute(500);")},
                                     {35, QStringLiteral("    int renamed35 = compute(35);")}});
    request.diff = UnifiedDiff::compute(request.oldText, request.newText);
    request.suggestedRules = {rule(QStringLiteral("Edit(src/**)")),
                              rule(QStringLiteral("Edit(src/main.cpp)"))};
    return request;
}

PermissionAnswer answerOf(const QSignalSpy &spy)
{
    return spy.at(0).at(1).value<PermissionAnswer>();
}

} // namespace

class tst_DiffReviewView : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        qRegisterMetaType<AgentCore::PermissionAnswer>();
    }

    void everyHunkStartsChecked()
    {
        Ui::DiffReviewView view;
        view.setRequest(editRequest());
        QCOMPARE(view.hunkCount(), 2);
        QVERIFY(view.rejectedHunks().isEmpty());
        QCOMPARE(view.requestId(), quint64(7));
        QVERIFY(view.findChild<QLabel *>(QStringLiteral("reviewTitle"))
                    ->text()
                    .contains(QStringLiteral("src/main.cpp")));
    }

    void uncheckingHunkReportsItRejected()
    {
        Ui::DiffReviewView view;
        view.setRequest(editRequest());
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QSignalSpy answered(&view, &Ui::DiffReviewView::answered);

        auto hunks = view.findChild<QListWidget *>(QStringLiteral("hunkList"));
        QVERIFY(hunks->isVisible());
        hunks->setFocus();
        hunks->setCurrentRow(1);
        QTest::keyClick(hunks, Qt::Key_Space);
        QCOMPARE(hunks->item(1)->checkState(), Qt::Unchecked);

        QTest::mouseClick(view.findChild<QPushButton *>(QStringLiteral("allowOnceButton")),
                          Qt::LeftButton);
        QCOMPARE(answered.size(), 1);
        QCOMPARE(answered.at(0).at(0).value<quint64>(), quint64(7));
        QCOMPARE(answerOf(answered).choice, Choice::AllowOnce);
        QCOMPARE(answered.at(0).at(2).value<QList<int>>(), QList<int>({1}));
        // The answer itself carries them: it is what the permission layer gets.
        QCOMPARE(answerOf(answered).rejectedHunks, QList<int>({1}));
    }

    void allowNeedsACheckedHunk()
    {
        Ui::DiffReviewView view;
        view.setRequest(editRequest());
        auto allow = view.findChild<QPushButton *>(QStringLiteral("allowOnceButton"));
        view.setHunkAccepted(0, false);
        QVERIFY(allow->isEnabled());
        view.setHunkAccepted(1, false);
        QVERIFY(!allow->isEnabled());
        QVERIFY(view.findChild<QPushButton *>(QStringLiteral("denyButton"))->isEnabled());
    }

    void buttonGivesChoice_data()
    {
        QTest::addColumn<QString>("button");
        QTest::addColumn<int>("choice");
        QTest::addColumn<QString>("rule");
        QTest::newRow("once") << "allowOnceButton" << int(Choice::AllowOnce) << "";
        QTest::newRow("session") << "allowSessionButton" << int(Choice::AllowSession)
                                 << "Edit(src/**)";
        QTest::newRow("always") << "allowAlwaysButton" << int(Choice::AllowAlways)
                                << "Edit(src/**)";
        QTest::newRow("deny") << "denyButton" << int(Choice::Deny) << "";
    }

    void buttonGivesChoice()
    {
        QFETCH(QString, button);
        QFETCH(int, choice);
        QFETCH(QString, rule);
        Ui::DiffReviewView view;
        view.setRequest(editRequest());
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QSignalSpy answered(&view, &Ui::DiffReviewView::answered);
        QTest::mouseClick(view.findChild<QPushButton *>(button), Qt::LeftButton);
        QCOMPARE(answered.size(), 1);
        const PermissionAnswer answer = answerOf(answered);
        QCOMPARE(int(answer.choice), choice);
        QVERIFY(answer.rejectedHunks.isEmpty());
        QCOMPARE(answer.rule ? answer.rule->toString() : QString(), rule);
        if (answer.rule)
            QCOMPARE(answer.rule->behavior, AgentCore::PermissionBehavior::Allow);
    }

    void alwaysAllowWritesTheChosenRule()
    {
        Ui::DiffReviewView view;
        view.setRequest(editRequest());
        auto rules = view.findChild<QComboBox *>(QStringLiteral("ruleChoice"));
        QCOMPARE(rules->currentText(), QStringLiteral("Edit(src/**)"));
        QVERIFY(rules->isEnabled());
        rules->setCurrentIndex(1);
        QSignalSpy answered(&view, &Ui::DiffReviewView::answered);
        view.findChild<QPushButton *>(QStringLiteral("allowAlwaysButton"))->click();
        QCOMPARE(answerOf(answered).rule->toString(), QStringLiteral("Edit(src/main.cpp)"));
    }

    void denyCarriesFeedback()
    {
        Ui::DiffReviewView view;
        view.setRequest(editRequest());
        view.show();
        QVERIFY(QTest::qWaitForWindowActive(&view));
        QSignalSpy answered(&view, &Ui::DiffReviewView::answered);
        auto unified = view.findChild<Ui::DiffTextView *>(QStringLiteral("unifiedView"));
        unified->setFocus();
        QTRY_VERIFY(unified->hasFocus());

        // Esc goes to the feedback field, Enter there denies with what was typed.
        QTest::keyClick(unified, Qt::Key_Escape);
        auto feedback = view.findChild<QLineEdit *>(QStringLiteral("denyFeedback"));
        QTRY_VERIFY(feedback->hasFocus());
        QTest::keyClicks(feedback, QStringLiteral("keep the old name"));
        QTest::keyClick(feedback, Qt::Key_Return);
        QCOMPARE(answered.size(), 1);
        QCOMPARE(answerOf(answered).choice, Choice::Deny);
        QCOMPARE(answerOf(answered).feedback, QStringLiteral("keep the old name"));
    }

    void ctrlEnterAllowsOnce()
    {
        Ui::DiffReviewView view;
        view.setRequest(editRequest());
        view.show();
        QVERIFY(QTest::qWaitForWindowActive(&view));
        QSignalSpy answered(&view, &Ui::DiffReviewView::answered);
        auto unified = view.findChild<Ui::DiffTextView *>(QStringLiteral("unifiedView"));
        unified->setFocus();
        QTRY_VERIFY(unified->hasFocus());
        QTest::keyClick(unified, Qt::Key_Return, Qt::ControlModifier);
        QCOMPARE(answered.size(), 1);
        QCOMPARE(answerOf(answered).choice, Choice::AllowOnce);
    }

    // Editing: an answer carries the user's version only once they changed something; a
    // version that is the file as it is cannot be allowed; a deny never carries one; leaving
    // the editor brings the hunk choices back as they were.
    void editingShapesTheAnswer()
    {
        Ui::DiffReviewView view;
        PermissionRequest request = editRequest();
        view.setRequest(request);
        view.show();
        QVERIFY(QTest::qWaitForWindowActive(&view));
        QSignalSpy answered(&view, &Ui::DiffReviewView::answered);
        auto allow = view.findChild<QPushButton *>(QStringLiteral("allowOnceButton"));
        auto apply = view.findChild<QPushButton *>(QStringLiteral("applyMyVersionButton"));
        view.setHunkAccepted(0, false);
        view.startEditing();
        auto editor = view.findChild<QPlainTextEdit *>(QStringLiteral("proposalEditor"));
        QCOMPARE(editor->toPlainText(),
                 numberedLines(40, {{35, QStringLiteral("    int renamed35 = compute(35);")}}));

        // Unchanged: a plain allow with the hunk choice.
        QTest::mouseClick(allow, Qt::LeftButton);
        QCOMPARE(answered.size(), 1);
        QVERIFY(!answerOf(answered).userText);
        QCOMPARE(answerOf(answered).rejectedHunks, QList<int>{0});

        // Back to the file as it is: nothing to apply.
        editor->setPlainText(request.oldText);
        QVERIFY(!allow->isEnabled());
        QVERIFY(!apply->isEnabled());
        editor->setPlainText(request.oldText + QStringLiteral("// mine\n"));
        QVERIFY(allow->isEnabled());
        QVERIFY(apply->isEnabled());
        QTest::mouseClick(apply, Qt::LeftButton);
        QCOMPARE(answered.size(), 2);
        PermissionAnswer answer = answered.at(1).at(1).value<PermissionAnswer>();
        QCOMPARE(answer.choice, Choice::AllowOnce);
        QCOMPARE(answer.userText.value_or(QString()), request.oldText + QStringLiteral("// mine\n"));
        QTest::mouseClick(view.findChild<QPushButton *>(QStringLiteral("denyButton")),
                          Qt::LeftButton);
        answer = answered.at(2).at(1).value<PermissionAnswer>();
        QCOMPARE(answer.choice, Choice::Deny);
        QVERIFY(!answer.userText);

        view.stopEditing();
        QVERIFY(!view.isEditing());
        QVERIFY(view.findChild<QListWidget *>(QStringLiteral("hunkList"))->isVisible());
        QCOMPARE(view.rejectedHunks(), QList<int>{0});
        QVERIFY(allow->isEnabled());
    }

    void sideBySideShowsBothSides()
    {
        Ui::DiffReviewView view;
        view.setRequest(editRequest());
        view.resize(900, 600);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        auto unified = view.findChild<Ui::DiffTextView *>(QStringLiteral("unifiedView"));
        auto before = view.findChild<Ui::DiffTextView *>(QStringLiteral("oldView"));
        auto after = view.findChild<Ui::DiffTextView *>(QStringLiteral("newView"));
        QVERIFY(unified->isVisible());
        QVERIFY(unified->toPlainText().contains(QStringLiteral("compute(5);")));
        QVERIFY(unified->toPlainText().contains(QStringLiteral("compute(500);")));
        QVERIFY(!before->isVisible());

        QTest::mouseClick(view.findChild<QToolButton *>(QStringLiteral("sideBySideToggle")),
                          Qt::LeftButton);
        QVERIFY(view.isSideBySide());
        QVERIFY(before->isVisible());
        QVERIFY(after->isVisible());
        QVERIFY(!unified->isVisible());
        QVERIFY(before->toPlainText().contains(QStringLiteral("value5 = compute(5);")));
        QVERIFY(!before->toPlainText().contains(QStringLiteral("compute(500);")));
        QVERIFY(after->toPlainText().contains(QStringLiteral("compute(500);")));
        QVERIFY(!after->toPlainText().contains(QStringLiteral("value5 = compute(5);")));
        // Rows line up: both panes have the same number of lines.
        QCOMPARE(before->document()->blockCount(), after->document()->blockCount());

        QTest::mouseClick(view.findChild<QToolButton *>(QStringLiteral("sideBySideToggle")),
                          Qt::LeftButton);
        QVERIFY(unified->isVisible());
    }

    void changedWordsAreMarked()
    {
        Ui::DiffReviewView view;
        view.setRequest(editRequest());
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        auto unified = view.findChild<Ui::DiffTextView *>(QStringLiteral("unifiedView"));
        // The added line 5 marks "500", not the rest of the line.
        QTextBlock block = unified->document()->firstBlock();
        while (block.isValid() && !block.text().endsWith(QStringLiteral("compute(500);")))
            block = block.next();
        QVERIFY(block.isValid());
        const int column = int(block.text().indexOf(QStringLiteral("500")));
        const auto markedAt = [&block](int position) {
            for (const QTextLayout::FormatRange &range : block.layout()->formats()) {
                if (range.start <= position && position < range.start + range.length
                    && range.format.hasProperty(QTextFormat::BackgroundBrush))
                    return true;
            }
            return false;
        };
        QTRY_VERIFY(markedAt(column));
        QVERIFY(markedAt(column + 2));
        QVERIFY(!markedAt(column - 2));
        QVERIFY(!markedAt(int(block.text().indexOf(QStringLiteral("value5")))));
    }

    void newFileIsCreate()
    {
        PermissionRequest request = editRequest();
        request.toolName = QStringLiteral("Write");
        request.oldText.clear();
        request.diff = UnifiedDiff::compute(request.oldText, request.newText);
        request.newFile = true;
        Ui::DiffReviewView view;
        view.setRequest(request);
        QVERIFY(view.findChild<QLabel *>(QStringLiteral("reviewTitle"))
                    ->text()
                    .startsWith(QStringLiteral("Create")));
        QCOMPARE(view.hunkCount(), 1);
        QVERIFY(view.findChild<QLabel *>(QStringLiteral("reviewStats"))->text().contains("+40"));
    }

    void tenThousandLineDiffOpens()
    {
        PermissionRequest request = editRequest();
        QMap<int, QString> changes;
        for (int i = 1; i <= 10000; i += 2)
            changes.insert(i, QStringLiteral("    long changed%1 = other(%1);").arg(i));
        request.oldText = numberedLines(10000);
        request.newText = numberedLines(10000, changes);
        request.diff = UnifiedDiff::compute(request.oldText, request.newText);
        Ui::DiffReviewView view;
        view.setRequest(request);
        view.resize(900, 600);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        auto unified = view.findChild<Ui::DiffTextView *>(QStringLiteral("unifiedView"));
        QVERIFY(unified->document()->blockCount() > 15000);
        view.setSideBySide(true);
        auto after = view.findChild<Ui::DiffTextView *>(QStringLiteral("newView"));
        QVERIFY(after->document()->blockCount() >= 10000);
        QSignalSpy answered(&view, &Ui::DiffReviewView::answered);
        view.findChild<QPushButton *>(QStringLiteral("allowOnceButton"))->click();
        QCOMPARE(answered.size(), 1);
    }

    // Pictures for a person to look at; AGENTDESK_SHOTS=/dir to write them.
    void screenshots()
    {
        const QString dir = qEnvironmentVariable("AGENTDESK_SHOTS");
        if (dir.isEmpty())
            QSKIP("set AGENTDESK_SHOTS to a directory to save screenshots");
        QDir().mkpath(dir);
        PermissionRequest request = editRequest();
        request.oldText.prepend(QStringLiteral("// Compute the values.\n#include <cstdio>\n"));
        request.newText.prepend(QStringLiteral("// Compute the values once.\n#include <cstdio>\n"));
        request.diff = UnifiedDiff::compute(request.oldText, request.newText);
        Ui::DiffReviewView view;
        view.resize(1000, 560);
        view.setRequest(request);
        view.setHunkAccepted(1, false);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QTest::qWait(50);
        QVERIFY(view.grab().save(dir + QStringLiteral("/diffreview-unified.png")));
        view.setSideBySide(true);
        QTest::qWait(50);
        QVERIFY(view.grab().save(dir + QStringLiteral("/diffreview-sidebyside.png")));

        QPalette dark;
        dark.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
        dark.setColor(QPalette::WindowText, QColor(0xdd, 0xdd, 0xdd));
        dark.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
        dark.setColor(QPalette::Text, QColor(0xdd, 0xdd, 0xdd));
        dark.setColor(QPalette::Button, QColor(0x3a, 0x3a, 0x3a));
        dark.setColor(QPalette::ButtonText, QColor(0xdd, 0xdd, 0xdd));
        dark.setColor(QPalette::PlaceholderText, QColor(0x90, 0x90, 0x90));
        Ui::DiffReviewView darkView;
        darkView.setPalette(dark);
        darkView.resize(1000, 560);
        darkView.setRequest(request);
        darkView.show();
        QVERIFY(QTest::qWaitForWindowExposed(&darkView));
        QTest::qWait(50);
        QVERIFY(darkView.grab().save(dir + QStringLiteral("/diffreview-unified-dark.png")));
    }
};

AGENTDESK_TEST_MAIN(tst_DiffReviewView)

} // namespace tst_diffreviewview

#include "tst_diffreviewview.moc"
