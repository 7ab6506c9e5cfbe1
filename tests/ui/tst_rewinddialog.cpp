// The rewind dialog: the choice (files and conversation, conversation only, files only), the
// diff the rewind applies to each file in the review's diff display, a box per file to keep it,
// and the keys: Tab order, Space toggles, Enter confirms, Esc cancels.
#include <review/filediffview.h>
#include <rewind/rewinddialog.h>

#include <QApplication>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QRadioButton>
#include <QTest>

using Ui::RewindDialog;
using Ui::RewindFile;
using Ui::RewindFilesPreview;
using Scope = AgentCore::Rewind::Scope;

namespace {
RewindFilesPreview twoFiles()
{
    RewindFilesPreview preview;
    preview.checkpoint = QStringLiteral("0123456789abcdef0123456789abcdef01234567");
    RewindFile edited;
    edited.path = QStringLiteral("src/parser.cpp");
    edited.kind = RewindFile::Kind::Modified;
    edited.current = "int parse() {\n    return 2;\n}\n";
    edited.restored = "int parse() {\n    return 1;\n}\n";
    RewindFile created;
    created.path = QStringLiteral("build.log");
    created.kind = RewindFile::Kind::Added;
    created.current = "made by a command\n";
    preview.files = {edited, created};
    return preview;
}

bool focus(QWidget *widget)
{
    widget->setFocus(Qt::TabFocusReason);
    return QTest::qWaitFor([widget] { return widget->hasFocus(); });
}
} // namespace

class tst_RewindDialog : public QObject
{
    Q_OBJECT

private slots:
    void showsTheDiffOfEachFile()
    {
        RewindDialog dialog;
        dialog.setTarget(QStringLiteral("your message “fix the parser”"));
        dialog.setFiles(twoFiles());
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QCOMPARE(dialog.scope(), Scope::Both);
        QCOMPARE(dialog.fileList()->count(), 2);
        QVERIFY(dialog.fileList()->item(0)->text().contains(QStringLiteral("src/parser.cpp")));
        QVERIFY(dialog.fileList()->item(1)->text().contains(QStringLiteral("deleted")));
        // The first file's diff: from what it is now to what the rewind writes back.
        const QString diff = dialog.diffView()->diffText();
        QVERIFY2(diff.contains(QStringLiteral("-     return 2;")), qPrintable(diff));
        QVERIFY2(diff.contains(QStringLiteral("+     return 1;")), qPrintable(diff));
        QVERIFY(dialog.diffView()->title().contains(QStringLiteral("src/parser.cpp")));
        dialog.fileList()->setCurrentRow(1);
        QVERIFY(dialog.diffView()->diffText().contains(QStringLiteral("- made by a command")));
        QVERIFY(dialog.summaryText().contains(QStringLiteral("2 file")));
        QVERIFY(dialog.keptFiles().isEmpty());
        // Accessibility names on the new controls.
        QVERIFY(!dialog.fileList()->accessibleName().isEmpty());
        QVERIFY(!dialog.diffView()->accessibleName().isEmpty());
        QCOMPARE(dialog.bothButton()->accessibleName(), QStringLiteral("Files and conversation"));
    }

    void keyboardDrivesTheDialog()
    {
        RewindDialog dialog;
        dialog.setFiles(twoFiles());
        dialog.show();
        QVERIFY(QTest::qWaitForWindowActive(&dialog));
        // Tab goes from the choice to the files, then to Rewind.
        QVERIFY(focus(dialog.bothButton()));
        for (int i = 0; i < 3 && !dialog.fileList()->hasFocus(); ++i)
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        QVERIFY(dialog.fileList()->hasFocus());
        // Space keeps the current file as it is, again does not.
        dialog.fileList()->setCurrentRow(1);
        QTest::keyClick(dialog.fileList(), Qt::Key_Space);
        QCOMPARE(dialog.keptFiles(), QSet<QString>{QStringLiteral("build.log")});
        QVERIFY(dialog.summaryText().contains(QStringLiteral("1 kept as it is")));
        QTest::keyClick(dialog.fileList(), Qt::Key_Space);
        QVERIFY(dialog.keptFiles().isEmpty());
        QTest::keyClick(dialog.fileList(), Qt::Key_Space);
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        QCOMPARE(QApplication::focusWidget(), dialog.rewindButton());

        // The arrows pick another choice; the files are off for the conversation only.
        QVERIFY(focus(dialog.bothButton()));
        QTest::keyClick(dialog.bothButton(), Qt::Key_Right);
        QCOMPARE(dialog.scope(), Scope::Conversation);
        QVERIFY(!dialog.fileList()->isEnabled());
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Right);
        QCOMPARE(dialog.scope(), Scope::Files);
        QVERIFY(dialog.fileList()->isEnabled());

        // Enter confirms, with the choice and the kept file.
        QVERIFY(focus(dialog.fileList()));
        QTest::keyClick(dialog.fileList(), Qt::Key_Return);
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QVERIFY(!dialog.isVisible());
        QCOMPARE(dialog.scope(), Scope::Files);
        QCOMPARE(dialog.keptFiles(), QSet<QString>{QStringLiteral("build.log")});
    }

    void escapeCancels()
    {
        RewindDialog dialog;
        dialog.setFiles(twoFiles());
        dialog.show();
        QVERIFY(QTest::qWaitForWindowActive(&dialog));
        QVERIFY(focus(dialog.fileList()));
        QTest::keyClick(dialog.fileList(), Qt::Key_Escape);
        QCOMPARE(dialog.result(), int(QDialog::Rejected));
        QVERIFY(!dialog.isVisible());
    }

    void withoutACheckpointOnlyTheConversation()
    {
        RewindDialog dialog;
        RewindFilesPreview preview;
        preview.unavailable = QStringLiteral("No checkpoint was recorded there.");
        dialog.setFiles(preview);
        QCOMPARE(dialog.scope(), Scope::Conversation);
        QVERIFY(!dialog.bothButton()->isEnabled());
        QVERIFY(!dialog.filesButton()->isEnabled());
        QVERIFY(dialog.findChild<QLabel *>(QStringLiteral("rewindNoFiles"))
                    ->text()
                    .contains(QStringLiteral("No checkpoint")));
    }
};

QTEST_MAIN(tst_RewindDialog)
#include "tst_rewinddialog.moc"
