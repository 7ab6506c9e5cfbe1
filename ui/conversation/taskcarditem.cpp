#include "taskcarditem.h"
#include "common/translation.h"

#include "conversationmodel.h"
#include "conversationstyle.h"
#include "messageitem.h"

#include "common/usagelabel.h"

#include <ai/pricing.h>

#include <QCoreApplication>
#include <QLocale>
#include <QPainter>
#include <QPainterPath>

namespace Ui {

using AgentCore::AgentEvent;
using AgentCore::Message;

static constexpr int TaskStatusSize = 14;
static constexpr int TaskArrowWidth = 14;
static constexpr int TaskAreaIndent = 12; ///< the child's conversation sits this far in

TaskCardItem::TaskCardItem(const QString &toolCallId)
    : ToolCardItem(toolCallId, QStringLiteral("Task"))
    , m_child(std::make_unique<ConversationModel>())
{}

TaskCardItem::~TaskCardItem() = default;

bool TaskCardItem::isTask(const QString &toolName)
{
    return toolName == QLatin1String("Task");
}

QString TaskCardItem::agentType() const
{
    if (!m_agentType.isEmpty())
        return m_agentType;
    return arguments().value(QLatin1String("subagent_type")).toString();
}

QString TaskCardItem::description() const
{
    if (!m_description.isEmpty())
        return m_description;
    return arguments().value(QLatin1String("description")).toString();
}

TaskCardItem::Progress TaskCardItem::progress() const
{
    switch (state()) {
    case State::Pending:
        return Progress::Waiting;
    case State::Running:
        return Progress::Running;
    case State::Succeeded:
        return Progress::Done;
    case State::Stopped:
    case State::NotRun:
        return Progress::Stopped;
    case State::Failed:
        // The core ends a stopped child's call with an error result saying so.
        return m_stopRequested || m_childAborted ? Progress::Stopped : Progress::Failed;
    }
    return Progress::Failed;
}

QString TaskCardItem::progressText(qint64 nowMs) const
{
    const QString elapsed = stateText(nowMs);
    QString word;
    switch (progress()) {
    case Progress::Waiting:
        return UiTr::tr("waiting");
    case Progress::Running:
        //: A subagent's card: it runs (the time so far follows)
        word = UiTr::tr("running");
        break;
    case Progress::Done:
        //: A subagent's card: it answered
        word = UiTr::tr("done");
        break;
    case Progress::Stopped:
        //: A subagent's card: the user stopped it
        return UiTr::tr("stopped");
    case Progress::Failed:
        word = UiTr::tr("failed");
        break;
    }
    return elapsed.isEmpty() ? word : UiTr::tr("%1 · %2").arg(word, elapsed);
}

QString TaskCardItem::usageText() const
{
    if (m_usage.totalTokens() == 0)
        return {};
    const QLocale locale;
    QString text = UiTr::tr("%1 tokens")
                       .arg(UsageLabel::compactNumber(m_usage.totalTokens(), locale));
    if (m_costKnown)
        text += QStringLiteral(" · ") + UsageLabel::dollars(m_usage.cost, locale);
    return text;
}

// The first line of an answer without its Markdown marks: one line of a folded card.
static QString plainLine(const QString &markdown)
{
    QString line = markdown.section(u'\n', 0, 0);
    line.remove(u'`');
    line.remove(QStringLiteral("**"));
    return line;
}

QString TaskCardItem::activityText() const
{
    int calls = 0;
    QString latest;
    for (int i = 0; i < m_child->count(); ++i) {
        const ConversationItem *item = m_child->at(i);
        if (item->kind() != Kind::ToolCard)
            continue;
        ++calls;
        const auto card = static_cast<const ToolCardItem *>(item);
        latest = displayName(card->toolName());
        if (const QString key = card->keyArgument(); !key.isEmpty())
            latest += QLatin1Char(' ') + key;
    }
    //: A folded subagent card: how many tool calls its subagent made
    const QString counted = calls == 1 ? UiTr::tr("1 tool call")
                                       : UiTr::tr("%1 tool calls").arg(calls);
    switch (progress()) {
    case Progress::Waiting:
        return {};
    case Progress::Running:
        if (m_child->count() == 0)
            return UiTr::tr("starting…");
        return latest.isEmpty() ? UiTr::tr("thinking…")
                                //: A folded subagent card: its calls, and the latest one
                                : UiTr::tr("%1 · now: %2").arg(counted, latest);
    case Progress::Done:
        if (m_answer.isEmpty())
            return counted;
        //: A folded subagent card: its calls, then the first line of its answer
        return UiTr::tr("%1 · answered: %2").arg(counted, plainLine(m_answer));
    case Progress::Stopped:
    case Progress::Failed:
        return counted;
    }
    return counted;
}

QString TaskCardItem::plainText() const
{
    QString text = UiTr::tr("Task %1: %2").arg(agentType(), description());
    if (const QString activity = activityText(); !activity.isEmpty())
        text += QLatin1Char('\n') + activity;
    if (m_open) {
        for (int i = 0; i < m_child->count(); ++i)
            text += QStringLiteral("\n  ")
                    + m_child->at(i)->plainText().replace(u'\n', QStringLiteral("\n  "));
    } else if (!outputText().isEmpty()) {
        text += QLatin1Char('\n') + outputText();
    }
    return text;
}

void TaskCardItem::setOpen(bool open)
{
    if (m_open == open)
        return;
    m_open = open;
    if (!open) {
        // Folded, the child's text keeps no layout.
        for (int i = 0; i < m_child->count(); ++i)
            m_child->at(i)->dropLayout();
        m_childTops.clear();
    }
    invalidate();
}

void TaskCardItem::countUsage(const Message &message)
{
    if (!message.isAssistant())
        return;
    AgentCore::Usage billed = message.usage;
    billed += message.discardedUsage;
    if (billed.totalTokens() == 0)
        return;
    m_usage += billed;
    if (!AgentCore::priceForModel(message.provider, message.model))
        m_costKnown = false;
}

void TaskCardItem::applySubagent(const QStringList &rest,
                                 const QString &agentType,
                                 const QString &description,
                                 const AgentEvent &event,
                                 qint64 nowMs)
{
    // Every card on the path counts what its subagents used.
    if (event.type == AgentEvent::Type::MessageEnd)
        countUsage(event.message);
    if (rest.isEmpty()) {
        if (!agentType.isEmpty())
            m_agentType = agentType;
        if (!description.isEmpty())
            m_description = description;
        if (event.type == AgentEvent::Type::MessageEnd && event.message.isAssistant()) {
            m_childAborted = event.message.stopReason == AgentCore::StopReason::Aborted;
            if (const QString text = event.message.text().trimmed(); !text.isEmpty())
                m_answer = text;
        }
        m_child->apply(event, nowMs);
    } else if (auto nested = dynamic_cast<TaskCardItem *>(m_child->card(rest.first()))) {
        nested->applySubagent(rest.mid(1), agentType, description, event, nowMs);
        nested->invalidate();
    }
    invalidate();
}

void TaskCardItem::setTranscripts(const QHash<QString, QList<Message>> &transcripts,
                                  const QString &key)
{
    const QList<Message> messages = transcripts.value(key);
    m_child->setMessages(messages);
    m_usage = {};
    m_costKnown = true;
    m_childAborted = false;
    for (const Message &message : messages) {
        countUsage(message);
        if (message.isAssistant()) {
            m_childAborted = message.stopReason == AgentCore::StopReason::Aborted;
            if (const QString text = message.text().trimmed(); !text.isEmpty())
                m_answer = text;
        }
    }
    for (int i = 0; i < m_child->count(); ++i) {
        if (auto nested = dynamic_cast<TaskCardItem *>(m_child->at(i))) {
            nested->setTranscripts(transcripts, key + QLatin1Char('/') + nested->toolCallId());
            m_usage += nested->usage();
            m_costKnown = m_costKnown && nested->m_costKnown;
        }
    }
    invalidate();
}

void TaskCardItem::markStopRequested()
{
    m_stopRequested = true;
    invalidate();
}

void TaskCardItem::endChild()
{
    AgentEvent end;
    end.type = AgentEvent::Type::AgentEnd;
    m_child->apply(end, 0);
    for (int i = 0; i < m_child->count(); ++i) {
        if (auto nested = dynamic_cast<TaskCardItem *>(m_child->at(i)))
            nested->endChild();
    }
    invalidate();
}

bool TaskCardItem::addChildHookRun(const QString &toolCallId,
                                   const QString &summary,
                                   const QString &output)
{
    bool found = false;
    if (ToolCardItem *card = m_child->card(toolCallId)) {
        card->addHookRun(summary, output);
        found = true;
    }
    for (int i = 0; i < m_child->count() && !found; ++i) {
        if (auto nested = dynamic_cast<TaskCardItem *>(m_child->at(i)))
            found = nested->addChildHookRun(toolCallId, summary, output);
    }
    if (found)
        invalidate(); // each card on the way lays its child out again
    return found;
}

TaskCardItem *TaskCardItem::task(const QStringList &rest)
{
    if (rest.isEmpty())
        return this;
    auto nested = dynamic_cast<TaskCardItem *>(m_child->card(rest.first()));
    return nested ? nested->task(rest.mid(1)) : nullptr;
}

QRect TaskCardItem::taskRect(const QStringList &rest) const
{
    if (rest.isEmpty())
        return QRect(0, 0, m_width, currentHeight());
    if (!m_open)
        return {};
    const ConversationItem *card = m_child->card(rest.first());
    const int index = card ? m_child->indexOf(card) : -1;
    if (index < 0 || size_t(index) >= m_childTops.size() || m_childTops[size_t(index)] < 0)
        return {};
    const auto nested = static_cast<const TaskCardItem *>(card);
    const QRect inner = nested->taskRect(rest.mid(1));
    return inner.isEmpty() ? QRect() : inner.translated(m_area.left(), m_childTops[size_t(index)]);
}

ConversationItem *TaskCardItem::childAt(QPoint pos, QPoint *local) const
{
    if (!m_open || !m_area.contains(pos))
        return nullptr;
    for (size_t i = 0; i < m_childTops.size() && int(i) < m_child->count(); ++i) {
        ConversationItem *item = m_child->at(int(i));
        const int top = m_childTops[i];
        if (top < 0 || pos.y() < top || pos.y() >= top + item->currentHeight())
            continue;
        *local = QPoint(pos.x() - m_area.left(), pos.y() - top);
        return item;
    }
    return nullptr;
}

QStringList TaskCardItem::taskPathAt(QPoint pos) const
{
    QPoint local;
    if (auto nested = dynamic_cast<const TaskCardItem *>(childAt(pos, &local)))
        return QStringList{nested->toolCallId()} + nested->taskPathAt(local);
    return {};
}

int TaskCardItem::headerHeight(const ConversationStyle &style) const
{
    return qMax(TaskStatusSize, style.bodyMetrics.height());
}

int TaskCardItem::estimateHeight(int width, const ConversationStyle &style) const
{
    int y = style.padding + headerHeight(style);
    if (!m_open && !activityText().isEmpty())
        y += style.spacing / 2 + style.smallMetrics.height();
    if (m_open) {
        const int inner = width - 2 * style.padding - TaskAreaIndent;
        y += 2 * style.spacing;
        for (int i = 0; i < m_child->count(); ++i) {
            ConversationItem *item = m_child->at(i);
            if (item->isCollapsed())
                continue;
            y += item->measure(inner, style) + style.spacing;
        }
    }
    return y + style.padding;
}

int TaskCardItem::doLayout(int width, const ConversationStyle &style)
{
    m_width = width;
    const int inner = width - 2 * style.padding;
    int y = style.padding;
    m_header = QRect(style.padding, y, inner, headerHeight(style));
    y += m_header.height();
    m_activity = QRect();
    if (!m_open && !activityText().isEmpty()) {
        y += style.spacing / 2;
        m_activity = QRect(style.padding + TaskArrowWidth,
                           y,
                           inner - TaskArrowWidth,
                           style.smallMetrics.height());
        y += m_activity.height();
    }
    m_area = QRect();
    m_childTops.clear();
    if (m_open) {
        y += style.spacing;
        const int areaTop = y;
        const int areaWidth = inner - TaskAreaIndent;
        m_childTops.resize(size_t(m_child->count()), -1);
        y += style.spacing;
        for (int i = 0; i < m_child->count(); ++i) {
            ConversationItem *item = m_child->at(i);
            if (item->isCollapsed())
                continue;
            m_childTops[size_t(i)] = y;
            y += item->layout(areaWidth, style) + style.spacing;
        }
        m_area = QRect(style.padding + TaskAreaIndent, areaTop, areaWidth, y - areaTop);
    }
    y += style.padding;
    return y;
}

void TaskCardItem::releaseLayout()
{
    ToolCardItem::releaseLayout();
    for (int i = 0; i < m_child->count(); ++i)
        m_child->at(i)->dropLayout();
    m_childTops.clear();
}

bool TaskCardItem::isAnimating() const
{
    return progress() == Progress::Running;
}

bool TaskCardItem::isClickable(QPoint pos) const
{
    if (m_header.contains(pos) || m_activity.contains(pos))
        return true;
    QPoint local;
    const ConversationItem *item = childAt(pos, &local);
    return item && item->isClickable(local);
}

bool TaskCardItem::click(QPoint pos)
{
    if (m_header.contains(pos) || m_activity.contains(pos)) {
        setOpen(!m_open);
        return true;
    }
    QPoint local;
    if (ConversationItem *item = childAt(pos, &local); item && item->click(local)) {
        invalidate();
        return true;
    }
    return false;
}

void TaskCardItem::paint(QPainter *painter,
                         const QRect &clip,
                         const ConversationStyle &style,
                         qint64 nowMs) const
{
    painter->setRenderHint(QPainter::Antialiasing);
    const QRect cardRect(0, 0, m_width, currentHeight());
    QPainterPath card;
    card.addRoundedRect(QRectF(cardRect).adjusted(0.5, 0.5, -0.5, -0.5), style.radius, style.radius);
    painter->fillPath(card, style.cardBackground);
    const Progress now = progress();
    painter->setPen(QPen(now == Progress::Failed ? style.error : style.cardBorder, 1));
    painter->drawPath(card);

    // ▸ / ▾, the status, "Task", the type, the description; on the right the usage and state.
    painter->setFont(style.body);
    painter->setPen(style.muted);
    painter->drawText(QRect(m_header.x(), m_header.y(), TaskArrowWidth, m_header.height()),
                      Qt::AlignLeft | Qt::AlignVCenter,
                      m_open ? QStringLiteral("▾") : QStringLiteral("▸"));
    const QRect status(m_header.x() + TaskArrowWidth,
                       m_header.center().y() - TaskStatusSize / 2,
                       TaskStatusSize,
                       TaskStatusSize);
    paintStatus(painter, status, style, nowMs);

    int right = m_header.right();
    const auto drawRight = [&](const QString &text, const QColor &color) {
        if (text.isEmpty())
            return;
        painter->setFont(style.small);
        painter->setPen(color);
        const int width = style.smallMetrics.horizontalAdvance(text);
        painter->drawText(QRect(right - width, m_header.y(), width, m_header.height()),
                          Qt::AlignRight | Qt::AlignVCenter,
                          text);
        right -= width + 2 * style.spacing;
    };
    drawRight(progressText(nowMs), now == Progress::Failed ? style.error : style.muted);
    drawRight(usageText(), style.muted);

    int x = status.right() + style.spacing + 2;
    const auto drawLeft = [&](const QString &text, const QFont &font, const QColor &color) {
        if (text.isEmpty() || x >= right)
            return;
        const QFontMetrics metrics(font);
        const QString shown = metrics.elidedText(text, Qt::ElideRight, right - x);
        const int width = metrics.horizontalAdvance(shown);
        painter->setFont(font);
        painter->setPen(color);
        painter->drawText(QRect(x, m_header.y(), width, m_header.height()),
                          Qt::AlignLeft | Qt::AlignVCenter,
                          shown);
        x += width + style.spacing;
    };
    //: The header of a subagent's card, before its type ("Task · explore")
    drawLeft(UiTr::tr("Task"), style.bold, style.text);
    if (const QString type = agentType(); !type.isEmpty())
        drawLeft(QStringLiteral("· ") + type, style.bold, style.accent);
    drawLeft(description(), style.body, style.text);

    if (!m_activity.isEmpty()) {
        painter->setFont(style.small);
        painter->setPen(style.muted);
        painter->drawText(m_activity,
                          Qt::AlignLeft | Qt::AlignVCenter,
                          style.smallMetrics.elidedText(activityText(),
                                                        Qt::ElideRight,
                                                        m_activity.width()));
    }

    if (m_area.isEmpty())
        return;
    // The child's conversation on the conversation's own canvas, with a rule on its left.
    QPainterPath area;
    area.addRoundedRect(QRectF(m_area), 4, 4);
    painter->fillPath(area, style.canvas);
    painter->fillRect(QRect(m_area.left() - TaskAreaIndent / 2 - 1, m_area.top(), 2, m_area.height()),
                      style.accent);
    const int width = m_area.width();
    for (size_t i = 0; i < m_childTops.size() && int(i) < m_child->count(); ++i) {
        const int top = m_childTops[i];
        const ConversationItem *item = m_child->at(int(i));
        if (top < 0 || !item->isLaidOut(width))
            continue;
        const QRect rect(m_area.left(), top, width, item->currentHeight());
        if (!rect.intersects(clip))
            continue;
        painter->save();
        painter->translate(rect.topLeft());
        item->paint(painter,
                    clip.translated(-rect.topLeft()) & QRect(0, 0, width, rect.height()),
                    style,
                    nowMs);
        painter->restore();
    }
}

} // namespace Ui
