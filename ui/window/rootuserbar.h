#pragma once

#include "common/noticeframe.h"

QT_BEGIN_NAMESPACE
class QLabel;
class QMainWindow;
QT_END_NAMESPACE

namespace Ui {

/// The bar at the top of a window started as root (uid 0): every file AgentDesk and the
/// commands it runs write then belongs to root, in the user's own repository too. A user who
/// did not mean to (sudo, a root shell, an old script) must see it before giving a task, so it
/// is always shown above the window's content and stays for the window's life.
class RootUserBar final : public NoticeFrame
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RootUserBar)
public:
    /// Puts the bar above the central widget of \a window when \a userId (the effective user
    /// id the process runs as) is root's; returns it, or null for any other user.
    static RootUserBar *addTo(QMainWindow *window, uint userId);

    QString text() const;

private:
    explicit RootUserBar(QWidget *parent);

    QLabel *m_text = nullptr;
};

} // namespace Ui
