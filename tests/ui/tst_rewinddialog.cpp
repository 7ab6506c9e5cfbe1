// The rewind dialog: the choice (files and conversation, conversation only, files only), the
// diff the rewind applies to each file in the review's diff display, a box per file to keep it,
// and the keys: Tab order, Space toggles, Enter confirms, Esc cancels; the "computing" state
// while the caller works out the diff, and a list wide enough to read.
#include <review/filediffview.h>
#include <rewind/rewinddialog.h>
#include <testmain.h>

#include <QApplication>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QStyle>
#include <QTest>

namespace tst_rewinddialog {

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
        // Then the diff, then Rewind.
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        QVERIFY(dialog.diffView()->isAncestorOf(QApplication::focusWidget()));
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

    void fileListShowsPathAndChangeWhole()
    {
        // At the dialog's own size, a typical path and what the rewind does to it are readable
        // whole, not cut after "deleted (created".
        RewindDialog dialog;
        RewindFilesPreview preview = twoFiles();
        RewindFile created;
        created.path = QStringLiteral("src/components/parser/tokenizer_test.cpp");
        created.kind = RewindFile::Kind::Added;
        created.current = "made\n";
        preview.files.append(created);
        RewindFile gone;
        gone.path = QStringLiteral("docs/architecture/overview.md");
        gone.kind = RewindFile::Kind::Deleted;
        gone.restored = "was here\n";
        preview.files.append(gone);
        dialog.setFiles(preview);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QListWidget *list = dialog.fileList();
        const int indicator = list->style()->pixelMetric(QStyle::PM_IndicatorWidth, nullptr, list);
        for (int i = 0; i < list->count(); ++i) {
            const QString text = list->item(i)->text();
            const int needed = list->fontMetrics().horizontalAdvance(text) + indicator;
            QVERIFY2(list->viewport()->width() >= needed,
                     qPrintable(QStringLiteral("%1: %2 px shown of %3")
                                    .arg(text)
                                    .arg(list->viewport()->width())
                                    .arg(needed)));
        }
        QVERIFY(list->item(2)->text().endsWith(QStringLiteral("deleted (created since)")));
        // The diff keeps at least half of the dialog.
        QVERIFY(dialog.diffView()->width() >= list->width());
    }

    void computingFirstThenTheFiles()
    {
        RewindDialog dialog;
        dialog.setComputing();
        dialog.show();
        QVERIFY(QTest::qWaitForWindowActive(&dialog));
        QVERIFY(dialog.isComputing());
        QVERIFY(dialog.findChild<QWidget *>(QStringLiteral("rewindComputing"))->isVisible());
        QVERIFY(!dialog.fileList()->isVisible());
        // Nothing about the files can be confirmed unseen: Enter does nothing.
        QCOMPARE(dialog.scope(), Scope::Both);
        QVERIFY(!dialog.rewindButton()->isEnabled());
        QVERIFY2(dialog.summaryText().contains(QStringLiteral("once their change is shown")),
                 qPrintable(dialog.summaryText()));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
        QVERIFY(dialog.isVisible());
        // The conversation alone can be rewound meanwhile; the files only cannot.
        dialog.conversationButton()->click();
        QVERIFY(dialog.rewindButton()->isEnabled());
        dialog.filesButton()->click();
        QVERIFY(!dialog.rewindButton()->isEnabled());

        // The files arrive: the choice made meanwhile stands.
        dialog.setFiles(twoFiles());
        QVERIFY(!dialog.isComputing());
        QCOMPARE(dialog.scope(), Scope::Files);
        QVERIFY(dialog.rewindButton()->isEnabled());
        QVERIFY(dialog.fileList()->isVisible());
        QCOMPARE(dialog.fileList()->count(), 2);
        QVERIFY(dialog.diffView()->diffText().contains(QStringLiteral("+     return 1;")));
    }

    void escapeCancelsWhileComputing()
    {
        RewindDialog dialog;
        dialog.setComputing();
        dialog.show();
        QVERIFY(QTest::qWaitForWindowActive(&dialog));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Escape);
        QCOMPARE(dialog.result(), int(QDialog::Rejected));
        QVERIFY(!dialog.isVisible());
    }

    void tabReachesEveryControlInOrder()
    {
        RewindDialog dialog;
        dialog.setFiles(twoFiles());
        dialog.show();
        QVERIFY(QTest::qWaitForWindowActive(&dialog));
        // It opens on the choice; Tab goes to the files, the diff (to scroll it with the
        // keys), Rewind, Cancel, and round to the choice.
        QTRY_COMPARE(QApplication::focusWidget(), dialog.bothButton());
        QList<QWidget *> reached;
        for (int i = 0; i < 8; ++i) {
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
            reached.append(QApplication::focusWidget());
            if (reached.last() == dialog.bothButton())
                break;
        }
        QWidget *diff = dialog.diffView()->findChild<QPlainTextEdit *>();
        QVERIFY(diff);
        const QList<QWidget *> expected{dialog.fileList(),
                                        diff,
                                        dialog.rewindButton(),
                                        dialog.cancelButton(),
                                        dialog.bothButton()};
        QCOMPARE(reached, expected);
        // Rewind is the default button: Enter on the choice rewinds.
        QVERIFY(dialog.rewindButton()->isDefault());
    }

    void enterOnCancelCancels()
    {
        RewindDialog dialog;
        dialog.setFiles(twoFiles());
        dialog.show();
        QVERIFY(QTest::qWaitForWindowActive(&dialog));
        QVERIFY(focus(dialog.cancelButton()));
        QTest::keyClick(dialog.cancelButton(), Qt::Key_Return);
        QCOMPARE(dialog.result(), int(QDialog::Rejected));
        QVERIFY(!dialog.isVisible());
    }

    void hugeFileIsNotDiffed()
    {
        RewindDialog dialog;
        RewindFilesPreview preview;
        preview.checkpoint = QStringLiteral("0123456789abcdef0123456789abcdef01234567");
        RewindFile huge;
        huge.path = QStringLiteral("data/dump.sql");
        huge.kind = RewindFile::Kind::Added;
        huge.current = QByteArray(Ui::FileDiffView::maxBytes + 1, 'x');
        preview.files = {huge};
        dialog.setFiles(preview);
        QVERIFY2(dialog.diffView()->errorText().contains(QStringLiteral("too large")),
                 qPrintable(dialog.diffView()->errorText()));
        QVERIFY(dialog.diffView()->diffText().isEmpty());
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

AGENTDESK_TEST_MAIN(tst_RewindDialog)

} // namespace tst_rewinddialog

#include "tst_rewinddialog.moc"
