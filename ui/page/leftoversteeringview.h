#pragma once

#include <ai/types.h>

#include <QPointer>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QLabel;
class QToolButton;
class QVBoxLayout;
QT_END_NAMESPACE

namespace AgentCore {
class Agent;
}

namespace Ui {

/// Above the composer: the steering messages a stopped run did not take
/// (Agent::leftoverSteering), one row each, marked as not sent. Each row offers Send Now (a
/// new task while idle, steering while one runs) and Discard; both are buttons Tab reaches.
/// Nothing of it is sent without one of them. Hidden while there is none.
class LeftoverSteeringView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LeftoverSteeringView)
public:
    explicit LeftoverSteeringView(QWidget *parent = nullptr);
    ~LeftoverSteeringView() override;

    /// Shows \a agent's leftover steering (not owned; may be nullptr).
    void setAgent(AgentCore::Agent *agent);

    /// The messages as shown, top to bottom.
    QStringList texts() const;
    /// Row \a row's buttons, for the page's tab chain and for tests; nullptr when out of range.
    QToolButton *sendButton(int row) const;
    QToolButton *discardButton(int row) const;
    /// Every button, in the order Tab goes through them.
    QList<QWidget *> buttons() const;

signals:
    /// The user sent one (the page shows the conversation).
    void sent();
    /// The rows were rebuilt (the page puts the new buttons in its tab chain).
    void rowsChanged();
    /// The user answered the last row from the keyboard: the focus goes back elsewhere.
    void finished();

private:
    struct Row
    {
        QWidget *widget = nullptr;
        QLabel *label = nullptr;
        QToolButton *send = nullptr;
        QToolButton *discard = nullptr;
    };
    void refresh();
    void answer(int row, bool send);

    QPointer<AgentCore::Agent> m_agent;
    QVBoxLayout *m_rows;
    QList<Row> m_rowWidgets;
    QList<AgentCore::Message> m_shown;
};

} // namespace Ui
