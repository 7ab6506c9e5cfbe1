#include "changedfilespanel.h"

#include <QAction>
#include <QDir>
#include <QLabel>
#include <QListWidget>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace Ui {

namespace {
constexpr int PathRole = Qt::UserRole + 1;
}

ChangedFilesPanel::ChangedFilesPanel(QWidget *parent)
    : QWidget(parent)
    , m_title(new QLabel(tr("Files changed"), this))
    , m_stack(new QStackedWidget(this))
    , m_list(new QListWidget(this))
    , m_empty(new QLabel(this))
{
    setObjectName(QStringLiteral("changedFilesPanel"));
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    m_title->setFont(titleFont);

    m_list->setObjectName(QStringLiteral("changedFilesList"));
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    m_list->setTextElideMode(Qt::ElideLeft); // the file name matters more than its folders
    m_list->setUniformItemSizes(true);
    connect(m_list, &QListWidget::itemActivated, this, &ChangedFilesPanel::activate);
    // The row's own menu: its changes, or back to how it was (Cline and Zed have it one
    // click away; before, it took a rewind with every other file kept).
    auto show = new QAction(tr("Show Changes"), m_list);
    show->setObjectName(QStringLiteral("showFileChangesAction"));
    connect(show, &QAction::triggered, this, [this] { activate(m_list->currentItem()); });
    auto revert = new QAction(tr("Revert This File"), m_list);
    revert->setObjectName(QStringLiteral("revertFileAction"));
    revert->setToolTip(tr("Bring the file back to how it was before the agent first changed "
                          "it in this session; every other file stays as it is"));
    connect(revert, &QAction::triggered, this, [this] {
        if (QListWidgetItem *item = m_list->currentItem())
            emit revertRequested(item->data(PathRole).toString());
    });
    m_list->addAction(show);
    m_list->addAction(revert);
    m_list->setContextMenuPolicy(Qt::ActionsContextMenu);

    m_empty->setText(tr("The files the agent changes in this session appear here."));
    m_empty->setWordWrap(true);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setForegroundRole(QPalette::PlaceholderText);
    m_empty->setMargin(12);
    m_stack->addWidget(m_empty);
    m_stack->addWidget(m_list);

    auto layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6); // as the follow-up panel above it
    layout->setSpacing(4);
    layout->addWidget(m_title);
    layout->addWidget(m_stack, 1);
}

ChangedFilesPanel::~ChangedFilesPanel() = default;

void ChangedFilesPanel::setFiles(const QList<ChangedFile> &files)
{
    m_list->clear();
    for (const ChangedFile &file : files) {
        //: A changed file in the side panel: path, lines added, lines removed
        QString text = tr("%1  +%2 −%3")
                           .arg(QDir::toNativeSeparators(file.displayPath))
                           .arg(file.additions)
                           .arg(file.deletions);
        //: After a changed file's counts: the language server's errors and warnings in it
        if (file.problems.value_or(0) > 0)
            text += QStringLiteral("  ") + tr("⚠ %1").arg(*file.problems);
        auto item = new QListWidgetItem(text, m_list);
        item->setData(PathRole, file.path);
        QString tip = file.created
                          ? tr("%1\nCreated in this session; %n change(s)", nullptr, file.changes)
                                .arg(QDir::toNativeSeparators(file.path))
                          : tr("%1\n%n change(s) in this session", nullptr, file.changes)
                                .arg(QDir::toNativeSeparators(file.path));
        if (file.problems) {
            tip += QLatin1Char('\n')
                   + tr("The language server finds %n error(s) or warning(s) in it after the "
                        "last change.",
                        nullptr,
                        *file.problems);
        }
        item->setToolTip(tip + QLatin1Char('\n')
                         + tr("Double-click to see its changes; right-click to revert it."));
    }
    m_title->setText(files.isEmpty() ? tr("Files changed")
                                     : tr("Files changed (%1)").arg(files.size()));
    m_stack->setCurrentWidget(files.isEmpty() ? static_cast<QWidget *>(m_empty) : m_list);
}

QStringList ChangedFilesPanel::rows() const
{
    QStringList rows;
    for (int row = 0; row < m_list->count(); ++row)
        rows.append(m_list->item(row)->text());
    return rows;
}

void ChangedFilesPanel::activate(QListWidgetItem *item)
{
    if (item)
        emit openRequested(item->data(PathRole).toString());
}

} // namespace Ui

#include "moc_changedfilespanel.cpp"
