// A tool card lists the hooks that ran for its call (docs/extending.md, "Hooks"): each one's
// event, command, outcome and time in the details, its output with it, before and after the
// result arrived; the details header counts them.

#include <conversation/conversationstyle.h>
#include <conversation/toolcarditem.h>
#include <testmain.h>

#include <loop/agenttypes.h>

#include <QApplication>
#include <QImage>
#include <QPainter>
#include <QTest>

namespace tst_toolcardhooks {

using Ui::ToolCardItem;

class tst_ToolCardHooks : public QObject
{
    Q_OBJECT

private slots:
    void hooksAreListedInTheDetails()
    {
        ToolCardItem card(QStringLiteral("call_1"), QStringLiteral("Bash"));
        card.setArguments({{QStringLiteral("command"), QStringLiteral("git push")}});
        card.setRunning(0);
        QCOMPARE(card.hookRunCount(), 0);
        card.addHookRun(QStringLiteral("PreToolUse ./no-push.sh: blocked (exit 2), 12 ms"),
                        QStringLiteral("pushing is not allowed\n"));
        card.setResult(AgentCore::ToolResult::makeError(QStringLiteral("A PreToolUse hook denied")),
                       20);
        card.addHookRun(QStringLiteral("PostToolUse ./log.sh: ok, 3 ms"), QString());
        QCOMPARE(card.hookRunCount(), 2);
        card.setDetailsExpanded(true);
        const QString details = card.detailsShownText();
        QVERIFY2(details.contains(
                     QStringLiteral("hook PreToolUse ./no-push.sh: blocked (exit 2), 12 ms\n"
                                    "pushing is not allowed")),
                 qPrintable(details));
        QVERIFY2(details.contains(QStringLiteral("hook PostToolUse ./log.sh: ok, 3 ms")),
                 qPrintable(details));

        // It paints with them (offscreen): the card grows by the details.
        const Ui::ConversationStyle style(QApplication::palette(), QApplication::font());
        const int height = card.layout(600, style);
        QImage image(600, height, QImage::Format_ARGB32_Premultiplied);
        QPainter painter(&image);
        card.paint(&painter, image.rect(), style, 30);
        painter.end();
        ToolCardItem plain(QStringLiteral("call_2"), QStringLiteral("Bash"));
        plain.setArguments({{QStringLiteral("command"), QStringLiteral("git push")}});
        plain.setResult(AgentCore::ToolResult::makeError(
                            QStringLiteral("A PreToolUse hook denied")),
                        20);
        QVERIFY(height > plain.layout(600, style));
    }
};

AGENTDESK_TEST_MAIN(tst_ToolCardHooks)

} // namespace tst_toolcardhooks

#include "tst_toolcardhooks.moc"
