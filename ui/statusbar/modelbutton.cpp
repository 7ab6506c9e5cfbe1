#include "modelbutton.h"

#include <ai/modelcatalog.h>

#include <QMenu>
#include <QStyleOptionToolButton>
#include <QStylePainter>

#include <algorithm>

namespace Ui {

namespace {

// The same endpoint and model, whatever the thinking level: one menu entry.
bool sameModel(const ModelSelection &a, const ModelSelection &b)
{
    return a.sameModelAs(b);
}

} // namespace

ModelButton::ModelButton(QWidget *parent)
    : QToolButton(parent)
    , m_menu(new QMenu(this))
{
    setObjectName(QStringLiteral("modelButton"));
    setPopupMode(QToolButton::InstantPopup);
    setToolButtonStyle(Qt::ToolButtonTextOnly);
    setAutoRaise(true);
    setFocusPolicy(Qt::TabFocus); // reachable by Tab; a click leaves the composer focused
    m_menu->setObjectName(QStringLiteral("modelMenu"));
    setMenu(m_menu);
    // Built when shown as well, so that a choice the owner turned down is not left checked.
    connect(m_menu, &QMenu::aboutToShow, this, &ModelButton::rebuildMenu);
    rebuildMenu();
    updateToolTip();
}

ModelButton::~ModelButton() = default;

void ModelButton::setLabel(const QString &label, const QString &problem)
{
    m_label = label;
    constexpr int maxCharacters = 36;
    const int room = fontMetrics().averageCharWidth() * maxCharacters;
    // '&' would underline the next letter.
    setText(fontMetrics()
                .elidedText(label, Qt::ElideMiddle, room)
                .replace(QLatin1Char('&'), QLatin1String("&&")));
    m_problem = problem;
    // Only the one role is set, so the rest follows the window's palette.
    QPalette colours;
    if (!problem.isEmpty())
        colours.setColor(QPalette::ButtonText, palette().color(QPalette::Link));
    setPalette(colours);
    updateToolTip();
}

void ModelButton::setSelection(const std::optional<ModelSelection> &current,
                               const QList<ModelSelection> &recent)
{
    m_current = current;
    m_recent = recent;
    rebuildMenu();
}

void ModelButton::setDemo(bool demo)
{
    m_demo = demo;
    rebuildMenu();
}

void ModelButton::setSwitchingBlocked(bool blocked)
{
    m_blocked = blocked;
    setEnabled(!blocked);
    updateToolTip();
}

void ModelButton::rebuildMenu()
{
    // The owner may answer a choice with setSelection() from within the action's triggered():
    // the old actions go later, not under QMenu's feet.
    const QList<QAction *> old = m_menu->actions();
    for (QAction *action : old) {
        m_menu->removeAction(action);
        action->deleteLater();
    }
    QList<ModelSelection> shown;
    if (m_current) {
        const AgentCore::ProviderConfig config = m_current->providerConfig({});
        QStringList models = AgentCore::suggestedModels(config.api, config.provider);
        if (!m_current->model.isEmpty() && !models.contains(m_current->model))
            models.prepend(m_current->model);
        m_menu->addSection(m_current->endpointLabel());
        for (const QString &model : std::as_const(models)) {
            ModelSelection selection = *m_current;
            selection.model = model;
            addModelAction(model, selection);
            shown.append(selection);
        }
    }

    bool recentSection = false;
    for (const ModelSelection &selection : std::as_const(m_recent)) {
        const auto alreadyShown = [&](const ModelSelection &other) {
            return sameModel(selection, other);
        };
        if (selection.model.isEmpty() || std::any_of(shown.cbegin(), shown.cend(), alreadyShown))
            continue;
        if (!recentSection) {
            m_menu->addSection(tr("Recently used"));
            recentSection = true;
        }
        addModelAction(selection.label(), selection);
        shown.append(selection);
    }

    m_menu->addSeparator();
    addModelAction(tr("Demo (offline)"), std::nullopt);
    m_menu->addSeparator();
    QAction *settings = m_menu->addAction(tr("Settings…"));
    settings->setObjectName(QStringLiteral("modelSettings"));
    settings->setToolTip(tr("Providers, API keys and the default model"));
    connect(settings, &QAction::triggered, this, &ModelButton::settingsRequested);
}

void ModelButton::addModelAction(const QString &text, const std::optional<ModelSelection> &selection)
{
    QAction *action = m_menu->addAction(text);
    // Only the entry in use is checkable: a column of empty boxes would read as options.
    const bool current = selection && m_current ? sameModel(*selection, *m_current)
                                                : !selection && !m_current && m_demo;
    action->setCheckable(current);
    action->setChecked(current);
    if (!selection)
        action->setToolTip(tr("A scripted model that needs no key and no network"));
    connect(action, &QAction::triggered, this, [this, selection] {
        emit selectionChosen(selection);
    });
}

QSize ModelButton::sizeHint() const
{
    const QSize size = QToolButton::sizeHint();
    return {size.width() + indicatorWidth(), size.height()};
}

QSize ModelButton::minimumSizeHint() const
{
    return sizeHint();
}

// The style draws an instant popup's arrow in the corner, over the end of the text: draw the
// label and a combo-like arrow side by side instead.
void ModelButton::paintEvent(QPaintEvent *)
{
    QStylePainter painter(this);
    QStyleOptionToolButton option;
    initStyleOption(&option);
    option.features &= ~QStyleOptionToolButton::HasMenu;
    const bool raised = !autoRaise()
                        || (option.state & (QStyle::State_MouseOver | QStyle::State_Sunken));
    if (raised && isEnabled()) {
        if (option.state & QStyle::State_MouseOver)
            option.state |= QStyle::State_Raised;
        painter.drawPrimitive(QStyle::PE_PanelButtonTool, option);
    }

    const int indicator = indicatorWidth();
    QStyleOptionToolButton label = option;
    label.rect = option.rect.adjusted(0, 0, -indicator, 0);
    painter.drawControl(QStyle::CE_ToolButtonLabel, label);

    QStyleOption arrow = option;
    arrow.rect = QRect(option.rect.right() - indicator,
                       option.rect.top(),
                       indicator,
                       option.rect.height());
    painter.drawPrimitive(QStyle::PE_IndicatorArrowDown, arrow);
}

int ModelButton::indicatorWidth() const
{
    return style()->pixelMetric(QStyle::PM_MenuButtonIndicator, nullptr, this);
}

void ModelButton::updateToolTip()
{
    if (m_blocked) {
        setToolTip(tr("The model can be switched between turns: wait until the agent is done, "
                      "or stop it."));
    } else if (!m_problem.isEmpty()) {
        setToolTip(m_problem);
    } else {
        // Its whole label first: the button may show it cut.
        setToolTip(m_label + QLatin1Char('\n')
                   + tr("The model the agent talks to. Click to switch."));
    }
}

} // namespace Ui

#include "moc_modelbutton.cpp"
