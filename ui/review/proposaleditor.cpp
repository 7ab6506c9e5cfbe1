#include "proposaleditor.h"

#include "common/codehighlighter.h"
#include "common/themecolors.h"

#include <tools/unifieddiff.h>

#include <QEvent>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTextBlock>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace Ui {

ProposalEditor::ProposalEditor(QWidget *parent)
    : QWidget(parent)
    , m_note(new QLabel(this))
    , m_undo(new QToolButton(this))
    , m_redo(new QToolButton(this))
    , m_stats(new QLabel(this))
    , m_discard(new QPushButton(this))
    , m_apply(new QPushButton(this))
    , m_question(new QWidget(this))
    , m_edit(new QPlainTextEdit(this))
    , m_marksTimer(new QTimer(this))
{
    m_note->setObjectName(QStringLiteral("editNote"));
    m_note->setWordWrap(true);
    m_note->setTextFormat(Qt::PlainText);
    // Wraps to the width the review gives it instead of widening the review.
    m_note->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_note->setMinimumWidth(1);
    m_undo->setObjectName(QStringLiteral("undoEditButton"));
    m_undo->setText(tr("Undo"));
    m_undo->setToolTip(tr("Undo your last change (Ctrl+Z)"));
    m_undo->setAutoRaise(true);
    m_redo->setObjectName(QStringLiteral("redoEditButton"));
    m_redo->setText(tr("Redo"));
    m_redo->setToolTip(tr("Redo what you undid (Ctrl+Shift+Z)"));
    m_redo->setAutoRaise(true);
    m_stats->setObjectName(QStringLiteral("editStats"));
    m_stats->setForegroundRole(QPalette::PlaceholderText);
    m_discard->setObjectName(QStringLiteral("leaveEditButton"));
    m_discard->setText(tr("Back to the Review"));
    m_discard->setToolTip(tr("Leave the editor; your changes are dropped (Esc)"));
    m_apply->setObjectName(QStringLiteral("applyMyVersionButton"));
    m_apply->setText(tr("Apply My Version"));
    m_edit->setObjectName(QStringLiteral("proposalEditor"));
    m_edit->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_edit->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_edit->setTabStopDistance(4 * m_edit->fontMetrics().horizontalAdvance(QLatin1Char(' ')));
    //: Screen reader: the editor of the user's own version of a proposed change
    m_edit->setAccessibleName(tr("Your version"));
    m_edit->installEventFilter(this);
    m_marksTimer->setSingleShot(true);
    m_marksTimer->setInterval(150);

    // Asked in the view, where the user is looking: a dialog would take the keyboard away.
    m_question->setObjectName(QStringLiteral("discardQuestion"));
    auto question = new QLabel(tr("Discard your changes and go back to the review?"), m_question);
    auto discard = new QPushButton(tr("Discard My Changes"), m_question);
    discard->setObjectName(QStringLiteral("discardChangesButton"));
    auto keep = new QPushButton(tr("Keep Editing"), m_question);
    keep->setObjectName(QStringLiteral("keepEditingButton"));
    auto questionLayout = new QHBoxLayout(m_question);
    questionLayout->setContentsMargins(0, 0, 0, 0);
    questionLayout->addWidget(question, 1);
    questionLayout->addWidget(discard);
    questionLayout->addWidget(keep);
    m_question->hide();

    auto tools = new QHBoxLayout;
    tools->addWidget(m_undo);
    tools->addWidget(m_redo);
    tools->addSpacing(8);
    tools->addWidget(m_stats);
    tools->addStretch();
    tools->addWidget(m_discard);
    tools->addWidget(m_apply);

    auto layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_note);
    layout->addWidget(m_question);
    layout->addLayout(tools);
    layout->addWidget(m_edit, 1);

    connect(m_undo, &QToolButton::clicked, m_edit, &QPlainTextEdit::undo);
    connect(m_redo, &QToolButton::clicked, m_edit, &QPlainTextEdit::redo);
    connect(m_edit, &QPlainTextEdit::undoAvailable, m_undo, &QToolButton::setEnabled);
    connect(m_edit, &QPlainTextEdit::redoAvailable, m_redo, &QToolButton::setEnabled);
    connect(m_edit, &QPlainTextEdit::textChanged, this, [this] {
        m_marksTimer->start();
        updateButtons();
        emit textEdited();
    });
    connect(m_marksTimer, &QTimer::timeout, this, &ProposalEditor::updateMarks);
    connect(m_discard, &QPushButton::clicked, this, &ProposalEditor::requestLeave);
    connect(m_apply, &QPushButton::clicked, this, [this] {
        if (m_apply->isEnabled())
            emit applyRequested();
    });
    // Esc anywhere in the editor's page leaves it (or, on the question, keeps editing).
    for (QWidget *widget : {static_cast<QWidget *>(m_undo),
                            static_cast<QWidget *>(m_redo),
                            static_cast<QWidget *>(m_discard),
                            static_cast<QWidget *>(m_apply),
                            static_cast<QWidget *>(discard),
                            static_cast<QWidget *>(keep)})
        widget->installEventFilter(this);
    connect(discard, &QPushButton::clicked, this, [this] {
        askToDiscard(false);
        emit leaveRequested();
    });
    connect(keep, &QPushButton::clicked, this, [this] { askToDiscard(false); });
}

void ProposalEditor::start(const QString &fileName, const QString &text, const QString &note)
{
    m_start = text;
    if (!m_highlighter || fileName != m_fileName) {
        delete m_highlighter;
        m_highlighter = CodeHighlighter::forFileName(fileName, palette(), m_edit->document());
    }
    m_fileName = fileName;
    m_note->setText(note);
    askToDiscard(false);
    {
        const QSignalBlocker blocker(m_edit);
        m_edit->setPlainText(text); // clears the undo history: nothing to undo yet
    }
    m_undo->setEnabled(false);
    m_redo->setEnabled(false);
    updateMarks();
    updateButtons();
}

QString ProposalEditor::text() const
{
    return m_edit->toPlainText();
}

bool ProposalEditor::isModified() const
{
    return text() != m_start;
}

void ProposalEditor::setApplyEnabled(bool enabled, const QString &reason)
{
    m_applyAllowed = enabled;
    m_applyReason = reason;
    updateButtons();
}

void ProposalEditor::requestLeave()
{
    if (isModified())
        askToDiscard(true);
    else
        emit leaveRequested();
}

bool ProposalEditor::isAskingToDiscard() const
{
    return !m_question->isHidden();
}

void ProposalEditor::askToDiscard(bool ask)
{
    m_question->setVisible(ask);
    if (ask) {
        if (auto discard = m_question->findChild<QPushButton *>(
                QStringLiteral("discardChangesButton")))
            discard->setFocus(Qt::OtherFocusReason);
    } else if (isVisible()) {
        m_edit->setFocus(Qt::OtherFocusReason);
    }
}

// Esc belongs to the editor's page while the focus is in it: it leaves the editor, or keeps
// editing when asked, instead of reaching the review's or the window's shortcuts.
bool ProposalEditor::eventFilter(QObject *watched, QEvent *event)
{
    const bool ours = watched->isWidgetType() && isAncestorOf(static_cast<QWidget *>(watched));
    if (ours && (event->type() == QEvent::ShortcutOverride || event->type() == QEvent::KeyPress)) {
        const auto key = static_cast<QKeyEvent *>(event);
        if (key->key() == Qt::Key_Escape && key->modifiers() == Qt::NoModifier) {
            event->accept();
            if (event->type() == QEvent::KeyPress) {
                if (isAskingToDiscard())
                    askToDiscard(false);
                else
                    requestLeave();
            }
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void ProposalEditor::updateButtons()
{
    const bool modified = isModified();
    m_apply->setEnabled(modified && m_applyAllowed);
    m_apply->setToolTip(!modified ? tr("Change the text first; or allow the proposal as it is")
                        : !m_applyAllowed ? m_applyReason
                                          : tr("Write your version and tell the model what you "
                                               "changed (Ctrl+Enter)"));
    m_discard->setText(modified ? tr("Discard…") : tr("Back to the Review"));
}

// The lines the user wrote, marked like the added lines of a diff, and counted.
void ProposalEditor::updateMarks()
{
    const QString current = text();
    const AgentCore::UnifiedDiff diff = AgentCore::UnifiedDiff::compute(m_start, current, 0);
    m_stats->setText(diff.isEmpty()
                         ? tr("No changes yet")
                         : tr("Your changes: +%1 −%2").arg(diff.additions()).arg(diff.deletions()));
    QList<QTextEdit::ExtraSelection> marks;
    const QColor background = ThemeColors::of(palette()).addedBackground;
    for (const AgentCore::UnifiedDiff::Hunk &hunk : diff.hunks()) {
        int line = hunk.newStart;
        for (const QString &text : hunk.lines) {
            if (text.startsWith(QLatin1Char(' '))) {
                ++line;
            } else if (text.startsWith(QLatin1Char('+'))) {
                const QTextBlock block = m_edit->document()->findBlockByNumber(line - 1);
                if (block.isValid()) {
                    QTextEdit::ExtraSelection mark;
                    mark.cursor = QTextCursor(block);
                    mark.format.setBackground(background);
                    mark.format.setProperty(QTextFormat::FullWidthSelection, true);
                    marks.append(mark);
                }
                ++line;
            }
        }
    }
    m_edit->setExtraSelections(marks);
}

} // namespace Ui

#include "moc_proposaleditor.cpp"
