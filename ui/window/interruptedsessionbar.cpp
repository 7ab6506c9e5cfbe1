#include "interruptedsessionbar.h"

#include <QDateTime>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QStyle>

namespace Ui {

InterruptedSessionBar::InterruptedSessionBar(QWidget *parent)
    : NoticeFrame(Tone::Notice, Shape::Bar, parent)
{
    // The sandbox notice's amber: nothing is lost, but something waits for the user.
    setObjectName(QStringLiteral("interruptedSessionBar"));
    auto *icon = new QLabel(this);
    const int iconSize = fontMetrics().height();
    icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxInformation).pixmap(iconSize));
    m_text = new QLabel(this);
    m_text->setObjectName(QStringLiteral("interruptedSessionText"));
    m_text->setTextFormat(Qt::PlainText);
    m_text->setWordWrap(true);
    m_open = new QPushButton(tr("Open It"), this);
    m_open->setObjectName(QStringLiteral("interruptedSessionOpen"));
    m_open->setToolTip(tr("Open the interrupted session: what it showed is kept, and its "
                          "run is marked as interrupted"));
    m_dismiss = new QPushButton(tr("Dismiss"), this);
    m_dismiss->setObjectName(QStringLiteral("interruptedSessionDismiss"));
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 5, 10, 5);
    layout->setSpacing(8);
    layout->addWidget(icon, 0, Qt::AlignTop);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_open, 0, Qt::AlignTop);
    layout->addWidget(m_dismiss, 0, Qt::AlignTop);
    connect(m_open, &QPushButton::clicked, this, [this] {
        const QString path = m_path;
        m_dismissed.insert(path); // opened: it is no longer interrupted
        hide();
        emit openRequested(path);
    });
    connect(m_dismiss, &QPushButton::clicked, this, [this] {
        m_dismissed.insert(m_path);
        hide();
    });
    hide();
}

void InterruptedSessionBar::showNewest(const QList<AgentCore::SessionInfo> &sessions,
                                       const QStringList &open)
{
    const std::optional<AgentCore::SessionInfo> interrupted
        = AgentCore::SessionStore::newestInterrupted(sessions, open + m_dismissed.values());
    if (interrupted) {
        const AgentCore::SessionInfo &session = *interrupted;
        m_path = session.path;
        const qint64 minutes = qMax<qint64>(0,
                                            session.modified.secsTo(QDateTime::currentDateTime())
                                                / 60);
        const QString when = minutes < 1 ? tr("less than a minute ago")
                             : minutes < 120
                                 ? tr("%n minute(s) ago", nullptr, int(minutes))
                                 : QLocale().toString(session.modified, QLocale::ShortFormat);
        //: A bar after a restart: the session that was running when AgentDesk ended
        m_text->setText(tr("AgentDesk ended while “%1” was running (last written %2). Its "
                           "conversation and the output it had shown are kept.")
                            .arg(session.title, when));
        show();
        return;
    }
    m_path.clear();
    hide();
}

QString InterruptedSessionBar::text() const
{
    return isHidden() ? QString() : m_text->text();
}

} // namespace Ui

#include "moc_interruptedsessionbar.cpp"
