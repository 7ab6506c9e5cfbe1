#include "sandboxnoticebar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStyle>

namespace Ui {

SandboxNoticeBar::SandboxNoticeBar(QWidget *parent)
    : NoticeFrame(Tone::Notice, Shape::Bar, parent)
{
    // Amber, not red: nothing is wrong with the work, but commands have more rights than the
    // user chose to give them.
    setObjectName(QStringLiteral("sandboxNoticeBar"));
    auto *icon = new QLabel(this);
    const int iconSize = fontMetrics().height();
    icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(iconSize));
    m_text = new QLabel(this);
    m_text->setObjectName(QStringLiteral("sandboxNoticeText"));
    m_text->setTextFormat(Qt::RichText);
    m_text->setWordWrap(true);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse); // the commands can be copied
    m_settings = new QPushButton(tr("Settings…"), this);
    m_settings->setObjectName(QStringLiteral("sandboxNoticeSettings"));
    m_settings->setToolTip(tr("Sandbox: On runs commands without it here; Required refuses "
                              "them."));
    m_dismiss = new QPushButton(tr("Dismiss"), this);
    m_dismiss->setObjectName(QStringLiteral("sandboxNoticeDismiss"));
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 5, 10, 5);
    layout->setSpacing(8);
    layout->addWidget(icon, 0, Qt::AlignTop);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_settings, 0, Qt::AlignTop);
    layout->addWidget(m_dismiss, 0, Qt::AlignTop);
    connect(m_settings, &QPushButton::clicked, this, &SandboxNoticeBar::settingsRequested);
    connect(m_dismiss, &QPushButton::clicked, this, [this] {
        m_dismissed = true;
        hide();
    });
    hide();
}

void SandboxNoticeBar::showNotice(const QString &message)
{
    if (m_dismissed || message.isEmpty())
        return;
    m_message = message;
    // What happens to commands, in bold; then why and what to do.
    const qsizetype colon = message.indexOf(QLatin1String(": "));
    m_text->setText(colon < 0 ? message.toHtmlEscaped()
                              : QStringLiteral("<b>%1:</b> %2")
                                    .arg(message.left(colon).toHtmlEscaped(),
                                         message.mid(colon + 2).toHtmlEscaped()));
    show();
}

QString SandboxNoticeBar::text() const
{
    return m_message;
}

} // namespace Ui

#include "moc_sandboxnoticebar.cpp"
