#include "compactionitem.h"
#include "common/translation.h"

#include "conversationstyle.h"

#include "common/usagelabel.h"

#include <QCoreApplication>
#include <QPainter>
#include <QPainterPath>
#include <QtMath>

#include <limits>

namespace Ui {

namespace {
constexpr int WrapFlags = Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap;
} // namespace

CompactionItem::CompactionItem(const AgentCore::Compaction &compaction)
    : m_compaction(compaction)
{}

QString CompactionItem::title() const
{
    //: Header of a compaction in the conversation: the summary stands in for these messages
    return UiTr::tr("Summary of %n earlier message(s)", nullptr, int(m_compaction.coveredCount));
}

QString CompactionItem::byline() const
{
    const QLocale locale;
    QStringList parts;
    if (!m_compaction.model.isEmpty())
        //: Who wrote a compaction's summary: "Written by claude-sonnet-4"
        parts << UiTr::tr("Written by %1").arg(m_compaction.model);
    const AgentCore::Usage &usage = m_compaction.usage;
    if (usage.totalTokens() > 0)
        parts << UiTr::tr("%1 tokens").arg(UsageLabel::compactNumber(usage.totalTokens(), locale));
    if (usage.cost > 0)
        parts << UsageLabel::dollars(usage.cost, locale);
    return parts.join(QStringLiteral(" · "));
}

QString CompactionItem::instructionsText() const
{
    if (m_compaction.instructions.trimmed().isEmpty())
        return {};
    //: What the user asked a compaction's summary to keep
    return UiTr::tr("Instructions: %1").arg(m_compaction.instructions.trimmed());
}

QString CompactionItem::originalsToggleText() const
{
    const int n = int(m_compaction.coveredCount);
    //: Toggle under a compaction's summary; Enter is the key that does the same
    return m_originalsShown ? UiTr::tr("Hide the %n original message(s), no longer sent to the "
                                       "model (Enter)",
                                       nullptr,
                                       n)
                            : UiTr::tr("Show the %n original message(s) (Enter)", nullptr, n);
}

QString CompactionItem::summaryToggleText() const
{
    //: Toggle of a compaction's long summary; Space is the key that does the same
    return m_summaryExpanded ? UiTr::tr("Show less (Space)")
                             : UiTr::tr("Show the whole summary (Space)");
}

QString CompactionItem::plainText() const
{
    QStringList lines{title()};
    if (const QString by = byline(); !by.isEmpty())
        lines << by;
    if (const QString instructions = instructionsText(); !instructions.isEmpty())
        lines << instructions;
    lines << m_compaction.summary;
    return lines.join(QLatin1Char('\n'));
}

void CompactionItem::setOriginalsShown(bool shown)
{
    if (m_originalsShown == shown)
        return;
    m_originalsShown = shown;
    invalidate(); // the toggle's text changes width
}

void CompactionItem::setSummaryExpanded(bool expanded)
{
    if (m_summaryExpanded == expanded)
        return;
    m_summaryExpanded = expanded;
    invalidate();
}

CompactionItem::Geometry CompactionItem::computeGeometry(int width,
                                                         const ConversationStyle &style,
                                                         int summaryHeight,
                                                         bool isLong) const
{
    Geometry g;
    const int inner = qMax(1, width - 2 * style.padding);
    const int x = style.padding;
    int y = style.padding;
    const QFontMetrics boldMetrics(style.bold);
    g.title = QRect(x, y, inner, boldMetrics.height());
    y = g.title.bottom() + 1 + style.spacing / 2;
    if (const QString by = byline(); !by.isEmpty()) {
        g.byline = style.smallMetrics.boundingRect(QRect(x, y, inner, 100000), WrapFlags, by);
        g.byline.setWidth(inner);
        y = g.byline.bottom() + 1 + style.spacing / 2;
    }
    if (const QString instructions = instructionsText(); !instructions.isEmpty()) {
        g.instructions = style.smallMetrics.boundingRect(QRect(x, y, inner, 100000),
                                                         WrapFlags,
                                                         instructions);
        g.instructions.setWidth(inner);
        y = g.instructions.bottom() + 1 + style.spacing / 2;
    }
    y += style.spacing / 2;
    g.summary = QRect(x, y, inner, summaryHeight);
    y = g.summary.bottom() + 1 + style.spacing;
    const QFontMetrics linkMetrics(style.small);
    if (isLong) {
        g.summaryToggle = QRect(x,
                                y,
                                linkMetrics.horizontalAdvance(summaryToggleText()),
                                linkMetrics.height());
        y = g.summaryToggle.bottom() + 1 + style.spacing / 2;
    }
    g.originalsToggle = QRect(x,
                              y,
                              linkMetrics.horizontalAdvance(originalsToggleText()),
                              linkMetrics.height());
    y = g.originalsToggle.bottom() + 1 + style.padding;
    g.card = QRect(0, 0, width, y);
    return g;
}

// No shaping: lines of average characters per paragraph, which is all an item off screen needs.
int CompactionItem::estimateHeight(int width, const ConversationStyle &style) const
{
    const int inner = qMax(1, width - 2 * style.padding);
    const int perLine = qMax(1, inner / qMax(1, style.bodyMetrics.averageCharWidth()));
    qsizetype lines = 0;
    for (const QStringView paragraph : QStringView(m_compaction.summary).split(u'\n'))
        lines += qMax<qsizetype>(1, (paragraph.size() + perLine - 1) / perLine);
    const bool isLong = lines > CollapsedLines;
    const qsizetype shown = isLong && !m_summaryExpanded ? CollapsedLines : lines;
    return computeGeometry(width, style, int(shown) * style.bodyMetrics.lineSpacing(), isLong)
        .card.height();
}

int CompactionItem::layoutSummary(int width, const ConversationStyle &style, bool *isLong)
{
    QString text = m_compaction.summary;
    text.replace(QLatin1Char('\n'), QChar::LineSeparator);
    m_summaryLayout = std::make_unique<QTextLayout>(text, style.body);
    QTextOption option(Qt::AlignLeft | Qt::AlignTop);
    option.setWrapMode(QTextOption::WordWrap); // as Qt::TextWordWrap draws it
    m_summaryLayout->setTextOption(option);
    m_summaryLayout->setCacheEnabled(true);
    // Collapsed, the lines past the shown ones are never made: whether there is more is where
    // the last shown line ends.
    const int wanted = m_summaryExpanded ? std::numeric_limits<int>::max() : CollapsedLines;
    qreal height = 0;
    int end = 0;
    m_summaryLayout->beginLayout();
    for (int lines = 0; lines < wanted; ++lines) {
        QTextLine line = m_summaryLayout->createLine();
        if (!line.isValid())
            break;
        line.setLineWidth(width);
        line.setPosition(QPointF(0, height));
        height += line.height();
        end = line.textStart() + line.textLength();
    }
    m_summaryLayout->endLayout();
    const int lineSpacing = style.bodyMetrics.lineSpacing();
    if (m_summaryExpanded) {
        // Every line is laid out: long by the measure of the collapsed lines (the toggle then
        // says "Show less").
        *isLong = height > CollapsedLines * lineSpacing + lineSpacing / 2;
        return qCeil(height);
    }
    // What follows the last shown line, if more than a line separator, is cut off.
    *isLong = !QStringView(text).mid(end).trimmed().isEmpty();
    return *isLong ? CollapsedLines * lineSpacing : qCeil(height);
}

int CompactionItem::doLayout(int width, const ConversationStyle &style)
{
    const int inner = qMax(1, width - 2 * style.padding);
    bool isLong = false;
    const int summaryHeight = layoutSummary(inner, style, &isLong);
    m_summaryLong = isLong;
    m_geometry = computeGeometry(width, style, summaryHeight, isLong);
    return m_geometry.card.height();
}

void CompactionItem::releaseLayout()
{
    m_summaryLayout.reset();
}

void CompactionItem::paint(QPainter *painter,
                           const QRect &clip,
                           const ConversationStyle &style,
                           qint64 nowMs) const
{
    Q_UNUSED(clip)
    Q_UNUSED(nowMs)
    const Geometry &g = m_geometry;
    painter->setRenderHint(QPainter::Antialiasing, true);
    QPainterPath path;
    path.addRoundedRect(QRectF(g.card).adjusted(0.5, 0.5, -0.5, -0.5), style.radius, style.radius);
    painter->fillPath(path, style.cardBackground);
    // A dashed accent border: this is not a message of either side, it stands in for many.
    QPen border(style.accent, 1, Qt::DashLine);
    painter->setPen(border);
    painter->drawPath(path);

    painter->setFont(style.bold);
    painter->setPen(style.text);
    painter->drawText(g.title, Qt::AlignLeft | Qt::AlignVCenter, title());
    painter->setFont(style.small);
    painter->setPen(style.muted);
    if (!g.byline.isEmpty())
        painter->drawText(g.byline, WrapFlags, byline());
    if (!g.instructions.isEmpty()) {
        QFont italic = style.small;
        italic.setItalic(true);
        painter->setFont(italic);
        painter->drawText(g.instructions, WrapFlags, instructionsText());
    }
    if (m_summaryLayout) {
        painter->save();
        painter->setClipRect(g.summary, Qt::IntersectClip);
        painter->setPen(style.text);
        m_summaryLayout->draw(painter, g.summary.topLeft());
        painter->restore();
    }
    QFont link = style.small;
    link.setUnderline(true);
    painter->setFont(link);
    painter->setPen(style.accent);
    if (!g.summaryToggle.isEmpty())
        painter->drawText(g.summaryToggle, Qt::AlignLeft | Qt::AlignVCenter, summaryToggleText());
    painter->drawText(g.originalsToggle, Qt::AlignLeft | Qt::AlignVCenter, originalsToggleText());
}

bool CompactionItem::click(QPoint pos)
{
    if (m_geometry.originalsToggle.contains(pos)) {
        setOriginalsShown(!m_originalsShown);
        return true;
    }
    if (m_geometry.summaryToggle.contains(pos)) {
        setSummaryExpanded(!m_summaryExpanded);
        return true;
    }
    return false;
}

bool CompactionItem::isClickable(QPoint pos) const
{
    return m_geometry.originalsToggle.contains(pos) || m_geometry.summaryToggle.contains(pos);
}

} // namespace Ui
