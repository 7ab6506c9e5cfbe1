#pragma once

#include "settings/modelselection.h"

#include <QToolButton>

#include <optional>

QT_BEGIN_NAMESPACE
class QMenu;
QT_END_NAMESPACE

namespace Ui {

/// The status bar's model switch: shows the label of the model the agent talks to, and a menu
/// of the models the current provider offers, the recently used selections, the offline demo
/// and the settings. Choosing only emits a signal: the owner switches and calls setSelection()
/// back. UI thread.
class ModelButton final : public QToolButton
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ModelButton)
public:
    explicit ModelButton(QWidget *parent = nullptr);
    ~ModelButton() override;

    /// \a label is shown as is; a non-empty \a problem (no key, no model) is shown in the link
    /// colour and as the tool tip.
    /// Shown cut in its middle past a few dozen characters (a long model name must not
    /// widen the window), whole in the tooltip.
    void setLabel(const QString &label, const QString &problem = {});
    QString label() const { return m_label; }
    /// \a current nullopt: the offline demo or a model given on the command line (see
    /// setDemo()). \a recent in the order to show them; the current selection and the models
    /// the provider offers anyway are left out.
    void setSelection(const std::optional<ModelSelection> &current,
                      const QList<ModelSelection> &recent);
    std::optional<ModelSelection> selection() const { return m_current; }
    /// Whether the offline demo is in use: its menu entry is checked then.
    void setDemo(bool demo);
    /// While a turn runs the model cannot change: disables the button and says why.
    void setSwitchingBlocked(bool blocked);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    /// nullopt: the offline demo.
    void selectionChosen(const std::optional<Ui::ModelSelection> &selection);
    void settingsRequested();

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    int indicatorWidth() const;
    void rebuildMenu();
    void addModelAction(const QString &text, const std::optional<ModelSelection> &selection);
    void updateToolTip();

    QMenu *m_menu;
    std::optional<ModelSelection> m_current;
    QList<ModelSelection> m_recent;
    QString m_label;
    QString m_problem;
    bool m_blocked = false;
    bool m_demo = false;
};

} // namespace Ui
