#include "shellwritesreviewview.h"

#include "common/elidedlabel.h"
#include "common/syntaxcolorizer.h"
#include "difflayout.h"
#include "difftextview.h"
#include "reviewanswerbar.h"

#include <permissions/shellwritesreview.h>
#include <tools/textfile.h>

#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace Ui {

namespace {
constexpr int changeRole = Qt::UserRole;
constexpr int hunkRole = Qt::UserRole + 1; ///< -1 on a path's own row

QString hunkTitle(const AgentCore::UnifiedDiff::Hunk &hunk)
{
    int added = 0;
    int removed = 0;
    for (const QString &line : hunk.lines) {
        added += line.startsWith(QLatin1Char('+'));
        removed += line.startsWith(QLatin1Char('-'));
    }
    const int first = std::max(hunk.newStart, 1);
    const int last = std::max(first, hunk.newStart + hunk.newCount - 1);
    return (first == last ? ShellWritesReviewView::tr("Line %1").arg(first)
                          : ShellWritesReviewView::tr("Lines %1–%2").arg(first).arg(last))
           + QStringLiteral("   +%1 −%2").arg(added).arg(removed);
}
} // namespace

ShellWritesReviewView::ShellWritesReviewView(QWidget *parent)
    : QWidget(parent)
    , m_title(new ElidedLabel(this))
    , m_reason(new QLabel(this))
    , m_output(new QPlainTextEdit(this))
    , m_tree(new QTreeWidget(this))
    , m_capNote(new QLabel(this))
    , m_about(new QLabel(this))
    , m_diff(new DiffTextView(this))
    , m_answers(new ReviewAnswerBar(this))
{
    m_title->setObjectName(QStringLiteral("reviewTitle"));
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.15);
    m_title->setFont(titleFont);
    m_reason->setObjectName(QStringLiteral("reviewReason"));
    m_reason->setForegroundRole(QPalette::PlaceholderText);
    m_reason->setWordWrap(true);
    m_output->setObjectName(QStringLiteral("commandOutput"));
    m_output->setReadOnly(true);
    m_output->setMaximumHeight(m_output->fontMetrics().lineSpacing() * 5 + 12);
    m_output->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_tree->setObjectName(QStringLiteral("writesTree"));
    m_tree->setHeaderHidden(true);
    m_tree->setColumnCount(2);
    m_tree->header()->setStretchLastSection(false);
    m_tree->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_tree->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_tree->setToolTip(tr("Uncheck a change (or a part of a file) to leave it out"));
    m_capNote->setObjectName(QStringLiteral("capNote"));
    m_capNote->setWordWrap(true);
    m_capNote->setForegroundRole(QPalette::PlaceholderText);
    m_about->setObjectName(QStringLiteral("changeAbout"));
    m_about->setWordWrap(true);
    m_about->setAlignment(Qt::AlignCenter);
    m_diff->setObjectName(QStringLiteral("unifiedView"));

    auto checkAll = new QPushButton(tr("Check all"), this);
    checkAll->setObjectName(QStringLiteral("checkAllButton"));
    auto uncheckAll = new QPushButton(tr("Uncheck all"), this);
    uncheckAll->setObjectName(QStringLiteral("uncheckAllButton"));
    connect(checkAll, &QPushButton::clicked, this, [this] { setAll(true); });
    connect(uncheckAll, &QPushButton::clicked, this, [this] { setAll(false); });

    auto left = new QWidget(this);
    auto leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(m_tree, 1);
    leftLayout->addWidget(m_capNote);
    auto buttons = new QHBoxLayout;
    buttons->addWidget(checkAll);
    buttons->addWidget(uncheckAll);
    buttons->addStretch();
    leftLayout->addLayout(buttons);

    auto right = new QWidget(this);
    auto rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(m_about);
    rightLayout->addWidget(m_diff, 1);

    auto splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(left);
    splitter->addWidget(right);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({360, 560});
    splitter->setChildrenCollapsible(false);

    auto layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addWidget(m_reason);
    layout->addWidget(m_output);
    layout->addWidget(splitter, 1);
    layout->addWidget(m_answers);

    m_answers->setWritesReview();
    m_answers->addShortcuts(this);
    connect(m_tree, &QTreeWidget::itemChanged, this, [this](QTreeWidgetItem *item, int column) {
        if (m_filling || column != 0)
            return;
        m_filling = true;
        // A path's box checks or unchecks its hunks; a hunk checked checks its path.
        if (item->data(0, hunkRole).toInt() < 0) {
            for (int i = 0; i < item->childCount(); ++i)
                item->child(i)->setCheckState(0, item->checkState(0));
        } else if (item->checkState(0) == Qt::Checked && item->parent()) {
            item->parent()->setCheckState(0, Qt::Checked);
        } else if (QTreeWidgetItem *parent = item->parent()) {
            bool any = false;
            for (int i = 0; i < parent->childCount(); ++i)
                any = any || parent->child(i)->checkState(0) == Qt::Checked;
            if (!any)
                parent->setCheckState(0, Qt::Unchecked);
        }
        m_filling = false;
        updateMarks();
    });
    connect(m_tree, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem *item) {
        if (!item)
            return;
        showChange(item->data(0, changeRole).toInt());
        const int hunk = item->data(0, hunkRole).toInt();
        if (hunk >= 0)
            m_diff->scrollToHunk(hunk);
    });
    connect(m_answers, &ReviewAnswerBar::answered, this, [this](AgentCore::PermissionAnswer answer) {
        const AgentCore::PermissionAnswer checked = currentAnswer();
        answer.rejectedWrites = checked.rejectedWrites;
        answer.rejectedWriteHunks = checked.rejectedWriteHunks;
        emit answered(m_request.id, answer);
    });
}

ShellWritesReviewView::~ShellWritesReviewView() = default;

void ShellWritesReviewView::setRequest(const AgentCore::PermissionRequest &request)
{
    m_request = request;
    const QString command = request.bash
                                ? request.bash->command
                                : request.arguments.value(QLatin1String("command")).toString();
    if (request.toolName == QLatin1String("Worktree")) // SessionWorktrees::reviewRequest
        m_title->setText(tr("Bring back what the session changed on its branch %1")
                             .arg(request.arguments.value(QLatin1String("branch")).toString()));
    else
        // Cut to the width (a long command must not widen the window), whole in the tooltip.
        m_title->setText(
            tr("Review what the command wrote: %1").arg(command.left(4000).simplified()));
    m_reason->setText(request.reason);
    // Nothing printed (and a branch brought back prints nothing): no empty box.
    m_output->setPlainText(request.commandOutput);
    m_output->setVisible(!request.commandOutput.isEmpty());
    m_answers->setRequest(request);
    fill();
    if (!m_request.shellWrites.isEmpty())
        selectChange(0);
}

void ShellWritesReviewView::fill()
{
    m_filling = true;
    m_tree->clear();
    const int shown = std::min<int>(m_request.shellWrites.size(),
                                    AgentCore::ShellWritesReview::maxShown);
    for (int i = 0; i < shown; ++i) {
        const AgentCore::ShellWrite &write = m_request.shellWrites[i];
        auto item = new QTreeWidgetItem(m_tree, {write.path, write.description()});
        item->setData(0, changeRole, i);
        item->setData(0, hunkRole, -1);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable);
        item->setCheckState(0, Qt::Checked);
        item->setToolTip(0, write.path);
        if (write.whole || write.diff.hunks().size() < 2)
            continue;
        for (int h = 0; h < write.diff.hunks().size(); ++h) {
            auto child = new QTreeWidgetItem(item, {hunkTitle(write.diff.hunks()[h])});
            child->setData(0, changeRole, i);
            child->setData(0, hunkRole, h);
            child->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable);
            child->setCheckState(0, Qt::Checked);
        }
        item->setExpanded(true);
    }
    const int hidden = int(m_request.shellWrites.size()) - shown;
    m_capNote->setText(
        tr("%1 more changes are not listed. They are applied with \"Apply checked\" unless you "
           "press \"Uncheck all\" (which leaves out every change, listed or not).")
            .arg(hidden));
    m_capNote->setVisible(hidden > 0);
    m_filling = false;
}

QTreeWidgetItem *ShellWritesReviewView::itemOf(int change) const
{
    QTreeWidgetItem *item = m_tree->topLevelItem(change);
    return item && item->data(0, changeRole).toInt() == change ? item : nullptr;
}

void ShellWritesReviewView::setChangeAccepted(int change, bool accepted)
{
    if (QTreeWidgetItem *item = itemOf(change))
        item->setCheckState(0, accepted ? Qt::Checked : Qt::Unchecked);
}

void ShellWritesReviewView::setHunkAccepted(int change, int hunk, bool accepted)
{
    if (QTreeWidgetItem *item = itemOf(change); item && hunk < item->childCount())
        item->child(hunk)->setCheckState(0, accepted ? Qt::Checked : Qt::Unchecked);
}

void ShellWritesReviewView::selectChange(int change)
{
    if (QTreeWidgetItem *item = itemOf(change))
        m_tree->setCurrentItem(item);
}

void ShellWritesReviewView::setAll(bool accepted)
{
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i)
        m_tree->topLevelItem(i)->setCheckState(0, accepted ? Qt::Checked : Qt::Unchecked);
    m_allUnchecked = !accepted;
    updateMarks();
}

AgentCore::PermissionAnswer ShellWritesReviewView::currentAnswer() const
{
    AgentCore::PermissionAnswer answer;
    answer.choice = AgentCore::PermissionAnswer::Choice::AllowOnce;
    for (int i = 0; i < m_request.shellWrites.size(); ++i) {
        QTreeWidgetItem *item = itemOf(i);
        if (!item) {
            if (m_allUnchecked)
                answer.rejectedWrites.append(i);
            continue;
        }
        if (item->checkState(0) != Qt::Checked) {
            answer.rejectedWrites.append(i);
            continue;
        }
        QList<int> hunks;
        for (int h = 0; h < item->childCount(); ++h) {
            if (item->child(h)->checkState(0) != Qt::Checked)
                hunks.append(h);
        }
        if (!hunks.isEmpty())
            answer.rejectedWriteHunks.insert(i, hunks);
    }
    return answer;
}

void ShellWritesReviewView::showChange(int change)
{
    if (change < 0 || change >= m_request.shellWrites.size())
        return;
    m_shown = change;
    const AgentCore::ShellWrite &write = m_request.shellWrites[change];
    const bool hasDiff = !write.diff.isEmpty();
    QString about = write.path + QStringLiteral(": ") + write.description();
    if (!hasDiff && write.newType == AgentCore::ShellWrite::Type::File && !write.newSource.isEmpty())
        about += QStringLiteral(" — ")
                 + tr("binary or large file (%1), accepted or rejected as a whole")
                       .arg(AgentCore::TextFile::sizeText(write.newSize));
    m_about->setText(about);
    if (hasDiff) {
        SyntaxColorizer colorizer(palette());
        colorizer.setLanguageForFileName(QFileInfo(write.path).fileName());
        m_diff->setPane(DiffLayout::unified(write.diff, colorizer));
    } else {
        m_diff->setPane({});
    }
    m_diff->setVisible(hasDiff);
    updateMarks();
}

void ShellWritesReviewView::updateMarks()
{
    const AgentCore::PermissionAnswer answer = currentAnswer();
    if (m_shown >= 0) {
        QSet<int> rejected;
        if (answer.rejectedWrites.contains(m_shown)) {
            for (int h = 0; h < m_request.shellWrites[m_shown].diff.hunks().size(); ++h)
                rejected.insert(h);
        } else {
            const QList<int> hunks = answer.rejectedWriteHunks.value(m_shown);
            rejected = QSet<int>(hunks.cbegin(), hunks.cend());
        }
        m_diff->setRejectedHunks(rejected);
    }
    const bool any = answer.rejectedWrites.size() < m_request.shellWrites.size();
    m_answers->setAllowEnabled(any, tr("Every change is unchecked: use Reject all."));
}

QString ShellWritesReviewView::shownText() const
{
    return m_diff->isHidden() ? m_about->text() : m_diff->toPlainText();
}

} // namespace Ui

#include "moc_shellwritesreviewview.cpp"
