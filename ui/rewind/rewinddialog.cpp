#include "rewinddialog.h"

#include "review/filediffview.h"

#include <QButtonGroup>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QSplitter>
#include <QStackedWidget>
#include <QStyle>
#include <QVBoxLayout>

#include <algorithm>

namespace Ui {

namespace {
constexpr int PathRole = Qt::UserRole;

QString kindText(RewindFile::Kind kind)
{
    switch (kind) {
    case RewindFile::Kind::Added:
        //: A file the rewind deletes: it was created after that point
        return RewindDialog::tr("deleted (created since)");
    case RewindFile::Kind::Modified:
        //: A file the rewind writes back as it was
        return RewindDialog::tr("restored");
    case RewindFile::Kind::Deleted:
        //: A file the rewind brings back: it was deleted after that point
        return RewindDialog::tr("brought back (deleted since)");
    }
    return {};
}

/// The file's line in the list: a file the user changed says whose it is and what happens to it.
QString fileText(const RewindFile &file, bool kept)
{
    if (!file.yours)
        return QStringLiteral("%1 — %2").arg(file.path, kindText(file.kind));
    if (kept) {
        //: A file the user changed since the rewind's point, which the rewind leaves as it is
        return RewindDialog::tr("%1 — yours, kept").arg(file.path);
    }
    //: A file the user changed since the rewind's point, which the rewind overwrites: "restored", ...
    return RewindDialog::tr("%1 — yours, overwritten: %2").arg(file.path, kindText(file.kind));
}
} // namespace

RewindDialog::RewindDialog(QWidget *parent)
    : QDialog(parent)
    , m_target(new QLabel(this))
    , m_both(new QRadioButton(tr("Files &and conversation"), this))
    , m_conversation(new QRadioButton(tr("&Conversation only"), this))
    , m_filesOnly(new QRadioButton(tr("&Files only"), this))
    , m_filesNote(new QLabel(this))
    , m_filesStack(new QStackedWidget(this))
    , m_splitter(new QSplitter(Qt::Horizontal, this))
    , m_list(new QListWidget(this))
    , m_diff(new FileDiffView(this))
    , m_noFiles(new QLabel(this))
    , m_computingPage(new QWidget(this))
    , m_summary(new QLabel(this))
{
    setObjectName(QStringLiteral("rewindDialog"));
    setWindowTitle(tr("Rewind"));
    m_target->setObjectName(QStringLiteral("rewindTarget"));
    m_target->setWordWrap(true);
    m_target->setTextFormat(Qt::PlainText);

    auto choice = new QButtonGroup(this);
    m_both->setObjectName(QStringLiteral("rewindBoth"));
    m_conversation->setObjectName(QStringLiteral("rewindConversation"));
    m_filesOnly->setObjectName(QStringLiteral("rewindFiles"));
    m_both->setToolTip(tr("Restore the files and take the conversation back to this point"));
    m_conversation->setToolTip(tr("The model goes on from this point; the files stay as they are"));
    m_filesOnly->setToolTip(tr("Restore the files; the conversation goes on as it is"));
    for (QRadioButton *button : {m_both, m_conversation, m_filesOnly}) {
        button->setAccessibleName(button->text().remove(QLatin1Char('&')));
        choice->addButton(button);
    }
    m_both->setChecked(true);
    auto choices = new QHBoxLayout;
    choices->addWidget(m_both);
    choices->addWidget(m_conversation);
    choices->addWidget(m_filesOnly);
    choices->addStretch();

    m_filesNote->setObjectName(QStringLiteral("rewindFilesNote"));
    m_filesNote->setWordWrap(true);
    m_filesNote->setText(tr("Check a file to keep it as it is (Space). The diff shows what the "
                            "rewind changes in it."));
    m_list->setObjectName(QStringLiteral("rewindFileList"));
    m_list->setAccessibleName(tr("Files the rewind restores; checked ones are kept as they are"));
    // A path too long for half the dialog loses its first folders, never its name or status.
    m_list->setTextElideMode(Qt::ElideLeft);
    m_diff->setAccessibleName(tr("What the rewind changes in the selected file"));
    m_noFiles->setObjectName(QStringLiteral("rewindNoFiles"));
    m_noFiles->setWordWrap(true);
    m_noFiles->setAlignment(Qt::AlignCenter);
    m_splitter->addWidget(m_list);
    m_splitter->addWidget(m_diff);
    // A wider dialog widens the diff; the list keeps the width fitFileList() gave it.
    m_splitter->setStretchFactor(0, 0);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setChildrenCollapsible(false);
    m_list->setMinimumWidth(fontMetrics().averageCharWidth() * 24);
    m_filesStack->addWidget(m_splitter);
    m_filesStack->addWidget(m_noFiles);

    // Shown while the caller works out what the rewind changes (a huge change takes a while).
    m_computingPage->setObjectName(QStringLiteral("rewindComputing"));
    auto computingLabel = new QLabel(tr("Working out what the rewind changes in the files…"),
                                     m_computingPage);
    computingLabel->setAlignment(Qt::AlignCenter);
    computingLabel->setWordWrap(true);
    auto busy = new QProgressBar(m_computingPage);
    busy->setRange(0, 0);
    busy->setTextVisible(false);
    busy->setFixedWidth(fontMetrics().averageCharWidth() * 40);
    busy->setAccessibleName(computingLabel->text());
    auto computingLayout = new QVBoxLayout(m_computingPage);
    computingLayout->addStretch();
    computingLayout->addWidget(computingLabel);
    computingLayout->addWidget(busy, 0, Qt::AlignHCenter);
    computingLayout->addStretch();
    m_filesStack->addWidget(m_computingPage);

    m_summary->setObjectName(QStringLiteral("rewindSummary"));
    m_summary->setWordWrap(true);

    auto buttons = new QDialogButtonBox(this);
    //: Confirms a rewind; nothing changes before it is pressed
    m_rewind = buttons->addButton(tr("&Rewind"), QDialogButtonBox::AcceptRole);
    m_rewind->setObjectName(QStringLiteral("rewindConfirm"));
    m_rewind->setDefault(true);
    m_rewind->setAutoDefault(true);
    m_cancel = buttons->addButton(QDialogButtonBox::Cancel);
    m_cancel->setObjectName(QStringLiteral("rewindCancel"));
    // Enter on a focused Cancel cancels: a button that is not auto-default passes Enter on to
    // the dialog, which would press Rewind.
    m_cancel->setAutoDefault(true);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto layout = new QVBoxLayout(this);
    layout->addWidget(m_target);
    layout->addLayout(choices);
    layout->addWidget(m_filesNote);
    layout->addWidget(m_filesStack, 1);
    layout->addWidget(m_summary);
    layout->addWidget(buttons);

    setTabOrder(m_both, m_conversation);
    setTabOrder(m_conversation, m_filesOnly);
    setTabOrder(m_filesOnly, m_list);
    setTabOrder(m_list, m_diff);
    setTabOrder(m_diff, m_rewind);
    setTabOrder(m_rewind, m_cancel);

    connect(choice, &QButtonGroup::buttonToggled, this, [this](QAbstractButton *, bool checked) {
        if (checked)
            updateSummary();
    });
    connect(m_list, &QListWidget::currentRowChanged, this, &RewindDialog::showCurrentFile);
    connect(m_list, &QListWidget::itemChanged, this, [this](QListWidgetItem *item) {
        const int row = m_list->row(item);
        if (row >= 0 && row < m_preview.files.size()) {
            const QSignalBlocker blocker(m_list);
            item->setText(fileText(m_preview.files.at(row), item->checkState() == Qt::Checked));
        }
        updateSummary();
    });
    resize(1000, 640);
    setFiles({});
    // The choice has the focus first: Tab reaches the files, the arrows the other choices.
    m_both->setFocus();
}

RewindDialog::~RewindDialog() = default;

void RewindDialog::setTarget(const QString &description)
{
    //: Top of the rewind dialog: "Rewind to right before your message “fix the parser”"
    m_target->setText(tr("Rewind to right before %1.").arg(description));
}

void RewindDialog::setComputing()
{
    m_computing = true;
    m_preview = {};
    {
        const QSignalBlocker blocker(m_list);
        m_list->clear();
    }
    m_both->setEnabled(true);
    m_filesOnly->setEnabled(true);
    m_filesStack->setCurrentWidget(m_computingPage);
    showCurrentFile();
    updateSummary();
}

void RewindDialog::setFiles(const RewindFilesPreview &preview)
{
    m_computing = false;
    m_preview = preview;
    const QSignalBlocker blocker(m_list);
    m_list->clear();
    QStringList yours;
    for (const RewindFile &file : preview.files) {
        // The user's own later work is never rewound unasked: checked (kept) until unchecked.
        auto item = new QListWidgetItem(fileText(file, file.yours), m_list);
        item->setData(PathRole, file.path);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(file.yours ? Qt::Checked : Qt::Unchecked);
        if (file.yours) {
            yours.append(file.path);
            item->setToolTip(tr("You changed %1 yourself since that point: checked, it is "
                                "kept as it is; uncheck to overwrite it")
                                 .arg(file.path));
        } else {
            item->setToolTip(tr("Check to keep %1 as it is").arg(file.path));
        }
    }
    const bool available = preview.unavailable.isEmpty();
    m_both->setEnabled(available);
    m_filesOnly->setEnabled(available && !preview.files.isEmpty());
    if (!available)
        m_noFiles->setText(preview.unavailable);
    else if (preview.files.isEmpty())
        m_noFiles->setText(tr("No file differs from that point: only the conversation changes."));
    QStringList note{tr("Check a file to keep it as it is (Space). The diff shows what the "
                        "rewind changes in it.")};
    if (!yours.isEmpty() && available) {
        note = QStringList{tr("You changed %1 yourself since that point: kept as you left "
                              "them unless you uncheck one to overwrite it (Space). Check any "
                              "other file to keep it as it is.")
                               .arg(yours.join(QStringLiteral(", ")))};
    }
    if (!preview.notCovered.isEmpty() && available) {
        note << tr("Not covered by the checkpoint, left as they are: %1.")
                    .arg(preview.notCovered.join(QStringLiteral(", ")));
    }
    m_filesNote->setText(note.join(QLatin1Char(' ')));
    m_filesStack->setCurrentIndex(available && !preview.files.isEmpty() ? 0 : 1);
    // The user's choice stands (it may have been made while this was worked out), unless
    // there are no files to rewind.
    if (!available || (m_filesOnly->isChecked() && preview.files.isEmpty()))
        m_conversation->setChecked(true);
    if (m_list->count() > 0)
        m_list->setCurrentRow(0);
    fitFileList();
    showCurrentFile();
    updateSummary();
}

void RewindDialog::fitFileList()
{
    int widest = 0;
    const QFontMetrics metrics = m_list->fontMetrics();
    for (int i = 0; i < m_list->count(); ++i)
        widest = std::max(widest, metrics.horizontalAdvance(m_list->item(i)->text()));
    // The check box, the item's margins, the frame and a vertical scroll bar.
    const QStyle *style = m_list->style();
    const int chrome = style->pixelMetric(QStyle::PM_IndicatorWidth, nullptr, m_list)
                       + style->pixelMetric(QStyle::PM_CheckBoxLabelSpacing, nullptr, m_list)
                       + 4 * style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_list)
                       + 2 * m_list->frameWidth()
                       + style->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, m_list)
                       + metrics.averageCharWidth() * 2;
    const int total = std::max(m_splitter->width(), width() - 24);
    const int list = std::clamp(widest + chrome, m_list->minimumWidth(), total / 2);
    m_splitter->setSizes({list, std::max(total - list, 1)});
}

AgentCore::Rewind::Scope RewindDialog::scope() const
{
    if (m_filesOnly->isChecked())
        return AgentCore::Rewind::Scope::Files;
    if (m_conversation->isChecked())
        return AgentCore::Rewind::Scope::Conversation;
    return AgentCore::Rewind::Scope::Both;
}

void RewindDialog::setScope(AgentCore::Rewind::Scope scope)
{
    switch (scope) {
    case AgentCore::Rewind::Scope::Files:
        m_filesOnly->setChecked(true);
        break;
    case AgentCore::Rewind::Scope::Conversation:
        m_conversation->setChecked(true);
        break;
    case AgentCore::Rewind::Scope::Both:
        m_both->setChecked(true);
        break;
    }
}

QSet<QString> RewindDialog::keptFiles() const
{
    QSet<QString> kept;
    for (int i = 0; i < m_list->count(); ++i) {
        if (m_list->item(i)->checkState() == Qt::Checked)
            kept.insert(m_list->item(i)->data(PathRole).toString());
    }
    return kept;
}

void RewindDialog::showCurrentFile()
{
    const int row = m_list->currentRow();
    if (row < 0 || row >= m_preview.files.size()) {
        m_diff->showChange({}, {}, {}, {}, {});
        return;
    }
    const RewindFile &file = m_preview.files.at(row);
    QString note = file.yours ? tr("You changed it yourself since that point. ") : QString();
    switch (file.kind) {
    case RewindFile::Kind::Added:
        note += tr("Created after that point: the rewind deletes it.");
        break;
    case RewindFile::Kind::Modified:
        note += tr("As it is now (−) and as the rewind writes it back (+).");
        break;
    case RewindFile::Kind::Deleted:
        note += tr("Deleted after that point: the rewind writes it back.");
        break;
    }
    //: Title over the diff of one file in the rewind dialog
    m_diff->showChange(tr("Rewind of %1").arg(file.path),
                       note,
                       file.path,
                       file.current,
                       file.restored);
}

QString RewindDialog::summaryText() const
{
    return m_summary->text();
}

void RewindDialog::updateSummary()
{
    const AgentCore::Rewind::Scope chosen = scope();
    const bool files = chosen != AgentCore::Rewind::Scope::Conversation;
    m_list->setEnabled(files);
    m_diff->setEnabled(files);
    m_filesNote->setEnabled(files);
    // Nothing is rewound unseen: the files only once their change is shown.
    m_rewind->setEnabled(!m_computing || !files);
    if (m_computing && files) {
        m_summary->setText(tr("The files can be rewound once their change is shown; the "
                              "conversation only can be rewound now."));
        return;
    }
    const int kept = int(keptFiles().size());
    const int restored = files ? int(m_preview.files.size()) - kept : 0;
    QStringList parts;
    if (chosen != AgentCore::Rewind::Scope::Files)
        parts << tr("The model goes on from this point; the later messages stay in the session, "
                    "marked as rewound.");
    if (files) {
        parts << tr("%n file(s) will be restored.", nullptr, restored);
        if (kept > 0)
            parts << tr("%n kept as it is.", nullptr, kept);
        int overwritten = 0;
        for (int i = 0; i < m_list->count() && i < m_preview.files.size(); ++i) {
            if (m_preview.files.at(i).yours && m_list->item(i)->checkState() != Qt::Checked)
                ++overwritten;
        }
        if (overwritten > 0)
            parts << tr("%n of your own later changes will be overwritten.", nullptr, overwritten);
    }
    parts << tr("You can undo the rewind.");
    m_summary->setText(parts.join(QLatin1Char(' ')));
}

} // namespace Ui

#include "moc_rewinddialog.cpp"
