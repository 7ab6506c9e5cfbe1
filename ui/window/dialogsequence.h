#pragma once

#include <QList>
#include <QObject>
#include <QPointer>

class QDialog;

namespace Ui {

/// The window's questions that come by themselves (a repository's trust of its settings and of
/// its .mcp.json, a resumed session's rules and bypass): shown one at a time, window-modal, in the order
/// they came. Two open at once put the second behind the main window (and answering one left
/// the other unseen). Owns nothing: each dialog's owner may reject or delete it while it waits,
/// and it is skipped. UI thread.
class DialogSequence final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DialogSequence)
public:
    explicit DialogSequence(QObject *parent = nullptr);

    /// Opens \a dialog (QDialog::open) now, or once the ones before it are answered.
    void open(QDialog *dialog);
    /// The dialog shown, or null.
    QDialog *current() const { return m_current; }
    /// How many wait behind current().
    qsizetype waiting() const { return m_waiting.size(); }

private:
    void finished(QDialog *dialog);
    void openNext();

    QPointer<QDialog> m_current;
    QList<QPointer<QDialog>> m_waiting;
};

} // namespace Ui
