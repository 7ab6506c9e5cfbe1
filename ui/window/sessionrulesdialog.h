#pragma once

#include <QDialog>
#include <QStringList>

class QListWidget;
class QPushButton;

namespace Ui {

/// Asks whether a resumed session's "Always allow in this session" rules apply again. They come
/// from the session file, which anyone or any tool may have written, so AgentDesk applies
/// none of them until the user keeps them (accept()); Drop (reject()) is the default answer,
/// the one Enter, Space and Esc give.
class SessionRulesDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SessionRulesDialog)
public:
    /// \a session: the session's title, for the question; \a rules: "allow Bash", ...
    SessionRulesDialog(const QString &session, const QStringList &rules, QWidget *parent = nullptr);

    QStringList rules() const { return m_rules; }

private:
    QStringList m_rules;
    QListWidget *m_list = nullptr;
    QPushButton *m_keep = nullptr;
    QPushButton *m_drop = nullptr;
};

} // namespace Ui
