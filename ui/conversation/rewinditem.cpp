#include "rewinditem.h"
#include "common/translation.h"

#include "conversationstyle.h"

#include <QCoreApplication>
#include <QPainter>
#include <QPainterPath>

namespace Ui {

namespace {
constexpr int WrapFlags = Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap;
} // namespace

RewindItem::RewindItem(const AgentCore::Rewind &rewind)
    : m_rewind(rewind)
{}

QString RewindItem::title() const
{
    switch (m_rewind.scope) {
    case AgentCore::Rewind::Scope::Files:
        //: Header of a rewind in the conversation
        return UiTr::tr("Files rewound");
    case AgentCore::Rewind::Scope::Conversation:
        return UiTr::tr("Conversation rewound");
    case AgentCore::Rewind::Scope::Both:
        return UiTr::tr("Conversation and files rewound");
    }
    return {};
}

QString RewindItem::byline() const
{
    QStringList parts;
    if (m_rewind.restoresFiles()) {
        parts << UiTr::tr("%n file(s) restored", nullptr, int(m_rewind.restoredFiles.size()));
        if (!m_rewind.keptFiles.isEmpty())
            parts << UiTr::tr("%n kept as it was", nullptr, int(m_rewind.keptFiles.size()));
    }
    if (m_rewind.rewindsConversation())
        //: The model no longer sees these messages
        parts << UiTr::tr("%n message(s) no longer sent to the model", nullptr, m_rewoundCount);
    return parts.join(QStringLiteral(" · "));
}

QString RewindItem::originalsToggleText() const
{
    if (m_rewoundCount == 0)
        return {};
    //: Toggle under a rewind
    return m_originalsShown ? UiTr::tr("Hide the %n rewound message(s)", nullptr, m_rewoundCount)
                            : UiTr::tr("Show the %n rewound message(s)", nullptr, m_rewoundCount);
}

QString RewindItem::undoText()
{
    return UiTr::tr("Undo rewind");
}

QString RewindItem::plainText() const
{
    QStringList lines{title()};
    if (const QString by = byline(); !by.isEmpty())
        lines << by;
    if (!m_rewind.restoredFiles.isEmpty())
        lines << UiTr::tr("Restored: %1").arg(m_rewind.restoredFiles.join(QStringLiteral(", ")));
    if (!m_rewind.keptFiles.isEmpty())
        lines << UiTr::tr("Kept: %1").arg(m_rewind.keptFiles.join(QStringLiteral(", ")));
    return lines.join(QLatin1Char('\n'));
}

void RewindItem::setRewoundCount(int count)
{
    if (m_rewoundCount == count)
        return;
    m_rewoundCount = count;
    invalidate();
}

void RewindItem::setOriginalsShown(bool shown)
{
    if (m_originalsShown == shown)
        return;
    m_originalsShown = shown;
    invalidate();
}

void RewindItem::setUndoable(bool undoable)
{
    if (m_undoable == undoable)
        return;
    m_undoable = undoable;
    invalidate();
}

RewindItem::Geometry RewindItem::computeGeometry(int width, const ConversationStyle &style) const
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
    const QFontMetrics linkMetrics(style.small);
    int linkX = x;
    const QString toggle = originalsToggleText();
    if (!toggle.isEmpty()) {
        g.originalsToggle = QRect(linkX,
                                  y,
                                  linkMetrics.horizontalAdvance(toggle),
                                  linkMetrics.height());
        linkX = g.originalsToggle.right() + 1 + 2 * style.spacing;
    }
    if (m_undoable)
        g.undo = QRect(linkX, y, linkMetrics.horizontalAdvance(undoText()), linkMetrics.height());
    if (!toggle.isEmpty() || m_undoable)
        y += linkMetrics.height() + style.spacing / 2;
    y += style.padding - style.spacing / 2;
    g.card = QRect(0, 0, width, y);
    return g;
}

int RewindItem::estimateHeight(int width, const ConversationStyle &style) const
{
    return computeGeometry(width, style).card.height();
}

int RewindItem::doLayout(int width, const ConversationStyle &style)
{
    m_geometry = computeGeometry(width, style);
    return m_geometry.card.height();
}

void RewindItem::paint(QPainter *painter,
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
    // Dotted and muted: a point where the conversation turned back, not a message.
    painter->setPen(QPen(style.muted, 1, Qt::DotLine));
    painter->drawPath(path);

    painter->setFont(style.bold);
    painter->setPen(style.text);
    painter->drawText(g.title,
                      Qt::AlignLeft | Qt::AlignVCenter,
                      QStringLiteral("\u21B6 ") + title());
    painter->setFont(style.small);
    painter->setPen(style.muted);
    if (!g.byline.isEmpty())
        painter->drawText(g.byline, WrapFlags, byline());
    QFont link = style.small;
    link.setUnderline(true);
    painter->setFont(link);
    painter->setPen(style.accent);
    if (!g.originalsToggle.isEmpty())
        painter->drawText(g.originalsToggle,
                          Qt::AlignLeft | Qt::AlignVCenter,
                          originalsToggleText());
    if (!g.undo.isEmpty())
        painter->drawText(g.undo, Qt::AlignLeft | Qt::AlignVCenter, undoText());
}

bool RewindItem::click(QPoint pos)
{
    if (m_geometry.originalsToggle.contains(pos)) {
        setOriginalsShown(!m_originalsShown);
        return true;
    }
    return false; // "Undo rewind" is the view's: it asks the window
}

bool RewindItem::isClickable(QPoint pos) const
{
    return m_geometry.originalsToggle.contains(pos) || m_geometry.undo.contains(pos);
}

} // namespace Ui
