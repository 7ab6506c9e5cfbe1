#include "usagelabel.h"

#include <QMouseEvent>

#include <cmath>

namespace Ui {

UsageLabel::UsageLabel(QWidget *parent)
    : QLabel(parent)
{
    setObjectName(QStringLiteral("usage"));
    setTextFormat(Qt::PlainText);
    setContentsMargins(6, 0, 6, 0); // apart from the run state on its left
    setCursor(Qt::PointingHandCursor);
    hide();
}

UsageLabel::~UsageLabel() = default;

void UsageLabel::setUsage(const UsageSummary &usage, bool tokensOnly)
{
    const QLocale locale;
    QStringList parts;
    const std::optional<double> percent = usage.contextPercent();
    const bool counted = usage.contextTokens > 0 || usage.totalTokens() > 0;
    if (percent && !tokensOnly && counted) {
        parts.append(*percent > 0 && *percent < 1
                         ? tr("Context <1%")
                         : tr("Context %1%").arg(locale.toString(std::lround(*percent))));
    } else if (usage.contextTokens > 0 && !tokensOnly) {
        parts.append(tr("Context %1").arg(compactNumber(usage.contextTokens, locale)));
    }
    // Before the first reply the context (the message sent) is all there is to show.
    if (usage.totalTokens() > 0) {
        parts.append(tr("%1 tokens").arg(compactNumber(usage.totalTokens(), locale)));
        // Only where the provider reports a cache at all: local servers never do, and a
        // constant "0% cached" would say nothing there.
        if (usage.cacheRead > 0 || usage.cacheWrite > 0) {
            parts.append(
                tr("%1% cached")
                    .arg(locale.toString(std::lround(usage.cacheHitPercent().value_or(0)))));
        }
        if (!tokensOnly)
            parts.append(usage.costKnown ? dollars(usage.cost, locale) : tr("cost unknown"));
    }
    if (parts.isEmpty()) {
        clear();
        setToolTip({});
        hide();
        return;
    }
    setText(parts.join(QStringLiteral(" · ")));
    setToolTip(toolTipFor(usage, tokensOnly));
    show();
}

QString UsageLabel::compactNumber(qint64 value, const QLocale &locale)
{
    const double magnitude = std::abs(double(value));
    // Three significant digits; a value that rounds up to 1000k moves on to M.
    if (magnitude < 1000)
        return locale.toString(value);
    if (magnitude < 999'500)
        return tr("%1k").arg(locale.toString(double(value) / 1e3, 'g', 3));
    if (magnitude < 999'500'000)
        return tr("%1M").arg(locale.toString(double(value) / 1e6, 'g', 3));
    return tr("%1G").arg(locale.toString(double(value) / 1e9, 'f', 1));
}

QString UsageLabel::dollars(double cost, const QLocale &locale)
{
    if (cost > 0 && cost < 0.005)
        return tr("<$%1").arg(locale.toString(0.01, 'f', 2));
    return tr("$%1").arg(locale.toString(cost, 'f', 2));
}

QString UsageLabel::toolTipFor(const UsageSummary &usage, bool tokensOnly) const
{
    const QLocale locale;
    const auto row = [](const QString &name, const QString &value) {
        return QStringLiteral("<tr><td>%1</td><td align=\"right\">&nbsp;&nbsp;%2</td></tr>")
            .arg(name.toHtmlEscaped(), value.toHtmlEscaped());
    };
    QString context = locale.toString(usage.contextTokens);
    if (usage.contextWindow && !tokensOnly) {
        context = tr("%1 of %2 (%3%)")
                      .arg(context,
                           locale.toString(*usage.contextWindow),
                           locale.toString(usage.contextPercent().value_or(0), 'f', 1));
    }
    QString cost;
    if (!tokensOnly) {
        // Four decimals: the tool tip is where a cent's fractions may be looked up.
        cost = usage.costKnown ? tr("$%1").arg(locale.toString(usage.cost, 'f', 4))
                               : tr("unknown (no price for this model; $%1 for the priced replies)")
                                     .arg(locale.toString(usage.cost, 'f', 4));
    }
    QString html = QStringLiteral("<table cellspacing=\"0\">");
    html += row(tr("Context"), context);
    html += row(tr("Input"), locale.toString(usage.input));
    html += row(tr("Output"), locale.toString(usage.output));
    html += row(tr("Cache read"), locale.toString(usage.cacheRead));
    html += row(tr("Cache write"), locale.toString(usage.cacheWrite));
    if (const std::optional<double> hits = usage.cacheHitPercent()) {
        html += row(tr("Cache hits"), tr("%1% of input").arg(locale.toString(*hits, 'f', 1)));
    }
    html += row(tr("Total"), locale.toString(usage.totalTokens()));
    if (!tokensOnly)
        html += row(tr("Cost"), cost);
    html += QStringLiteral("</table><p>%1</p>")
                .arg(tr("Context: what the next request sends at least. The rest: summed over "
                        "the replies of this conversation, at list prices. Cache hits: the "
                        "input tokens read from the provider's prompt cache, of all input.")
                         .toHtmlEscaped());
    html += QStringLiteral("<p>%1</p>")
                .arg(tr("Click to see what fills the context window.").toHtmlEscaped());
    return html;
}

void UsageLabel::mouseReleaseEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton && rect().contains(event->position().toPoint())) {
        emit contextViewRequested();
        event->accept();
        return;
    }
    QLabel::mouseReleaseEvent(event);
}

} // namespace Ui

#include "moc_usagelabel.cpp"
