#include "contextdialog.h"

#include <common/background.h>
#include <common/shortcuts.h>

#include <session/sessionpages.h>

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeySequence>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QShortcut>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <cmath>
#include <limits>

namespace Ui {

namespace {

constexpr int sortRole = Qt::UserRole;
constexpr int indexRole = Qt::UserRole + 1; // into ContextSnapshot::items

// Numbers sort as numbers, text as text.
class Row final : public QTreeWidgetItem
{
public:
    using QTreeWidgetItem::QTreeWidgetItem;
    bool operator<(const QTreeWidgetItem &other) const override
    {
        const int column = treeWidget() ? treeWidget()->sortColumn() : 0;
        const QVariant mine = data(column, sortRole);
        const QVariant theirs = other.data(column, sortRole);
        if (mine.isValid() && theirs.isValid())
            return mine.toLongLong() < theirs.toLongLong();
        return text(column).localeAwareCompare(other.text(column)) < 0;
    }
};

QString kindName(ContextItem::Kind kind)
{
    switch (kind) {
    case ContextItem::Kind::SystemPrompt:
        return ContextDialog::tr("System prompt");
    case ContextItem::Kind::Instructions:
        return ContextDialog::tr("Instructions");
    case ContextItem::Kind::Skills:
        return ContextDialog::tr("Skills");
    case ContextItem::Kind::Tool:
        return ContextDialog::tr("Tool definition");
    case ContextItem::Kind::User:
        return ContextDialog::tr("Your message");
    case ContextItem::Kind::Assistant:
        return ContextDialog::tr("Reply");
    case ContextItem::Kind::ToolOutput:
        return ContextDialog::tr("Tool output");
    case ContextItem::Kind::Note:
        return ContextDialog::tr("Note");
    }
    return {};
}

bool isMessage(const ContextItem &item)
{
    return item.messageIndex >= 0;
}

} // namespace

ContextDialog::ContextDialog(QWidget *parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("contextDialog"));
    setWindowTitle(tr("What Fills the Context Window"));

    m_total = new QLabel(this);
    m_total->setObjectName(QStringLiteral("contextTotal"));
    m_total->setTextFormat(Qt::PlainText);
    QFont bold = m_total->font();
    bold.setBold(true);
    m_total->setFont(bold);
    m_bar = new QProgressBar(this);
    m_bar->setObjectName(QStringLiteral("contextBar"));
    m_bar->setTextVisible(false);
    m_bar->setMaximumHeight(10);
    m_note = new QLabel(this);
    m_note->setObjectName(QStringLiteral("contextNote"));
    m_note->setWordWrap(true);
    m_note->setTextFormat(Qt::PlainText);
    m_note->setForegroundRole(QPalette::PlaceholderText);

    m_list = new QTreeWidget(this);
    m_list->setObjectName(QStringLiteral("contextList"));
    m_list->setAccessibleName(tr("Context items"));
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setAlternatingRowColors(true);
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    m_list->setHeaderLabels(
        {tr("Item"), tr("Kind"), tr("Tokens"), tr("Share"), tr("State"), tr("#")});
    m_list->headerItem()->setTextAlignment(TokensColumn, Qt::AlignRight | Qt::AlignVCenter);
    m_list->headerItem()->setTextAlignment(ShareColumn, Qt::AlignRight | Qt::AlignVCenter);
    m_list->headerItem()->setTextAlignment(PositionColumn, Qt::AlignRight | Qt::AlignVCenter);
    m_list->setSortingEnabled(true);
    m_list->sortByColumn(TokensColumn, Qt::DescendingOrder);
    QHeaderView *header = m_list->header();
    header->setStretchLastSection(false);
    header->setSectionResizeMode(ItemColumn, QHeaderView::Stretch);
    for (int column : {KindColumn, TokensColumn, ShareColumn, StateColumn, PositionColumn})
        header->setSectionResizeMode(column, QHeaderView::ResizeToContents);
    connect(m_list, &QTreeWidget::currentItemChanged, this, &ContextDialog::selectionChanged);

    m_previewTitle = new QLabel(this);
    m_previewTitle->setObjectName(QStringLiteral("contextPreviewTitle"));
    m_previewTitle->setTextFormat(Qt::PlainText);
    m_previewTitle->setForegroundRole(QPalette::PlaceholderText);
    m_preview = new QPlainTextEdit(this);
    m_preview->setObjectName(QStringLiteral("contextPreview"));
    m_preview->setAccessibleName(tr("Beginning of the selected item"));
    m_preview->setReadOnly(true);
    m_preview->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_preview->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    auto previewBox = new QWidget(this);
    auto previewLayout = new QVBoxLayout(previewBox);
    previewLayout->setContentsMargins(0, 4, 0, 0);
    previewLayout->setSpacing(2);
    previewLayout->addWidget(m_previewTitle);
    previewLayout->addWidget(m_preview);

    auto splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_list);
    splitter->addWidget(previewBox);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    splitter->setChildrenCollapsible(false);

    m_drop = new QPushButton(tr("&Drop from Context"), this);
    m_drop->setObjectName(QStringLiteral("dropButton"));

    m_pin = new QPushButton(tr("&Pin"), this);
    m_pin->setObjectName(QStringLiteral("pinButton"));

    connect(m_drop, &QPushButton::clicked, this, &ContextDialog::dropSelected);
    connect(m_pin, &QPushButton::clicked, this, &ContextDialog::pinSelected);
    // Enter in the list must not act: the buttons are never the default.
    m_drop->setAutoDefault(false);
    m_pin->setAutoDefault(false);
    auto drop = new QShortcut(Shortcuts::keys(Shortcut::DropFromContext).value(0), m_list);
    drop->setContext(Qt::WidgetShortcut);
    connect(drop, &QShortcut::activated, this, &ContextDialog::dropSelected);
    // Space pins and unpins, as it would check a box.
    auto pin = new QShortcut(Shortcuts::keys(Shortcut::PinInContext).value(0), m_list);
    pin->setContext(Qt::WidgetShortcut);
    connect(pin, &QShortcut::activated, this, &ContextDialog::pinSelected);
    auto buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto actions = new QHBoxLayout;
    actions->addWidget(m_drop);
    actions->addWidget(m_pin);
    actions->addStretch();
    actions->addWidget(buttons);

    auto layout = new QVBoxLayout(this);
    layout->addWidget(m_total);
    layout->addWidget(m_bar);
    layout->addWidget(m_note);
    layout->addWidget(splitter, 1);
    layout->addLayout(actions);
    // The list first: Up and Down go through the items at once.
    setTabOrder(m_list, m_preview);
    setTabOrder(m_preview, m_drop);
    setTabOrder(m_drop, m_pin);
    m_list->setFocus();
    resize(860, 620);
    selectionChanged();
}

ContextDialog::~ContextDialog() = default;

void ContextDialog::setSnapshot(const ContextSnapshot &snapshot)
{
    m_snapshot = snapshot;
    rebuild();
}

void ContextDialog::setEdits(const ContextEdits &edits)
{
    m_edits = edits;
    for (int i = 0; i < m_list->topLevelItemCount(); ++i)
        updateRow(m_list->topLevelItem(i));
    selectionChanged();
}

void ContextDialog::setEditsAvailable(bool available)
{
    m_editsAvailable = available;
    selectionChanged();
}

const ContextItem *ContextDialog::itemOf(const QTreeWidgetItem *row) const
{
    if (!row)
        return nullptr;
    const int index = row->data(ItemColumn, indexRole).toInt();
    return index >= 0 && index < m_snapshot.items.size() ? &m_snapshot.items.at(index) : nullptr;
}

QString ContextDialog::totalText() const
{
    return m_total->text();
}

void ContextDialog::rebuild()
{
    const QLocale locale;
    const ContextItem *current = itemOf(m_list->currentItem());
    const int currentPosition = current ? current->position : -1;

    const qint64 total = m_snapshot.total;
    if (m_snapshot.window && *m_snapshot.window > 0) {
        const qint64 window = *m_snapshot.window;
        m_total->setText(
            tr("Context: %1 of %2 tokens (%3%)")
                .arg(locale.toString(total),
                     locale.toString(window),
                     locale.toString(std::lround(100.0 * double(total) / double(window)))));
        // A QProgressBar holds an int: tokens fit (no window has two billion).
        m_bar->setRange(0, int(std::min<qint64>(window, std::numeric_limits<int>::max())));
        m_bar->setValue(int(std::min(total, window)));
        m_bar->show();
    } else {
        m_total->setText(tr("Context: %1 tokens; the model's window is unknown (set it in "
                            "Settings)")
                             .arg(locale.toString(total)));
        m_bar->hide();
    }
    qint64 itemsTotal = 0;
    for (const ContextItem &item : std::as_const(m_snapshot.items))
        itemsTotal += item.tokens;
    QString note = tr("Each item is an estimate (about 3.5 characters a token)");
    if (m_snapshot.calibrationReplies > 0) {
        note += tr(", corrected by the provider's counts of %n replies (\u00d7%1)",
                   nullptr,
                   m_snapshot.calibrationReplies)
                    .arg(locale.toString(m_snapshot.calibration, 'f', 2));
    }
    note += tr("; together %1. The total above is the provider's count of the last request "
               "plus the estimate of what came after it.")
                .arg(locale.toString(itemsTotal));
    m_note->setText(note);

    const bool sorting = m_list->isSortingEnabled();
    m_list->setSortingEnabled(false);
    m_list->clear();
    QTreeWidgetItem *select = nullptr;
    const qint64 share = m_snapshot.window.value_or(0) > 0 ? *m_snapshot.window : itemsTotal;
    for (int index = 0; index < m_snapshot.items.size(); ++index) {
        const ContextItem &item = m_snapshot.items.at(index);
        auto row = new Row(m_list);
        row->setData(ItemColumn, indexRole, index);
        row->setText(ItemColumn, item.title);
        row->setToolTip(ItemColumn, item.title);
        row->setText(KindColumn, kindName(item.kind));
        row->setText(TokensColumn, locale.toString(item.tokens));
        row->setData(TokensColumn, sortRole, item.tokens);
        // Per mille: a share sorts as exactly as it is shown.
        const qint64 perMille = share > 0 ? qint64(
                                    std::llround(1000.0 * double(item.tokens) / double(share)))
                                          : 0;
        row->setText(ShareColumn,
                     perMille == 0 && item.tokens > 0
                         ? tr("<0.1%")
                         : tr("%1%").arg(locale.toString(double(perMille) / 10.0, 'f', 1)));
        row->setData(ShareColumn, sortRole, item.tokens);
        row->setText(PositionColumn, item.position > 0 ? locale.toString(item.position) : QString());
        row->setData(PositionColumn, sortRole, item.position);
        for (int column : {TokensColumn, ShareColumn, PositionColumn})
            row->setTextAlignment(column, Qt::AlignRight | Qt::AlignVCenter);
        updateRow(row);
        if (item.position == currentPosition)
            select = row;
    }
    m_list->setSortingEnabled(sorting);
    if (!select)
        select = m_list->topLevelItem(0);
    m_list->setCurrentItem(select);
    selectionChanged();
}

void ContextDialog::updateRow(QTreeWidgetItem *row)
{
    const ContextItem *item = itemOf(row);
    if (!item)
        return;
    const bool dropped = item->kind == ContextItem::Kind::ToolOutput
                         && m_edits.droppedToolOutputs.contains(item->toolCallId);
    const bool pinned = isMessage(*item) && m_edits.pinnedMessages.contains(item->messageIndex);
    QStringList state;
    if (pinned)
        state.append(tr("Pinned"));
    if (dropped)
        state.append(tr("Removed from context"));
    if (!item->state.isEmpty())
        state.append(item->state);
    row->setText(StateColumn, state.join(QStringLiteral(", ")));
    // Greyed: it no longer goes to the model.
    const bool absent = dropped || item->deferred;
    const QBrush brush = absent ? m_list->palette().brush(QPalette::Disabled, QPalette::Text)
                                : QBrush();
    for (int column = 0; column < m_list->columnCount(); ++column)
        row->setForeground(column, brush);
    QFont font = m_list->font();
    font.setItalic(absent);
    font.setBold(pinned);
    row->setFont(ItemColumn, font);
}

void ContextDialog::selectionChanged()
{
    const ContextItem *item = itemOf(m_list->currentItem());
    ++m_previewLoad;
    if (!item) {
        m_previewTitle->setText(tr("Nothing selected"));
        m_preview->clear();
    } else {
        m_previewTitle->setText(
            tr("%1 \u2014 %2 tokens").arg(item->title, QLocale().toString(item->tokens)));
        if (item->pagedChars >= 0 && item->toolCallId == m_loadedId && !m_loadedId.isEmpty()) {
            m_preview->setPlainText(m_loadedPreview); // read before: the list was only refreshed
        } else {
            m_preview->setPlainText(item->preview);
            if (item->pagedChars >= 0)
                loadPreview(*item);
        }
    }
    const bool droppable = item && item->kind == ContextItem::Kind::ToolOutput
                           && !item->toolCallId.isEmpty();
    const bool dropped = droppable && m_edits.droppedToolOutputs.contains(item->toolCallId);
    const bool pinned = item && m_edits.pinnedMessages.contains(item->messageIndex);
    m_drop->setEnabled(m_editsAvailable && droppable && !dropped);
    m_pin->setEnabled(m_editsAvailable && item && isMessage(*item));
    m_pin->setText(pinned ? tr("Un&pin") : tr("&Pin"));
    const QString unavailable = tr("Not available in this version.");
    m_drop->setToolTip(m_editsAvailable ? tr("Future requests carry a short note instead of "
                                             "this tool output (Delete).")
                                        : unavailable);
    m_pin->setToolTip(m_editsAvailable ? tr("Keep this message word for word when the "
                                            "conversation is compacted (Space).")
                                       : unavailable);
}

void ContextDialog::setPages(std::shared_ptr<const AgentCore::SessionPages> pages)
{
    m_pages = std::move(pages);
}

QString ContextDialog::previewText() const
{
    return m_preview->toPlainText();
}

// The stub's preview shows until the whole output is read; a selection changed meanwhile
// takes no part of it.
void ContextDialog::loadPreview(const ContextItem &item)
{
    const quint64 load = ++m_previewLoad;
    m_preview->appendPlainText(tr("\n[Loading the whole output\u2026]"));
    const QString toolCallId = item.toolCallId;
    runInBackground(
        this,
        [pages = m_pages, toolCallId] {
            QString error;
            std::optional<AgentCore::Message> whole;
            if (pages)
                whole = pages->load(toolCallId, &error); // off the UI thread
            else
                error = tr("The whole output is in the session file, which is not open here.");
            return whole ? std::pair(true, ContextSnapshot::previewOf(*whole))
                         : std::pair(false, tr("[%1]").arg(error));
        },
        [this, load, toolCallId](const std::pair<bool, QString> &read) {
            if (load != m_previewLoad)
                return;
            m_preview->setPlainText(read.second);
            if (read.first) {
                m_loadedId = toolCallId;
                m_loadedPreview = read.second;
            }
        });
}

void ContextDialog::dropSelected()
{
    const ContextItem *item = itemOf(m_list->currentItem());
    if (!m_editsAvailable || !item || item->kind != ContextItem::Kind::ToolOutput
        || item->toolCallId.isEmpty() || m_edits.droppedToolOutputs.contains(item->toolCallId)) {
        return;
    }
    emit dropRequested(item->toolCallId);
}

void ContextDialog::pinSelected()
{
    const ContextItem *item = itemOf(m_list->currentItem());
    if (!m_editsAvailable || !item || !isMessage(*item))
        return;
    emit pinRequested(item->messageIndex, !m_edits.pinnedMessages.contains(item->messageIndex));
}

} // namespace Ui

#include "moc_contextdialog.cpp"
