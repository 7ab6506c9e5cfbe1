#include "desktopnotifier.h"

#include "agentsession/agentsession.h"

#include <loop/agenttypes.h>
#include <permissions/permissionbroker.h>
#include <permissions/permissionrequest.h>

#include <QApplication>
#include <QDBusMessage>
#include <QDBusPendingCallWatcher>
#include <QDBusPendingReply>
#include <QEvent>
#include <QGuiApplication>
#include <QIcon>
#include <QRegularExpression>
#include <QSystemTrayIcon>
#include <QWidget>

namespace Ui {

namespace {

const QLatin1String service("org.freedesktop.Notifications");
const QLatin1String objectPath("/org/freedesktop/Notifications");
const QLatin1String interfaceName("org.freedesktop.Notifications");
// The name the .desktop file is installed under (installer/CMakeLists.txt) and the icon's.
const QLatin1String appId("io.github.agentdesk.AgentDesk");
const QLatin1String defaultAction("default");

// A notification is a glance: a line of the session's name, a line of what waits.
constexpr int summaryLength = 80;
constexpr int bodyLength = 160;
constexpr int commandLength = 60;
constexpr int taskLength = 80;
constexpr int errorLength = 60;
constexpr int trayMessageMs = 10'000;

QString backticked(const QString &command)
{
    return QLatin1Char('`')
           + DesktopNotifier::oneLine(DesktopNotifier::maskSecrets(command), commandLength)
           + QLatin1Char('`');
}

} // namespace

DesktopNotifier::DesktopNotifier(QWidget *window, const QDBusConnection &bus)
    : QObject(window)
    , m_window(window)
    , m_bus(bus)
{
    if (m_window)
        m_window->installEventFilter(this);
    if (m_bus.isConnected()) {
        // Any sender: the service's unique name changes when it restarts.
        m_bus.connect(QString(),
                      objectPath,
                      interfaceName,
                      QStringLiteral("ActionInvoked"),
                      this,
                      SLOT(onActionInvoked(uint, QString)));
        m_bus.connect(QString(),
                      objectPath,
                      interfaceName,
                      QStringLiteral("ActivationToken"),
                      this,
                      SLOT(onActivationToken(uint, QString)));
        m_bus.connect(QString(),
                      objectPath,
                      interfaceName,
                      QStringLiteral("NotificationClosed"),
                      this,
                      SLOT(onNotificationClosed(uint, uint)));
    }
}

DesktopNotifier::~DesktopNotifier() = default;

void DesktopNotifier::setEnabled(Kind kind, bool enabled)
{
    (kind == Kind::Approval ? m_approvals : m_finished) = enabled;
}

bool DesktopNotifier::isEnabled(Kind kind) const
{
    return kind == Kind::Approval ? m_approvals : m_finished;
}

void DesktopNotifier::watch(AgentSession *session)
{
    if (!session)
        return;
    // Both senders belong to the session: the connections end with it.
    connect(session->broker(),
            &AgentCore::PermissionBroker::requested,
            this,
            [this, session](const AgentCore::PermissionRequest &request) {
                notify(Kind::Approval,
                       session->sessionPath(),
                       sessionName(session),
                       approvalText(request));
            });
    connect(session,
            &AgentSession::eventEmitted,
            this,
            [this, session](const AgentCore::AgentEvent &event) {
                if (event.type != AgentCore::AgentEvent::Type::AgentEnd)
                    return;
                const QString text = finishedText(event);
                if (!text.isEmpty())
                    notify(Kind::Finished, session->sessionPath(), sessionName(session), text);
            });
}

bool DesktopNotifier::isWindowActive() const
{
    if (!m_window || m_window->isMinimized())
        return false;
    // A dialog of the window (settings, a file's diff) counts: the user is in AgentDesk.
    for (const QWidget *widget = QApplication::activeWindow(); widget;
         widget = widget->parentWidget()) {
        if (widget == m_window)
            return true;
    }
    return false;
}

bool DesktopNotifier::notify(Kind kind,
                             const QString &sessionPath,
                             const QString &summary,
                             const QString &body)
{
    if (!isEnabled(kind) || !m_window || isWindowActive())
        return false;
    ++m_requested;
    QApplication::alert(m_window);
    const QString shortSummary = oneLine(summary, summaryLength);
    const QString shortBody = oneLine(body, bodyLength);
    if (m_bus.isConnected())
        sendToService(sessionPath, shortSummary, shortBody);
    else
        showInTray(sessionPath, shortSummary, shortBody);
    return true;
}

void DesktopNotifier::sendToService(const QString &sessionPath,
                                    const QString &summary,
                                    const QString &body)
{
    // The session's previous notification is replaced, not piled up; while its id is still
    // on its way, the newest text waits for it.
    if (m_waitingForId.contains(sessionPath)) {
        m_waitingForId[sessionPath] = Pending{summary, body};
        return;
    }
    m_waitingForId.insert(sessionPath, std::nullopt);

    QString desktopEntry = QGuiApplication::desktopFileName();
    if (desktopEntry.isEmpty())
        desktopEntry = appId;
    QVariantMap hints;
    hints.insert(QStringLiteral("desktop-entry"), desktopEntry);
    hints.insert(QStringLiteral("urgency"), QVariant::fromValue(uchar(1))); // normal
    QDBusMessage call = QDBusMessage::createMethodCall(service,
                                                       objectPath,
                                                       interfaceName,
                                                       QStringLiteral("Notify"));
    // Bodies may hold markup (most services render it): a command's < and & stay text.
    call << QStringLiteral("AgentDesk") << m_idBySession.value(sessionPath, 0u) << QString(appId)
         << summary << body.toHtmlEscaped() << QStringList{defaultAction, tr("Open")} << hints
         << int(-1);
    auto watcher = new QDBusPendingCallWatcher(m_bus.asyncCall(call), this);
    connect(watcher,
            &QDBusPendingCallWatcher::finished,
            this,
            [this, watcher, sessionPath, summary, body] {
                watcher->deleteLater();
                const std::optional<Pending> next = m_waitingForId.take(sessionPath);
                const QDBusPendingReply<uint> reply = *watcher;
                if (reply.isError()) {
                    // No notification service (or a broken one): the tray, if any.
                    m_idBySession.remove(sessionPath);
                    const Pending shown = next.value_or(Pending{summary, body});
                    showInTray(sessionPath, shown.summary, shown.body);
                    return;
                }
                m_lastBackend = Backend::DBus;
                m_idBySession.insert(sessionPath, reply.value());
                if (next)
                    sendToService(sessionPath, next->summary, next->body);
            });
}

void DesktopNotifier::showInTray(const QString &sessionPath,
                                 const QString &summary,
                                 const QString &body)
{
    if (!QSystemTrayIcon::isSystemTrayAvailable() || !QSystemTrayIcon::supportsMessages()) {
        m_lastBackend = Backend::None; // nowhere to say it; the urgency hint was given
        return;
    }
    if (!m_tray) {
        m_tray = new QSystemTrayIcon(this);
        QIcon icon = m_window ? m_window->windowIcon() : QIcon();
        m_tray->setIcon(icon.isNull() ? QApplication::windowIcon() : icon);
        m_tray->setToolTip(QStringLiteral("AgentDesk"));
        connect(m_tray, &QSystemTrayIcon::messageClicked, this, [this] {
            m_tray->hide();
            raiseWindow();
            emit activated(m_traySession);
        });
        connect(m_tray, &QSystemTrayIcon::activated, this, [this] {
            m_tray->hide();
            raiseWindow();
            emit activated(m_traySession);
        });
    }
    m_traySession = sessionPath;
    m_tray->show(); // a message needs a visible icon; hidden again when the window is active
    m_tray->showMessage(summary, body, QSystemTrayIcon::Information, trayMessageMs);
    m_lastBackend = Backend::Tray;
}

void DesktopNotifier::onActionInvoked(uint id, const QString &action)
{
    if (action != defaultAction)
        return;
    const std::optional<QString> sessionPath = sessionOf(id);
    if (!sessionPath)
        return; // another program's notification, or one closed already
    raiseWindow();
    emit activated(*sessionPath);
}

void DesktopNotifier::onActivationToken(uint id, const QString &token)
{
    // Sent just before ActionInvoked (notification spec 1.2): on Wayland only a window given
    // this token may take the focus.
    if (sessionOf(id))
        m_activationToken = token;
}

void DesktopNotifier::onNotificationClosed(uint id, uint reason)
{
    Q_UNUSED(reason)
    // Gone: the next notification of that session is a new one.
    for (auto it = m_idBySession.begin(); it != m_idBySession.end(); ++it) {
        if (it.value() == id) {
            m_idBySession.erase(it);
            return;
        }
    }
}

std::optional<QString> DesktopNotifier::sessionOf(uint id) const
{
    for (auto it = m_idBySession.cbegin(); it != m_idBySession.cend(); ++it) {
        if (it.value() == id)
            return it.key();
    }
    return std::nullopt;
}

void DesktopNotifier::raiseWindow()
{
    if (!m_window)
        return;
    if (!m_activationToken.isEmpty()) {
        // Qt's Wayland plugin takes the token from here when the window asks for activation.
        qputenv("XDG_ACTIVATION_TOKEN", m_activationToken.toUtf8());
        m_activationToken.clear();
    }
    if (m_window->isMinimized())
        m_window->setWindowState(m_window->windowState() & ~Qt::WindowMinimized);
    m_window->show();
    m_window->raise();
    m_window->activateWindow();
}

bool DesktopNotifier::eventFilter(QObject *watched, QEvent *event)
{
    // Back in the window: the tray icon that only carried a message goes.
    if (watched == m_window && event->type() == QEvent::ActivationChange && m_tray
        && isWindowActive()) {
        m_tray->hide();
    }
    return QObject::eventFilter(watched, event);
}

QString DesktopNotifier::oneLine(const QString &text, int maxLength)
{
    const QString trimmed = text.trimmed();
    const qsizetype end = trimmed.indexOf(QLatin1Char('\n'));
    QString line = (end < 0 ? trimmed : trimmed.left(end)).simplified();
    const bool more = end >= 0;
    const QChar ellipsis(0x2026);
    if (line.size() > maxLength)
        line = line.left(std::max(0, maxLength - 1)).trimmed() + ellipsis;
    else if (more)
        line += line.size() + 2 > maxLength ? QString(ellipsis) : QStringLiteral(" ") + ellipsis;
    return line;
}

QString DesktopNotifier::maskSecrets(QString text)
{
    const QString hidden(QChar(0x2026));
    // NAME=value where the name says what it is: OPENAI_API_KEY=..., DB_PASSWORD=..., TOKEN=...
    static const QRegularExpression
        assignment(QStringLiteral(
                       "\\b([A-Za-z_][A-Za-z0-9_]*(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|AUTH)"
                       "[A-Za-z0-9_]*)=(\"[^\"]*\"|'[^']*'|\\S+)"),
                   QRegularExpression::CaseInsensitiveOption);
    text.replace(assignment, QStringLiteral("\\1=") + hidden);
    // --password x, --token=x, --api-key x
    static const QRegularExpression
        option(QStringLiteral("(--(?:password|passwd|token|api-key|apikey|secret)(?:=|\\s+))\\S+"),
               QRegularExpression::CaseInsensitiveOption);
    text.replace(option, QStringLiteral("\\1") + hidden);
    // Authorization: Bearer x
    static const QRegularExpression scheme(QStringLiteral(
                                               "\\b(bearer|basic|token)\\s+[A-Za-z0-9._~+/=-]{8,}"),
                                           QRegularExpression::CaseInsensitiveOption);
    text.replace(scheme, QStringLiteral("\\1 ") + hidden);
    // https://user:password@host
    static const QRegularExpression userInfo(QStringLiteral("://[^/\\s:@]+:[^/\\s@]+@"));
    text.replace(userInfo, QStringLiteral("://") + hidden + QLatin1Char('@'));
    // Keys by their well-known shapes, wherever they stand.
    static const QRegularExpression known(
        QStringLiteral("\\b(?:(?:sk|pk|rk)-[A-Za-z0-9_-]{12,}|gh[pousr]_[A-Za-z0-9]{20,}"
                       "|github_pat_[A-Za-z0-9_]{20,}|xox[abpr]-[A-Za-z0-9-]{10,}"
                       "|AKIA[0-9A-Z]{16})"));
    text.replace(known, hidden);
    return text;
}

QString DesktopNotifier::approvalText(const AgentCore::PermissionRequest &request)
{
    const QString what = approvalWhat(request);
    // A subagent's call is approved like the agent's own: the user should know who asks.
    if (!request.subagent.isEmpty())
        return tr("%1 (asked by subagent %2)").arg(what, oneLine(request.subagent, commandLength));
    return what;
}

QString DesktopNotifier::approvalWhat(const AgentCore::PermissionRequest &request)
{
    const QString command = request.arguments.value(u"command").toString();
    if (!request.shellWrites.isEmpty()) {
        return tr("Approve: what Bash %1 wrote").arg(backticked(command));
    }
    if (AgentCore::toolKind(request.toolName) == AgentCore::ToolKind::Bash)
        return tr("Approve: Bash %1").arg(backticked(command));
    QString path = !request.displayPath.isEmpty() ? request.displayPath : request.filePath;
    if (path.isEmpty())
        path = request.arguments.value(u"file_path").toString();
    if (!path.isEmpty()) {
        path = oneLine(path, commandLength);
        return request.newFile ? tr("Approve: %1 %2 (new file)").arg(request.toolName, path)
                               : tr("Approve: %1 %2").arg(request.toolName, path);
    }
    return tr("Approve: %1").arg(request.toolName);
}

QString DesktopNotifier::finishedText(const AgentCore::AgentEvent &agentEnd)
{
    using AgentCore::Message;
    using AgentCore::StopReason;
    const Message *last = nullptr;
    const Message *task = nullptr;
    for (const Message &message : agentEnd.newMessages) {
        if (message.isAssistant())
            last = &message;
        else if (message.isUser() && message.origin != AgentCore::MessageOrigin::Steering)
            task = &message; // the latest task: a follow-up run says the follow-up
    }
    const StopReason reason = last ? last->stopReason : StopReason::Stop;
    if (reason == StopReason::Aborted)
        return {}; // the user stopped it: they know
    const QString taskText = task ? oneLine(maskSecrets(task->text()), taskLength) : QString();
    const bool failed = reason == StopReason::Error || reason == StopReason::ContextOverflow
                        || reason == StopReason::Refusal;
    if (!failed)
        return taskText.isEmpty() ? tr("The task finished.") : tr("Finished: %1").arg(taskText);
    QString error = last->errorMessage;
    if (error.isEmpty() && reason == StopReason::Refusal)
        error = last->refusal.isEmpty() ? tr("the model refused") : last->refusal;
    error = oneLine(maskSecrets(error), errorLength);
    if (taskText.isEmpty())
        return tr("The task failed: %1").arg(error);
    return error.isEmpty() ? tr("Failed: %1").arg(taskText)
                           : tr("Failed: %1 (%2)").arg(taskText, error);
}

QString DesktopNotifier::sessionName(const AgentSession *session)
{
    if (!session)
        return {};
    if (!session->title().isEmpty())
        return session->title();
    const QString task = session->firstTask();
    return task.isEmpty() ? tr("New conversation") : oneLine(maskSecrets(task), summaryLength);
}

} // namespace Ui

#include "moc_desktopnotifier.cpp"
