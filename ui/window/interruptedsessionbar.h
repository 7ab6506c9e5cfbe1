#pragma once

#include <session/sessionstore.h>

#include "common/noticeframe.h"
#include <QSet>

QT_BEGIN_NAMESPACE
class QLabel;
class QPushButton;
QT_END_NAMESPACE

namespace Ui {

/// The bar above the window's content that points at a session AgentDesk ended in the middle
/// of (a crash, kill -9: AgentCore::SessionInfo::interrupted), so that the conversation the
/// window opens after a restart is not all there is: its task, how long ago, and Open. Stays
/// until the session is opened or the bar dismissed; a dismissed session is not pointed at
/// again for the window's life.
class InterruptedSessionBar final : public NoticeFrame
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(InterruptedSessionBar)
public:
    explicit InterruptedSessionBar(QWidget *parent = nullptr);

    /// Points at the newest of \a sessions that was interrupted, except \a open (sessions the
    /// window has open) and the dismissed ones; hides when there is none.
    void showNewest(const QList<AgentCore::SessionInfo> &sessions, const QStringList &open);
    QString sessionPath() const { return m_path; }
    QString text() const; ///< as plain text

signals:
    /// The user asked to open the session \a path.
    void openRequested(const QString &path);

private:
    QLabel *m_text = nullptr;
    QPushButton *m_open = nullptr;
    QPushButton *m_dismiss = nullptr;
    QString m_path;
    QSet<QString> m_dismissed;
};

} // namespace Ui
