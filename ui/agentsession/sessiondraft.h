#pragma once

#include <QString>
#include <QTimer>

#include <functional>

namespace Ui {

/// The message box's text kept with a session: written a second after the last change, at once
/// when it was cleared (so a sent task does not come back as a draft), or by flush().
class SessionDraft
{
    Q_DISABLE_COPY_MOVE(SessionDraft)
public:
    /// \a write keeps the text (in the session's state); called on this thread.
    explicit SessionDraft(std::function<void(const QString &)> write);

    QString text() const { return m_text; }
    /// The draft as the session was opened with it: not written again.
    void restore(const QString &text) { m_text = text; }
    void set(const QString &text);
    /// Writes a change not written yet (the session ends).
    void flush();

private:
    void write();

    std::function<void(const QString &)> m_write;
    QString m_text;
    QTimer m_timer;
};

} // namespace Ui
