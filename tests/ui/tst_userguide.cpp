// Help > User Guide (F1) shows docs/guide.md, compiled into the app, with its headings and
// pictures; Help > Keyboard Shortcuts lists every row of the shortcut table, and the table is
// what the window's actions carry. The real window, offscreen.
#include <common/shortcuts.h>
#include <testmain.h>
#include <testpaths.h>
#include <window/mainwindow.h>
#include <window/shortcutsdialog.h>
#include <window/userguidedialog.h>

#include <QAction>
#include <QFile>
#include <QImage>
#include <QListWidget>
#include <QScrollBar>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>
#include <QTextFragment>
#include <QTextImageFormat>
#include <QTreeWidget>

namespace tst_userguide {

// The level-two headings of the checkout's docs/guide.md, as a reader of the file sees them.
QStringList guideHeadingsInTheCheckout()
{
    QFile file(TestSupport::sourcePath(QStringLiteral("docs/guide.md")));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QStringList headings;
    for (const QByteArray &line : file.readAll().split('\n')) {
        if (line.startsWith("## "))
            headings.append(QString::fromUtf8(line.mid(3)).trimmed());
    }
    return headings;
}

// The pictures the shown guide holds, loaded, with the width each is shown at.
struct GuideImage
{
    QString name;
    QImage image;
    qreal shownWidth; ///< the width the guide shows it at
};

QList<GuideImage> guideImages(QTextDocument *document)
{
    QList<GuideImage> images;
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextCharFormat format = it.fragment().charFormat();
            if (!format.isImageFormat())
                continue;
            const QTextImageFormat image = format.toImageFormat();
            const QVariant loaded = document->resource(QTextDocument::ImageResource,
                                                       document->baseUrl().resolved(
                                                           QUrl(image.name())));
            images.append({image.name(), loaded.value<QImage>(), image.width()});
        }
    }
    return images;
}

class tst_UserGuide : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AgentDeskTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_userguide"));
        QSettings().clear();
    }

    void f1OpensTheGuideWithItsHeadingsAndPictures()
    {
        Ui::MainWindow window;
        window.resize(1000, 700);
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QVERIFY(!window.findChild<Ui::UserGuideDialog *>());

        QTest::keyClick(&window, Qt::Key_F1);
        auto guide = window.findChild<Ui::UserGuideDialog *>();
        QVERIFY(guide);
        QTRY_VERIFY(guide->isVisible());
        QCOMPARE(guide->windowTitle(), QStringLiteral("AgentDesk User Guide"));

        // Every section of the checkout's guide, in its order: the app shows the current file.
        const QStringList headings = guideHeadingsInTheCheckout();
        QVERIFY(headings.size() >= 10);
        QStringList listed;
        for (int i = 0; i < guide->contents()->count(); ++i)
            listed.append(guide->contents()->item(i)->text());
        QCOMPARE(listed, headings);
        QVERIFY(guide->text()->toPlainText().contains(QStringLiteral("Reviewing and editing")));

        // Its pictures are there, loaded, and fit the text's width (once the window has laid
        // the text out: its scroll bar comes after the first layout).
        QTextDocument *document = guide->text()->document();
        QVERIFY(guideImages(document).size() >= 10);
        const auto tooWide = [&] {
            const int room = guide->text()->viewport()->width();
            for (const GuideImage &shown : guideImages(document)) {
                if (shown.shownWidth <= 0 || shown.shownWidth > room)
                    return QStringLiteral("%1 is %2 wide in %3")
                        .arg(shown.name)
                        .arg(shown.shownWidth)
                        .arg(room);
            }
            return QString();
        };
        QTRY_COMPARE(tooWide(), QString());
        for (const GuideImage &shown : guideImages(document)) {
            QVERIFY2(!shown.image.isNull(),
                     qPrintable(shown.name + QStringLiteral(" is not loaded")));
            QVERIFY2(shown.image.width() >= 400, qPrintable(shown.name)); // a window or a dialog
        }

        // A section chosen in the list is scrolled to.
        QScrollBar *bar = guide->text()->verticalScrollBar();
        QCOMPARE(bar->value(), 0);
        guide->contents()->setCurrentRow(headings.indexOf(QStringLiteral("Keyboard shortcuts")));
        QVERIFY(bar->value() > 0);
        // So is a link to a section, as the guide writes them (#settings).
        const int atShortcuts = bar->value();
        emit guide->text()->anchorClicked(QUrl(QStringLiteral("#settings")));
        QVERIFY(bar->value() > 0 && bar->value() < atShortcuts);

        // F1 again raises the same guide.
        QTest::keyClick(&window, Qt::Key_F1);
        QCOMPARE(window.findChildren<Ui::UserGuideDialog *>().size(), 1);
    }

    void theShortcutsDialogListsEveryRowOfTheTable()
    {
        Ui::MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto action = window.findChild<QAction *>(QStringLiteral("keyboardShortcutsAction"));
        QVERIFY(action);
        action->trigger();
        auto dialog = window.findChild<Ui::ShortcutsDialog *>();
        QVERIFY(dialog);
        QTRY_VERIFY(dialog->isVisible());

        QSet<std::pair<QString, QString>> shown;
        int rows = 0;
        for (int g = 0; g < dialog->list()->topLevelItemCount(); ++g) {
            const QTreeWidgetItem *group = dialog->list()->topLevelItem(g);
            for (int i = 0; i < group->childCount(); ++i, ++rows)
                shown.insert({group->text(0) + QLatin1Char('|') + group->child(i)->text(0),
                              group->child(i)->text(1)});
        }
        const QList<Ui::Shortcuts::Entry> &table = Ui::Shortcuts::table();
        QCOMPARE(rows, table.size());
        for (const Ui::Shortcuts::Entry &entry : table) {
            QVERIFY(!entry.keys.isEmpty());
            QVERIFY2(shown.contains({entry.whereText() + QLatin1Char('|') + entry.keysText(),
                                     entry.whatText()}),
                     qPrintable(entry.keysText() + QStringLiteral(" ") + entry.whatText()));
        }
        // As the app writes keys: "Ctrl+Shift+K", the sessions as one range.
        QVERIFY(shown.contains({QStringLiteral("Window|Ctrl+1 \u2026 Ctrl+9"),
                                QStringLiteral("Show the first to ninth open session")}));
        QVERIFY(
            shown.contains({QStringLiteral("Window|F1"), QStringLiteral("Open the user guide")}));
    }

    void theTableIsWhatTheWindowsActionsCarry()
    {
        Ui::MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const QList<Ui::Shortcuts::Entry> &table = Ui::Shortcuts::table();
        // The keys each named action must carry, by the table.
        QHash<QString, QList<QKeySequence>> expected;
        for (const Ui::Shortcuts::Entry &entry : table) {
            if (entry.actionName.isEmpty())
                continue;
            if (entry.range) {
                for (int i = 0; i < entry.keys.size(); ++i)
                    expected.insert(entry.actionName + QString::number(i + 1), {entry.keys.at(i)});
            } else {
                expected.insert(entry.actionName, entry.keys);
            }
        }
        // Every action of the window with keys is in the table, with those keys...
        QHash<QKeySequence, QString> windowKeys;
        int found = 0;
        for (QAction *action : window.findChildren<QAction *>()) {
            if (action->shortcuts().isEmpty())
                continue;
            const QString name = action->objectName();
            QVERIFY2(expected.contains(name),
                     qPrintable(QStringLiteral("%1 (%2, %3) is not in the shortcut table")
                                    .arg(name, action->text(), action->shortcut().toString())));
            QCOMPARE(action->shortcuts(), expected.value(name));
            ++found;
            // ...and no two window-wide actions share a key.
            if (action->shortcutContext() != Qt::WindowShortcut)
                continue;
            for (const QKeySequence &keys : action->shortcuts()) {
                QVERIFY2(!windowKeys.contains(keys),
                         qPrintable(keys.toString() + QStringLiteral(": ") + name
                                    + QStringLiteral(" and ") + windowKeys.value(keys)));
                windowKeys.insert(keys, name);
            }
        }
        // ...and every action the table names is in the window.
        QCOMPARE(found, expected.size());
        QCOMPARE(window.findChild<QAction *>(QStringLiteral("userGuideAction"))->shortcut(),
                 QKeySequence(Qt::Key_F1));
    }
};

} // namespace tst_userguide

AGENTDESK_TEST_MAIN(tst_userguide::tst_UserGuide)
#include "tst_userguide.moc"
