#pragma once

#include "common/noticeframe.h"

QT_BEGIN_NAMESPACE
class QLabel;
class QPushButton;
QT_END_NAMESPACE

namespace Ui {

/// The bar above the window's content that says, once, that Bash commands run without the
/// sandbox (or are refused, when it is required) because bubblewrap cannot run here: why,
/// and what to do (install bubblewrap, allow unprivileged user namespaces, or make the
/// sandbox required), from AgentCore::SandboxNotice. A status-bar message would be gone
/// before anyone read it; this stays until dismissed, and once dismissed it does not come
/// back for the window's life (a new conversation says the same thing again).
class SandboxNoticeBar final : public NoticeFrame
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SandboxNoticeBar)
public:
    explicit SandboxNoticeBar(QWidget *parent = nullptr);

    /// Shows \a message, unless the user dismissed the bar already.
    void showNotice(const QString &message);
    QString text() const; ///< the message, as plain text
    bool dismissed() const { return m_dismissed; }

signals:
    void settingsRequested();

private:
    QLabel *m_text = nullptr;
    QPushButton *m_settings = nullptr;
    QPushButton *m_dismiss = nullptr;
    QString m_message;
    bool m_dismissed = false;
};

} // namespace Ui
