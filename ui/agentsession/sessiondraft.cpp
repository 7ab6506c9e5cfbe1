#include "sessiondraft.h"

#include <utility>

namespace Ui {

namespace {
// How long the draft waits after a keystroke before it is written.
constexpr int draftDelayMs = 1000;
} // namespace

SessionDraft::SessionDraft(std::function<void(const QString &)> write)
    : m_write(std::move(write))
{
    m_timer.setSingleShot(true);
    m_timer.setInterval(draftDelayMs);
    QObject::connect(&m_timer, &QTimer::timeout, [this] { this->write(); });
}

void SessionDraft::flush()
{
    if (m_timer.isActive())
        write();
}

void SessionDraft::set(const QString &text)
{
    if (text == m_text)
        return;
    m_text = text;
    if (text.isEmpty())
        write();
    else
        m_timer.start();
}

void SessionDraft::write()
{
    m_timer.stop();
    m_write(m_text);
}

} // namespace Ui
