#include "rootuserbar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QMainWindow>
#include <QStyle>
#include <QVBoxLayout>

namespace Ui {

RootUserBar::RootUserBar(QWidget *parent)
    : NoticeFrame(Tone::Danger, Shape::Bar, parent)
{
    setObjectName(QStringLiteral("rootUserBar"));
    auto *icon = new QLabel(this);
    const int iconSize = fontMetrics().height();
    icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(iconSize));
    m_text = new QLabel(tr("<b>AgentDesk runs as root.</b> Files it writes, in your repository "
                           "too, will belong to root, and the commands it runs have root's "
                           "rights. Start it as your own user unless that is what you want."),
                        this);
    m_text->setObjectName(QStringLiteral("rootUserBarText"));
    m_text->setTextFormat(Qt::RichText);
    m_text->setWordWrap(true);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 5, 10, 5);
    layout->setSpacing(6);
    layout->addWidget(icon, 0, Qt::AlignTop);
    layout->addWidget(m_text, 1);
}

RootUserBar *RootUserBar::addTo(QMainWindow *window, uint userId)
{
    if (userId != 0)
        return nullptr;
    // A column of the bar and the window's content: the bar spans the width, and a narrow
    // window wraps its text instead of hiding it.
    auto *column = new QWidget(window);
    column->setObjectName(QStringLiteral("rootUserColumn"));
    auto *bar = new RootUserBar(column);
    auto *layout = new QVBoxLayout(column);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(bar);
    if (QWidget *content = window->takeCentralWidget())
        layout->addWidget(content, 1);
    window->setCentralWidget(column);
    return bar;
}

QString RootUserBar::text() const
{
    return m_text->text();
}

} // namespace Ui

#include "moc_rootuserbar.cpp"
