#include "dialogsequence.h"

#include <QDialog>

namespace Ui {

DialogSequence::DialogSequence(QObject *parent)
    : QObject(parent)
{}

void DialogSequence::open(QDialog *dialog)
{
    // finished also comes when the owner rejects one that waits (its session closed).
    connect(dialog, &QDialog::finished, this, [this, dialog] { finished(dialog); });
    connect(dialog, &QObject::destroyed, this, [this, dialog] { finished(dialog); });
    m_waiting.append(dialog);
    if (!m_current)
        openNext();
}

void DialogSequence::finished(QDialog *dialog)
{
    // Compared as addresses only: \a dialog may be being destroyed.
    m_waiting.removeIf([dialog](const QPointer<QDialog> &waiting) {
        return waiting.isNull() || waiting.data() == dialog;
    });
    if (m_current.isNull() || m_current.data() == dialog) {
        m_current = nullptr;
        openNext();
    }
}

void DialogSequence::openNext()
{
    while (!m_current && !m_waiting.isEmpty()) {
        QDialog *next = m_waiting.takeFirst();
        if (!next)
            continue;
        m_current = next;
        next->open();
    }
}

} // namespace Ui

#include "moc_dialogsequence.cpp"
