#pragma once

#include <QDBusConnection>
#include <QHash>
#include <QObject>
#include <QPointer>

#include <optional>

QT_BEGIN_NAMESPACE
class QDBusPendingCallWatcher;
class QSystemTrayIcon;
class QWidget;
QT_END_NAMESPACE

namespace AgentCore {
struct AgentEvent;
struct PermissionRequest;
} // namespace AgentCore

namespace Ui {

class AgentSession;

/// Tells the user, while the window is not active, that a session waits for an approval (a
/// review opened) or that its task finished or failed: a desktop notification and the
/// taskbar's urgency hint (QApplication::alert). Clicking the notification brings the window
/// up and asks for that session (activated()).
///
/// Notifications go to the freedesktop service org.freedesktop.Notifications on \a bus
/// (Notify with the "default" action; one notification per session, replaced rather than
/// piled up); where no service answers, to QSystemTrayIcon::showMessage; where there is no
/// tray either, nowhere, silently. Never blocks: every D-Bus call is asynchronous. UI thread.
class DesktopNotifier final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DesktopNotifier)
public:
    enum class Kind {
        Approval, ///< a review waits
        Finished, ///< a task finished or failed
    };
    Q_ENUM(Kind)
    /// Where the last notification went.
    enum class Backend { None, DBus, Tray };
    Q_ENUM(Backend)

    /// \a window: whose activity is watched and who is raised on a click (also the parent).
    explicit DesktopNotifier(QWidget *window,
                             const QDBusConnection &bus = QDBusConnection::sessionBus());
    ~DesktopNotifier() override;

    /// Turns a kind of notification (and its urgency hint) on or off; both are on at first.
    void setEnabled(Kind kind, bool enabled);
    bool isEnabled(Kind kind) const;

    /// Follows \a session's reviews and runs until it is destroyed.
    void watch(AgentSession *session);

    /// Shows \a summary and \a body (one line each, capped) for the session whose file is
    /// \a sessionPath, unless the window is active or \a kind is off. True when it was shown
    /// (or handed to the notification service).
    bool notify(Kind kind, const QString &sessionPath, const QString &summary, const QString &body);

    /// How many notifications were handed on (to D-Bus, the tray, or dropped for want of
    /// both) since the start: what the window decided, whatever the backend did with it.
    int requestedCount() const { return m_requested; }
    Backend lastBackend() const { return m_lastBackend; }

    /// The window, or a dialog of it, has the focus: the user is looking.
    bool isWindowActive() const;

    /// "Approve: Bash `npm test`", "Approve: Edit src/main.cpp", ...: one line, capped, with
    /// what looks like a secret (KEY=..., a bearer token, a password in a URL) masked; a
    /// subagent's call says so: "... (asked by subagent explore: Find the parser)".
    static QString approvalText(const AgentCore::PermissionRequest &request);
    /// "Finished: <task>" or "Failed: <task> (<the error>)" for a run's agent_end; empty for a
    /// run the user stopped.
    static QString finishedText(const AgentCore::AgentEvent &agentEnd);
    /// The session's name as the sessions list shows it: its title, else its first task.
    static QString sessionName(const AgentSession *session);
    /// The first line of \a text, simplified, at most \a maxLength characters ("…" at the cut).
    static QString oneLine(const QString &text, int maxLength);
    static QString maskSecrets(QString text);

signals:
    /// The user clicked the notification of the session whose file is \a sessionPath; the
    /// window has been raised and activated already.
    void activated(const QString &sessionPath);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private Q_SLOTS:
    // The service's signals (QDBusConnection::connect takes slots by name).
    void onActionInvoked(uint id, const QString &action);
    void onActivationToken(uint id, const QString &token);
    void onNotificationClosed(uint id, uint reason);

private:
    static QString approvalWhat(const AgentCore::PermissionRequest &request);
    struct Pending
    {
        QString summary;
        QString body;
    };
    void sendToService(const QString &sessionPath, const QString &summary, const QString &body);
    void showInTray(const QString &sessionPath, const QString &summary, const QString &body);
    void raiseWindow();
    /// The session whose notification has the service's \a id.
    std::optional<QString> sessionOf(uint id) const;

    QPointer<QWidget> m_window;
    QDBusConnection m_bus;
    bool m_approvals = true;
    bool m_finished = true;
    int m_requested = 0;
    Backend m_lastBackend = Backend::None;
    QHash<QString, uint> m_idBySession; ///< the service's id of each session's notification
    /// Sessions whose Notify has not been answered yet (its id is not known), with what came
    /// for them meanwhile: sent, replacing, once the id is known.
    QHash<QString, std::optional<Pending>> m_waitingForId;
    QString m_activationToken; ///< the last ActivationToken, for the next ActionInvoked
    QSystemTrayIcon *m_tray = nullptr;
    QString m_traySession; ///< whose message the tray shows
};

} // namespace Ui
