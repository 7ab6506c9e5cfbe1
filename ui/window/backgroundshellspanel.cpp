#include "backgroundshellspanel.h"

#include <common/shortcuts.h>

#include <tools/backgroundshells.h>

#include <QAction>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QTimer>
#include <QVBoxLayout>

namespace Ui {

namespace {
constexpr int ShellIdRole = Qt::UserRole + 1;
constexpr int RunningRole = Qt::UserRole + 2;
constexpr int refreshMs = 150; // changed() comes at most every 100 ms per command
} // namespace

BackgroundShellsPanel::BackgroundShellsPanel(QWidget *parent)
    : QWidget(parent)
    , m_refresh(new QTimer(this))
    , m_title(new QLabel(tr("Background commands"), this))
    , m_list(new QListWidget(this))
    , m_output(new QPlainTextEdit(this))
    , m_stop(new QPushButton(tr("&Stop"), this))
{
    setObjectName(QStringLiteral("backgroundShellsPanel"));
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    m_title->setFont(titleFont);

    m_list->setObjectName(QStringLiteral("backgroundShellsList"));
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    m_list->setTextElideMode(Qt::ElideRight);
    m_list->setUniformItemSizes(true);
    // Elided, the whole command line in the row's tooltip: the side panel is narrow.
    m_list->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // A few rows; the output below takes the rest.
    m_list->setMaximumHeight(m_list->fontMetrics().height() * 5 + 2 * m_list->frameWidth() + 8);
    m_list->setAccessibleName(tr("Background commands"));
    connect(m_list, &QListWidget::currentRowChanged, this, [this] { showSelected(); });
    auto stopAction = new QAction(tr("Stop"), m_list);
    stopAction->setObjectName(QStringLiteral("stopBackgroundShellAction"));
    Shortcuts::apply(stopAction, Shortcut::StopBackgroundCommand);
    stopAction->setShortcutContext(Qt::WidgetShortcut);
    connect(stopAction, &QAction::triggered, this, [this] { stop(m_list->currentRow()); });
    m_list->addAction(stopAction);
    m_list->setContextMenuPolicy(Qt::ActionsContextMenu);

    m_output->setObjectName(QStringLiteral("backgroundShellOutput"));
    m_output->setReadOnly(true);
    m_output->setLineWrapMode(
        QPlainTextEdit::WidgetWidth); // no sideways scrolling in a narrow panel
    m_output->setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    m_output->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_output->setAccessibleName(tr("Output of the selected background command"));
    m_output->setPlaceholderText(tr("(no output yet)"));
    // Read-only, yet reachable with Tab, so its lines can be scrolled from the keyboard.
    m_output->setFocusPolicy(Qt::StrongFocus);
    m_output->setTabChangesFocus(true);

    m_stop->setObjectName(QStringLiteral("stopBackgroundShellButton"));
    m_stop->setToolTip(tr("Stop the selected command and everything it started (Del in the list)"));
    m_stop->setEnabled(false);
    connect(m_stop, &QPushButton::clicked, this, [this] { stop(m_list->currentRow()); });

    auto buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(m_stop);

    auto layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6); // as the other side panels
    layout->setSpacing(4);
    layout->addWidget(m_title);
    layout->addWidget(m_list);
    layout->addWidget(m_output, 1);
    layout->addLayout(buttons);

    m_refresh->setSingleShot(true);
    m_refresh->setInterval(refreshMs);
    connect(m_refresh, &QTimer::timeout, this, &BackgroundShellsPanel::refresh);
    setVisible(false);
}

BackgroundShellsPanel::~BackgroundShellsPanel() = default;

QSize BackgroundShellsPanel::sizeHint() const
{
    // Shown beside the follow-ups and the changed files, which keep their room.
    return {QWidget::sizeHint().width(), fontMetrics().height() * 14};
}

void BackgroundShellsPanel::setShells(std::shared_ptr<AgentCore::BackgroundShells> shells)
{
    if (shells == m_shells)
        return;
    disconnect(m_changed);
    m_shells = std::move(shells);
    if (m_shells) {
        // Emitted on the commands' own thread: queued here, gathered by the timer.
        m_changed = connect(
            m_shells.get(),
            &AgentCore::BackgroundShells::changed,
            this,
            [this] {
                if (!m_refresh->isActive())
                    m_refresh->start();
            },
            Qt::QueuedConnection);
    }
    m_list->clear();
    refresh();
}

void BackgroundShellsPanel::refresh()
{
    const QList<AgentCore::BackgroundShell> shells = m_shells ? m_shells->shells()
                                                              : QList<AgentCore::BackgroundShell>();
    setVisible(!shells.isEmpty());
    const QString current = m_list->currentItem()
                                ? m_list->currentItem()->data(ShellIdRole).toString()
                                : QString();
    const QSignalBlocker blocker(m_list);
    while (m_list->count() > shells.size())
        delete m_list->takeItem(m_list->count() - 1);
    int select = -1;
    for (int row = 0; row < shells.size(); ++row) {
        const AgentCore::BackgroundShell &shell = shells[row];
        QListWidgetItem *item = m_list->item(row);
        if (!item)
            item = new QListWidgetItem(m_list);
        //: A background command in the side panel: its state, then its command line
        item->setText(tr("%1   %2").arg(shell.stateText(), shell.command.simplified()));
        item->setData(ShellIdRole, shell.id);
        item->setData(RunningRole, shell.running);
        QString tip = shell.command;
        if (!shell.description.isEmpty())
            tip = shell.description + QLatin1Char('\n') + tip;
        tip += QLatin1Char('\n') + tr("%1, process %2").arg(shell.id).arg(shell.pid);
        if (!shell.logPath.isEmpty())
            tip += QLatin1Char('\n') + tr("Whole output: %1").arg(shell.logPath);
        item->setToolTip(tip);
        if (shell.id == current)
            select = row;
    }
    // The newest one unless the user chose another.
    if (select < 0 && !shells.isEmpty())
        select = int(shells.size()) - 1;
    m_list->setCurrentRow(select);
    showSelected();
}

void BackgroundShellsPanel::showSelected()
{
    const QListWidgetItem *item = m_list->currentItem();
    m_stop->setEnabled(item && item->data(RunningRole).toBool());
    const QString text = item && m_shells ? QString::fromUtf8(
                             m_shells->tail(item->data(ShellIdRole).toString(), shownBytes))
                                          : QString();
    if (text == m_output->toPlainText())
        return;
    QScrollBar *bar = m_output->verticalScrollBar();
    const bool atEnd = bar->value() == bar->maximum();
    m_output->setPlainText(text);
    if (atEnd)
        bar->setValue(bar->maximum()); // follows the output unless the user scrolled up
}

QStringList BackgroundShellsPanel::rows() const
{
    QStringList rows;
    for (int row = 0; row < m_list->count(); ++row)
        rows.append(m_list->item(row)->text());
    return rows;
}

QString BackgroundShellsPanel::shownOutput() const
{
    return m_output->toPlainText();
}

bool BackgroundShellsPanel::stop(int row)
{
    const QListWidgetItem *item = m_list->item(row);
    if (!item || !m_shells)
        return false;
    // Without waiting: the row shows "stopped" once the command has ended (changed()).
    return m_shells->requestStop(item->data(ShellIdRole).toString());
}

} // namespace Ui

#include "moc_backgroundshellspanel.cpp"
