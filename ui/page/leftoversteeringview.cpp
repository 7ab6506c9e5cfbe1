#include "leftoversteeringview.h"

#include <loop/agent.h>

#include <QApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>
#include <QVBoxLayout>

namespace Ui {

namespace {
// Longer messages are cut in the row; the tooltip has all of it.
constexpr qsizetype shownCharacters = 240;
} // namespace

LeftoverSteeringView::LeftoverSteeringView(QWidget *parent)
    : QWidget(parent)
    , m_rows(new QVBoxLayout(this))
{
    setObjectName(QStringLiteral("leftoverSteering"));
    m_rows->setContentsMargins(0, 0, 0, 0);
    m_rows->setSpacing(2);
    hide();
}

LeftoverSteeringView::~LeftoverSteeringView() = default;

void LeftoverSteeringView::setAgent(AgentCore::Agent *agent)
{
    if (m_agent)
        disconnect(m_agent, nullptr, this, nullptr);
    m_agent = agent;
    if (m_agent)
        connect(m_agent, &AgentCore::Agent::queuesChanged, this, &LeftoverSteeringView::refresh);
    refresh();
}

QStringList LeftoverSteeringView::texts() const
{
    QStringList out;
    for (const AgentCore::Message &message : m_shown)
        out.append(message.text());
    return out;
}

QToolButton *LeftoverSteeringView::sendButton(int row) const
{
    return row >= 0 && row < m_rowWidgets.size() ? m_rowWidgets.at(row).send : nullptr;
}

QToolButton *LeftoverSteeringView::discardButton(int row) const
{
    return row >= 0 && row < m_rowWidgets.size() ? m_rowWidgets.at(row).discard : nullptr;
}

QList<QWidget *> LeftoverSteeringView::buttons() const
{
    QList<QWidget *> out;
    for (const Row &row : m_rowWidgets)
        out << row.send << row.discard;
    return out;
}

void LeftoverSteeringView::refresh()
{
    const QList<AgentCore::Message> leftover = m_agent ? m_agent->leftoverSteering()
                                                       : QList<AgentCore::Message>();
    if (leftover == m_shown)
        return; // another queue changed: the rows, and the focus in them, stay
    int focusedRow = -1;
    for (int i = 0; i < m_rowWidgets.size(); ++i) {
        if (m_rowWidgets.at(i).widget->isAncestorOf(QApplication::focusWidget()))
            focusedRow = i;
    }
    for (const Row &row : std::as_const(m_rowWidgets)) {
        // Later: this may run in the clicked() of one of its buttons.
        row.widget->hide();
        row.widget->deleteLater();
    }
    m_rowWidgets.clear();
    m_shown = leftover;

    for (int i = 0; i < m_shown.size(); ++i) {
        const QString text = m_shown.at(i).text().simplified();
        Row row;
        row.widget = new QWidget(this);
        row.label = new QLabel(row.widget);
        row.label->setObjectName(QStringLiteral("leftoverText"));
        row.label->setWordWrap(true);
        row.label->setTextFormat(Qt::RichText);
        const QString shown = text.size() > shownCharacters
                                  ? text.left(shownCharacters) + QChar(0x2026)
                                  : text;
        //: Above the message box: a steering message the stopped task never received
        row.label->setText(
            tr("<b>Not sent</b>, the task stopped first: %1").arg(shown.toHtmlEscaped()));
        row.label->setToolTip(m_shown.at(i).text());
        row.send = new QToolButton(row.widget);
        row.send->setObjectName(QStringLiteral("sendLeftoverButton"));
        row.send->setText(tr("Send Now"));
        row.send->setToolTip(tr("Send this message now: it starts a new task, or steers the "
                                "running one"));
        row.send->setAccessibleName(tr("Send now: %1").arg(shown));
        row.send->setFocusPolicy(Qt::StrongFocus);
        row.discard = new QToolButton(row.widget);
        row.discard->setObjectName(QStringLiteral("discardLeftoverButton"));
        row.discard->setText(tr("Discard"));
        row.discard->setToolTip(tr("Drop this message without sending it"));
        row.discard->setAccessibleName(tr("Discard: %1").arg(shown));
        row.discard->setFocusPolicy(Qt::StrongFocus);
        connect(row.send, &QToolButton::clicked, this, [this, i] { answer(i, true); });
        connect(row.discard, &QToolButton::clicked, this, [this, i] { answer(i, false); });
        auto layout = new QHBoxLayout(row.widget);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->addWidget(row.label, 1);
        layout->addWidget(row.send, 0, Qt::AlignVCenter);
        layout->addWidget(row.discard, 0, Qt::AlignVCenter);
        m_rows->addWidget(row.widget);
        m_rowWidgets.append(row);
    }
    setVisible(!m_shown.isEmpty());
    emit rowsChanged();
    if (focusedRow >= 0) {
        // Answered from the keyboard: the next message's Send Now, or back to the composer.
        if (!m_rowWidgets.isEmpty())
            m_rowWidgets.at(qMin(focusedRow, int(m_rowWidgets.size()) - 1))
                .send->setFocus(Qt::TabFocusReason);
        else
            emit finished();
    }
}

void LeftoverSteeringView::answer(int row, bool send)
{
    if (!m_agent)
        return;
    if (send ? m_agent->sendLeftover(row) : m_agent->discardLeftover(row)) {
        refresh(); // at once: queuesChanged is queued when the agent posts it
        if (send)
            emit sent();
    }
}

} // namespace Ui

#include "moc_leftoversteeringview.cpp"
