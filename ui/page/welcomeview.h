#pragma once

#include <QWidget>

QT_BEGIN_NAMESPACE
class QLabel;
QT_END_NAMESPACE

namespace AgentCore {
struct Repository;
}

namespace Ui {

/// What the window shows before a conversation starts: which repository AgentDesk is on.
class WelcomeView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WelcomeView)
public:
    explicit WelcomeView(QWidget *parent = nullptr);

    void setRepository(const AgentCore::Repository &repository);
    /// Says that the offline demo answers (no model is configured), and how to change that.
    void setDemo(bool demo);

private:
    QLabel *m_name = nullptr;
    QLabel *m_head = nullptr;
    QLabel *m_path = nullptr;
    QLabel *m_hint = nullptr;
    QLabel *m_demo = nullptr;
};

} // namespace Ui
