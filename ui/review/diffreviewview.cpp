#include "diffreviewview.h"

#include "common/elidedlabel.h"

#include "common/syntaxcolorizer.h"
#include "difflayout.h"
#include "difftextview.h"
#include "reviewanswerbar.h"

#include "common/themecolors.h"

#include <loop/toolkind.h>
#include <tools/unifieddiff.h>

#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QScrollBar>
#include <QSplitter>
#include <QStackedWidget>
#include <QToolButton>
#include <QVBoxLayout>

namespace Ui {

struct DiffReviewView::Private
{
    bool sideBySideBuilt = false;
};

namespace {

QLabel *paneTitle(const QString &text, QWidget *parent)
{
    auto label = new QLabel(text, parent);
    label->setForegroundRole(QPalette::PlaceholderText);
    label->setContentsMargins(4, 2, 4, 2);
    return label;
}

// Either pane scrolls the other: both show the same rows.
void syncScrollBars(QScrollBar *a, QScrollBar *b)
{
    QObject::connect(a, &QScrollBar::valueChanged, b, &QScrollBar::setValue);
    QObject::connect(b, &QScrollBar::valueChanged, a, &QScrollBar::setValue);
}

} // namespace

DiffReviewView::DiffReviewView(QWidget *parent)
    : QWidget(parent)
    , d(std::make_unique<Private>())
    , m_title(new ElidedLabel(this))
    , m_stats(new QLabel(this))
    , m_reason(new QLabel(this))
    , m_sideBySide(new QToolButton(this))
    , m_hunks(new QListWidget(this))
    , m_stack(new QStackedWidget(this))
    , m_unified(new DiffTextView(this))
    , m_old(new DiffTextView(this))
    , m_new(new DiffTextView(this))
    , m_answers(new ReviewAnswerBar(this))
{
    m_title->setObjectName(QStringLiteral("reviewTitle"));
    m_title->setElideMode(Qt::ElideMiddle); // a path's file name is at its end
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.15);
    m_title->setFont(titleFont);
    m_stats->setObjectName(QStringLiteral("reviewStats"));
    m_stats->setTextFormat(Qt::RichText);
    m_reason->setObjectName(QStringLiteral("reviewReason"));
    m_reason->setTextFormat(Qt::PlainText);
    m_reason->setForegroundRole(QPalette::PlaceholderText);
    m_reason->setWordWrap(true);
    m_sideBySide->setObjectName(QStringLiteral("sideBySideToggle"));
    m_sideBySide->setText(tr("Side &by side"));
    m_sideBySide->setToolTip(tr("Show the file before and after next to each other"));
    m_sideBySide->setCheckable(true);
    m_sideBySide->setAutoRaise(true);
    m_hunks->setObjectName(QStringLiteral("hunkList"));
    m_hunks->setToolTip(tr("Uncheck a change to leave it out"));
    m_unified->setObjectName(QStringLiteral("unifiedView"));
    m_old->setObjectName(QStringLiteral("oldView"));
    m_new->setObjectName(QStringLiteral("newView"));

    auto header = new QHBoxLayout;
    header->addWidget(m_title);
    header->addWidget(m_stats);
    header->addStretch();
    header->addWidget(m_sideBySide);

    auto split = new QWidget(this);
    auto splitLayout = new QGridLayout(split);
    splitLayout->setContentsMargins(0, 0, 0, 0);
    splitLayout->setHorizontalSpacing(1); // the window colour between the panes
    splitLayout->setVerticalSpacing(0);
    splitLayout->addWidget(paneTitle(tr("Now"), split), 0, 0);
    splitLayout->addWidget(paneTitle(tr("After the change"), split), 0, 1);
    splitLayout->addWidget(m_old, 1, 0);
    splitLayout->addWidget(m_new, 1, 1);
    m_stack->addWidget(m_unified);
    m_stack->addWidget(split);
    syncScrollBars(m_old->verticalScrollBar(), m_new->verticalScrollBar());
    syncScrollBars(m_old->horizontalScrollBar(), m_new->horizontalScrollBar());

    auto splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(m_hunks);
    splitter->addWidget(m_stack);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({170, 600});
    splitter->setChildrenCollapsible(false);

    auto layout = new QVBoxLayout(this);
    layout->addLayout(header);
    layout->addWidget(m_reason);
    layout->addWidget(splitter, 1);
    layout->addWidget(m_answers);

    m_answers->addShortcuts(this);
    connect(m_sideBySide, &QToolButton::toggled, this, &DiffReviewView::setSideBySide);
    connect(m_hunks, &QListWidget::itemChanged, this, &DiffReviewView::updateRejected);
    connect(m_hunks, &QListWidget::currentRowChanged, this, &DiffReviewView::scrollToHunk);
    connect(m_answers, &ReviewAnswerBar::answered, this, [this](AgentCore::PermissionAnswer answer) {
        answer.rejectedHunks = rejectedHunks();
        emit answered(m_request.id, answer, answer.rejectedHunks);
    });
}

DiffReviewView::~DiffReviewView() = default;

void DiffReviewView::setRequest(const AgentCore::PermissionRequest &request)
{
    m_request = request; // its diff is the one the answer's hunk indexes refer to
    d->sideBySideBuilt = false;
    SyntaxColorizer colorizer(palette());
    colorizer.setLanguageForFileName(
        QFileInfo(request.filePath.isEmpty() ? request.displayPath : request.filePath).fileName());
    m_unified->setPane(DiffLayout::unified(m_request.diff, colorizer));
    fillHeader();
    fillHunks();
    m_answers->setRequest(request);
    if (isSideBySide())
        ensureSideBySide();
    updateRejected();
}

void DiffReviewView::fillHeader()
{
    const QString path = m_request.displayPath.isEmpty() ? m_request.filePath
                                                         : m_request.displayPath;
    if (m_request.newFile)
        m_title->setText(tr("Create %1").arg(path));
    else if (AgentCore::toolKind(m_request.toolName) == AgentCore::ToolKind::Write)
        m_title->setText(tr("Overwrite %1").arg(path));
    else
        m_title->setText(tr("Edit %1").arg(path));
    const ThemeColors colors = ThemeColors::of(palette());
    m_stats->setText(QStringLiteral("<span style='color:%1'>+%2</span>&nbsp;&nbsp;"
                                    "<span style='color:%3'>&minus;%4</span>")
                         .arg(colors.addedText.name())
                         .arg(m_request.diff.additions())
                         .arg(colors.removedText.name())
                         .arg(m_request.diff.deletions()));
    m_stats->setToolTip(tr("Lines added: %1\nLines removed: %2")
                            .arg(m_request.diff.additions())
                            .arg(m_request.diff.deletions()));
    m_reason->setText(m_request.reason);
    m_reason->setVisible(!m_request.reason.isEmpty());
}

void DiffReviewView::fillHunks()
{
    const QSignalBlocker blocker(m_hunks);
    m_hunks->clear();
    for (const AgentCore::UnifiedDiff::Hunk &hunk : m_request.diff.hunks()) {
        int added = 0;
        int removed = 0;
        for (const QString &line : hunk.lines) {
            added += line.startsWith(QLatin1Char('+'));
            removed += line.startsWith(QLatin1Char('-'));
        }
        const int first = std::max(hunk.newStart, 1);
        const int last = std::max(first, hunk.newStart + hunk.newCount - 1);
        auto item = new QListWidgetItem((first == last ? tr("Line %1").arg(first)
                                                       : tr("Lines %1–%2").arg(first).arg(last))
                                            + QStringLiteral("   +%1 −%2").arg(added).arg(removed),
                                        m_hunks);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Checked);
        item->setToolTip(tr("Uncheck to leave this change out"));
    }
    m_hunks->setVisible(m_request.diff.hunks().size() > 1);
}

int DiffReviewView::hunkCount() const
{
    return m_hunks->count();
}

QList<int> DiffReviewView::rejectedHunks() const
{
    QList<int> rejected;
    for (int i = 0; i < m_hunks->count(); ++i) {
        if (m_hunks->item(i)->checkState() != Qt::Checked)
            rejected.append(i);
    }
    return rejected;
}

void DiffReviewView::setHunkAccepted(int hunk, bool accepted)
{
    if (QListWidgetItem *item = m_hunks->item(hunk))
        item->setCheckState(accepted ? Qt::Checked : Qt::Unchecked);
}

bool DiffReviewView::isSideBySide() const
{
    return m_stack->currentIndex() == 1;
}

void DiffReviewView::setSideBySide(bool sideBySide)
{
    if (sideBySide)
        ensureSideBySide();
    m_stack->setCurrentIndex(sideBySide ? 1 : 0);
    const QSignalBlocker blocker(m_sideBySide);
    m_sideBySide->setChecked(sideBySide);
}

// Built on first use: most reviews are read unified, and a large diff then lays out once.
void DiffReviewView::ensureSideBySide()
{
    if (d->sideBySideBuilt)
        return;
    d->sideBySideBuilt = true;
    SyntaxColorizer colorizer(palette());
    colorizer.setLanguageForFileName(
        QFileInfo(m_request.filePath.isEmpty() ? m_request.displayPath : m_request.filePath)
            .fileName());
    auto [before, after] = DiffLayout::sideBySide(m_request.diff, colorizer);
    m_old->setPane(std::move(before));
    m_new->setPane(std::move(after));
    updateRejected();
}

void DiffReviewView::updateRejected()
{
    const QList<int> rejected = rejectedHunks();
    const QSet<int> set(rejected.cbegin(), rejected.cend());
    for (DiffTextView *view : {m_unified, m_old, m_new})
        view->setRejectedHunks(set);
    const bool any = rejected.size() < hunkCount() || hunkCount() == 0;
    m_answers->setAllowEnabled(any, tr("Every change is unchecked: nothing would be applied."));
}

void DiffReviewView::scrollToHunk(int hunk)
{
    m_unified->scrollToHunk(hunk);
    m_old->scrollToHunk(hunk);
}

} // namespace Ui

#include "moc_diffreviewview.cpp"
