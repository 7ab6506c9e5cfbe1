#include "diffreviewview.h"

#include "common/elidedlabel.h"

#include "common/syntaxcolorizer.h"
#include "difflayout.h"
#include "difftextview.h"
#include "proposaleditor.h"
#include "proposalproblemsview.h"
#include "reviewanswerbar.h"

#include "common/shortcuts.h"
#include "common/themecolors.h"

#include <loop/toolkind.h>
#include <tools/unifieddiff.h>

#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QScrollBar>
#include <QShortcut>
#include <QSplitter>
#include <QStackedWidget>
#include <QToolButton>
#include <QVBoxLayout>

namespace Ui {

struct DiffReviewView::Private
{
    bool sideBySideBuilt = false;
    int pageBeforeEditing = 0; ///< the stack's page to go back to
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
    , m_problems(new ProposalProblemsView(this))
    , m_sideBySide(new QToolButton(this))
    , m_edit(new QToolButton(this))
    , m_hunks(new QListWidget(this))
    , m_stack(new QStackedWidget(this))
    , m_unified(new DiffTextView(this))
    , m_old(new DiffTextView(this))
    , m_new(new DiffTextView(this))
    , m_editor(new ProposalEditor(this))
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
    m_edit->setObjectName(QStringLiteral("editProposalButton"));
    m_edit->setText(tr("Edit"));
    m_edit->setToolTip(tr("Change the proposed text yourself before applying it (%1)")
                           .arg(Shortcuts::entry(Shortcut::EditProposal).keysText()));
    m_edit->setAutoRaise(true);
    m_hunks->setObjectName(QStringLiteral("hunkList"));
    m_hunks->setToolTip(tr("Uncheck a change to leave it out"));
    m_unified->setObjectName(QStringLiteral("unifiedView"));
    m_old->setObjectName(QStringLiteral("oldView"));
    m_new->setObjectName(QStringLiteral("newView"));

    auto header = new QHBoxLayout;
    header->addWidget(m_title);
    header->addWidget(m_stats);
    header->addStretch();
    header->addWidget(m_edit);
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
    m_stack->addWidget(m_editor);
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
    layout->addWidget(m_problems);
    layout->addWidget(splitter, 1);
    layout->addWidget(m_answers);

    m_answers->addShortcuts(this);
    for (const QKeySequence &keys : Shortcuts::keys(Shortcut::EditProposal)) {
        auto shortcut = new QShortcut(keys, this);
        shortcut->setContext(Qt::WidgetWithChildrenShortcut);
        connect(shortcut, &QShortcut::activated, this, &DiffReviewView::startEditing);
    }
    connect(m_edit, &QToolButton::clicked, this, &DiffReviewView::startEditing);
    connect(m_editor, &ProposalEditor::leaveRequested, this, &DiffReviewView::stopEditing);
    connect(m_editor, &ProposalEditor::textEdited, this, &DiffReviewView::updateAllowed);
    connect(m_editor, &ProposalEditor::applyRequested, this, [this] {
        m_answers->answer(AgentCore::PermissionAnswer::Choice::AllowOnce);
    });
    connect(m_sideBySide, &QToolButton::toggled, this, &DiffReviewView::setSideBySide);
    connect(m_problems,
            &ProposalProblemsView::problemsFound,
            this,
            [this](const QList<AgentCore::ProposalProblem> &problems) {
                m_unified->setProblems(problems);
                m_new->setProblems(problems);
            });
    connect(m_problems,
            &ProposalProblemsView::lineActivated,
            this,
            &DiffReviewView::scrollToNewLine);
    connect(m_hunks, &QListWidget::itemChanged, this, &DiffReviewView::updateRejected);
    connect(m_hunks, &QListWidget::currentRowChanged, this, &DiffReviewView::scrollToHunk);
    connect(m_answers, &ReviewAnswerBar::answered, this, [this](AgentCore::PermissionAnswer answer) {
        answer.rejectedHunks = rejectedHunks();
        // What the editor shows is what is written: the unchecked hunks are already out of it.
        if (isEditing() && m_editor->isModified()
            && answer.choice != AgentCore::PermissionAnswer::Choice::Deny)
            answer.userText = m_editor->text();
        emit answered(m_request.id, answer, answer.rejectedHunks);
    });
}

DiffReviewView::~DiffReviewView() = default;

void DiffReviewView::setRequest(const AgentCore::PermissionRequest &request)
{
    m_request = request; // its diff is the one the answer's hunk indexes refer to
    if (isEditing())
        stopEditing();
    d->sideBySideBuilt = false;
    SyntaxColorizer colorizer(palette());
    colorizer.setLanguageForFileName(
        QFileInfo(request.filePath.isEmpty() ? request.displayPath : request.filePath).fileName());
    m_unified->setPane(DiffLayout::unified(m_request.diff, colorizer));
    m_unified->setProblems({});
    m_new->setProblems({});
    m_problems->watch(request.proposalCheck);
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

bool DiffReviewView::isEditing() const
{
    return m_stack->currentWidget() == m_editor;
}

void DiffReviewView::startEditing()
{
    if (!isEditing()) {
        const QList<int> rejected = rejectedHunks();
        d->pageBeforeEditing = m_stack->currentIndex();
        m_editor->start(QFileInfo(m_request.filePath.isEmpty() ? m_request.displayPath
                                                               : m_request.filePath)
                            .fileName(),
                        m_request.diff.apply(m_request.oldText, m_request.newText, rejected),
                        editNote(rejected));
        m_stack->setCurrentWidget(m_editor);
        // The version starts from these choices, which the note above it names; changing them
        // now would not change it, so the list makes room for the editor.
        m_hunks->hide();
        m_sideBySide->setEnabled(false);
        m_edit->setEnabled(false);
        updateAllowed();
        emit editingChanged(true);
    }
    m_editor->textEdit()->setFocus(Qt::ShortcutFocusReason);
}

void DiffReviewView::stopEditing()
{
    if (!isEditing())
        return;
    m_stack->setCurrentIndex(d->pageBeforeEditing);
    m_hunks->setVisible(m_request.diff.hunks().size() > 1);
    m_sideBySide->setEnabled(true);
    m_edit->setEnabled(true);
    updateRejected();
    m_edit->setFocus(Qt::OtherFocusReason);
    emit editingChanged(false);
}

QString DiffReviewView::editNote(const QList<int> &rejected) const
{
    const QString path = m_request.displayPath.isEmpty() ? m_request.filePath
                                                         : m_request.displayPath;
    QString start;
    if (rejected.isEmpty()) {
        start = tr("Your version of %1, starting from the proposal.").arg(path);
    } else {
        QStringList where;
        for (const int hunk : rejected) {
            if (const QListWidgetItem *item = m_hunks->item(hunk))
                where.append(item->text().section(QStringLiteral("   "), 0, 0));
        }
        start = tr("Your version of %1, without the changes you unchecked (%2).")
                    .arg(path, where.join(QStringLiteral(", ")));
    }
    return start + QLatin1Char(' ')
           + tr("What you see is what will be written, and the model is told what you "
                "changed. Esc: back to the review.");
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
    updateAllowed();
}

void DiffReviewView::updateAllowed()
{
    if (isEditing() && m_editor->isModified()) {
        const bool changes = m_editor->text() != m_request.oldText;
        const QString why = tr("Your version is the file as it is: nothing would be applied.");
        m_answers->setAllowEnabled(changes, why);
        m_editor->setApplyEnabled(changes, why);
        return;
    }
    const QList<int> rejected = rejectedHunks();
    const bool any = rejected.size() < hunkCount() || hunkCount() == 0;
    m_answers->setAllowEnabled(any, tr("Every change is unchecked: nothing would be applied."));
    m_editor->setApplyEnabled(true);
}

void DiffReviewView::scrollToNewLine(int line)
{
    if (isEditing())
        return; // the editor's text is the user's own now
    (isSideBySide() ? m_new : m_unified)->scrollToNewLine(line); // the old side follows
}

void DiffReviewView::scrollToHunk(int hunk)
{
    m_unified->scrollToHunk(hunk);
    m_old->scrollToHunk(hunk);
}

} // namespace Ui

#include "moc_diffreviewview.cpp"
