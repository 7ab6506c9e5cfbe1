#pragma once

#include <QObject>

QT_FORWARD_DECLARE_CLASS(QSocketNotifier)

namespace App {

/// Turns SIGINT and SIGTERM into a Qt signal on the thread that created it. The signal handler
/// only writes the signal number to a pipe (the self-pipe trick: nothing else is safe inside a
/// handler); a QSocketNotifier reads it in the event loop. Each handler is reset on delivery,
/// so a second Ctrl-C ends the process at once if the first one did not.
/// One instance at a time; the previous handlers are restored when it is destroyed.
class InterruptWatcher final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(InterruptWatcher)
public:
    explicit InterruptWatcher(QObject *parent = nullptr);
    ~InterruptWatcher() override;

    /// False when the pipe or the handlers could not be set up (signals then act as usual).
    bool isActive() const { return m_notifier != nullptr; }

signals:
    void interrupted(int signalNumber);

private:
    void readPipe();

    QSocketNotifier *m_notifier = nullptr;
};

} // namespace App
